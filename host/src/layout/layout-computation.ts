import type { Worker } from 'node:worker_threads';
import type { LayoutSettings } from '@strata/extension-gpu-layout';
import { placeNearParents, seededRandom } from '@strata/extension-gpu-layout/placement';
import type { Position } from '@strata/sdk';
import { inject, injectable } from 'tsyringe';
import { startThread } from '../concurrency/start-thread.js';
import { StrataConfig } from '../config/strata-config.js';
import { StrataError } from '../errors/strata-error.js';
import { EventBus } from '../events/event-bus.js';
import { GraphColumnsCache } from '../graph/graph-columns.js';
import { GraphStore } from '../graph/graph-store.js';
import { Logger } from '../logging/logger.js';
import { LayoutPositionStore } from './layout-position-store.js';
import type { FromLayoutWorker, ToLayoutWorker } from './layout-worker.js';

/** The package of the built-in layout engine, loaded in the worker only. */
const ENGINE_PACKAGE = '@strata/extension-gpu-layout';
/** How long a cancelled worker has to stop on its own before it is terminated. */
const CANCEL_GRACE_MS = 100;
/** How strongly each kind of edge pulls. Containment draws directories as regions. (live-placement.ts places with them too.) */
export const EDGE_WEIGHTS: Record<string, number> = { contains: 1, imports: 0.25 };

export type LayoutState = 'idle' | 'running' | 'completed' | 'cancelled' | 'failed';

/** The status record of `GET /api/graph/layout/compute/status`. */
export interface LayoutStatus {
  state: LayoutState;
  iteration: number;
  iterations: number;
  /** From 0 to 1. */
  progress: number;
  backend: string | null;
  seed: number | null;
  nodes: number;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
}

/** What a backend knows of itself, for `GET /api/graph/layout/compute/available`. */
export interface LayoutAvailability {
  /** True only when a GPU backend is loaded and sees a device. */
  available: boolean;
  backend: string | null;
  gpu: boolean;
  device: string;
  error?: string;
}

/** A request to compute a layout. */
export interface LayoutRequest {
  iterations: number;
  seed?: number;
  settings?: LayoutSettings;
}

/**
 * Computes layouts off the HTTP thread: one job at a time, in a worker
 * thread that runs the layout engine; progress is reported per iteration,
 * a cancel stops it within an iteration, and on completion the positions
 * are saved as the graph's layout.
 */
@injectable()
export class LayoutComputation {
  private status: LayoutStatus = {
    state: 'idle',
    iteration: 0,
    iterations: 0,
    progress: 0,
    backend: null,
    seed: null,
    nodes: 0,
    startedAt: null,
    finishedAt: null,
    error: null,
  };
  /** The job under way; `saving` once its positions are being written (a cancel then waits for the write). */
  private running: { worker: Worker; cancel: Int32Array; done: Promise<void>; stop: () => void; saving: boolean } | undefined;
  private availability: Promise<LayoutAvailability> | undefined;

