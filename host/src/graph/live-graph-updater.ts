import { inject, injectable } from 'tsyringe';
import { Logger } from '../logging/logger.js';
import { isEmptyDelta } from './graph-delta.js';
import { type GraphRefresh, GraphSource } from './graph-source.js';
import { GraphStore } from './graph-store.js';
import { RepositoryWatcher } from './repository-watcher.js';

/**
 * Quiet time after the last file event before a batch is applied. The
 * watcher itself hands events over after 50 ms without any (at most 500 ms
 * apart), so this only joins batches that come close together.
 */
const SETTLE_MS = 10;
/** Longest a batch waits while events keep coming (a branch switch). */
const MAX_WAIT_MS = 300;
/**
 * Quiet time after a burst of batches before the directories it touched are
 * listed again. The watcher drops a file's events when, within one of its
 * batches, the file is made and then removed: a file renamed over another and
 * deleted right after vanished without a word, and stayed in the graph (3 of
 * 100 files in test/indexer/live-stress.test.ts, under CPU load).
 */
const BURST_CHECK_MS = 1000;

/** What one applied batch did, for logs and for listeners. */
export interface GraphUpdate {
  revision: number;
  changedPaths: number;
  durationMs: number;
  kind: 'delta' | 'rebuilt';
}

/**
 * Keeps the graph in step with the repository while the host runs: file
 * events are gathered into batches, the graph source re-reads only what they
 * touch, and the store applies the change as one new revision. When the
 * watcher may have missed changes, the graph is checked against the files.
 *
 * Watching starts while the first graph is built, and changes seen until
 * that graph is in wait for it: an edit made while a large repository is
 * indexed is applied, not lost (and one made before the watch held is found
 * by `checkAgainstFiles`).
 */
@injectable()
export class LiveGraphUpdater {
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private firstPendingAt = 0;
  private running: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(update: GraphUpdate) => void>();
  /** Batches are applied only once the first graph is in (`applyChanges`). */
  private applying = false;
  /** Why the graph is to be checked against the files once it is in; undefined when it is not. */
  private checkReason: string | undefined;
  /** The directories (below the root) of the files changed since the last burst check. */
  private burstDirectories = new Set<string>();
  private burstTimer: NodeJS.Timeout | undefined;

