/**
 * ownership over a repository with a known history, served by a real host
 * (the plugin is built in), checked against git blame.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { startStrata } from '@strata/host';
import { blendColors } from '@strata/sdk';
import t from 'tap';

const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null', TZ: 'UTC' };
type Tap = { teardown(fn: () => unknown): void };

const recent = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');

async function ownedRepo(t: Tap): Promise<string> {
  const repo = await mkdtemp(path.join(tmpdir(), 'strata-ownership-'));
  t.teardown(() => rm(repo, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: GIT_ENV });
  const commit = async (author: string, date: string, files: Record<string, string>) => {
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(repo, file)), { recursive: true });
      await writeFile(path.join(repo, file), content);
      git('add', file);
    }
    const [name, email] = [author.split(' <')[0]!, author.split(' <')[1]!.slice(0, -1)];
    execFileSync('git', ['commit', '-q', '-m', `by ${name}`], {
      cwd: repo,
      env: {
        ...GIT_ENV,
        GIT_AUTHOR_NAME: name,
        GIT_AUTHOR_EMAIL: email,
        GIT_COMMITTER_NAME: name,
        GIT_COMMITTER_EMAIL: email,
        GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_DATE: date,
      },
    });
  };
  git('init', '-q', '-b', 'main');
  const lines = (tags: string[]) => `${tags.map((tag, i) => `export const ${tag}${i} = ${i};`).join('\n')}\n`;
  await commit('Ada <ada@example.com>', '2024-01-01T00:00:00Z', { 'src/legacy.ts': lines(['a', 'a', 'a']), 'src/shared.ts': lines(['a', 'a', 'a', 'a']) });
  await commit('Bob <bob@example.com>', recent(30), { 'src/shared.ts': lines(['a', 'a', 'b', 'b']), 'src/bob.ts': lines(['b', 'b']) });
  await commit('Cy <cy@example.com>', recent(10), { 'src/shared.ts': lines(['a', 'a', 'b', 'c']), 'lib/cy.ts': lines(['c']) });
  return repo;
}

/** Lines per author e-mail, from git blame itself. */
function blameOracle(repo: string, file: string): Map<string, number> {
  const out = execFileSync('git', ['blame', '--line-porcelain', '--', file], { cwd: repo, env: GIT_ENV, encoding: 'utf8' });
  const counts = new Map<string, number>();
  for (const match of out.matchAll(/^author-mail <(.+)>$/gm)) counts.set(match[1]!, (counts.get(match[1]!) ?? 0) + 1);
  return counts;
}

async function serve(t: Tap, repo: string, plugins: { gitCommitGraph?: boolean } = {}) {
  const strata = await startStrata({
    repository: repo,
    env: {},
    flags: { port: 0, logLevel: 'silent', watch: false, plugins },
    logDestination: new Writable({ write: (_c, _e, done) => done() }),
  });
  t.teardown(() => strata.stop());
  return async (p: string, init?: RequestInit) => {
    const response = await fetch(strata.url + p, init);
    return { status: response.status, body: (await response.json()) as any };
  };
}

const TEAMS = { teams: { core: ['ada@example.com', 'bob@example.com'], web: ['dana@example.com'] } };

