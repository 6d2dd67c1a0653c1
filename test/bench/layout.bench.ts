/**
 * Strata's layout (TensorFlow.js, on the backend that loads here) against
 * graphology-layout-forceatlas2 (Barnes-Hut on) and d3-force, in the same
 * run, on generated code-like graphs and optionally a real repository's
 * graph. Each runs in chunks of iterations until its quality stops
 * improving (or a time cap); quality is the shared measure of
 * extensions/gpu-layout (normalized stress, neighbourhood preservation),
 * computed outside the timed work. Printed: time per iteration, final
 * quality, and the time Strata takes to reach ForceAtlas2's final stress.
 *
 *   npm run bench:layout                      (1k and 10k nodes)
 *   npm run bench:layout -- 1000 10000 100000
 *   npm run bench:layout -- --repo /path/to/repo
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { createLayoutEngine, directoryRegions, layoutQuality, meanDisplacement, nodeOverlap, regionPurity } from '@strata/extension-gpu-layout';
import { codeLike, initialPositions, parentsOf, type TestGraph } from './code-like-graph.ts';

const require = createRequire(import.meta.url);
const Graph = require('graphology') as new (options?: object) => any;
const forceAtlas2 = require('graphology-layout-forceatlas2') as { assign(graph: unknown, options: object): void; inferSettings(graph: unknown): object };
const d3 = require('d3-force') as typeof import('d3-force');

const CAP_MS = Number(process.env.LAYOUT_BENCH_CAP_MS ?? 60_000);
/** Sampled sources of the quality measure: enough that a neighbourhood figure moves by less than its differences here. */
const QUALITY_SOURCES = Number(process.env.LAYOUT_BENCH_SOURCES ?? 256);
/** Which layouts run (default all): `strata,forceatlas2,d3-force`. */
const ONLY = new Set((process.env.LAYOUT_BENCH_ONLY ?? 'strata,forceatlas2,d3-force').split(','));
/** A peer has plateaued when this many more iterations no longer gain 1 % of stress. */
const PLATEAU_ITERATIONS = 50;
/** Peers run at least this many iterations before the plateau rule may stop them (to see where they go). */
const MIN_ITERATIONS = Number(process.env.LAYOUT_BENCH_MIN_ITERATIONS ?? 0);
/** Settings passed to Strata's engine, as JSON (for trying its knobs). */
const STRATA_SETTINGS = JSON.parse(process.env.LAYOUT_BENCH_SETTINGS ?? '{}') as Record<string, number>;
const args = process.argv.slice(2);
const repoIndex = args.indexOf('--repo');
const repo = repoIndex >= 0 ? args[repoIndex + 1] : undefined;
const sizes = args.filter((arg, i) => /^\d+$/.test(arg) && args[i - 1] !== '--repo').map(Number);

async function repositoryGraph(path: string): Promise<TestGraph> {
  // Imported here: the generated graphs need nothing of the host (a bundle of this benchmark for a machine with a GPU
  // carries the layout alone).
  const { indexRepository } = await import('@strata/host');
  const graph = await indexRepository({ repository: path, env: {} });
  const index = new Map(graph.nodes.map((node, i) => [node.id, i]));
  const source: number[] = [];
  const target: number[] = [];
  const weight: number[] = [];
  for (const edge of graph.edges) {
    const s = index.get(edge.source);
    const t = index.get(edge.target);
    if (s === undefined || t === undefined || s === t) continue;
    source.push(s), target.push(t), weight.push(edge.kind === 'contains' ? 1 : 0.25);
  }
  return {
    name: `repository ${path.split('/').pop()}`,
    n: graph.nodes.length,
    source: Int32Array.from(source),
    target: Int32Array.from(target),
    weight: Float32Array.from(weight),
    parent: parentsOf(graph.nodes.length, source, target, (e) => weight[e] === 1),
    isFile: Uint8Array.from(graph.nodes, (node) => (node.kind === 'file' ? 1 : 0)),
  };
}

interface Trace {
  points: Array<{ ms: number; iterations: number; stress: number; neighbourhood: number }>;
  peakRssMb: number;
  /** The positions of the last point. */
  final: Float64Array;
  /** Goes on from `final` on the graph after a 1 % change (`changed`): the positions after `STABILITY_ITERATIONS`. */
  goOn(changed: ChangedGraph): Promise<ArrayLike<number>>;
}

/** Iterations each layout goes on for after the 1 % change (Strata: a refine of that many). */
const STABILITY_ITERATIONS = Number(process.env.LAYOUT_BENCH_STABILITY_ITERATIONS ?? 100);

/** The graph after a 1 % change: new files, each in the directory of an old file and importing it. */
interface ChangedGraph extends TestGraph {
  /** Where each node starts: old nodes where the layout left them, new ones next to their directory. */
  start(final: ArrayLike<number>): Float64Array;
  oldNodes: Int32Array;
}

