import { createLayoutEngine, layoutQuality } from '@strata/extension-gpu-layout';
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
