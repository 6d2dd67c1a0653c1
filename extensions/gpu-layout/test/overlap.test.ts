// The last step of a run (src/overlap.ts): overlapping discs parted on a grid (a counting sort of the nodes by cell
// each pass; 2688b7d checked it gave the positions of the sort it replaced to the bit), and the picture's percentile
// box it measures each pass, found without a sort.
import { nodeOverlap } from '@strata/extension-gpu-layout';
import t from 'tap';
import { removeOverlaps } from '../dist/overlap.js';
import { percentileBox } from '../dist/quality.js';

function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** 80 crowds of 30 nodes, each packed in a square about a drawn disc wide, in a picture 100 wide: 2,400 nodes. */
function crowds(): Float32Array {
  const next = random(17);
  const positions = new Float32Array(2 * 2400);
  for (let c = 0; c < 80; c++) {
    const x = next() * 100;
    const y = next() * 100;
    for (let k = 0; k < 30; k++) {
      const i = c * 30 + k;
      positions[2 * i] = x + next();
      positions[2 * i + 1] = y + next();
    }
  }
  return positions;
}

t.test('the percentile box: the 1st and 99th percentiles of each coordinate, as a sort finds them', async (t) => {
  const next = random(5);
  for (const n of [1, 2, 3, 99, 100, 101, 1000, 4070]) {
    for (const kind of ['spread', 'few values', 'sorted', 'reversed']) {
      const positions = Float32Array.from({ length: 2 * n }, (_, k) =>
        kind === 'spread' ? next() * 100 - 50 : kind === 'few values' ? Math.floor(next() * 4) : kind === 'sorted' ? k : -k,
      );
      const sorted = (column: number): Float64Array => Float64Array.from({ length: n }, (_, i) => positions[2 * i + column]!).sort();
      const at = (values: Float64Array, q: number): number => values[Math.min(n - 1, Math.floor(q * n))]!;
      const xs = sorted(0);
      const ys = sorted(1);
      t.same(
        percentileBox(positions),
        { width: at(xs, 0.99) - at(xs, 0.01), height: at(ys, 0.99) - at(ys, 0.01), left: at(xs, 0.01), bottom: at(ys, 0.01) },
        `${n} nodes, ${kind}`,
      );
    }
  }
  t.ok(Number.isNaN(percentileBox(Float32Array.from([1, 2, Number.NaN, 3, 5, 4])).width), 'a NaN sorts last, as before');
});

t.test('crowds parted: no pair left, and the same positions from the same start', async (t) => {
  const before = crowds();
  t.ok(nodeOverlap(before).pairs > 5_000, `overlapping pairs before: ${nodeOverlap(before).pairs}`);
  const parted = before.slice();
  removeOverlaps(parted);
  t.equal(nodeOverlap(parted).pairs, 0, 'no two discs overlap as the web UI draws them');
  const again = before.slice();
  removeOverlaps(again);
  t.same(Array.from(again), Array.from(parted), 'every coordinate equal: a refine after a change starts from where it left them');
});

t.test('a node far out: the grid stays the picture’s size, the crowds are parted all the same', async (t) => {
  for (const [x, y] of [
    [1e7, 0],
    [0, -1e7],
    [1e7, 1e7],
  ]) {
    const positions = crowds();
    positions.set([x!, y!], 0);
    removeOverlaps(positions);
    t.equal(nodeOverlap(positions).pairs, 0, `a node at ${x}, ${y}`);
    t.ok(Math.hypot(positions[0]! - x!, positions[1]! - y!) < 1, 'the far node stays where it was');
  }
  // Nodes beyond the grid's margin (fewer than 1 %, outside the percentile box): all in its border cells, still parted.
  const positions = crowds();
  // (3,000 units out: 30 picture widths, where float32 still parts them; at 5e6 its steps are half a unit.)
  for (let i = 0; i < 20; i++) positions.set([3000 + (i % 5) * 0.01, 3000 + Math.floor(i / 5) * 0.01], 2 * i);
  removeOverlaps(positions);
  const far = positions.slice(0, 40);
  t.equal(nodeOverlap(positions).pairs, 0, '20 nodes piled far out, parted');
  t.ok(
    far.every((v) => v > 2900),
    'they stay far out',
  );
});
