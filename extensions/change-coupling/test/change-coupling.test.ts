/**
 * change-coupling on a history whose figures are worked out by hand below,
 * in the real sandbox (the harness), with git's answer given.
 */
import { colorScale, type GitCommit } from '@strata/sdk';
import { PluginTester } from '@strata/sdk-testing';
import t from 'tap';

const tester = new PluginTester(new URL('..', import.meta.url));

let next = 0;
const commit = (...files: Array<string | [string, string]>): GitCommit => ({
  hash: String(++next).padStart(40, '0'),
  authorName: 'Ada',
  authorEmail: 'ada@example.com',
  date: '2026-06-01T00:00:00Z',
  subject: `commit ${next}`,
  files: files.map((file) =>
    typeof file === 'string'
      ? { path: file, added: 1, deleted: 0, binary: false }
      : { path: file[0], previousPath: file[1], added: 1, deleted: 0, binary: false },
  ),
});

/**
 * Newest first, as `git log` gives them. With maxChangesetSize 3 the last
 * commit (4 files) is left out; old/e.ts is e.ts before its rename:
 *
 *   commits:  a 6 (1,2,3,4,6,7), b 4 (1,2,3,5), c 2 (1,4), d 1 (5), e 2 (6,7)
 *   shared:   a-b 3, a-c 2, a-e 2, b-c 1, b-d 1
 *   degree:   a-b 3 / ((6 + 4) / 2) = 60 %, a-c 2 / 4 = 50 %, a-e 2 / 4 = 50 %, b-c 1 / 3 = 33.3 %, b-d 1 / 2.5 = 40 %
 *   sum of coupling: a 2+1+1+1+1+1 = 7, b 2+1+1+1 = 5, c 2+1 = 3, d 1, e 1+1 = 2
 */
const HISTORY: GitCommit[] = [
  commit('src/a.ts', 'src/b.ts', 'src/c.ts'),
  commit('src/a.ts', 'src/b.ts'),
  commit('src/a.ts', 'src/b.ts'),
  commit('src/a.ts', 'src/c.ts'),
  commit('src/b.ts', 'src/d.ts'),
  commit('src/a.ts', ['src/e.ts', 'old/e.ts']),
  commit('src/a.ts', 'old/e.ts'),
  commit('src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts'),
];

/** The repository now: d.ts was deleted since. */
const GRAPH = {
  nodes: [
    { id: 'dir:.', kind: 'directory' as const, name: '.', path: '.' },
    { id: 'dir:src', kind: 'directory' as const, name: 'src', path: 'src', parent: 'dir:.' },
    ...['a', 'b', 'c', 'e'].map((name) => ({
      id: `file:src/${name}.ts`,
      kind: 'file' as const,
      name: `${name}.ts`,
      path: `src/${name}.ts`,
      parent: 'dir:src',
    })),
  ],
};

const git = { 'git:log': () => HISTORY };
const small = { minRevisions: 1, minSharedRevisions: 2, maxChangesetSize: 3, since: '2026-01-01', until: '2026-12-01' };

t.test('pairs within the thresholds become edges: degree as weight, shared commits as value', async (t) => {
  const result = await tester.run({ graph: GRAPH, params: small, capabilities: git });
  t.same(result.overlays.coupling!.edges, [
    { source: 'file:src/a.ts', target: 'file:src/b.ts', weight: 0.6, value: 3, label: '60 %' },
    { source: 'file:src/a.ts', target: 'file:src/c.ts', weight: 0.5, value: 2, label: '50 %' },
    { source: 'file:src/a.ts', target: 'file:src/e.ts', weight: 0.5, value: 2, label: '50 %' },
  ]);
  t.match(result.summary, {
    commits: 8,
    commitsLeftOut: 1,
    maxChangesetSize: 3,
    pairs: 3,
    pairsOfFilesGone: 0,
    strongest: 'src/a.ts <-> src/b.ts: 60 % (3 shared commits)',
    thresholds: 'min revisions 1, min shared 2, coupling 30 to 100 %',
  });
  const color = colorScale(['#f2f0f7', '#9e9ac8', '#54278f'], [0, 7]);
  t.same(result.overlays['sum-of-coupling']!.styles, {
    'file:src/a.ts': { color: color(7), value: 7 },
    'file:src/b.ts': { color: color(5), value: 5 },
    'file:src/c.ts': { color: color(3), value: 3 },
    'file:src/e.ts': { color: color(2), value: 2 },
  });
});

t.test('the thresholds as Code Maat applies them', async (t) => {
  const loose = await tester.run({ graph: GRAPH, params: { ...small, minSharedRevisions: 1 }, capabilities: git });
  t.same(
    loose.overlays.coupling!.edges.map((edge) => [edge.source.slice(9), edge.target.slice(9), edge.label]),
    [
      ['a.ts', 'b.ts', '60 %'],
      ['a.ts', 'c.ts', '50 %'],
      ['a.ts', 'e.ts', '50 %'],
      ['b.ts', 'c.ts', '33 %'],
    ],
  );
  t.equal(loose.summary.pairsOfFilesGone, 1, 'b-d (40 %) has no edge: d.ts is gone');

  const capped = await tester.run({ graph: GRAPH, params: { ...small, maxCoupling: 55 }, capabilities: git });
  t.same(
    capped.overlays.coupling!.edges.map((edge) => edge.label),
    ['50 %', '50 %'],
    'a-b (60 %) is over maxCoupling',
  );
  const strict = await tester.run({ graph: GRAPH, params: { ...small, minCoupling: 55 }, capabilities: git });
  t.equal(strict.overlays.coupling!.edges.length, 1);
  const averaged = await tester.run({ graph: GRAPH, params: { ...small, minRevisions: 5 }, capabilities: git });
  t.same(
    averaged.overlays.coupling!.edges.map((edge) => edge.target),
    ['file:src/b.ts'],
    'only a-b has an average of 5 commits ((6 + 4) / 2)',
  );
  const wide = await tester.run({ graph: GRAPH, params: { ...small, maxChangesetSize: 4 }, capabilities: git });
  t.equal(wide.summary.commitsLeftOut, 0, 'the 4-file commit counts with maxChangesetSize 4');
  t.equal(wide.edge('coupling', 'file:src/a.ts', 'file:src/b.ts')!.value, 4);

  const defaults = await tester.run({ graph: GRAPH, params: { since: '2026-01-01', until: '2026-12-01' }, capabilities: git });
  t.same(defaults.overlays.coupling!.edges, [], "Code Maat's defaults (5 commits, 5 shared) keep no pair of this short history");
  t.match(defaults.summary.thresholds, 'min revisions 5, min shared 5, coupling 30 to 100 %');
});

t.test('no commits in the range, bad parameters', async (t) => {
  const none = await tester.run({ graph: GRAPH, params: { since: '2026-01-01', until: '2026-12-01' }, capabilities: { 'git:log': () => [] } });
  t.match(none.summary, { commits: 0, pairs: 0, message: /no commits at all/ });
  await t.rejects(tester.run({ graph: GRAPH, params: { since: '2026-02-30' }, capabilities: git }), {
    code: 'INVALID_PARAMETER',
    message: /since: "2026-02-30" is not a valid date/,
  });
  await t.rejects(tester.run({ graph: GRAPH, params: { minCoupling: 120 }, capabilities: git }), { code: 'INVALID_PARAMETER', message: /minCoupling/ });
});
