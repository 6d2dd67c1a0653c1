// The density evened where the drawn discs would cover more than half the picture (src/density.ts): each node's
// leaves spread over the disc they take at the picture's mean density, then a flow toward an even density that keeps
// neighbours together; on its own and through the engine's run.
import { createLayoutEngine, type DrawnSize, nodeOverlap, regionPurity } from '@strata/extension-gpu-layout';
import t from 'tap';
import { spreadDensity, spreadLeaves, spreads } from '../dist/density.js';
import { directoryTree } from './directory-tree.ts';

/** Discs this large cover 94 % of the picture at 3,000 nodes (the web UI's 3 px would need 33,000). */
const LARGE: DrawnSize = { fitPixels: 800, radiusPixels: 8 };

/** 30 tight clumps of 100 nodes (0.3 wide) at random in a square 100 wide: the clumps' discs overlap, the gaps are empty. */
function clumps(): { positions: Float32Array; clump: Int32Array } {
  let state = 5;
  const random = (): number => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const positions = new Float32Array(2 * 3000);
  const clump = new Int32Array(3000);
  for (let c = 0; c < 30; c++) {
    const x = random() * 100;
    const y = random() * 100;
    for (let k = 0; k < 100; k++) {
      const i = c * 100 + k;
      clump[i] = c;
      const angle = random() * 2 * Math.PI;
      const radius = 0.3 * Math.sqrt(random());
      positions[2 * i] = x + radius * Math.cos(angle);
      positions[2 * i + 1] = y + radius * Math.sin(angle);
    }
  }
  return { positions, clump };
}

/** The share of nodes nearer their own clump's centroid than any other clump's. */
function clumpsKept(positions: Float32Array, clump: Int32Array): number {
  const cx = new Float64Array(30);
  const cy = new Float64Array(30);
  for (let i = 0; i < clump.length; i++) {
    cx[clump[i]!]! += positions[2 * i]! / 100;
    cy[clump[i]!]! += positions[2 * i + 1]! / 100;
  }
  let kept = 0;
  for (let i = 0; i < clump.length; i++) {
    const distance = (c: number): number => Math.hypot(positions[2 * i]! - cx[c]!, positions[2 * i + 1]! - cy[c]!);
    let nearest = 0;
    for (let c = 1; c < 30; c++) if (distance(c) < distance(nearest)) nearest = c;
    if (nearest === clump[i]) kept++;
  }
  return kept / clump.length;
}

t.test('the flow evens a clumped picture: most overlaps gone, each clump still one region, deterministic', async (t) => {
  const { positions, clump } = clumps();
  t.ok(spreads(3000, LARGE), 'the discs cover more than half the picture');
  const before = nodeOverlap(positions, LARGE).pairs;
  const spread = positions.slice();
  spreadDensity(spread, LARGE);
  const after = nodeOverlap(spread, LARGE).pairs;
  t.ok(after < before / 4, `overlapping pairs ${before} to ${after}`);
  t.ok(
    spread.every((v) => Number.isFinite(v)),
    'no NaN or infinity',
  );
  t.ok(clumpsKept(spread, clump) >= 0.9, `nodes nearest their own clump ${clumpsKept(spread, clump).toFixed(3)}`);
  const again = positions.slice();
  spreadDensity(again, LARGE);
  t.same(Array.from(again), Array.from(spread), 'deterministic');
});

t.test('the flow does not run where the discs cover at most half the picture', async (t) => {
  const { positions } = clumps();
  t.notOk(spreads(3000), "the web UI's 3 px discs at 3,000 nodes cover 13 % of the picture");
  const spread = positions.slice();
  spreadDensity(spread);
  t.same(Array.from(spread), Array.from(positions));
});

