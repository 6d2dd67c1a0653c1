/**
 * The git capabilities where there is no history: a repository whose HEAD
 * names no commit yet (`git init`, files staged or not), and a directory in
 * no git repository at all. The log is empty, not an error, and blame gives
 * every line as not committed yet without one git run a file.
 */
import { execFileSync } from 'node:child_process';
import t, { type Test } from 'tap';
import { pluginCode, pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null' };

const FILES = {
  'src/staged.ts': 'export const a = 1;\nexport const b = 2;\n',
  'src/untracked.ts': 'export function f(x: number) {\n  return x;\n}\n',
};

/** Reports what the capabilities answer: the log, and the blame of both files as runs. */
const PROBE = {
  id: 'probe',
  capabilities: ['graph:read', 'git:log', 'git:blame'],
  code: pluginCode(`
    const all = await ctx.git.log();
    const some = await ctx.git.log({ since: '2020-01-01', paths: ['src'] });
    const blamed = await ctx.git.blameMany(['src/staged.ts', 'src/untracked.ts', 'src/missing.ts']);
    const runs = (answer) => answer.error !== undefined ? 'error: ' + answer.error
      : answer.ranges.map((run) => run.hash + ' ' + run.authorName + ' <' + run.authorEmail + '> ' + run.startLine + '+' + run.lineCount).join(', ');
    return { summary: { log: all.length + ' ' + some.length, staged: runs(blamed[0]), untracked: runs(blamed[1]), missing: runs(blamed[2]) } };
  `),
};

async function serve(t: Test, repo: string) {
  const probe = await pluginsFolder(t, [PROBE]);
  return startTestServer(t, repo, {
    flags: { watch: false, plugins: { directories: [probe] } },
  });
}

type Server = Awaited<ReturnType<typeof serve>>;

const NOT_YET = `${'0'.repeat(40)} Not Committed Yet <not.committed.yet>`;

async function expectNoHistory(t: Test, server: Server): Promise<void> {
  const probe = await server.api('/api/overlays/probe/apply', { method: 'POST' });
  t.equal(probe.status, 200, JSON.stringify(probe.body));
  t.same(
    probe.body.data?.summary,
    { log: '0 0', staged: `${NOT_YET} 1+2`, untracked: `${NOT_YET} 1+3`, missing: 'error: git.blame: src/missing.ts: no such file' },
    'no commits; every line of a file not committed yet, as git blame names such lines',
  );
}

t.test('a repository without commits: HEAD unborn, one file staged and one not', async (t) => {
  const repo = await makeRepo(t, FILES);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: GIT_ENV });
  execFileSync('git', ['add', 'src/staged.ts'], { cwd: repo, env: GIT_ENV });
  await expectNoHistory(t, await serve(t, repo));
});

t.test('a directory in no git repository', async (t) => {
  const repo = await makeRepo(t, FILES);
  t.throws(() => execFileSync('git', ['rev-parse', '--git-dir'], { cwd: repo, env: GIT_ENV, stdio: 'ignore' }), 'git finds no repository there');
  await expectNoHistory(t, await serve(t, repo));
});
