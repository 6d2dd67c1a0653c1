import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { pluginCode, writePlugin } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { runStrata } from '../helpers/strata-cli.ts';
import { startTestServerWithBuiltIns } from '../helpers/strata-server.ts';

// Each case runs the CLI several times, each indexing a repository: about 100 s in all on two busy cores, near
// tap's 120 s a file (it ran past it once under load).
t.setTimeout(300_000);

/** The sample repository with one commit, so that git-activity has history to read. */
async function gitRepo(t: Parameters<typeof makeRepo>[0]): Promise<string> {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const env = {
    ...process.env,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Ada',
    GIT_AUTHOR_EMAIL: 'ada@example.com',
    GIT_COMMITTER_NAME: 'Ada',
    GIT_COMMITTER_EMAIL: 'ada@example.com',
  };
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env });
  execFileSync('git', ['add', '.'], { cwd: repo, env });
  execFileSync('git', ['commit', '-q', '-m', 'first'], { cwd: repo, env });
  return repo;
}

const NO_SERVER = 'http://127.0.0.1:9';

t.test('without a server, the CLI works on the repository and the next serve shows it', async (t) => {
  const repo = await gitRepo(t);
  const applied = runStrata(t, ['overlay', 'apply', 'git-activity', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await applied.exited, 0, applied.stderr());
  t.match(applied.stderr(), /No server answers at http:\/\/127\.0\.0\.1:9; working on/);
  t.match(applied.stdout(), /Applied git-activity: \d+ nodes styled/);
  t.match(applied.stdout(), /commits: 1/);

  const status = runStrata(t, ['overlay', 'status', 'git-activity', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await status.exited, 0);
  t.match(status.stdout(), /git-activity: active/);

  const server = await startTestServerWithBuiltIns(t, repo, { flags: { watch: false } });
  t.match(
    (await server.api('/api/overlays/git-activity/status')).body.data.state,
    /^(active|applying)$/,
    "restored (and being applied again on this run's graph)",
  );
  const node = await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`);
  t.equal(node.body.data.overlays['git-activity'].churn.value, 1);
});

t.test('without a server, only an apply that can run indexes the repository', async (t) => {
  const repo = await gitRepo(t);
  // Indexing writes the cache of file facts into the data directory: its presence tells whether the repository was indexed.
  const factsCache = path.join(repo, '.strata', 'file-facts.json');
  const offline = async (args: string[]) => {
    const child = runStrata(t, ['overlay', ...args, '--server', NO_SERVER, '--repo', repo]);
    return { code: await child.exited, stdout: child.stdout(), stderr: child.stderr() };
  };
  t.match(await offline(['list']), { code: 0, stdout: /git-activity {2}inactive/ });
  t.match(await offline(['status', 'git-activity']), { code: 0, stdout: /git-activity: inactive/ });
  t.match(await offline(['remove', 'git-activity']), { code: 0 });
  t.match(await offline(['apply', 'no-such-plugin']), {
    code: 1,
    stderr: /plugin "no-such-plugin" does not exist; the plugins are: change-coupling, complexity, git-activity, hotspots, ownership, test-coverage/,
  });
  t.match(await offline(['apply', 'git-activity', '--params', '{"colour": "red"}']), {
    code: 1,
    stderr: /body\.colour: is not a known field; plugin "git-activity" takes "since", "until"/,
  });
  // Options a plugin does not take are refused, naming what it takes.
  t.match(await offline(['apply', 'complexity', '--since', '2026-01-01']), {
    code: 1,
    stderr: /plugin "complexity" takes no parameters; it was sent "since" \(INVALID_PARAMETER/,
  });
  t.match(await offline(['apply', 'ownership', '--report', 'package.json']), {
    code: 1,
    stderr: /plugin "ownership" reads no input named "report"; it reads "teams" \(INVALID_PARAMETER/,
  });
  t.notOk(existsSync(factsCache), 'nothing above indexed the repository');
  t.match(await offline(['apply', 'git-activity']), { code: 0, stdout: /Applied git-activity/ });
  t.ok(existsSync(factsCache), 'applying did');
});

t.test('with a server, the CLI sends the operation there', async (t) => {
  const repo = await gitRepo(t);
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { watch: false } });
  const applied = runStrata(t, ['overlay', 'apply', 'git-activity', '--server', server.url, '--since', '2020-01-01']);
  t.equal(await applied.exited, 0, applied.stderr());
  t.notMatch(applied.stderr(), /No server answers/);
  t.match((await server.api('/api/overlays/git-activity/status')).body.data, { state: 'active', params: { since: '2020-01-01' } });

  const listed = runStrata(t, ['overlay', 'list', '--server', server.url]);
  t.equal(await listed.exited, 0);
  t.match(listed.stdout(), /git-activity {2}active {2}churn \(Change Frequency\)/);

  const removed = runStrata(t, ['overlay', 'remove', 'git-activity', '--server', server.url]);
  t.equal(await removed.exited, 0);
  t.equal((await server.api('/api/overlays/git-activity/status')).body.data.state, 'inactive');

  const unknown = runStrata(t, ['overlay', 'apply', 'no-such-plugin', '--server', server.url]);
  t.equal(await unknown.exited, 1);
  t.match(unknown.stderr(), /plugin "no-such-plugin" does not exist; the plugins are: .*\(NOT_FOUND/);
});

t.test('files named on the command line are read and sent', async (t) => {
  const repo = await gitRepo(t);
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { watch: false } });
  await mkdir(path.join(repo, 'coverage', 'a'), { recursive: true });
  await writeFile(path.join(repo, 'coverage', 'a', 'cobertura-coverage.xml'), '<coverage/>');
  // The plugin decides what a report means; here the point is that the text arrives.
  const applied = runStrata(t, ['overlay', 'apply', 'git-activity', '--server', server.url, '--report', 'coverage/**/cobertura-coverage.xml'], { cwd: repo });
  t.equal(await applied.exited, 1);
  t.match(applied.stderr(), /body\.inputs: plugin "git-activity" reads no inputs/, 'the report reached the server');
});

t.test('bad input stops the CLI with a message naming it', async (t) => {
  const repo = await gitRepo(t);
  const run = async (args: string[]) => {
    const child = runStrata(t, ['overlay', 'apply', ...args, '--server', NO_SERVER, '--repo', repo], { cwd: repo });
    return { code: await child.exited, stderr: child.stderr() };
  };
  t.match(await run(['git-activity', '--since', '2026-02-30']), { code: 2, stderr: /--since: "2026-02-30" is not a date/ });
  t.match(await run(['git-activity', '--until', 'yesterday']), { code: 2, stderr: /--until: "yesterday" is not a date/ });
  t.match(await run(['test-coverage', '--report', 'missing.xml']), { code: 2, stderr: /--report: missing\.xml does not exist/ });
  t.match(await run(['test-coverage', '--report', 'coverage/**/*.xml']), { code: 2, stderr: /--report: "coverage\/\*\*\/\*\.xml" matches no file/ });
  await writeFile(path.join(repo, 'teams.json'), '{"teams": ');
  t.match(await run(['ownership', '--teams', 'teams.json']), { code: 2, stderr: /--teams: teams\.json is not valid JSON/ });
  await writeFile(path.join(repo, 'teams.json'), '{"teams": {"core": "ada@example.com"}}');
  t.match(await run(['ownership', '--teams', 'teams.json']), { code: 2, stderr: /team "core" must be an array of e-mail addresses/ });
  t.match(await run(['ownership', '--teams', 'nope.json']), { code: 2, stderr: /--teams: nope\.json does not exist/ });
  t.match(await run(['git-activity', '--params', '[1]']), { code: 2, stderr: /--params: must be a JSON object/ });
  t.match(await run(['no-such-plugin']), { code: 1, stderr: /plugin "no-such-plugin" does not exist/ });
  t.match(await run(['git-activity', '--plugins', 'no-such-folder']), { code: 2, stderr: /--plugins: no-such-folder does not exist/ });
  t.match(await run(['git-activity', '--plugins', 'teams.json']), { code: 2, stderr: /--plugins: teams\.json is not a folder/ });
});

t.test("without a server, --plugins loads an author's plugin from outside the repository", async (t) => {
  const repo = await gitRepo(t);
  const outside = await mkdtemp(path.join(tmpdir(), 'strata-author-'));
  t.teardown(() => rm(outside, { recursive: true, force: true }));
  await writePlugin(path.join(outside, 'my-plugin'), {
    id: 'my-plugin',
    code: pluginCode(
      `const o = ctx.overlay('main'); let n = 0; for (const i of ctx.graph.nodesOfKind('file')) { o.set(i, { color: '#00ff00' }); n++; } return { summary: { painted: n } };`,
    ),
  });

  const unseen = runStrata(t, ['overlay', 'apply', 'my-plugin', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await unseen.exited, 1, 'without --plugins the plugin is not found');
  t.match(unseen.stderr(), /plugin "my-plugin" does not exist/);

  // A relative folder, from where the command runs; the folder of plugins or the plugin's own folder alike.
  const applied = runStrata(t, ['overlay', 'apply', 'my-plugin', '--server', NO_SERVER, '--repo', repo, '--plugins', 'my-plugin'], { cwd: outside });
  t.equal(await applied.exited, 0, applied.stderr());
  const styled = /Applied my-plugin: (\d+) nodes styled/.exec(applied.stdout())?.[1];
  t.ok(Number(styled) > 5, `it styled the repository's files (${styled})`);
  t.match(applied.stdout(), `painted: ${styled}\n`, 'every file it was given');
  const listed = runStrata(t, ['overlay', 'list', '--server', NO_SERVER, '--repo', repo, '--plugins', outside]);
  t.equal(await listed.exited, 0, listed.stderr());
  t.match(listed.stdout(), /^my-plugin {2}active {2}main \(Main\)$/m, 'listed with its overlay, active');

  const byVariable = runStrata(t, ['overlay', 'status', 'my-plugin', '--server', NO_SERVER, '--repo', repo], { env: { STRATA_PLUGINS_DIRECTORIES: outside } });
  t.equal(await byVariable.exited, 0, byVariable.stderr());
  t.match(byVariable.stdout(), /^my-plugin: active$/m, 'STRATA_PLUGINS_DIRECTORIES does the same');

  // A server that answers has its own plugin folders: the flag is said to do nothing there.
  const server = await startTestServerWithBuiltIns(t, repo);
  const remote = runStrata(t, ['overlay', 'list', '--server', server.url, '--plugins', outside]);
  t.equal(await remote.exited, 0, remote.stderr());
  t.match(remote.stderr(), /--plugins is for when no server answers: the server at http:\/\/[^ ]+ loads plugins from its own folders/);
  t.notMatch(remote.stdout(), /my-plugin/, "the server's list");
});

t.test('--help shows the options with examples', async (t) => {
  const help = runStrata(t, ['overlay', 'apply', '--help']);
  t.equal(await help.exited, 0);
  for (const option of ['--since', '--until', '--report', '--teams', '--server', '--params', '--plugins', 'STRATA_PLUGINS_DIRECTORIES'])
    t.match(help.stdout(), option);
  t.match(help.stdout(), /strata overlay apply test-coverage --report 'coverage\/\*\*\/cobertura-coverage\.xml'/);
});
