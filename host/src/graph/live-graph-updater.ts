import { inject, injectable } from 'tsyringe';
import { Logger } from '../logging/logger.js';
import { deltaBetween, isEmptyDelta } from './graph-delta.js';
import { GraphSource } from './graph-source.js';
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
 * watcher may have missed changes, the graph is checked against a full build.
 *
 * Watching starts before the first graph is built, and changes seen until
 * that graph is in wait for it: an edit made while a large repository is
 * indexed is applied, not lost.
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
  /** Why the graph is to be checked against a full build once it is in; undefined when it is not. */
  private checkReason: string | undefined;

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
      mayHaveMissed: (reason) => this.checkAgainstFullBuild(reason),
    });
  }

  /** Applies the changes gathered so far, and each batch from now on. */
  applyChanges(): void {
    this.applying = true;
    if (this.pending.size > 0) this.flush();
    if (this.checkReason !== undefined) this.checkAgainstFullBuild(this.checkReason);
  }

  /** Stops watching and waits for a batch in progress. */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
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
  }

  private async apply(paths: string[]): Promise<void> {
    const started = performance.now();
    try {
      // Before the source walks new directories: what is made in them from then on is seen.
      await this.watcher.watchCreatedTrees();
      const refresh = await this.source.refresh(paths);
      if (refresh.kind === 'rebuilt') this.graph.replace(refresh.graph);
      else if (!isEmptyDelta(refresh.delta)) this.graph.apply(refresh.delta, refresh.build);
      else return;
      const update: GraphUpdate = { revision: this.graph.revision, changedPaths: paths.length, durationMs: Math.round(performance.now() - started), kind: refresh.kind };
      this.logger.info(update, 'graph updated');
      for (const listener of this.listeners) listener(update);
    } catch (error) {
      this.logger.error({ err: error, paths: paths.slice(0, 20) }, 'could not update the graph after a change; it will be checked against a full build');
      this.checkAgainstFullBuild(`an update failed (${(error as Error).message})`);
    }
  }

  /** Has the graph checked against a full build after the batches already waiting (once the first graph is in). */
  private checkAgainstFullBuild(reason: string): void {
    if (!this.applying) {
      this.checkReason = reason;
      return;
    }
    this.checkReason = undefined;
    this.running = this.running.then(() => this.rebuildAndCompare(reason));
  }

  /**
   * Builds the graph again from the files as they are now, and applies what
   * differs from the live graph (changes the watcher did not report).
   */
  private async rebuildAndCompare(reason: string): Promise<void> {
    const started = performance.now();
    try {
      const graph = await this.source.build();
      const delta = deltaBetween(this.graph.nodes(), this.graph.edges(), graph);
      const missed = { nodes: delta.removedNodes.length + delta.upsertedNodes.length, edges: delta.removedEdges.length + delta.upsertedEdges.length };
      if (isEmptyDelta(delta)) {
        this.logger.info({ reason, missed, durationMs: Math.round(performance.now() - started) }, 'graph checked against a full build: nothing missed');
        return;
      }
      this.graph.apply(delta, graph.build);
      const update: GraphUpdate = { revision: this.graph.revision, changedPaths: missed.nodes, durationMs: Math.round(performance.now() - started), kind: 'rebuilt' };
      this.logger.warn({ reason, missed, ...update }, 'graph checked against a full build: changes the watcher missed were applied');
      for (const listener of this.listeners) listener(update);
    } catch (error) {
      this.logger.error({ err: error, reason }, 'could not check the graph against a full build');
    }
  }
}
