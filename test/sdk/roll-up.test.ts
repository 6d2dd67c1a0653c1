// The SDK's roll-up helpers (sdk/src/roll-up.ts) on a small tree: what each directory gets, what other nodes keep.
import { directoriesAbove, type GraphView, rollUp } from '@strata/sdk';
import t from 'tap';

// 0 root/  1 src/  2 src/a.ts  3 src/b.ts  4 src/empty/  5 lib/  6 lib/c.ts  7 a function in a.ts  8 top.ts
const KINDS = ['directory', 'file', 'function'];
const graph = {
  nodeCount: 9,
  nodes: {
    kindNames: KINDS,
    kind: Uint8Array.from([0, 0, 1, 1, 0, 0, 1, 2, 1]),
    parent: Int32Array.from([-1, 0, 1, 1, 1, 0, 5, 2, 0]),
  },
} as unknown as GraphView;
const N = Number.NaN;

t.test('directoriesAbove: the directories up to the root, nearest first, passing over a file', async (t) => {
  t.same([...directoriesAbove(graph, 7)], [1, 0], 'a function in src/a.ts: src/, then the root (not its file)');
  t.same([...directoriesAbove(graph, 6)], [5, 0]);
  t.same([...directoriesAbove(graph, 0)], [], 'the root has none');
});

t.test("rollUp: each directory gets its files' figures, every other node keeps its own", async (t) => {
  // What is given for a directory (1000) is not used; NaN is no figure.
  const figures = Float64Array.from([1000, 1000, 10, N, 1000, 1000, 5, 99, 1]);
  t.same(Array.from(rollUp(graph, figures)), [16, 10, 10, N, N, 5, 5, 99, 1], 'sum: the root adds a.ts, c.ts and top.ts; the function is not rolled');
  t.same(Array.from(rollUp(graph, figures, 'max')), [10, 10, 10, N, N, 5, 5, 99, 1], 'max');
  t.same(Array.from(rollUp(graph, figures, 'min')), [1, 10, 10, N, N, 5, 5, 99, 1], 'min');
  t.equal(figures[0], 1000, 'the figures given are left as they were');
  t.same(Array.from(rollUp(graph, [3, 4])), [N, N, N, N, N, N, N, N, N], 'entries left out are no figure (only directories were given)');
});
