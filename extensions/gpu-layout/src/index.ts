/**
 * The built-in layout engine: a force layout written as TensorFlow.js
 * tensor operations, so the same code runs on a GPU (tfjs-node-gpu, or
 * WebGPU through Dawn), native TensorFlow (tfjs-node), WebAssembly or plain
 * JavaScript.
 *
 * Each iteration is linear in nodes plus edges:
 * - attraction along edges: gather both ends, scale by the edge weight,
 *   scatter the forces back (scatterND; the wasm backend has no
 *   unsortedSegmentSum);
 * - repulsion by negative sampling (as LargeVis and UMAP do): each node is
 *   pushed away from a few nodes drawn at random, with a force that falls
 *   with distance, instead of from all n - 1 others;
 * - a weak gravity toward the center; steps clipped and cooled.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import type { LayoutBackendInfo, LayoutEngine, LayoutInput } from './layout-engine.js';
import { nestRegions } from './nesting.js';
import { removeOverlaps } from './overlap.js';
import { normalizedStart } from './start.js';
import { openWebGpu } from './webgpu-device.js';
import '@tensorflow/tfjs-backend-cpu';

const require = createRequire(import.meta.url);

/** Backends in the order they are tried. */
const BACKENDS = ['tensorflow-gpu', 'tensorflow', 'webgpu', 'wasm', 'cpu'] as const;

/**
 * Loads one backend; undefined when it cannot load here. `named`: the user
 * asked for this one, so WebGPU takes a software adapter too (tests run it on
 * SwiftShader); tried in turn, it takes only a GPU.
 */
async function tryBackend(name: (typeof BACKENDS)[number], named: boolean): Promise<LayoutBackendInfo | undefined> {
  try {
    if (name === 'webgpu') {
      const adapter = await openWebGpu();
      if (!adapter || (!adapter.hardware && !named)) return undefined;
      await import('@tensorflow/tfjs-backend-webgpu');
      if (!(await tf.setBackend('webgpu'))) return undefined;
      await tf.ready();
      const device = adapter.hardware ? `${adapter.description} (WebGPU)` : `${adapter.description} (WebGPU on a software adapter: the CPU, not a GPU)`;
      return { backend: 'webgpu', gpu: adapter.hardware, device };
    }
    if (name === 'tensorflow-gpu' || name === 'tensorflow') {
      // Optional dependencies: present only where their native library could be downloaded.
      await import(name === 'tensorflow-gpu' ? '@tensorflow/tfjs-node-gpu' : '@tensorflow/tfjs-node');
      if (!(await tf.setBackend('tensorflow'))) return undefined;
      await tf.ready();
      const gpu = name === 'tensorflow-gpu';
      return { backend: name, gpu, device: gpu ? 'CUDA device seen by TensorFlow' : 'CPU (native TensorFlow)' };
    }
    if (name === 'wasm') {
      const wasm = await import('@tensorflow/tfjs-backend-wasm');
      wasm.setWasmPaths(path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + path.sep);
      if (!(await tf.setBackend('wasm'))) return undefined;
      await tf.ready();
      return { backend: 'wasm', gpu: false, device: 'CPU (WebAssembly, SIMD where available)' };
    }
    if (!(await tf.setBackend('cpu'))) return undefined;
    await tf.ready();
    return { backend: 'cpu', gpu: false, device: 'CPU (JavaScript)' };
  } catch {
    return undefined;
  }
}

export function createLayoutEngine(): LayoutEngine {
  return {
    async init(preferred?: string): Promise<LayoutBackendInfo> {
      const named = Boolean(preferred && preferred !== 'auto');
      const order = named ? [preferred as (typeof BACKENDS)[number]] : BACKENDS;
      for (const name of order) {
        const info = await tryBackend(name, named);
        if (info) return info;
      }
      throw new Error(`no TensorFlow.js backend could be loaded (tried ${order.join(', ')})`);
    },

    async run(given: LayoutInput, progress: (iteration: number) => boolean): Promise<Float32Array> {
      // Any start: a saved layout in a client's units, with nodes thrown far out, or all at one point (start.ts);
      // the result goes back to the start's units.
      const start = normalizedStart(given);
      const input: LayoutInput = { ...given, initial: start.initial, placed: start.placed };
      let positions: Float32Array;
      if (refinesSavedLayout(input)) {
        // Most nodes are where the user saw them: refine with short steps, in one level, instead of starting over.
        const rate = input.settings.learningRate ?? defaultLearningRate(input.nodeCount) / 20;
        positions = await forceLayout({ ...input, settings: { ...input.settings, learningRate: rate } }, progress, 0);
      } else {
        positions = await (input.parent ? multilevel(input, progress) : forceLayout(input, progress, 0));
      }
      const tree = input.parent && input.parent.length === input.nodeCount ? input.parent : undefined;
      // Every directory a disc of its own holding its files and its subdirectories' discs (nesting.ts); without a
      // tree, nodes whose drawn discs would overlap are parted (overlap.ts).
      if (tree) nestRegions(positions, tree, NEST_UNIT);
      else removeOverlaps(positions);
      return start.restore(positions);
    },
  };
}