function changedGraph(graph: TestGraph): ChangedGraph {
  let seed = 99;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const files = Array.from({ length: graph.n }, (_, i) => i).filter((i) => graph.isFile[i] && graph.parent[i]! >= 0);
  const added = Math.max(1, Math.ceil(graph.n / 100));
  const n = graph.n + added;
  const source = Array.from(graph.source);
  const target = Array.from(graph.target);
  const weight = Array.from(graph.weight);
  const parent = new Int32Array(n);
  parent.set(graph.parent);
  const isFile = new Uint8Array(n);
  isFile.set(graph.isFile);
  for (let k = 0; k < added; k++) {
    const node = graph.n + k;
    const neighbour = files[Math.floor(random() * files.length)]!;
    parent[node] = graph.parent[neighbour]!;
    isFile[node] = 1;
    source.push(parent[node]!), target.push(node), weight.push(1);
    source.push(node), target.push(neighbour), weight.push(0.25);
  }
  return {
    name: graph.name,
    n,
    source: Int32Array.from(source),
    target: Int32Array.from(target),
    weight: Float32Array.from(weight),
    parent,
    isFile,
    oldNodes: Int32Array.from({ length: graph.n }, (_, i) => i),
    start(final) {
      const start = new Float64Array(2 * n);
      start.set(Array.from(final));
      for (let node = graph.n; node < n; node++) {
        start[2 * node] = final[2 * parent[node]!]! + (random() - 0.5);
        start[2 * node + 1] = final[2 * parent[node]! + 1]! + (random() - 0.5);
      }
      return start;
    },
  };
}

/**
 * Runs `step(chunk)` until the stress stops improving: no 1 % gain over the
 * last `PLATEAU_ITERATIONS` iterations (at least two chunks), or the cap.
 */
async function trace(graph: TestGraph, chunk: number, step: (iterations: number) => Promise<ArrayLike<number>>, goOn: Trace['goOn']): Promise<Trace> {
  const points: Trace['points'] = [];
  const window = Math.max(2 * chunk, PLATEAU_ITERATIONS);
  let ms = 0;
  let iterations = 0;
  let peak = process.memoryUsage().rss;
  let final = new Float64Array(0);
  while (ms < CAP_MS) {
    const started = performance.now();
    const positions = await step(chunk);
    final = Float64Array.from(positions);
    ms += performance.now() - started;
    iterations += chunk;
    peak = Math.max(peak, process.memoryUsage().rss);
    const quality = layoutQuality(graph.n, graph.source, graph.target, positions, { sources: QUALITY_SOURCES });
    points.push({ ms, iterations, ...quality });
    const before = points.find((point) => point.iterations === iterations - window);
    if (process.env.LAYOUT_BENCH_TRACE)
      console.error(`  ${iterations} its: ${ms.toFixed(0)} ms, stress ${quality.stress.toFixed(3)}, neighbourhood ${quality.neighbourhood.toFixed(3)}`);
    if (before && quality.stress > before.stress * 0.99 && iterations >= MIN_ITERATIONS) break;
  }
  return { points, peakRssMb: Math.round(peak / 1024 / 1024), final, goOn };
}

/**
 * Strata's runs are complete runs of 25, 50, 100, ... iterations from the
 * same start (each cools over its own length, as a user's run does); a
 * point's time is that run's time.
 */
async function strata(graph: TestGraph): Promise<Trace> {
  const engine = createLayoutEngine();
  await engine.init(process.env.LAYOUT_BENCH_BACKEND);
  const initial = initialPositions(graph.n);
  const points: Trace['points'] = [];
  let peak = process.memoryUsage().rss;
  let spent = 0;
  let flat = 0;
  let final = new Float64Array(0);
  for (let iterations = 25; spent < CAP_MS; iterations *= 2) {
    const started = performance.now();
    const positions = await engine.run(
      {
        nodeCount: graph.n,
        edgeSource: graph.source,
        edgeTarget: graph.target,
        edgeWeight: graph.weight,
        initial: initial.slice(),
        parent: graph.parent,
        iterations,
        seed: 1,
        settings: STRATA_SETTINGS,
      },
      () => true,
    );
    const ms = performance.now() - started;
    spent += ms;
    final = Float64Array.from(positions);
    peak = Math.max(peak, process.memoryUsage().rss);
    const quality = layoutQuality(graph.n, graph.source, graph.target, positions, { sources: QUALITY_SOURCES });
    const best = Math.min(...points.map((point) => point.stress));
    points.push({ ms, iterations, ...quality });
    // As for the peers: two longer runs in a row without a 1 % gain end it.
    if (points.length > 1 && quality.stress > best * 0.99) {
      if (++flat >= 2) break;
    } else flat = 0;
  }
  // After a change, the host refines the saved layout: the old nodes placed, the new ones next to their directory.
  const goOn: Trace['goOn'] = (changed) =>
    engine.run(
      {
        nodeCount: changed.n,
        edgeSource: changed.source,
        edgeTarget: changed.target,
        edgeWeight: changed.weight,
        initial: Float32Array.from(changed.start(final)),
        placed: Uint8Array.from({ length: changed.n }, (_, i) => (i < graph.n ? 1 : 0)),
        parent: changed.parent,
        iterations: STABILITY_ITERATIONS,
        seed: 1,
        settings: STRATA_SETTINGS,
      },
      () => true,
    );
  return { points, peakRssMb: Math.round(peak / 1024 / 1024), final, goOn };
}

