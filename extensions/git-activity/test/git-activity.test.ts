/**
 * git-activity over a repository with a known history, served by a real
 * host (the plugin is built in), checked against git itself.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { startStrata } from '@strata/host';
import t from 'tap';

const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null', TZ: 'UTC' };

async function historyRepo(t: Tap): Promise<string> {
  const repo = await mkdtemp(path.join(tmpdir(), 'strata-git-activity-'));
  t.teardown(() => rm(repo, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: GIT_ENV });
  const commit = async (
    author: string,
    date: string,
    message: string,
    files: Record<string, string | Buffer | null>,
    renames: Array<[string, string]> = [],
  ) => {
    for (const [from, to] of renames) {
      await mkdir(path.dirname(path.join(repo, to)), { recursive: true });
      git('mv', from, to);
    }
    for (const [file, content] of Object.entries(files)) {
      if (content === null) git('rm', '-q', file);
      else {
        await mkdir(path.dirname(path.join(repo, file)), { recursive: true });
        await writeFile(path.join(repo, file), content);
        git('add', file);
      }
    }
    const [name, email] = [author.split(' <')[0]!, author.split(' <')[1]!.slice(0, -1)];
    execFileSync('git', ['commit', '-q', '-m', message], {
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
  const lines = (n: number, tag: string) => `${Array.from({ length: n }, (_, i) => `export const ${tag}${i} = ${i};`).join('\n')}\n`;
  await commit('Ada <ada@example.com>', '2025-01-05T10:00:00Z', 'old, outside the range', { 'src/old.ts': lines(3, 'o'), 'src/a.ts': lines(2, 'a') });
  // History in date order: git log --since stops at the first commit older than the range.
  await commit('Ada <ada@example.com>', '2025-01-06T10:00:00Z', 'mailmap', { '.mailmap': 'Bob <bob@example.com> <bob@old.example.com>\n' });
  await commit('Ada <ada@example.com>', '2026-01-10T10:00:00Z', 'a grows', { 'src/a.ts': lines(5, 'a'), 'docs/guide.md': '# Guide\n' });
  await commit('Bob <bob@old.example.com>', '2026-02-10T10:00:00Z', 'b arrives', {
    'src/b.ts': lines(4, 'b'),
    'assets/logo.bin': Buffer.from([0, 1, 2, 3, 0, 255]),
  });
  await commit('Bob <bob@example.com>', '2026-03-10T10:00:00Z', 'b moves to lib', { 'lib/b.ts': lines(4, 'b').replace('b0 = 0', 'b0 = 10') }, [
    ['src/b.ts', 'lib/b.ts'],
  ]);
  await commit('Cy <cy@example.com>', '2026-04-10T10:00:00Z', 'touch a, lib/b and the binary', {
    'src/a.ts': lines(6, 'a'),
    'lib/b.ts': lines(5, 'b'),
    'assets/logo.bin': Buffer.from([0, 9, 9, 9, 0, 255]),
  });
  return repo;
}

type Tap = { teardown(fn: () => unknown): void };

/** What git itself says of one file over the range, following renames. */
function gitOracle(repo: string, file: string, since: string, until: string): { commits: number; lines: number; authors: number } {
  const run = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: GIT_ENV, encoding: 'utf8' });
  const hashes = run('log', '--follow', `--since=${since}`, `--until=${until}`, '--format=%H', '--', file).split('\n').filter(Boolean);
  const numstat = run('log', '--follow', `--since=${since}`, `--until=${until}`, '--numstat', '--format=', '--', file).split('\n').filter(Boolean);
  const lines = numstat.reduce((sum, line) => {
    const [added, deleted] = line.split('\t');
    return sum + (added === '-' ? 0 : Number(added) + Number(deleted));
  }, 0);
  const authors = new Set(
    run('log', '--follow', '--use-mailmap', `--since=${since}`, `--until=${until}`, '--format=%aE', '--', file).split('\n').filter(Boolean),
  );
  return { commits: hashes.length, lines, authors: authors.size };
}

async function serve(t: Tap & { teardown(fn: () => unknown): void }, repo: string) {
  const strata = await startStrata({
    repository: repo,
    env: {},
    flags: { port: 0, logLevel: 'silent', watch: false },
    logDestination: new Writable({ write: (_c, _e, done) => done() }),
  });
  t.teardown(() => strata.stop());
  const api = async (p: string, init?: RequestInit) => {
    const response = await fetch(strata.url + p, init);
    return { status: response.status, body: (await response.json()) as any };
  };
  return api;
}