t.test("a node's leaves spread over the disc they take at the picture's mean density, each at its own angle", async (t) => {
  // A root with 2,999 leaves: 2,900 evenly over a square 100 wide (a grid 54 a side), 99 in a clump 0.2 wide about
  // (30, 40).
  const n = 3000;
  const parent = new Int32Array(n).fill(0);
  parent[0] = -1;
  const positions = new Float32Array(2 * n);
  for (let i = 1; i < n; i++) {
    positions[2 * i] = ((i % 54) + 0.5) * (100 / 54);
    positions[2 * i + 1] = (Math.floor(i / 54) + 0.5) * (100 / 54);
  }
  let state = 9;
  const random = (): number => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  // The clump's leaves, under a directory node of their own (node 1).
  const clump = Array.from({ length: 99 }, (_, k) => n - 99 + k);
  for (const leaf of clump) {
    parent[leaf] = 1;
    const angle = random() * 2 * Math.PI;
    positions[2 * leaf] = 30 + 0.1 * Math.sqrt(random()) * Math.cos(angle);
    positions[2 * leaf + 1] = 40 + 0.1 * Math.sqrt(random()) * Math.sin(angle);
  }
  const spread = positions.slice();
  spreadLeaves(spread, parent, LARGE);
  let mx = 0;
  let my = 0;
  for (const leaf of clump) {
    mx += positions[2 * leaf]! / 99;
    my += positions[2 * leaf + 1]! / 99;
  }
  // The percentile box is about 98 wide: a leaf's share of it is 98² / 3,000, 99 leaves' disc a radius of about 10.
  const radii = clump.map((leaf) => Math.hypot(spread[2 * leaf]! - mx, spread[2 * leaf + 1]! - my)).sort((a, b) => a - b);
  t.ok(radii.at(-1)! > 9 && radii.at(-1)! < 11, `outermost leaf at ${radii.at(-1)!.toFixed(2)}`);
  t.ok(Math.abs(radii[49]! - radii.at(-1)! * Math.SQRT1_2) < 0.5, `median leaf at ${radii[49]!.toFixed(2)}: the disc evenly filled`);
  for (const leaf of clump) {
    const before = Math.atan2(positions[2 * leaf + 1]! - my, positions[2 * leaf]! - mx);
    const after = Math.atan2(spread[2 * leaf + 1]! - my, spread[2 * leaf]! - mx);
    if (Math.abs(Math.sin(before - after)) > 1e-3) t.fail(`leaf ${leaf} turned from ${before} to ${after}`);
  }
  // The root's leaves, spread wider than their disc already, are left where they are.
  let moved = 0;
  for (let i = 2; i < n - 99; i++) if (spread[2 * i] !== positions[2 * i] || spread[2 * i + 1] !== positions[2 * i + 1]) moved++;
  t.ok(moved < 30, `${moved} of the root's 2,900 leaves moved`);
});

t.test("through the engine, at 14,827 nodes (the web UI's discs cover 65 % of the picture)", async (t) => {
  const graph = directoryTree(40, 3, 60, 40);
  t.ok(spreads(graph.n), 'the step runs');
  const engine = createLayoutEngine();
  await engine.init();
  let state = 3;
  const initial = Float32Array.from({ length: 2 * graph.n }, () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * 30);
  const positions = await engine.run(
    {
      nodeCount: graph.n,
      edgeSource: graph.source,
      edgeTarget: graph.target,
      edgeWeight: graph.weight,
      initial,
      parent: graph.parent,
      iterations: 100,
      seed: 2,
      settings: {},
    },
    () => true,
  );
  t.ok(
    positions.every((v) => Number.isFinite(v)),
    'no NaN or infinity',
  );
  // Without the density evened: 45,699 pairs, purity 0.887 (the regions' steps alone; 24,707 and 0.902 with it).
  const pairs = nodeOverlap(positions).pairs;
  t.ok(pairs < 32_000, `overlapping pairs ${pairs}`);
  const purity = regionPurity(graph.parent, graph.isFile, positions);
  t.ok(purity >= 0.88, `purity ${purity.toFixed(3)}`);
});
