/**
 * The cost of one layout iteration at large sizes (issue 22, point 2: at 1M
 * nodes, one iteration under 1 s on wasm, peak memory under 4 GiB), for
 * Strata's engine on each backend named, and for one ForceAtlas2
 * (Barnes-Hut) iteration on the same graph in the same run.
 *
 *   npm run bench:layout-iteration                          (100k and 1M nodes, wasm)
 *   npm run bench:layout-iteration -- 1000000 --backends wasm,webgpu
 *   LAYOUT_ITERATION_FA2=0 ...                              (leave ForceAtlas2 out)
 *
 * Strata runs one level (no containment tree: the multilevel scheme's
 * coarse level is a small graph) for `WARMUP` iterations, then for
 * `TIMED` iterations from where it ended, timed to the last position read
 * back (a GPU computes asynchronously: the time is the device's, not the
 * time to queue the work). Peak memory is the process's resident set,
 * sampled every 50 ms from before the graph's tensors are made to after the
 * run; on a GPU backend the device's memory is not in it.
 */
import { createRequire } from 'node:module';
import { availableParallelism, cpus } from 'node:os';
import { createLayoutEngine, type LayoutInput } from '@strata/extension-gpu-layout';
import { codeLike, initialPositions, type TestGraph } from './code-like-graph.ts';

const require = createRequire(import.meta.url);
const Graph = require('graphology') as new (options?: object) => any;
const forceAtlas2 = require('graphology-layout-forceatlas2') as { assign(graph: unknown, options: object): void; inferSettings(graph: unknown): object };

const WARMUP = 5;
const TIMED = Number(process.env.LAYOUT_ITERATION_TIMED ?? 20);
const FA2_ITERATIONS = 3;
const args = process.argv.slice(2);
const backendsAt = args.indexOf('--backends');
const backends = backendsAt >= 0 ? args[backendsAt + 1]!.split(',') : ['wasm'];
const sizes = args.filter((arg, i) => /^\d+$/.test(arg) && args[i - 1] !== '--backends').map(Number);
const withFa2 = process.env.LAYOUT_ITERATION_FA2 !== '0';

/** Samples the resident set every 50 ms until stopped; the largest sample in MiB. */
function rssPeak(): () => number {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage().rss) / 2 ** 20;
  };
}

async function strataIteration(backend: string, graph: TestGraph): Promise<{ device: string; ms: number; peakMb: number; warmupMs: number }> {
  const engine = createLayoutEngine();
  const info = await engine.init(backend);
  if (info.backend !== backend) throw new Error(`asked for ${backend}, got ${info.backend}`);
  const peak = rssPeak();
  const input = (initial: Float32Array, iterations: number): LayoutInput => ({
    nodeCount: graph.n,
    edgeSource: graph.source,
    edgeTarget: graph.target,
    edgeWeight: graph.weight,
    initial,
    iterations,
    seed: 1,
    settings: {},
  });
  let started = performance.now();
  const warm = await engine.run(input(initialPositions(graph.n), WARMUP), () => true);
  const warmupMs = performance.now() - started;
  started = performance.now();
  const positions = await engine.run(input(warm, TIMED), () => true);
  const ms = (performance.now() - started) / TIMED;
  if (!positions.every(Number.isFinite)) throw new Error(`${backend}: positions not finite`);
  return { device: info.device, ms, peakMb: peak(), warmupMs };
}

function fa2Iteration(graph: TestGraph): { ms: number; peakMb: number } | { failed: string } {
  try {
    return fa2Timed(graph);
  } catch (error) {
    // At 1M nodes graphology's ForceAtlas2 throws "Invalid array length" (its Barnes-Hut tree outgrows an array).
    return { failed: (error as Error).message };
  }
}

function fa2Timed(graph: TestGraph): { ms: number; peakMb: number } {
  const peak = rssPeak();
  const g = new Graph({ type: 'undirected', multi: true });
  const start = initialPositions(graph.n);
  for (let i = 0; i < graph.n; i++) g.addNode(i, { x: start[2 * i], y: start[2 * i + 1] });
  for (let e = 0; e < graph.source.length; e++) g.addEdge(graph.source[e], graph.target[e], { weight: graph.weight[e] });
  const settings = { ...forceAtlas2.inferSettings(g), barnesHutOptimize: true };
  const started = performance.now();
  forceAtlas2.assign(g, { iterations: FA2_ITERATIONS, settings, getEdgeWeight: 'weight' });
  return { ms: (performance.now() - started) / FA2_ITERATIONS, peakMb: peak() };
}

const cpu = cpus()[0]?.model ?? '?';
console.log(`${cpu}, ${availableParallelism()} cores; Node ${process.version}; ${WARMUP} iterations to warm up, then ${TIMED} timed\n`);
console.log('| nodes | edges | layout | device | ms / iteration | peak RSS MiB | ForceAtlas2 ms ÷ this |');
console.log('|---|---|---|---|---|---|---|');
for (const n of sizes.length > 0 ? sizes : [100_000, 1_000_000]) {
  const graph = codeLike(n);
  // Strata first: its peak is not raised by ForceAtlas2's graph.
  const runs = [];
  for (const backend of backends) runs.push({ backend, ...(await strataIteration(backend, graph)) });
  const fa2 = withFa2 ? fa2Iteration(graph) : undefined;
  for (const run of runs) {
    const ratio = fa2 && 'ms' in fa2 ? `${(fa2.ms / run.ms).toFixed(1)}x` : '';
    console.log(`| ${n} | ${graph.source.length} | strata ${run.backend} | ${run.device} | ${run.ms.toFixed(1)} | ${run.peakMb.toFixed(0)} | ${ratio} |`);
  }
  if (fa2 && 'ms' in fa2)
    console.log(
      `| ${n} | ${graph.source.length} | forceatlas2 (Barnes-Hut, ${FA2_ITERATIONS} iterations) | CPU (JavaScript) | ${fa2.ms.toFixed(1)} | ${fa2.peakMb.toFixed(0)} | 1.0x |`,
    );
  else if (fa2) console.log(`| ${n} | ${graph.source.length} | forceatlas2 (Barnes-Hut) | CPU (JavaScript) | failed: ${fa2.failed} | | |`);
}
// Dawn's device holds the event loop open.
process.exit(0);