/** Whether at least 80 % of the nodes start from a saved position: a small change to a layout the user has seen. */
function refinesSavedLayout(input: LayoutInput): boolean {
  const placed = input.placed;
  if (!placed || placed.length !== input.nodeCount || input.nodeCount === 0) return false;
  let count = 0;
  for (let i = 0; i < placed.length; i++) count += placed[i]! ? 1 : 0;
  return count >= 0.8 * input.nodeCount;
}

/**
 * The radius of a file's disc in the nested picture, in the engine's units (neighbours a unit apart in the force
 * layout): the same for every run, so that a refinement of a saved picture keeps its scale.
 */
const NEST_UNIT = 0.25;

/** The longest last step of a run (see `forceLayout`). */
const FINAL_STEP = 0.1;

/** The first step size of a fresh layout: a bigger picture needs longer steps. */
function defaultLearningRate(n: number): number {
  return Math.max(1, Math.sqrt(n) / 33);
}

/**
 * Two levels: the nodes that contain others (directories, files with
 * symbols) are laid out first, on their own graph, for a third of the
 * iterations; every other node then starts next to its parent, and the
 * whole graph is refined. Directories so form their regions before the
 * files crowd them.
 */
async function multilevel(input: LayoutInput, progress: (iteration: number) => boolean): Promise<Float32Array> {
  const n = input.nodeCount;
  const parent = input.parent!;
  const isCoarse = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) isCoarse[parent[i]!] = 1;
  const coarse: number[] = [];
  const coarseIndex = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) if (isCoarse[i]) coarseIndex[i] = coarse.push(i) - 1;
  const coarseIterations = Math.floor(input.iterations / 3);
  if (coarse.length < 2 || coarse.length > n / 2 || coarseIterations < 10) return forceLayout(input, progress, 0);
  // Edges between coarse nodes; an edge from a leaf counts for its parent.
  const lift = (node: number): number => (isCoarse[node] ? node : parent[node]!);
  const pairs = new Map<number, number>();
  for (let e = 0; e < input.edgeSource.length; e++) {
    const a = lift(input.edgeSource[e]!);
    const b = lift(input.edgeTarget[e]!);
    if (a < 0 || b < 0 || a === b) continue;
    const key = Math.min(a, b) * n + Math.max(a, b);
    pairs.set(key, Math.min(1, (pairs.get(key) ?? 0) + input.edgeWeight[e]!));
  }
  const edgeSource = new Int32Array(pairs.size);
  const edgeTarget = new Int32Array(pairs.size);
  const edgeWeight = new Float32Array(pairs.size);
  let k = 0;
  for (const [key, weight] of pairs) {
    edgeSource[k] = coarseIndex[Math.floor(key / n)]!;
    edgeTarget[k] = coarseIndex[key % n]!;
    edgeWeight[k++] = weight;
  }
  const initial = new Float32Array(2 * coarse.length);
  coarse.forEach((node, c) => {
    initial[2 * c] = input.initial[2 * node]!;
    initial[2 * c + 1] = input.initial[2 * node + 1]!;
  });
  let stopped = false;
  const coarsePositions = await forceLayout(
    {
      nodeCount: coarse.length,
      edgeSource,
      edgeTarget,
      edgeWeight,
      initial,
      iterations: coarseIterations,
      seed: input.seed,
      settings: { ...input.settings, repulsion: input.settings.repulsion ?? Math.max(1, n / 100) },
    },
    (iteration) => (stopped = !progress(iteration)) === false,
    0,
  );
  // Leaves start around their parent, on a circle whose size grows with the picture.
  const spread = Math.sqrt(n) / Math.sqrt(coarse.length);
  const start = new Float32Array(2 * n);
  let state = (input.seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    const c = coarseIndex[i]!;
    const anchor = c >= 0 ? c : (coarseIndex[parent[i]!] ?? -1);
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const angle = ((state >>> 0) / 4294967296) * 2 * Math.PI;
    const radius = c >= 0 ? 0 : spread;
    start[2 * i] = (anchor >= 0 ? coarsePositions[2 * anchor]! : input.initial[2 * i]!) + radius * Math.cos(angle);
    start[2 * i + 1] = (anchor >= 0 ? coarsePositions[2 * anchor + 1]! : input.initial[2 * i + 1]!) + radius * Math.sin(angle);
  }
  if (stopped) return start;
  return forceLayout({ ...input, initial: start, iterations: input.iterations - coarseIterations }, progress, coarseIterations);
}

