// `strata hotspots`: the hotspots overlay applied without a server (as `strata overlay apply` does) or on one, and its
// ranking printed, as a table or as JSON; bad input refused before anything is indexed.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { makeRepo, writeFiles } from '../helpers/fixture-repo.ts';
import { runStrata } from '../helpers/strata-cli.ts';
import { startTestServer } from '../helpers/strata-server.ts';

t.setTimeout(240_000);

const NO_SERVER = 'http://127.0.0.1:9';
const HOTSPOTS_PLUGIN = path.resolve(fileURLToPath(import.meta.url), '../../../extensions/hotspots');
const RANGE = ['--since', '2026-01-01', '--until', '2026-06-01'];

/**
 * Four commits in the range. Commits: src/a.ts 3, src/b.py 2, src/c.ts 1, README.md 2 (no complexity: not counted).
 * Cyclomatic complexity: src/a.ts 1 + if + for + ?? = 4; src/b.py 1 + if = 2; src/c.ts 1. The most: 3 commits, 4.
 * Scores: a (3/3)(4/4) = 1, b (2/3)(2/4) = 1/3, c (1/3)(1/4) = 1/12.
 */
async function historyRepo(t: Parameters<typeof makeRepo>[0]): Promise<string> {
  const repo = await makeRepo(t, {});
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null', TZ: 'UTC' };
  const git = (args: string[], date?: string) =>
    execFileSync('git', args, {
      cwd: repo,
      env: {
        ...env,
        GIT_AUTHOR_NAME: 'Ada',
        GIT_AUTHOR_EMAIL: 'ada@example.com',
        GIT_COMMITTER_NAME: 'Ada',
        GIT_COMMITTER_EMAIL: 'ada@example.com',
        ...(date && { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }),
      },
    });
  const commit = async (date: string, files: Record<string, string>) => {
    await writeFiles(repo, files);
    git(['add', '.']);
    git(['commit', '-q', '-m', `at ${date}`], date);
  };
  git(['init', '-q', '-b', 'main']);
  const a = (n: number) => `export function a(x?: number, ys: number[]) {\n  if (x) return ${n};\n  for (const y of ys) x = y;\n  return x ?? 2;\n}\n`;
  await commit('2026-01-10T10:00:00Z', {
    'src/a.ts': a(1),
    'src/b.py': 'def b(x):\n    return 0\n',
    'src/c.ts': 'export function c() {\n  return 1;\n}\n',
    'README.md': '# R\n',
  });
  await commit('2026-02-10T10:00:00Z', { 'src/a.ts': a(2), 'README.md': '# R\n\nMore.\n' });
  await commit('2026-03-10T10:00:00Z', { 'src/b.py': 'def b(x):\n    if x:\n        return 1\n    return 0\n' });
  await commit('2026-04-10T10:00:00Z', { 'src/a.ts': a(3) });
  return repo;
}

t.test('without a server: the ranking as a table and as JSON', async (t) => {
  const repo = await historyRepo(t);
  const table = runStrata(t, ['hotspots', '--top', '2', ...RANGE, '--server', NO_SERVER, '--repo', repo]);
  t.equal(await table.exited, 0, table.stderr());
  t.match(table.stderr(), /No server answers at http:\/\/127\.0\.0\.1:9; working on/);
  t.equal(
    table.stdout(),
    [
      'Hotspots from 2026-01-01 to 2026-06-01: 4 commits, 3 files scored (most commits 3, highest complexity 4); the top 2:',
      'rank  score  commits  complexity  path',
      '   1  1.000        3           4  src/a.ts',
      '   2  0.333        2           2  src/b.py',
      '',
    ].join('\n'),
  );

  const json = runStrata(t, ['hotspots', '--top', '3', '--json', ...RANGE, '--server', NO_SERVER, '--repo', repo]);
  t.equal(await json.exited, 0, json.stderr());
  t.same(JSON.parse(json.stdout()), {
    since: '2026-01-01',
    until: '2026-06-01',
    commits: 4,
    filesScored: 3,
    maxCommits: 3,
    maxComplexity: 4,
    hotspots: [
      { rank: 1, score: 1, commits: 3, complexity: 4, path: 'src/a.ts' },
      { rank: 2, score: (2 / 3) * (2 / 4), commits: 2, complexity: 2, path: 'src/b.py' },
      { rank: 3, score: (1 / 3) * (1 / 4), commits: 1, complexity: 1, path: 'src/c.ts' },
    ],
  });

  const empty = runStrata(t, ['hotspots', '--since', '2020-01-01', '--until', '2020-12-31', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await empty.exited, 0, empty.stderr());
  t.equal(empty.stdout(), 'No hotspots from 2020-01-01 to 2020-12-31: no commits in the range: nothing to show.\n');
});

t.test('bad input is refused with exit 2, before any work', async (t) => {
  const repo = await makeRepo(t, { 'a.ts': 'export const a = 1;\n' });
  const badDate = runStrata(t, ['hotspots', '--since', '2026-02-30', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await badDate.exited, 2);
  t.equal(badDate.stderr(), 'strata: --since: "2026-02-30" is not a date (YYYY-MM-DD, or an ISO 8601 date-time)\n');
  const badTop = runStrata(t, ['hotspots', '--top', '0', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await badTop.exited, 2);
  t.equal(badTop.stderr(), 'strata: --top: must be a whole number from 1 to 30, not "0"\n');
});

t.test('with a server: applied there, and the ranking is its status summary', async (t) => {
  const repo = await historyRepo(t);
  const server = await startTestServer(t, repo, { flags: { watch: false, plugins: { directories: [HOTSPOTS_PLUGIN] } } });
  const ranked = runStrata(t, ['hotspots', '--top', '1', ...RANGE, '--server', server.url]);
  t.equal(await ranked.exited, 0, ranked.stderr());
  t.notMatch(ranked.stderr(), /No server answers/);
  t.match(ranked.stdout(), /\n {3}1 {2}1\.000 {8}3 {11}4 {2}src\/a\.ts\n$/);
  const status = (await server.api('/api/overlays/hotspots/status')).body.data;
  t.match(status, { state: 'active', params: { since: '2026-01-01', until: '2026-06-01', top: 1 }, summary: { ranked: 1 } });
  t.same(JSON.parse(status.summary.hotspot1), { rank: 1, score: 1, commits: 3, complexity: 4, path: 'src/a.ts' });
});