async function fa2(graph: TestGraph, chunk: number): Promise<Trace> {
  const g = new Graph({ type: 'undirected', multi: true });
  const initial = initialPositions(graph.n);
  for (let i = 0; i < graph.n; i++) g.addNode(i, { x: initial[2 * i], y: initial[2 * i + 1] });
  for (let e = 0; e < graph.source.length; e++) g.addEdge(graph.source[e], graph.target[e], { weight: graph.weight[e] });
  const settings = { ...forceAtlas2.inferSettings(g), barnesHutOptimize: true };
  const positions = new Float64Array(2 * graph.n);
  return trace(
    graph,
    chunk,
    async (iterations) => {
      forceAtlas2.assign(g, { iterations, settings, getEdgeWeight: 'weight' });
      g.forEachNode((node: string, attributes: { x: number; y: number }) => {
        positions[2 * Number(node)] = attributes.x;
        positions[2 * Number(node) + 1] = attributes.y;
      });
      return positions;
    },
    async (changed) => {
      // ForceAtlas2 goes on from where it stopped, on the changed graph.
      const start = changed.start(positions);
      const next = new Graph({ type: 'undirected', multi: true });
      for (let i = 0; i < changed.n; i++) next.addNode(i, { x: start[2 * i], y: start[2 * i + 1] });
      for (let e = 0; e < changed.source.length; e++) next.addEdge(changed.source[e], changed.target[e], { weight: changed.weight[e] });
      forceAtlas2.assign(next, { iterations: STABILITY_ITERATIONS, settings, getEdgeWeight: 'weight' });
      const after = new Float64Array(2 * changed.n);
      next.forEachNode((node: string, attributes: { x: number; y: number }) => {
        after[2 * Number(node)] = attributes.x;
        after[2 * Number(node) + 1] = attributes.y;
      });
      return after;
    },
  );
}

async function d3force(graph: TestGraph, chunk: number): Promise<Trace> {
  const initial = initialPositions(graph.n);
  const nodes = Array.from({ length: graph.n }, (_, i) => ({ index: i, x: initial[2 * i]!, y: initial[2 * i + 1]! }));
  const links = Array.from(graph.source, (s, e) => ({ source: s, target: graph.target[e]!, weight: graph.weight[e]! }));
  const simulation = d3
    .forceSimulation(nodes)
    .force(
      'link',
      d3.forceLink(links).strength((link) => (link as { weight: number }).weight),
    )
    .force('charge', d3.forceManyBody())
    .force('center', d3.forceCenter(0, 0))
    .stop();
  const positions = new Float64Array(2 * graph.n);
  return trace(
    graph,
    chunk,
    async (iterations) => {
      simulation.tick(iterations);
      for (const node of nodes) {
        positions[2 * node.index] = node.x;
        positions[2 * node.index + 1] = node.y;
      }
      return positions;
    },
    async (changed) => {
      // d3-force reheated (alpha 0.3, as its examples do after a change) on the changed graph, from where it stopped.
      const start = changed.start(positions);
      const next = Array.from({ length: changed.n }, (_, i) => ({ index: i, x: start[2 * i]!, y: start[2 * i + 1]! }));
      const nextLinks = Array.from(changed.source, (s, e) => ({ source: s, target: changed.target[e]!, weight: changed.weight[e]! }));
      d3.forceSimulation(next)
        .force(
          'link',
          d3.forceLink(nextLinks).strength((link) => (link as { weight: number }).weight),
        )
        .force('charge', d3.forceManyBody())
        .force('center', d3.forceCenter(0, 0))
        .alpha(0.3)
        .stop()
        .tick(STABILITY_ITERATIONS);
      return Float64Array.from(next.flatMap((node) => [node.x, node.y]));
    },
  );
}

const graphs: TestGraph[] = (sizes.length > 0 ? sizes : repo ? [] : [1000, 10_000]).map(codeLike);
if (repo) graphs.push(await repositoryGraph(repo));

if (ONLY.has('strata')) {
  const backend = await createLayoutEngine().init(process.env.LAYOUT_BENCH_BACKEND);
  console.log(`Strata's backend: ${backend.backend} (${backend.device}); ${availableParallelism()} cores; Node ${process.version}\n`);
}