t.test('shares of current lines by team, blended colors, gray for code without recent commits', async (t) => {
  const repo = await ownedRepo(t);
  const api = await serve(t, repo);
  const apply = await api('/api/overlays/ownership/apply', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ inputs: { teams: JSON.stringify(TEAMS) } }),
  });
  t.equal(apply.status, 200, JSON.stringify(apply.body));
  t.match(apply.body.data.summary, { authors: 3, unmappedAuthors: 1, unmapped: 'cy@example.com' }, 'authors not in the teams file are reported');

  const listed = (await api('/api/overlays')).body.plugins.find((p: { id: string }) => p.id === 'ownership');
  const legend = listed.overlays[0].legend;
  t.same(Object.keys(legend), ['core', 'unmapped: cy@example.com', 'web', 'no recent commits'], 'one color per team, sorted by name, then gray');
  t.equal(legend['no recent commits'], '#9e9e9e');
  t.equal(new Set(Object.values(legend)).size, 4, 'distinct colors');

  const style = async (id: string) => (await api(`/api/graph/nodes/${encodeURIComponent(id)}`)).body.data.overlays.ownership.teams;
  const shared = blameOracle(repo, 'src/shared.ts');
  t.same(Object.fromEntries(shared), { 'ada@example.com': 2, 'bob@example.com': 1, 'cy@example.com': 1 }, 'the oracle: git blame');
  const expected = blendColors([
    { color: legend.core, weight: shared.get('ada@example.com')! + shared.get('bob@example.com')! },
    { color: legend['unmapped: cy@example.com'], weight: shared.get('cy@example.com')! },
  ]);
  t.same(await style('file:src/shared.ts'), { color: expected, value: 75, badge: '2' }, "colors blended by line share; value: the top team's share");
  t.same(await style('file:src/bob.ts'), { color: legend.core, value: 100, badge: '1' });
  t.same(await style('file:src/legacy.ts'), { color: '#9e9e9e', value: 100, badge: '1' }, 'no commit in the last 6 months: gray');

  // src: legacy 3 core + shared 3 core, 1 cy + bob 2 core = 8 core, 1 cy.
  t.same(
    await style('dir:src'),
    {
      color: blendColors([
        { color: legend.core, weight: 8 },
        { color: legend['unmapped: cy@example.com'], weight: 1 },
      ]),
      value: 88.9,
      badge: '2',
    },
    'directories add up their files',
  );
});

t.test('without a teams file each author is a team; the window is a parameter', async (t) => {
  const repo = await ownedRepo(t);
  const api = await serve(t, repo);
  const apply = await api('/api/overlays/ownership/apply', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ windowMonths: 36 }),
  });
  t.equal(apply.status, 200);
  t.match(apply.body.data.summary, { teams: 3, unmappedAuthors: 0 });
  const legend = (await api('/api/overlays')).body.plugins.find((p: { id: string }) => p.id === 'ownership').overlays[0].legend;
  t.same(Object.keys(legend), ['ada@example.com', 'bob@example.com', 'cy@example.com', 'no recent commits']);
  const legacy = (await api(`/api/graph/nodes/${encodeURIComponent('file:src/legacy.ts')}`)).body.data.overlays.ownership.teams;
  t.equal(legacy.color, legend['ada@example.com'], "inside a 36-month window the old file has its owner's color");

  // The knowledge overlays, from the same blame. Ada's one commit (2024-01-01) is over 6 months old: inactive.
  // src: legacy Ada 3, shared Ada 2 Bob 1 Cy 1, bob.ts Bob 2 = Ada 5, Bob 3, Cy 1 of 9. lib: Cy 1. The root: 10.
  const knowledge = async (id: string) => (await api(`/api/graph/nodes/${encodeURIComponent(id)}`)).body.data.overlays.ownership;
  const src = await knowledge('dir:src');
  t.match(src['main-author'], { value: 55.6, badge: 'inactive: Ada 56 %' }, 'src: Ada holds 5 of 9 lines, and is inactive');
  t.match(src['knowledge-spread'], { value: 2, badge: '2 authors hold 80 %' }, 'src: 5 + 3 of 9 is 89 %');
  t.match(src['truck-factor'], { value: 0 }, "src: Ada's 5 of 9 lines have no active author already");
  t.match((await knowledge('dir:lib'))['truck-factor'], { value: 1 }, 'lib: Cy alone');
  t.match((await knowledge('dir:.'))['truck-factor'], { value: 1 }, '.: Ada 5 of 10, exactly half; Bob (3) leaves: 8');
  t.match((await knowledge('file:src/shared.ts'))['main-author'], { value: 50, badge: 'inactive: Ada 50 %' });
  t.match(apply.body.data.summary, {
    activeAuthors: 2,
    inactiveAuthors: 1,
    topInactiveAuthor1: /^Ada <ada@example\.com>: 50 % of the lines \(5\), newest line 2024-01-01$/,
  });
});

