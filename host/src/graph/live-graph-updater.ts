import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import watcher from '@parcel/watcher';
import { inject, injectable } from 'tsyringe';
import { StrataConfig } from '../config/strata-config.js';
import { Logger } from '../logging/logger.js';
import { isEmptyDelta } from './graph-delta.js';
import { GraphSource } from './graph-source.js';
import { GraphStore } from './graph-store.js';

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

/** Paths never watched: dependencies and git's own files, at any depth. */
const NEVER_WATCHED = /(^|[\\/])(node_modules|\.git)([\\/]|$)/;

/**
 * Keeps the graph in step with the repository while the host runs: file
 * events are gathered into batches, the graph source re-reads only what they
 * touch, and the store applies the change as one new revision.
 *
 * Watching is @parcel/watcher's (inotify, FSEvents, ReadDirectoryChangesW
 * behind one interface; its first scan runs natively, off this thread).
 * It starts before the first graph is built, and changes seen until that
 * graph is in wait for it: an edit made while a large repository is indexed
 * is applied, not lost.
 */
@injectable()
export class LiveGraphUpdater {
  private subscription: watcher.AsyncSubscription | undefined;
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private firstPendingAt = 0;
  private running: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(update: GraphUpdate) => void>();
  /** Batches are applied only once the first graph is in (`applyChanges`). */
  private applying = false;

  constructor(
    @inject(StrataConfig) private readonly config: StrataConfig,
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
    try {
      // Events name real paths (macOS's /tmp is /private/tmp): paths are made relative to the real root.
      const root = realpathSync(this.config.repositoryRoot);
      const dataDir = realPath(this.config.dataDir);
      this.subscription = await watcher.subscribe(
        root,
        (error, events) => {
          if (error) {
            this.logger.warn({ err: error }, 'file watching failed; the graph may miss changes until restart');
            return;
          }
          for (const event of events) {
            const relative = path.relative(root, event.path);
            if (!NEVER_WATCHED.test(relative)) this.enqueue(relative);
          }
        },
        { ignore: [NEVER_WATCHED, dataDir] },
      );
    } catch (error) {
      this.logger.warn({ err: error }, 'cannot watch the repository; the graph will not follow its changes');
    }
  }

  /** Applies the changes gathered so far, and each batch from now on. */
  applyChanges(): void {
    this.applying = true;
    if (this.pending.size > 0) this.flush();
  }

  /** Stops watching and waits for a batch in progress. */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    const subscription = this.subscription;
    this.subscription = undefined;
    this.applying = false;
    await subscription?.unsubscribe();
    await this.running;
  }

  private enqueue(relativePath: string): void {
    if (this.pending.size === 0) this.firstPendingAt = Date.now();
    this.pending.add(relativePath.split(path.sep).join('/'));
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
      const refresh = await this.source.refresh(paths);
      if (refresh.kind === 'rebuilt') this.graph.replace(refresh.graph);
      else if (!isEmptyDelta(refresh.delta)) this.graph.apply(refresh.delta, refresh.build);
      else return;
      const update: GraphUpdate = { revision: this.graph.revision, changedPaths: paths.length, durationMs: Math.round(performance.now() - started), kind: refresh.kind };
      this.logger.info(update, 'graph updated');
      for (const listener of this.listeners) listener(update);
    } catch (error) {
      this.logger.error({ err: error, paths: paths.slice(0, 20) }, 'could not update the graph after a change');
    }
  }
}

/** A path with its symbolic links resolved, or as it is when it does not exist yet. */
function realPath(file: string): string {
  return existsSync(file) ? realpathSync(file) : path.resolve(file);
}