  constructor(
    @inject(RepositoryWatcher) private readonly watcher: RepositoryWatcher,
    @inject(GraphSource) private readonly source: GraphSource,
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  /** Calls `listener` after each applied batch; returns a function that stops it. */
  onDidUpdate(listener: (update: GraphUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Starts watching; resolves once every change from now on will be seen.
   * Changes are gathered until `applyChanges`. A repository that cannot be
   * watched (a watch limit reached, say) is logged, and served as it is.
   */
  async start(): Promise<void> {
    await this.watcher.start({
      changed: (relativePath) => this.enqueue(relativePath),
      mayHaveMissed: (reason) => this.checkAgainstFiles(reason),
    });
  }

  /** Applies the changes gathered so far, and each batch from now on. */
  applyChanges(): void {
    this.applying = true;
    if (this.pending.size > 0) this.flush();
    if (this.checkReason !== undefined) this.checkAgainstFiles(this.checkReason);
  }

  /** Stops watching and waits for a batch in progress. */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    clearTimeout(this.burstTimer);
    this.applying = false;
    this.checkReason = undefined;
    await this.watcher.stop();
    await this.running;
  }

  private enqueue(relativePath: string): void {
    if (this.pending.size === 0) this.firstPendingAt = Date.now();
    this.pending.add(relativePath);
    clearTimeout(this.timer);
    const waited = Date.now() - this.firstPendingAt;
    this.timer = setTimeout(() => this.flush(), waited >= MAX_WAIT_MS ? 0 : Math.min(SETTLE_MS, MAX_WAIT_MS - waited));
  }

  private flush(): void {
    if (!this.applying) return;
    const paths = [...this.pending];
    this.pending.clear();
    // Batches run one after another, in the order their events came.
    this.running = this.running.then(() => this.apply(paths));
    for (const p of paths) {
      const directory = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : undefined;
      // The root's own files are not listed again: that would walk the whole repository after every save there.
      if (directory !== undefined) this.burstDirectories.add(directory);
    }
    clearTimeout(this.burstTimer);
    this.burstTimer = setTimeout(() => this.checkBurst(), BURST_CHECK_MS);
  }

  /** Lists again the directories a burst of changes touched, and applies what the watcher did not report. */
  private checkBurst(): void {
    if (!this.applying || this.burstDirectories.size === 0) return;
    const touched = [...this.burstDirectories].sort();
    this.burstDirectories.clear();
    // A directory below another in the list is walked with it.
    const directories = touched.filter((directory, i) => !touched.slice(0, i).some((above) => directory.startsWith(`${above}/`)));
    this.running = this.running.then(async () => {
      try {
        await this.update(directories, 'graph checked after a burst of changes: changes the watcher did not report were applied', {
          directories: directories.length,
        });
      } catch (error) {
        this.logger.warn({ err: error }, 'could not check the directories a burst of changes touched');
      }
    });
  }

  private async apply(paths: string[]): Promise<void> {
    try {
      await this.update(paths, 'graph updated');
    } catch (error) {
      this.logger.error({ err: error, paths: paths.slice(0, 20) }, 'could not update the graph after a change; it will be checked against the files');
      this.checkAgainstFiles(`an update failed (${(error as Error).message})`);
    }
  }

  /**
   * Refreshes the graph for `paths` and applies the result as one revision
   * (logged with `message`); false when nothing changed. Throws what the source throws.
   */
  private async update(paths: string[], message: string, logged: Record<string, unknown> = {}): Promise<boolean> {
    const started = performance.now();
    const refresh = await this.source.refresh(paths);
    const newDirectories = this.store(refresh);
    if (newDirectories === undefined) return false;
    // Told at once, in the same turn as the store took the revision: a listener (the live placement) completes the
    // revision (the new nodes' positions) before any request can read it.
    this.announce(refresh, paths.length, started, message, logged);
    const below = await this.watchNewTrees(newDirectories);
    if (below) this.announce(below.refresh, below.paths, started, 'graph updated: files made in new directories before they were watched');
    return true;
  }

  /** Logs a revision the store took and tells the listeners, before anything else runs. */
  private announce(refresh: GraphRefresh, changedPaths: number, started: number, message: string, logged: Record<string, unknown> = {}): void {
    const update: GraphUpdate = {
      revision: this.graph.revision,
      changedPaths,
      durationMs: Math.round(performance.now() - started),
      kind: refresh.kind,
    };
    const changedNodes = refresh.kind === 'delta' ? refresh.delta.upsertedNodes.length + refresh.delta.removedNodes.length : undefined;
    this.logger.info({ ...logged, ...update, changedNodes }, message);
    for (const listener of this.listeners) listener(update);
  }

  /**
   * New directory trees the watcher may not watch below their top (made
   * before it looked) get a watch of their own; they are then listed again,
   * for what was made in them between the walk that found them and the watch.
   * What that listing stored, if it changed the graph.
   */
  private async watchNewTrees(newDirectories: readonly string[]): Promise<{ refresh: GraphRefresh; paths: number } | undefined> {
    const added = new Set(newDirectories);
    const tops = newDirectories.filter((directory) => !added.has(directory.slice(0, Math.max(0, directory.lastIndexOf('/')))));
    const watched = await this.watcher.watchTrees(tops);
    if (watched.length === 0) return undefined;
    const refresh = await this.source.refresh(watched);
    return this.store(refresh) === undefined ? undefined : { refresh, paths: watched.length };
  }

  /** Puts a refresh into the store; answers the directories it added (none for a rebuild), or undefined when it changed nothing. */
  private store(refresh: GraphRefresh): string[] | undefined {
    if (refresh.kind === 'rebuilt') {
      // A rebuild that changed nothing is no new revision: clients following the graph need not fetch it again.
      if (this.graph.holds(refresh.graph)) {
        this.logger.info('graph rebuilt after its listing rules changed: nothing changed');
        return undefined;
      }
      this.graph.replace(refresh.graph);
      return [];
    }
    if (isEmptyDelta(refresh.delta)) return undefined;
    const newDirectories = refresh.delta.upsertedNodes.filter((node) => node.kind === 'directory' && !this.graph.has(node.id)).map((node) => node.path);
    // A directory listed again as it was (the check after a burst) changes nothing: no new revision, nothing to tell.
    if (!this.graph.apply(refresh.delta, refresh.build)) return undefined;
    return newDirectories;
  }

  /** Has the graph checked against the files after the batches already waiting (once the first graph is in). */
  checkAgainstFiles(reason: string): void {
    if (!this.applying) {
      this.checkReason = reason;
      return;
    }
    this.checkReason = undefined;
    this.running = this.running.then(() => this.check(reason));
  }

  /**
   * Lists the repository again and compares every file's size and times with
   * what was read; applies what differs (changes the watcher did not report).
   */
  private async check(reason: string): Promise<void> {
    const started = performance.now();
    try {
      const stale = await this.source.stalePaths();
      if (stale === undefined) return;
      // Paths of files changed just before the check are among them, read again whatever their signature says.
      const checkMs = Math.round(performance.now() - started);
      const applied =
        stale.length > 0 &&
        (await this.update(stale, 'graph checked against the files: changes the watcher missed were applied', { reason, stalePaths: stale.length, checkMs }));
      if (!applied)
        this.logger.info(
          { reason, stalePaths: stale.length, checkMs, durationMs: Math.round(performance.now() - started) },
          'graph checked against the files: nothing missed',
        );
    } catch (error) {
      // Not checked again: a check that fails would fail again.
      this.logger.error({ err: error, reason }, 'could not check the graph against the files');
    }
  }
}
