import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { pluginCode, pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { startTestServerWithBuiltIns } from '../helpers/strata-server.ts';

/**
 * `git.blame` answers what `git blame` answers, for every kind of history a
 * file can have, whether the host runs git blame for it or knows it from
 * one pass over the history (a file one commit wrote whole, never touched
 * again). A `git` on PATH that logs its arguments says which files were
 * blamed by git.
 */

const numbered = (prefix: string, count: number): string => Array.from({ length: count }, (_, i) => `export const ${prefix}${i} = ${i * 7};\n`).join('');

t.test('git.blame equals git blame line by line; a file one commit wrote whole is answered without running blame', async (t) => {
  const repo = await makeRepo(t, {
    'whole.ts': numbered('w', 5),
    'empty.ts': '',
    'no-newline.ts': 'export const a = 1;\nexport const b = 2;',
    'crlf.ts': 'export const a = 1;\r\nexport const b = 2;\r\n',
    'changed.ts': numbered('c', 3),
    'old-name.ts': numbered('o', 40),
    'twin-source.ts': numbered('t', 40),
    'gone.ts': numbered('g', 2),
    'dirty.ts': numbered('d', 2),
  });
  const env = {
    ...process.env,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_SYSTEM: '/dev/null',
    GIT_AUTHOR_NAME: 'Nobody',
    GIT_AUTHOR_EMAIL: 'nobody@example.com',
    GIT_COMMITTER_NAME: 'Nobody',
    GIT_COMMITTER_EMAIL: 'nobody@example.com',
  };
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: repo, env, encoding: 'utf8', stdio: 'pipe' });
  const commit = (name: string, date: string, message: string): void => {
    git('add', '-A');
    git('commit', '-q', '-m', message, '--date', date, `--author=${name} <${name.toLowerCase()}@example.com>`);
  };
  git('init', '-q', '-b', 'main');
  commit('Ada', '2026-01-01T10:00:00Z', 'first');
  // Bob changes a file, renames one (a small change with it), deletes one and adds two files that are nearly it
  // (git pairs the source with one of them only when it looks for renames alone; blame follows it into both),
  // deletes a file, and adds an unrelated one in the same commit.
  await writeFile(path.join(repo, 'changed.ts'), `${numbered('c', 3)}export const more = 1;\n`);
  git('mv', 'old-name.ts', 'new-name.ts');
  await writeFile(path.join(repo, 'new-name.ts'), `${numbered('o', 40)}export const renamed = true;\n`);
  await rm(path.join(repo, 'twin-source.ts'));
  await writeFile(path.join(repo, 'twin-a.ts'), numbered('t', 39));
  await writeFile(path.join(repo, 'twin-b.ts'), numbered('t', 38));
  await rm(path.join(repo, 'gone.ts'));
  await writeFile(path.join(repo, 'fresh.ts'), 'export function fresh(): string {\n  return "nothing like the deleted files";\n}\n');
  commit('Bob', '2026-02-01T10:00:00Z', 'second');
  await writeFile(path.join(repo, 'gone.ts'), numbered('g', 2));
  await writeFile(path.join(repo, '.mailmap'), 'Robert <robert@example.com> <bob@example.com>\n');
  commit('Carol', '2026-03-01T10:00:00Z', 'third');
  // A branch adds two files; main adds one; the merge changes one of the branch's files and adds a file of its own.
  git('checkout', '-q', '-b', 'side');
  await writeFile(path.join(repo, 'branch.ts'), numbered('b', 3));
  await writeFile(path.join(repo, 'evil.ts'), numbered('e', 3));
  commit('Dan', '2026-04-01T10:00:00Z', 'side');
  git('checkout', '-q', 'main');
  await writeFile(path.join(repo, 'main.ts'), numbered('m', 3));
  commit('Eve', '2026-04-02T10:00:00Z', 'main');
  git('merge', '-q', '--no-ff', '--no-commit', 'side');
  await writeFile(path.join(repo, 'evil.ts'), `${numbered('e', 3)}export const inTheMerge = 1;\n`);
  await writeFile(path.join(repo, 'merge-only.ts'), numbered('x', 2));
  commit('Frank', '2026-04-03T10:00:00Z', 'merge');
  // Not committed: a line added to a file.
  await writeFile(path.join(repo, 'dirty.ts'), `${numbered('d', 2)}export const notYet = 1;\n`);

  const files = [
    'whole.ts',
    'empty.ts',
    'no-newline.ts',
    'crlf.ts',
    'changed.ts',
    'new-name.ts',
    'twin-a.ts',
    'twin-b.ts',
    'gone.ts',
    'fresh.ts',
    '.mailmap',
    'branch.ts',
    'evil.ts',
    'main.ts',
    'merge-only.ts',
    'dirty.ts',
  ];
  const answeredWithoutBlame = ['whole.ts', 'empty.ts', 'no-newline.ts', 'crlf.ts', 'fresh.ts', '.mailmap', 'branch.ts', 'main.ts'];

  // What git blame itself says, line by line: commit, author (after .mailmap), time.
  const expected: Record<string, string[]> = {};
  for (const file of files) {
    const dirty = git('status', '--porcelain', '--', file).trim() !== '';
    const lines: string[] = [];
    let current = { hash: '', author: '', mail: '', time: '' };
    for (const line of git('blame', '--line-porcelain', ...(dirty ? [] : ['HEAD']), '--', file).split('\n')) {
      const header = /^([0-9a-f]{40}) \d+ \d+/.exec(line);
      if (header) current = { hash: header[1]!, author: '', mail: '', time: '' };
      else if (line.startsWith('author ')) current.author = line.slice(7);
      else if (line.startsWith('author-mail ')) current.mail = line.slice(12).replace(/^<|>$/g, '');
      // A line not committed yet is dated when blame runs: the moment is not compared.
      else if (line.startsWith('author-time ')) current.time = /^0+$/.test(current.hash) ? 'now' : new Date(Number(line.slice(12)) * 1000).toISOString();
      else if (line.startsWith('\t')) lines.push(`${current.hash.slice(0, 10)} ${current.author} <${current.mail}> ${current.time}`);
    }
    expected[file] = lines;
  }
  t.same(expected['whole.ts']!.length, 5, 'the fixture: git blames every line');
  t.match(expected['twin-b.ts']![0], /Ada/, 'the fixture: blame follows the deleted file into both near-copies');
  t.match(expected['evil.ts']!.at(-1), /Frank/, "the fixture: the merge's own line is the merge's");

  // A git that logs what it is asked, in front of the real one.
  const bin = await mkdtemp(path.join(tmpdir(), 'strata-git-log-'));
  t.teardown(() => rm(bin, { recursive: true, force: true }));
  const calls = path.join(bin, 'calls.log');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  await writeFile(path.join(bin, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${calls}'\nexec '${realGit}' "$@"\n`);
  await chmod(path.join(bin, 'git'), 0o755);
  const pathBefore = process.env.PATH;
  process.env.PATH = `${bin}${path.delimiter}${pathBefore}`;
  t.teardown(() => {
    process.env.PATH = pathBefore;
  });

  const plugins = await pluginsFolder(t, [
    {
      id: 'blamer',
      capabilities: ['graph:read', 'git:blame'],
      code: pluginCode(`
        const answers = await ctx.git.blameMany(${JSON.stringify(files)});
        const runs = {};
        for (const answer of answers) {
          runs[answer.path] = answer.error
            ? 'error: ' + answer.error
            : answer.ranges.map((run) => run.startLine + '+' + run.lineCount + ' ' + run.hash.slice(0, 10) + ' ' + run.authorName + ' <' + run.authorEmail + '> ' + (/^0+$/.test(run.hash) ? 'now' : run.date)).join(', ');
        }
        return { summary: runs };
      `),
    },
  ]);
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { plugins: { directories: [plugins] }, watch: false } });
  const response = await server.api('/api/overlays/blamer/apply', { method: 'POST' });
  t.equal(response.status, 200, JSON.stringify(response.body));
  // git blame's lines as runs of consecutive lines from one commit, as the capability gives them.
  const asRuns = (lines: string[]): string => {
    const runs: Array<{ start: number; count: number; who: string }> = [];
    lines.forEach((who, index) => {
      const last = runs.at(-1);
      if (last?.who === who) last.count++;
      else runs.push({ start: index + 1, count: 1, who });
    });
    return runs.map((run) => `${run.start}+${run.count} ${run.who}`).join(', ');
  };
  for (const file of files) t.equal(response.body.data.summary[file], asRuns(expected[file]!), `${file}: the same lines, commits and authors as git blame`);

  const blamed = (await readFile(calls, 'utf8'))
    .split('\n')
    .filter((line) => / blame /.test(line))
    .map((line) => line.split(' -- ').at(-1));
  t.same(
    [...blamed].sort(),
    files.filter((file) => !answeredWithoutBlame.includes(file)).sort(),
    'git blame ran for the files with a history, and only for them',
  );
});
