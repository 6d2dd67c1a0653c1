/**
 * The layout worker thread: loads the layout engine (the built-in one is
 * TensorFlow.js; the host itself never imports it) and runs one computation,
 * reporting each iteration. A cancel is a flag in shared memory, read
 * between iterations, so it takes effect within one iteration.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { LayoutEngine, LayoutInput } from '@strata/extension-gpu-layout';

interface WorkerData {
  enginePackage: string;
  backend: string;
  cancel: SharedArrayBuffer;
}

export type FromLayoutWorker =
  | { type: 'info'; backend: string; gpu: boolean; device: string }
  | { type: 'progress'; iteration: number }
  | { type: 'done'; positions: Float32Array; iterations: number; cancelled: boolean }
  | { type: 'failed'; message: string };

export type ToLayoutWorker = { type: 'describe' } | { type: 'run'; input: LayoutInput };

const { enginePackage, backend, cancel } = workerData as WorkerData;
const cancelled = new Int32Array(cancel);
const port = parentPort!;

let engine: Promise<{ engine: LayoutEngine; info: { backend: string; gpu: boolean; device: string } }> | undefined;
function loadEngine() {
  engine ??= (async () => {
    const module = (await import(enginePackage)) as { createLayoutEngine(): LayoutEngine };
    const created = module.createLayoutEngine();
    return { engine: created, info: await created.init(backend) };
  })();
  return engine;
}

port.on('message', (message: ToLayoutWorker) => {
  void (async () => {
    try {
      const { engine: loaded, info } = await loadEngine();
      if (message.type === 'describe') {
        port.postMessage({ type: 'info', ...info } satisfies FromLayoutWorker);
        return;
      }
      port.postMessage({ type: 'info', ...info } satisfies FromLayoutWorker);
      let reached = 0;
      const positions = await loaded.run(message.input, (iteration) => {
        reached = iteration;
        port.postMessage({ type: 'progress', iteration } satisfies FromLayoutWorker);
        return Atomics.load(cancelled, 0) === 0;
      });
      port.postMessage({ type: 'done', positions, iterations: reached, cancelled: Atomics.load(cancelled, 0) !== 0 } satisfies FromLayoutWorker, [
        positions.buffer as ArrayBuffer,
      ]);
    } catch (error) {
      port.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies FromLayoutWorker);
    }
  })();
});
