import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { inject, injectable } from 'tsyringe';
import { StrataConfig } from '../config/strata-config.js';
import { Logger } from '../logging/logger.js';
import { isEmptyDelta } from './graph-delta.js';
import { GraphSource } from './graph-source.js';
import { GraphStore } from './graph-store.js';

/** Quiet time after the last file event before a batch is applied. */
const SETTLE_MS = 40;
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
 * touch, and the store applies the change as one new revision.
 */
@injectable()
export class LiveGraphUpdater {
  private watcher: FSWatcher | undefined;
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private firstPendingAt = 0;
  private running: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(update: GraphUpdate) => void>();

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

  /** Starts watching; resolves once the watcher is ready to report changes. */
  async start(): Promise<void> {
    const root = this.config.repositoryRoot;
    const dataDir = this.config.dataDir;
    const watcher = watch(root, {
      ignoreInitial: true,
      atomic: true,
      followSymlinks: false,
      ignored: (file) => {
        const relative = path.relative(root, file);
        if (file === dataDir || file.startsWith(dataDir + path.sep)) return true;
        return relative.split(path.sep).some((segment) => segment === 'node_modules' || segment === '.git');
      },
    });
    this.watcher = watcher;
    watcher.on('all', (_event, file) => this.enqueue(path.relative(root, file)));
    watcher.on('error', (error) => this.logger.warn({ err: error }, 'file watching failed; the graph may miss changes until restart'));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  /** Stops watching and waits for a batch in progress. */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    await this.watcher?.close();
    this.watcher = undefined;
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