t.test('listed as the spec names it', async (t) => {
  const repo = await historyRepo(t);
  const api = await serve(t, repo);
  const plugin = (await api('/api/overlays')).body.plugins.find((p: { id: string }) => p.id === 'git-activity');
  t.match(plugin, { id: 'git-activity', builtIn: true, loaded: true, overlays: [{ id: 'churn', name: 'Change Frequency', type: 'color' }] });
  for (const color of Object.values(plugin.overlays[0].legend)) t.match(color, /^#[0-9a-f]{6}$/);
});

t.test('commits, lines changed and contributors per file match git log, renames followed', async (t) => {
  const repo = await historyRepo(t);
  const api = await serve(t, repo);
  const since = '2026-01-01T00:00:00Z';
  const until = '2026-06-01T00:00:00Z';
  const applied = await api('/api/overlays/git-activity/apply', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ since, until }),
  });
  t.equal(applied.status, 200, JSON.stringify(applied.body));
  t.match(applied.body.data.summary, { commits: 4, since, until });
  const churn = async (id: string) => (await api(`/api/graph/nodes/${encodeURIComponent(id)}`)).body.data.overlays?.['git-activity']?.churn;

  for (const file of ['src/a.ts', 'lib/b.ts', 'assets/logo.bin', 'docs/guide.md']) {
    const expected = gitOracle(repo, file, since, until);
    const style = await churn(`file:${file}`);
    t.equal(style.value, expected.commits, `${file}: commits as git log --follow counts them`);
    t.equal(Number(style.badge), expected.authors, `${file}: contributors by e-mail after .mailmap`);
    t.ok(style.size >= 0.5 && style.size <= 3, `${file}: a size`);
    t.match(style.color, /^#[0-9a-f]{6}$/);
  }
  t.same(gitOracle(repo, 'lib/b.ts', since, until), { commits: 3, lines: 4 + 2 + 3, authors: 2 }, 'lib/b.ts keeps the history of src/b.ts');
  t.equal((await churn('file:assets/logo.bin')).value, 2, 'binary changes count as commits');
  t.equal((await churn('file:src/old.ts')).value, 0, 'a file untouched in the range has 0 commits');

  // Size: 0.5 + 2.5 * sqrt(lines changed / lines changed of the busiest file), lines as git log --numstat counts them.
  const files = ['src/a.ts', 'lib/b.ts', 'assets/logo.bin', 'docs/guide.md', 'src/old.ts'];
  const lines = Object.fromEntries(files.map((file) => [file, gitOracle(repo, file, since, until).lines]));
  const busiest = Math.max(...Object.values(lines));
  for (const file of files)
    t.equal((await churn(`file:${file}`)).size, 0.5 + 2.5 * Math.sqrt(lines[file]! / busiest), `${file}: size from ${lines[file]} lines changed`);
  const sizes = { a: (await churn('file:src/a.ts')).size, b: (await churn('file:lib/b.ts')).size, bin: (await churn('file:assets/logo.bin')).size };
  t.ok(sizes.a > sizes.bin && sizes.b > sizes.bin, 'size grows with lines changed; binary changes add no lines');

  const src = await churn('dir:src');
  t.equal(src.value, 2, 'a directory counts the distinct commits below it');
  t.equal(Number(src.badge), 2);
  t.equal((await churn('dir:.')).value, 4);
});

t.test('the default range is the six months before now; bad dates are 400 naming the field', async (t) => {
  const repo = await historyRepo(t);
  const api = await serve(t, repo);
  const post = (body: unknown) =>
    api('/api/overlays/git-activity/apply', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const applied = await post({});
  t.equal(applied.status, 200);
  const { since, until } = applied.body.data.summary;
  const months = (Date.parse(until) - Date.parse(since)) / (30.44 * 24 * 3600 * 1000);
  t.ok(months > 5.9 && months < 6.1, `about six months (${months.toFixed(2)})`);
  t.ok(Math.abs(Date.parse(until) - Date.now()) < 60_000, 'until now');

  const before = await post({ since: '2020-01-01', until: '2020-12-31' });
  t.equal(before.status, 200, 'a range without commits applies');
  t.match(before.body.data, { state: 'active', styledNodes: 0, summary: { commits: 0, message: /^no commits in the range/ } }, 'nothing painted, and why');

  let response = await post({ since: 'last week' });
  t.equal(response.status, 400);
  t.match(response.body.error, { code: 'INVALID_PARAMETER', message: /body\.since/ });
  response = await post({ since: '2026-02-30' });
  t.equal(response.status, 400, 'a date that does not exist');
  t.match(response.body.error.message, /since/);
  response = await post({ since: '2026-05-01', until: '2026-01-01' });
  t.equal(response.status, 400);
  t.match(response.body.error.message, /since .* is after until/);
});
