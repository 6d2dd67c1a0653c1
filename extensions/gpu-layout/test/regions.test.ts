// Directories as nested regions (src/nesting.ts), through the engine's run: after it every file lies in no sibling
// directory's region at the first two levels and sibling regions do not overlap (the measure of src/regions.ts, on
// the hulls the web UI draws), and nothing is lost. The measure itself is checked on pictures made by hand.
import { createLayoutEngine, directoryRegions, type LayoutInput, regionPurity } from '@strata/extension-gpu-layout';
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

t.test('a full run: every file in its own regions and in no sibling region, the regions apart', async (t) => {
  const start = input(300);
  const before = directoryRegions(graph.parent, graph.isFile, start.initial);
  t.ok(
    before.containment < 0.5 && before.overlap > 0.5,
    `the start mixes them (containment ${before.containment.toFixed(3)}, overlap ${before.overlap.toFixed(3)})`,
  );
  const positions = await engine.run(start, () => true);
  const after = directoryRegions(graph.parent, graph.isFile, positions);
  t.equal(after.files, graph.isFile.reduce((n, v) => n + v, 0) - 0, 'every file counted (all are below a top-level directory)');
  t.ok(after.containment >= 0.95, `containment ${after.containment.toFixed(3)} (floor 0.95)`);
  t.ok(after.overlap < 0.05, `overlap ${after.overlap.toFixed(3)} (floor: under 0.05)`);
  t.equal(regionPurity(graph.parent, graph.isFile, positions), 1, 'region purity 1');
  t.ok(positions.every((v) => Number.isFinite(v)));
});

t.test('the region measure: containment and overlap say what they measure', async (t) => {
  // root 0; top-level a (1) with files 3, 4, 5 and b (2) with files 6, 7, 8.
  const parent = Int32Array.from([-1, 0, 0, 1, 1, 1, 2, 2, 2]);
  const isFile = Uint8Array.from([0, 0, 0, 1, 1, 1, 1, 1, 1]);
  const apart = [0, 0, 1, 1, 11, 1, 0, 0, 2, 0, 1, 2, 10, 0, 12, 0, 11, 2];
  t.same(directoryRegions(parent, isFile, apart), { containment: 1, overlap: 0, files: 6, regions: 2 }, 'two triangles apart');
  // File 8 of b placed in the middle of a's triangle: b's hull now crosses a's.
  const mixed = apart.slice();
  mixed[16] = 1;
  mixed[17] = 0.7;
  const measure = directoryRegions(parent, isFile, mixed);
  t.ok(measure.containment < 1, `a file of a inside b's stretched region (containment ${measure.containment.toFixed(3)})`);
  t.ok(measure.overlap > 0, `the two regions overlap (${measure.overlap.toFixed(3)})`);
  // Second level: subdirectories 2 and 3 of a (1), with files 4 to 6 and 7 to 9; file 9 lies in 2's square.
  const deeper = Int32Array.from([-1, 0, 1, 1, 2, 2, 2, 3, 3, 3]);
  const deeperFiles = Uint8Array.from([0, 0, 0, 0, 1, 1, 1, 1, 1, 1]);
  const square = [0, 0, 5, 5, 0, 10, 10, 10, 0, 11, 1, 10, 1, 11, 10, 11, 11, 10, 11, 11];
  t.equal(directoryRegions(deeper, deeperFiles, square).containment, 1, 'two squares apart');
  const inCousin = square.slice();
  inCousin[18] = 0.5;
  inCousin[19] = 10.5;
  const second = directoryRegions(deeper, deeperFiles, inCousin);
  t.equal(second.files, 6);
  t.equal(second.containment, 5 / 6, "a subdirectory's file in its sibling's region is not contained");
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