/** The force layout itself; progress is reported as `offset` + iteration. */
async function forceLayout(input: LayoutInput, progress: (iteration: number) => boolean, offset: number): Promise<Float32Array> {
  const n = input.nodeCount;
  const m = input.edgeSource.length;
  if (n === 0) return new Float32Array(0);
  const attraction = input.settings.attraction ?? 1;
  // Defaults grow with the graph: the sampled push stands for the push of all
  // n - 1 others (so it scales with n), and a bigger picture needs longer steps.
  const repulsion = input.settings.repulsion ?? Math.max(1, n / 100);
  const samples = Math.max(1, Math.round(input.settings.negativeSamples ?? 5));
  const gravity = input.settings.gravity ?? 0.01;
  const rate = input.settings.learningRate ?? defaultLearningRate(n);
  // The step cools linearly to a tenth, but to no more than 0.1: neighbours end about a unit apart whatever
  // the size of the picture, and at 100k nodes a last step of a tenth (about one unit) scrambled them
  // (neighbourhood 0.040 against 0.048 at 800 iterations with this bound).
  const finalRate = Math.min(rate / 10, FINAL_STEP);
  const positions = tf.variable(tf.tensor2d(input.initial, [n, 2]));
  // Per-row factors are held for both columns ([m, 2], [n, 2]): on wasm a product of equal shapes took a twentieth
  // of one broadcast from [m, 1] (2.8 against 60.7 ms at 2.4M rows).
  const bothColumns = (values: ArrayLike<number>, scale: (value: number) => number): Float32Array => {
    const both = new Float32Array(2 * values.length);
    for (let i = 0; i < values.length; i++) both[2 * i] = both[2 * i + 1] = scale(values[i]!);
    return both;
  };
  const weight = tf.tensor2d(
    bothColumns(input.edgeWeight, (w) => w * attraction),
    [m, 2],
  );
  // Each edge's ends as [m, 1] indices: gatherND reads them, scatterND writes through them.
  const sourceIndex = tf.tensor2d(input.edgeSource, [m, 1], 'int32');
  const targetIndex = tf.tensor2d(input.edgeTarget, [m, 1], 'int32');
  // Hubs (a package imported by hundreds of files) would be pulled by all their edges at once:
  // each node's pull is divided by the square root of its weighted degree.
  const degree = new Float32Array(n);
  for (let e = 0; e < m; e++) {
    degree[input.edgeSource[e]!]! += input.edgeWeight[e]!;
    degree[input.edgeTarget[e]!]! += input.edgeWeight[e]!;
  }
  const damping = tf.tensor2d(
    bothColumns(degree, (d) => 1 / Math.sqrt(Math.max(1, d))),
    [n, 2],
  );
  // Siblings push each other too, one drawn per node and iteration (standing for all of them): the sampled
  // repulsion alone rarely draws a sibling, and a directory of hundreds of files that import nothing ended as a wide
  // ring around it, across other regions (eslint's graph: region purity 0.560, ForceAtlas2 0.935; with this, 0.816).
  const siblingRepulsion = input.settings.siblingRepulsion ?? 2;
  const siblings = siblingRepulsion > 0 && input.parent ? siblingGroups(input.parent) : undefined;
  const sibling = siblings && {
    order: tf.tensor2d(siblings.order, [n, 1], 'int32'),
    start: tf.tensor1d(siblings.start),
    size: tf.tensor1d(siblings.size),
    // A pair's push as the sampled repulsion gives it (repulsion / n), times the siblings the one drawn stands for.
    scale: tf.tensor2d(
      bothColumns(siblings.size, (size) => (siblingRepulsion * size * repulsion) / n),
      [n, 2],
    ),
  };
  try {
    for (let iteration = 1; iteration <= input.iterations; iteration++) {
      const cooling = rate + ((finalRate - rate) * (iteration - 1)) / Math.max(1, input.iterations - 1);
      tf.tidy(() => {
        const p = positions as tf.Tensor2D;
        // Attraction: springs along edges, proportional to length.
        // gatherND, not gather: on wasm, gather of [n, 2] rows cost 11 times as much (70.8 against 6.4 ms for
        // 500,000 rows of 100,000; test/bench/README.md, layout-iteration).
        const pull = tf.mul(tf.sub(tf.gatherND(p, targetIndex), tf.gatherND(p, sourceIndex)), weight);
        let force = tf.mul(tf.add(tf.scatterND(sourceIndex, pull, [n, 2]), tf.scatterND(targetIndex, tf.neg(pull), [n, 2])), damping);
        // Repulsion from sampled nodes: 1 / distance, capped near zero. The draws are sample-major (node i's s-th
        // partner at s * n + i), so each node's pushes are summed over the samples' axis: no scatter, and no
        // gather of the node's own position (drawn as integers: no float32 draw rounds up to n).
        const others = tf.randomUniformInt([samples * n, 1], 0, n, input.seed * 7919 + iteration);
        const away = tf.sub(tf.expandDims(p, 0), tf.reshape(tf.gatherND(p, others), [samples, n, 2]));
        const distance2 = tf.add(tf.sum(tf.square(away), 2, true), 0.01);
        const push = tf.mul(tf.sum(tf.div(away, distance2), 0), repulsion / samples);
        force = tf.add(force, push);
        if (sibling) {
          // A position in the node's group of siblings (in `order`), drawn at random.
          const drawn = tf.floor(tf.mul(tf.randomUniform([n], 0, 1, 'float32', input.seed * 104729 + iteration), sibling.size));
          const at = tf.cast(tf.minimum(tf.add(sibling.start, drawn), n - 1), 'int32');
          const awaySibling = tf.sub(p, tf.gatherND(p, tf.gatherND(sibling.order, tf.expandDims(at, 1))));
          const d2 = tf.add(tf.sum(tf.square(awaySibling), 1, true), 0.01);
          force = tf.add(force, tf.mul(tf.div(awaySibling, d2), sibling.scale));
        }
        force = tf.sub(force, tf.mul(p, gravity));
        // Clip each step so no node jumps across the picture, then cool.
        const length = tf.sqrt(tf.add(tf.sum(tf.square(force), 1, true), 1e-9));
        const step = tf.mul(tf.div(force, tf.maximum(length, 1)), cooling);
        positions.assign(tf.add(p, step));
      });
      if (!progress(offset + iteration)) break;
      // Let the worker see a cancel request between iterations.
      if (iteration % 10 === 0) await positions.data();
    }
    return (await positions.data()) as Float32Array;
  } finally {
    tf.dispose([positions, weight, sourceIndex, targetIndex, damping]);
    if (sibling) tf.dispose([sibling.order, sibling.start, sibling.size, sibling.scale]);
  }
}

/**
 * Nodes grouped by parent: `order` lists them group after group; each node's group starts at `start` and holds
 * `size` nodes, itself included (0 for a node without a parent: it has no siblings to draw).
 */
function siblingGroups(parent: Int32Array): { order: Int32Array; start: Float32Array; size: Float32Array } {
  const n = parent.length;
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => parent[a]! - parent[b]! || a - b);
  const start = new Float32Array(n);
  const size = new Float32Array(n);
  for (let k = 0; k < n; ) {
    let end = k;
    while (end < n && parent[order[end]!] === parent[order[k]!]) end++;
    for (let j = k; j < end; j++) {
      start[order[j]!] = k;
      size[order[j]!] = parent[order[k]!]! < 0 ? 0 : end - k;
    }
    k = end;
  }
  return { order, start, size };
}

export type { LayoutBackendInfo, LayoutEngine, LayoutInput, LayoutSettings } from './layout-engine.js';
export {
  type DrawnSize,
  type LayoutQuality,
  layoutQuality,
  meanDisplacement,
  nodeOverlap,
  type QualityOptions,
  regionPurity,
  UI_DRAWN_SIZE,
} from './quality.js';
export { directoryRegions, type RegionMeasure } from './regions.js';
