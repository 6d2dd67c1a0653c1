// The built-in overlay plugins are packages the host depends on, found by package resolution; `plugins.builtIns:
// false` (STRATA_PLUGINS_BUILT_INS, `strata serve --no-built-ins`) leaves them out.
import t from 'tap';
import { pluginCode, pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { runStrata } from '../helpers/strata-cli.ts';
import { startTestServer, startTestServerWithBuiltIns } from '../helpers/strata-server.ts';

const BUILT_INS = ['change-coupling', 'complexity', 'git-activity', 'hotspots', 'ownership', 'test-coverage'];

t.test('by default the five built-ins load beside the configured plugins; builtIns false leaves them out', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [{ id: 'mine', code: pluginCode('') }]);
  const withBuiltIns = await startTestServerWithBuiltIns(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const listed = (await withBuiltIns.api('/api/overlays')).body.plugins as Array<{ id: string; builtIn: boolean; loaded: boolean }>;
  t.same(
    listed
      .filter((plugin) => plugin.builtIn)
      .map((plugin) => plugin.id)
      .sort(),
    BUILT_INS,
  );
  t.ok(
    listed.every((plugin) => plugin.loaded),
    'all loaded',
  );
  t.match(
    listed.find((plugin) => plugin.id === 'mine'),
    { builtIn: false, loaded: true },
  );
  await withBuiltIns.stop();

  const alone = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins], builtIns: false } } });
  t.same(
    ((await alone.api('/api/overlays')).body.plugins as Array<{ id: string }>).map((plugin) => plugin.id),
    ['mine'],
    'only the configured plugin',
  );
  const applied = await alone.api('/api/overlays/git-activity/apply', { method: 'POST' });
  t.equal(applied.status, 404);
  t.match(applied.body.error, { code: 'NOT_FOUND', message: 'plugin "git-activity" does not exist; the plugins are: mine' });
});

t.test('STRATA_PLUGINS_BUILT_INS=false and strata serve --no-built-ins do the same', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [{ id: 'mine', code: pluginCode('') }]);
  const offline = runStrata(t, ['overlay', 'list', '--server', 'http://127.0.0.1:9', '--repo', repo, '--plugins', plugins], {
    env: { STRATA_PLUGINS_BUILT_INS: 'false' },
  });
  t.equal(await offline.exited, 0, offline.stderr());
  t.match(offline.stdout(), /^mine {2}inactive {2}main \(Main\)\n$/, 'the variable: only the configured plugin');

  const served = runStrata(t, ['serve', repo, '--port', '0', '--log-level', 'warn', '--no-built-ins', '--plugins', plugins]);
  const url = await served.url();
  const listed = (await (await fetch(`${url}/api/overlays`)).json()) as { plugins: Array<{ id: string }> };
  t.same(
    listed.plugins.map((plugin) => plugin.id),
    ['mine'],
    'the flag: only the configured plugin',
  );
  served.child.kill('SIGTERM');
  t.equal(await served.exited, 0);
});
