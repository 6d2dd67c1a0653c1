/**
 * The git capabilities, and the built-in plugins that use them, where there
 * is no history: a repository whose HEAD names no commit yet (`git init`,
 * files staged or not), and a directory in no git repository at all. Their
 * applies answer with empty overlays that say why, not PLUGIN_FAILED, and
 * blame gives every line as not committed yet without one git run a file.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { pluginCode, pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { postJson, startTestServer } from '../helpers/strata-server.ts';

const extensions = path.resolve(fileURLToPath(import.meta.url), '../../../extensions');
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
    flags: { watch: false, plugins: { directories: [path.join(extensions, 'git-activity'), path.join(extensions, 'ownership'), probe] } },
  });
}

type Server = Awaited<ReturnType<typeof serve>>;

const NOT_YET = `${'0'.repeat(40)} Not Committed Yet <not.committed.yet>`;

async function expectNoHistory(t: Test, server: Server): Promise<void> {
  const activity = await server.api('/api/overlays/git-activity/apply', postJson({ since: '2020-01-01' }));
  t.equal(activity.status, 200, `git-activity applies: ${JSON.stringify(activity.body)}`);
  t.match(activity.body.data, { state: 'active', styledNodes: 0, summary: { commits: 0, filesTouched: 0 } }, 'an empty overlay');
  t.match(activity.body.data?.summary?.message, /no commits at all/, 'the summary says there is no history');
  const activityDefault = await server.api('/api/overlays/git-activity/apply', { method: 'POST' });
  t.match(activityDefault.body.data, { state: 'active', styledNodes: 0 }, 'with the default range too');

  const ownership = await server.api('/api/overlays/ownership/apply', { method: 'POST' });
  t.equal(ownership.status, 200, `ownership applies: ${JSON.stringify(ownership.body)}`);
  t.match(ownership.body.data, { state: 'active', styledNodes: 0, summary: { files: 2, authors: 0, teams: 0 } }, 'nothing owned');
  t.equal(ownership.body.data?.summary?.notBlamed, undefined, `no file failed to blame: ${JSON.stringify(ownership.body.data?.summary)}`);
  t.match(ownership.body.data?.summary?.message, /^no commits at all/, 'the summary says there is no history');

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