console.log('| graph | nodes | edges | layout | ms / iteration | iterations | wall ms | final stress | final neighbourhood | peak RSS MB |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
const summary: string[] = [];
/** Region purity, node overlap and stability of each layout's final positions (extensions/gpu-layout/src/quality.ts). */
const readability: string[] = [];
for (const graph of graphs) {
  const chunk = graph.n >= 50_000 ? 10 : 25;
  const results: Record<string, Trace> = {};
  if (ONLY.has('strata')) results.strata = await strata(graph);
  if (ONLY.has('forceatlas2')) results.forceatlas2 = await fa2(graph, chunk);
  if (ONLY.has('d3-force')) results['d3-force'] = await d3force(graph, chunk);
  for (const [name, result] of Object.entries(results)) {
    const last = result.points.at(-1)!;
    console.log(
      `| ${graph.name} | ${graph.n} | ${graph.source.length} | ${name} | ${(last.ms / last.iterations).toFixed(1)} | ${last.iterations} | ${last.ms.toFixed(0)} | ${last.stress.toFixed(3)} | ${last.neighbourhood.toFixed(3)} | ${result.peakRssMb} |`,
    );
  }
  if (ONLY.has('strata') && process.env.LAYOUT_BENCH_TRACE)
    for (const point of results.strata!.points)
      console.log(
        `  strata ${point.iterations} its: ${point.ms.toFixed(0)} ms, stress ${point.stress.toFixed(3)}, neighbourhood ${point.neighbourhood.toFixed(3)}`,
      );
  if (results.strata) {
    // A peer's final quality is both figures: the first Strata run at least as good on both.
    const strataPoints = [...results.strata.points].sort((a, b) => a.ms - b.ms);
    for (const [peer, name] of [
      ['forceatlas2', 'ForceAtlas2'],
      ['d3-force', 'd3-force'],
    ] as const) {
      const target = results[peer]?.points.at(-1);
      if (!target) continue;
      const stressOnly = strataPoints.find((point) => point.stress <= target.stress);
      const both = strataPoints.find((point) => point.stress <= target.stress && point.neighbourhood >= target.neighbourhood);
      const figures = `stress ${target.stress.toFixed(3)}, neighbourhood ${target.neighbourhood.toFixed(3)}, after ${target.ms.toFixed(0)} ms`;
      const line = both
        ? `${graph.name}: Strata reaches ${name}'s final quality (${figures}) in ${both.ms.toFixed(0)} ms: ${(target.ms / both.ms).toFixed(2)}x faster (${both.iterations} iterations: stress ${both.stress.toFixed(3)}, neighbourhood ${both.neighbourhood.toFixed(3)})`
        : `${graph.name}: Strata does not reach ${name}'s final quality (${figures}) on both figures` +
          (stressOnly ? `; its stress reaches the peer's in ${stressOnly.ms.toFixed(0)} ms (${(target.ms / stressOnly.ms).toFixed(2)}x faster)` : '') +
          `; its best: stress ${Math.min(...strataPoints.map((p) => p.stress)).toFixed(3)}, neighbourhood ${Math.max(...strataPoints.map((p) => p.neighbourhood)).toFixed(3)}`;
      summary.push(line);
      // Said at once too: the readability figures after it take long on a large graph (ForceAtlas2's 100 more
      // iterations at 100k nodes), and a run cut short keeps this line.
      process.stderr.write(`${line}\n`);
    }
  }
  const changed = changedGraph(graph);
  for (const [name, result] of Object.entries(results)) {
    const overlap = nodeOverlap(result.final);
    const regions = directoryRegions(graph.parent, graph.isFile, result.final);
    const after = await result.goOn(changed);
    readability.push(
      `| ${graph.name} | ${name} | ${regions.containment.toFixed(3)} | ${(100 * regions.overlap).toFixed(1)} % | ${regionPurity(graph.parent, graph.isFile, result.final).toFixed(3)} | ${(overlap.share * 1e6).toFixed(1)} (${overlap.pairs}) | ${(100 * meanDisplacement(result.final, after, changed.oldNodes)).toFixed(2)} % |`,
    );
  }
}
console.log('');
console.log(
  `| graph | layout | files in no sibling's region, levels 1 and 2 (floor 0.95) | area where sibling regions overlap (floor: under 5 %) | region purity | overlapping pairs per million (pairs), 3 px discs in 800 px | stability: mean move of old nodes after a 1 % change and ${STABILITY_ITERATIONS} more iterations, % of the diagonal |`,
);
console.log('|---|---|---|---|---|---|---|');
for (const line of readability) console.log(line);
console.log('');
for (const line of summary) console.log(line);
// Dawn (the WebGPU backend) holds the event loop open.
process.exit(0);