t.test('a second apply with nothing changed is answered from the blame cache', async (t) => {
  const repo = await ownedRepo(t);
  const api = await serve(t, repo);
  const first = await api('/api/overlays/ownership/apply', { method: 'POST' });
  t.equal(first.status, 200);
  // Every git the host runs from now on goes through this wrapper, which logs its arguments.
  const bin = await mkdtemp(path.join(tmpdir(), 'strata-fake-git-'));
  t.teardown(() => rm(bin, { recursive: true, force: true }));
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  await writeFile(path.join(bin, 'git'), `#!/bin/sh\necho "$@" >> "${bin}/calls"\nexec "${realGit}" "$@"\n`, { mode: 0o755 });
  const savedPath = process.env.PATH;
  process.env.PATH = `${bin}:${savedPath}`;
  t.teardown(() => {
    process.env.PATH = savedPath;
  });
  await new Promise((resolve) => setTimeout(resolve, 1100)); // past the host's one-second memo of HEAD
  const second = await api('/api/overlays/ownership/apply', { method: 'POST' });
  process.env.PATH = savedPath;
  t.equal(second.status, 200);
  // Less the dates measured from now.
  const { recentSince: _a, activeSince: _c, activeUntil: _e, ...firstSummary } = first.body.data.summary;
  const { recentSince: _b, activeSince: _d, activeUntil: _f, ...secondSummary } = second.body.data.summary;
  t.same(secondSummary, firstSummary, 'the same answer');
  const calls = await import('node:fs/promises').then((fs) => fs.readFile(path.join(bin, 'calls'), 'utf8')).catch(() => '');
  t.match(calls, /rev-parse/, 'the wrapper saw the host check HEAD');
  t.notMatch(calls, /blame/, 'and no git blame ran for the second apply');
});

t.test('a first batch of files with no line committed does not stop the blame when the repository has commits', async (t) => {
  const repo = await ownedRepo(t);
  // Staged, never committed, and first in path order: the first 50 files blamed have no committed line.
  for (let i = 0; i < 60; i++) {
    await mkdir(path.join(repo, 'a'), { recursive: true });
    await writeFile(path.join(repo, 'a', `new${String(i).padStart(2, '0')}.ts`), `export const n${i} = ${i};\n`);
  }
  execFileSync('git', ['add', 'a'], { cwd: repo, env: GIT_ENV });
  const api = await serve(t, repo);
  const apply = await api('/api/overlays/ownership/apply', { method: 'POST' });
  t.equal(apply.status, 200, JSON.stringify(apply.body));
  t.match(apply.body.data.summary, { files: 64, filesBlamed: 64, authors: 3 }, 'every file blamed');
  t.notOk('message' in apply.body.data.summary, 'no word of a missing history');
  const style = async (id: string) => (await api(`/api/graph/nodes/${encodeURIComponent(id)}`)).body.data.overlays?.ownership?.teams;
  t.match(await style('file:src/bob.ts'), { value: 100, badge: '1' }, 'the committed files are owned');
  t.equal(await style('file:a/new00.ts'), undefined, 'the staged ones are nobody');
});

t.test('a malformed teams file is a 400 naming the problem', async (t) => {
  const repo = await ownedRepo(t);
  const api = await serve(t, repo);
  const post = (teams: string) =>
    api('/api/overlays/ownership/apply', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ inputs: { teams } }) });
  for (const [teams, message] of [
    ['{"teams": ', /teams: not valid JSON/],
    ['{"squads": {}}', /teams: must be \{"teams"/],
    ['{"teams": {"core": "ada@example.com"}}', /team "core" must be an array/],
    ['{"teams": {"core": ["ada"]}}', /"ada" in team "core" is not an e-mail address/],
    ['{"teams": {"a": ["x@y.z"], "b": ["x@y.z"]}}', /x@y\.z is in both "a" and "b"/],
  ] as const) {
    const response = await post(teams);
    t.equal(response.status, 400, teams);
    t.match(response.body.error, { code: 'INVALID_PARAMETER', message }, teams);
  }
});

t.test("git's commit-graph is written for blame, unless turned off", async (t) => {
  const { existsSync } = await import('node:fs');
  const graphFile = (repo: string) => path.join(repo, '.git', 'objects', 'info', 'commit-graph');
  const plain = await ownedRepo(t);
  const off = await serve(t, plain, { gitCommitGraph: false });
  t.equal((await off('/api/overlays/ownership/apply', { method: 'POST' })).status, 200);
  t.notOk(existsSync(graphFile(plain)), 'off: .git is left as it was');
  const sped = await ownedRepo(t);
  const on = await serve(t, sped);
  t.equal((await on('/api/overlays/ownership/apply', { method: 'POST' })).status, 200);
  t.ok(existsSync(graphFile(sped)), 'on (the default): the commit-graph is there');
  const verified = execFileSync('git', ['commit-graph', 'verify'], { cwd: sped, env: GIT_ENV, encoding: 'utf8' });
  t.equal(verified.trim(), '', 'and git finds nothing wrong with it');
});