  constructor(
    @inject(StrataConfig) private readonly config: StrataConfig,
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(GraphColumnsCache) private readonly columns: GraphColumnsCache,
    @inject(LayoutPositionStore) private readonly positions: LayoutPositionStore,
    @inject(EventBus) private readonly events: EventBus,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  current(): LayoutStatus {
    return { ...this.status };
  }

  /** Which backend loads here, asked of a worker once. */
  available(): Promise<LayoutAvailability> {
    this.availability ??= new Promise<LayoutAvailability>((resolve) => {
      const { worker } = this.spawn();
      const finish = (result: LayoutAvailability): void => {
        resolve(result);
        void worker.terminate();
      };
      worker.once('message', (message: FromLayoutWorker) => {
        if (message.type === 'info') finish({ available: message.gpu, backend: message.backend, gpu: message.gpu, device: message.device });
        else finish({ available: false, backend: null, gpu: false, device: 'none', error: message.type === 'failed' ? message.message : 'unexpected answer' });
      });
      worker.once('error', (error) => finish({ available: false, backend: null, gpu: false, device: 'none', error: error.message }));
      worker.postMessage({ type: 'describe' } satisfies ToLayoutWorker);
    });
    return this.availability;
  }

  /** Starts a computation; `LAYOUT_RUNNING` while one runs. */
  start(request: LayoutRequest): LayoutStatus {
    if (this.running)
      throw new StrataError(
        'LAYOUT_RUNNING',
        `a layout computation is running (iteration ${this.status.iteration} of ${this.status.iterations}); cancel it or wait`,
      );
    const seed = request.seed ?? 1;
    const snapshot = this.columns.current();
    const n = snapshot.nodes.id.length;
    const { initial, placed } = this.initialPositions(snapshot.nodes.id, snapshot.nodes.parent, seed);
    const input = {
      nodeCount: n,
      ...this.edgesOf(snapshot),
      initial,
      placed,
      parent: snapshot.nodes.parent.slice(),
      iterations: request.iterations,
      seed,
      settings: request.settings ?? {},
    };
    const { worker, cancel } = this.spawn();
    this.status = {
      state: 'running',
      iteration: 0,
      iterations: request.iterations,
      progress: 0,
      backend: null,
      seed,
      nodes: n,
      startedAt: new Date().toISOString(),
      finishedAt: null,
      error: null,
    };
    let stop = (): void => {};
    const done = new Promise<void>((resolve) => {
      const finish = (patch: Partial<LayoutStatus>): void => {
        if (this.running?.worker !== worker) return;
        this.running = undefined;
        this.status = { ...this.status, ...patch, finishedAt: new Date().toISOString() };
        this.events.publish('layout.finished', { state: this.status.state, iteration: this.status.iteration });
        void worker.terminate();
        resolve();
      };
      worker.on('message', (message: FromLayoutWorker) => {
        // A terminated worker's last messages must not touch the status of what came after it.
        if (this.running?.worker !== worker) return;
        switch (message.type) {
          case 'info':
            this.status.backend = message.backend;
            break;
          case 'progress':
            this.status.iteration = message.iteration;
            this.status.progress = message.iteration / request.iterations;
            break;
          case 'failed':
            this.logger.error({ error: message.message }, 'layout computation failed');
            finish({ state: 'failed', error: message.message });
            break;
          case 'done':
            if (message.cancelled) {
              finish({ state: 'cancelled' });
              break;
            }
            this.running.saving = true;
            this.save(snapshot.nodes.id, message.positions).then(
              () => finish({ state: 'completed', iteration: message.iterations, progress: 1 }),
              (error: Error) => finish({ state: 'failed', error: `the positions could not be saved: ${error.message}` }),
            );
            break;
        }
      });
      worker.once('error', (error) => finish({ state: 'failed', error: error.message }));
      worker.once('exit', (code) => finish({ state: 'failed', error: `the layout worker exited (code ${code})` }));
      stop = () => finish({ state: 'cancelled' });
    });
    this.running = { worker, cancel, done, stop, saving: false };
    worker.postMessage({ type: 'run', input } satisfies ToLayoutWorker, [
      input.edgeSource.buffer,
      input.edgeTarget.buffer,
      input.edgeWeight.buffer,
      input.initial.buffer,
      input.placed.buffer,
      input.parent.buffer,
    ] as ArrayBuffer[]);
    this.events.publish('layout.started', { iterations: request.iterations, nodes: n });
    return this.current();
  }

  /**
   * Stops the computation under way (its positions are not saved) and
   * answers once it has stopped. Harmless when none runs. The worker reads
   * the flag after each iteration; one that has not stopped within
   * `CANCEL_GRACE_MS` (still loading its backend, or in a long iteration) is
   * terminated. A job already writing its positions is let finish: it ends
   * `completed`, and the answer says so.
   */
  async cancel(): Promise<LayoutStatus> {
    const running = this.running;
    if (!running) return this.current();
    if (running.saving) {
      await running.done;
      return this.current();
    }
    Atomics.store(running.cancel, 0, 1);
    let timer: NodeJS.Timeout | undefined;
    const stopped = await Promise.race([running.done.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(resolve, CANCEL_GRACE_MS, false)))]);
    clearTimeout(timer);
    if (!stopped) {
      if (running.saving) await running.done;
      else {
        running.stop();
        await running.worker.terminate();
      }
    }
    return this.current();
  }

  async close(): Promise<void> {
    const running = this.running;
    if (running) {
      Atomics.store(running.cancel, 0, 1);
      await Promise.race([running.done, new Promise((resolve) => setTimeout(resolve, 2000))]);
      await running.worker.terminate();
    }
  }

  private spawn(): { worker: Worker; cancel: Int32Array } {
    const shared = new SharedArrayBuffer(4);
    const worker = startThread(new URL('./layout-worker.js', import.meta.url), {
      workerData: { enginePackage: ENGINE_PACKAGE, backend: this.config.layout.backend, cancel: shared },
    });
    return { worker, cancel: new Int32Array(shared) };
  }

  private edgesOf(snapshot: ReturnType<GraphColumnsCache['current']>): { edgeSource: Int32Array; edgeTarget: Int32Array; edgeWeight: Float32Array } {
    const { source, target, kind, kindNames } = snapshot.edges;
    const keep: number[] = [];
    for (let i = 0; i < source.length; i++) if (source[i]! >= 0 && target[i]! >= 0 && source[i] !== target[i]) keep.push(i);
    const edgeSource = new Int32Array(keep.length);
    const edgeTarget = new Int32Array(keep.length);
    const edgeWeight = new Float32Array(keep.length);
    keep.forEach((edge, k) => {
      edgeSource[k] = source[edge]!;
      edgeTarget[k] = target[edge]!;
      edgeWeight[k] = EDGE_WEIGHTS[kindNames[kind[edge]!]!] ?? 0.25;
    });
    return { edgeSource, edgeTarget, edgeWeight };
  }

  /**
   * Saved positions where there are some, so that a small change to the graph
   * moves the picture only a little; other nodes start near their parent (or
   * at a seeded random place), deterministically.
   */
  private initialPositions(ids: readonly string[], parent: Int32Array, seed: number): { initial: Float32Array; placed: Uint8Array } {
    const n = ids.length;
    const initial = new Float32Array(2 * n);
    const placed = new Uint8Array(n);
    /** Nodes whose start is a saved position (the engine refines rather than starts over when most are). */
    const fromSaved = new Uint8Array(n);
    const random = seededRandom(seed);
    const spread = Math.sqrt(n);
    for (let i = 0; i < n; i++) {
      const saved = this.positions.position(ids[i]!);
      if (saved) {
        initial[2 * i] = saved.x;
        initial[2 * i + 1] = saved.y;
        placed[i] = 1;
        fromSaved[i] = 1;
      }
    }
    placeNearParents(initial, placed, parent, random, () => [random() * spread, random() * spread]);
    return { initial, placed: fromSaved };
  }

  /**
   * Saves the computed positions as the graph's layout, fitted to the graph
   * of now: nodes removed while the job ran are left out, and nodes added
   * meanwhile keep a position saved earlier (a node that came back) or get a
   * place next to their parent (itself placed first when it is new too).
   */
  private async save(ids: readonly string[], computed: Float32Array): Promise<void> {
    const computedById = new Map<string, Position>();
    for (let i = 0; i < ids.length; i++) {
      const x = computed[2 * i]!;
      const y = computed[2 * i + 1]!;
      if (Number.isFinite(x) && Number.isFinite(y)) computedById.set(ids[i]!, { x, y });
    }
    const current = new Map(Array.from(this.graph.nodes(), (node) => [node.id, node]));
    const saved = new Map<string, Position>();
    let offset = 0;
    const place = (id: string, depth = 0): Position | undefined => {
      const known = saved.get(id) ?? computedById.get(id) ?? this.positions.position(id);
      if (known) {
        saved.set(id, known);
        return known;
      }
      const node = current.get(id);
      const parent = node?.parent && depth < 256 ? place(node.parent, depth + 1) : undefined;
      if (!parent) return undefined;
      offset += 1;
      const position = { x: parent.x + 0.5 * Math.cos(offset), y: parent.y + 0.5 * Math.sin(offset) };
      saved.set(id, position);
      return position;
    };
    for (const id of current.keys()) place(id);
    await this.positions.replaceAll(saved);
  }
}
