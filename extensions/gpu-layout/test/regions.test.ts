// Readable regions (src/separation.ts): after a run, sibling directories' regions are disjoint (each file on its
// own directory's side of the bisector with each sibling directory: region purity) and nothing is lost, through the
// engine's run.
import { createLayoutEngine, type LayoutInput, regionPurity } from '@strata/extension-gpu-layout';
import t from 'tap';
import { directoryTree } from './directory-tree.ts';

const graph = directoryTree(6, 3, 15, 10);
const engine = createLayoutEngine();
await engine.init();

function input(iterations: number, parent: Int32Array = graph.parent): LayoutInput {
  let state = 3;
  const initial = Float32Array.from({ length: 2 * graph.n }, () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 30);
  return {
    nodeCount: graph.n,
    edgeSource: graph.source,
    edgeTarget: graph.target,
    edgeWeight: graph.weight,
    initial,
    parent,
    iterations,
    seed: 2,
    settings: {},
  };
}

/** Pairs of sibling directories with a file of one nearer the other's centroid (centroid: the mean of the files below). */
function mixedPairs(positions: Float32Array): string[] {
  const { n, parent, isFile } = graph;
  const centroid = (d: number): [number, number] => {
    let x = 0;
    let y = 0;
    let count = 0;
    for (let f = 0; f < n; f++) {
      if (!isFile[f]) continue;
      let a = parent[f]!;
      while (a >= 0 && a !== d) a = parent[a]!;
      if (a !== d) continue;
      x += positions[2 * f]!;
      y += positions[2 * f + 1]!;
      count++;
    }
    return [x / count, y / count];
  };
  const directories = Array.from({ length: n }, (_, i) => i).filter((i) => !isFile[i] && i > 0 && parent[i]! >= 0);
  const mixed: string[] = [];
  for (const a of directories)
    for (const b of directories) {
      if (a === b || parent[a] !== parent[b]) continue;
      const [ax, ay] = centroid(a);
      const [bx, by] = centroid(b);
      for (let f = 0; f < n; f++)
        if (isFile[f] && parent[f] === a) {
          const x = positions[2 * f]!;
          const y = positions[2 * f + 1]!;
          if (Math.hypot(x - bx, y - by) <= Math.hypot(x - ax, y - ay)) mixed.push(`file ${f} of ${a} on ${b}'s side`);
        }
    }
  return mixed;
}

t.test("a short run from a random start: every node placed, most files in their directory's region", async (t) => {
  const given = input(20);
  const positions = await engine.run(given, () => true);
  t.equal(positions.length, 2 * graph.n, 'a position for every node');
  t.ok(
    positions.every((v) => Number.isFinite(v)),
    'no NaN or infinity',
  );
  t.ok(regionPurity(graph.parent, graph.isFile, given.initial) < 0.5, 'the start mixes the regions');
  // From a start this mixed, 20 iterations and the steps leave a few files across (their centroids, which the steps
  // measure over every node below a directory, symbols too, are not quite the measure's, over files alone).
  const purity = regionPurity(graph.parent, graph.isFile, positions);
  t.ok(purity > 0.85, `purity ${purity.toFixed(3)}`);
  const again = await engine.run(input(20), () => true);
  t.same(Array.from(again), Array.from(positions), 'deterministic');
});

t.test('a full run: the regions nearly disjoint', async (t) => {
  const positions = await engine.run(input(300), () => true);
  const mixed = mixedPairs(positions);
  // 0.982: 6 of 330 files counted (ForceAtlas2 0.935 on eslint's graph, test/bench/README.md).
  t.ok(mixed.length <= 8, mixed.join('; '));
  t.ok(regionPurity(graph.parent, graph.isFile, positions) >= 0.97);
  t.ok(positions.every((v) => Number.isFinite(v)));
});

t.test('a tree with a cycle or a node its own parent: no hang, nothing lost, no NaN', async (t) => {
  const parent = graph.parent.slice();
  parent[1] = 2;
  parent[2] = 1;
  parent[5] = 5;
  const positions = await engine.run(input(20, parent), () => true);
  t.equal(positions.length, 2 * graph.n);
  t.ok(positions.every((v) => Number.isFinite(v)));
});
