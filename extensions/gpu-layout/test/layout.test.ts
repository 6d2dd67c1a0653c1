import { createLayoutEngine, layoutQuality, meanDisplacement, nodeOverlap, regionPurity } from '@strata/extension-gpu-layout';
import t from 'tap';

/** A code-like tree: a root, 8 directories, 12 files each, and a few imports between nearby files. */
function codeGraph(): { n: number; source: Int32Array; target: Int32Array; weight: Float32Array } {
  const source: number[] = [];
  const target: number[] = [];
  const weight: number[] = [];
  let next = 1;
  for (let d = 0; d < 8; d++) {
    const dir = next++;
    source.push(0), target.push(dir), weight.push(1);
    for (let f = 0; f < 12; f++) {
      const file = next++;
      source.push(dir), target.push(file), weight.push(1);
      if (f > 0) source.push(file), target.push(file - 1), weight.push(0.25);
    }
  }
  return { n: next, source: Int32Array.from(source), target: Int32Array.from(target), weight: Float32Array.from(weight) };
}

t.test('the quality measure: a path laid out on a line is perfect', async (t) => {
  const n = 30;
  const source = Int32Array.from({ length: n - 1 }, (_, i) => i);
  const target = Int32Array.from({ length: n - 1 }, (_, i) => i + 1);
  const line = Float32Array.from({ length: 2 * n }, (_, i) => (i % 2 === 0 ? (i / 2) * 3 : 0));
  const quality = layoutQuality(n, source, target, line, { sources: 10 });
  t.ok(quality.stress < 1e-9, `stress ${quality.stress}`);
  t.equal(quality.neighbourhood, 1);
  t.same(
    layoutQuality(n, source, target, line, { sources: 10, seed: 3 }),
    layoutQuality(n, source, target, line, { sources: 10, seed: 3 }),
    'deterministic for a seed',
  );
});

t.test('the engine improves on its starting point, the same way every time', async (t) => {
  const engine = createLayoutEngine();
  const info = await engine.init();
  t.match(info, { backend: /^(wasm|cpu|tensorflow)$/, gpu: false });
  const graph = codeGraph();
  let state = 12345;
  const initial = Float32Array.from({ length: 2 * graph.n }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return (state / 2147483648) * 20 - 10;
  });
  const input = {
    nodeCount: graph.n,
    edgeSource: graph.source,
    edgeTarget: graph.target,
    edgeWeight: graph.weight,
    initial,
    iterations: 300,
    seed: 5,
    settings: {},
  };
  let reported = 0;
  const positions = await engine.run(input, (iteration) => {
    reported = iteration;
    return true;
  });
  t.equal(reported, 300, 'progress for every iteration');
  const before = layoutQuality(graph.n, graph.source, graph.target, initial);
  const after = layoutQuality(graph.n, graph.source, graph.target, positions);
  t.ok(after.stress < before.stress * 0.7, `stress ${before.stress.toFixed(3)} -> ${after.stress.toFixed(3)}`);
  t.ok(after.neighbourhood > before.neighbourhood + 0.3, `neighbourhood ${before.neighbourhood.toFixed(3)} -> ${after.neighbourhood.toFixed(3)}`);
  const again = await engine.run({ ...input, initial: initial.slice() }, () => true);
  t.same(Array.from(again), Array.from(positions), 'deterministic for a seed');

  let stoppedAt = 0;
  await engine.run({ ...input, initial: initial.slice() }, (iteration) => {
    stoppedAt = iteration;
    return iteration < 7;
  });
  t.equal(stoppedAt, 7, 'stops when progress says so');
});

t.test('a backend can be forced; one that cannot load is named', async (t) => {
  const engine = createLayoutEngine();
  t.match(await engine.init('cpu'), { backend: 'cpu', gpu: false });
  await t.rejects(createLayoutEngine().init('tensorflow-gpu'), /no TensorFlow\.js backend could be loaded \(tried tensorflow-gpu\)/);
});

t.test('region purity, node overlap and stability say what they measure', async (t) => {
  // 0 root; 1 and 2 sibling directories; 3-5 files of 1; 6-8 files of 2.
  const parent = Int32Array.from([-1, 0, 0, 1, 1, 1, 2, 2, 2]);
  const isFile = Uint8Array.from([0, 0, 0, 1, 1, 1, 1, 1, 1]);
  const apart = Float32Array.from([0, 0, -10, 0, 10, 0, -11, 1, -9, -1, -10, 1, 11, 1, 9, -1, 10, 1]);
  t.equal(regionPurity(parent, isFile, apart), 1, 'each directory its own region');
  const mixed = apart.slice();
  mixed.set([10, 0.5], 2 * 3); // one file of directory 1 among directory 2's
  t.equal(regionPurity(parent, isFile, mixed), 5 / 6, "a file among its cousins' is not pure");
  t.equal(regionPurity(Int32Array.from([-1, 0, 0]), Uint8Array.from([0, 1, 1]), [0, 0, 1, 1, 2, 2]), 1, 'no sibling directories: nothing counted');

  t.same(nodeOverlap(apart), { share: 0, pairs: 0 }, 'discs of 3 px in an 800 px picture of 22 units: 0.17 units, none touch');
  const stacked = apart.slice();
  stacked.set([11, 1], 2 * 7); // file 7 onto file 6
  t.equal(nodeOverlap(stacked).pairs, 1);
  t.equal(nodeOverlap(stacked).share, 1 / 36, 'one pair of the 36');

  const moved = Float32Array.from(apart, (v, i) => (i % 2 === 0 ? v + 2.2 : v));
  const diagonal = Math.hypot(22, 2); // 1st to 99th percentile of 9 nodes: the whole box
  t.ok(Math.abs(meanDisplacement(apart, moved, [3, 4, 5]) - 2.2 / diagonal) < 1e-6, 'a shift of 2.2 units over a 22-by-2 picture');
  t.equal(meanDisplacement(apart, apart, [0, 1, 2]), 0);
});
