import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { LOC_PLUGIN, pluginCode, writePlugin, writePlugins } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { startTestServerWithBuiltIns } from '../helpers/strata-server.ts';

async function pluginDir(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'strata-plugins-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const BADGE_PLUGIN = {
  id: 'badges',
  code: pluginCode(`ctx.overlay('count').set('file:src/index.ts', { badge: 7, size: 2 });`, `[{ id: 'count', name: 'Count', type: 'badge' }]`),
};

t.test('GET /api/overlays lists plugins as spec 2.5 and 2.6, including those that cannot load', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginDir(t);
  await writePlugins(plugins, [
    LOC_PLUGIN,
    BADGE_PLUGIN,
    { id: 'future', code: pluginCode(''), sdk: '^9.0.0' },
    { id: 'broken', code: '', manifest: { id: 'Bad Id' } },
  ]);
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const { status, body } = await server.api('/api/overlays');
  t.equal(status, 200);
  t.notOk('data' in body, 'no envelope');
  const byId = Object.fromEntries(body.plugins.map((plugin: { id: string }) => [plugin.id, plugin]));
  t.match(byId.loc, {
    id: 'loc',
    name: 'Plugin loc',
    description: 'Fixture plugin loc',
    loaded: true,
    overlays: [{ id: 'main', name: 'Main', type: 'color', legend: { low: '#00ff00', high: '#ff0000' } }],
  });
  t.match(byId.future, { loaded: false, state: 'incompatible', reason: /SDK \^9\.0\.0.*0\.2\.0/ });
  t.match(byId.broken, { loaded: false, state: 'invalid', reason: /strata/ });
  const apply = await server.api('/api/overlays/future/apply', { method: 'POST' });
  t.equal(apply.status, 409);
  t.equal(apply.body.error.code, 'PLUGIN_NOT_LOADED');
});

t.test('apply, status, styles on the graph and on a node, remove', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginDir(t);
  await writePlugins(plugins, [LOC_PLUGIN, BADGE_PLUGIN]);
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { plugins: { directories: [plugins] } } });

  t.match((await server.api('/api/overlays/loc/status')).body.data, { pluginId: 'loc', state: 'inactive', styledNodes: 0 });
  const applied = await server.api('/api/overlays/loc/apply', { method: 'POST' });
  t.equal(applied.status, 200);
  t.match(applied.body.data, { pluginId: 'loc', state: 'active', params: {}, error: null });
  t.ok(applied.body.data.styledNodes >= 9, 'every file styled');
  t.type(applied.body.data.durationMs, 'number');
  t.match(applied.body.data.appliedAt, /^\d{4}-\d{2}-\d{2}T.*Z$/);

  const graph = await server.api('/api/graph');
  const index = graph.body.data.nodes.find((node: { id: string }) => node.id === 'file:src/index.ts');
  t.same(index.overlays, { loc: { main: { color: '#ff0000', value: index.loc, badge: 'f' } } });
  t.notOk(graph.body.data.nodes.find((node: { id: string }) => node.id === 'dir:src').overlays, 'directories unstyled by this plugin');

  // A second plugin, independent of the first.
  t.equal((await server.api('/api/overlays/badges/apply', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, 200);
  const node = await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`);
  t.same(node.body.data.overlays, { loc: { main: { color: '#ff0000', value: index.loc, badge: 'f' } }, badges: { count: { badge: '7', size: 2 } } });

  const removed = await server.api('/api/overlays/loc/apply', { method: 'DELETE' });
  t.equal(removed.status, 200);
  t.equal(removed.body.data.state, 'inactive');
  const after = await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`);
  t.same(after.body.data.overlays, { badges: { count: { badge: '7', size: 2 } } });
  t.equal((await server.api('/api/overlays/loc/apply', { method: 'DELETE' })).status, 200, 'removing again is harmless');
});

t.test('bad requests are 400 naming the field; unknown plugins are 404', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginDir(t);
  await writePlugins(plugins, [LOC_PLUGIN]);
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const post = (body: string) => server.api('/api/overlays/loc/apply', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  let response = await post('{"threshold": -1}');
  t.equal(response.status, 400);
  t.match(response.body.error, { code: 'INVALID_PARAMETER', message: /body\.threshold/ });
  response = await post('{"colour": 1}');
  t.match(response.body.error, { code: 'INVALID_PARAMETER', message: /body\.colour.*not a known field/ });
  response = await post('{"inputs": {"report": "x"}}');
  t.match(response.body.error, { code: 'INVALID_PARAMETER', message: /body\.inputs.*inputs:read/ });
  response = await post('[1]');
  t.equal(response.status, 400);
  response = await post('{"threshold": ');
  t.match(response.body.error, { code: 'INVALID_JSON' });
  response = await server.api('/api/overlays/nope/apply', { method: 'POST' });
  t.equal(response.status, 404);
  t.match(response.body.error, { code: 'NOT_FOUND', message: /plugin "nope"/ });
  t.equal((await server.api('/api/overlays/nope/status')).status, 404);
  t.equal((await server.api('/api/overlays/nope/apply', { method: 'DELETE' })).status, 404);
  t.equal((await post('{"threshold": 2}')).status, 200, 'valid parameters pass');
  t.same((await server.api('/api/overlays/loc/status')).body.data.params, { threshold: 2 });
});

t.test('active overlays survive a restart', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginDir(t);
  await writePlugins(plugins, [LOC_PLUGIN]);
  const flags = { plugins: { directories: [plugins] }, watch: false };
  const first = await startTestServerWithBuiltIns(t, repo, { flags });
  await first.api('/api/overlays/loc/apply', { method: 'POST' });
  const before = (await first.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`)).body.data.overlays;
  await first.stop();
  const second = await startTestServerWithBuiltIns(t, repo, { flags });
  // Served from the store at once, while the overlay is applied again on this run's graph.
  t.same((await second.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`)).body.data.overlays, before);
  t.match((await second.api('/api/overlays/loc/status')).body.data.state, /^(active|applying)$/);
  let state = '';
  for (let i = 0; i < 100 && state !== 'active'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    state = (await second.api('/api/overlays/loc/status')).body.data.state;
  }
  t.equal(state, 'active', 'and active again once re-applied');
  t.same((await second.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`)).body.data.overlays, before);
});

t.test('overlays kept for a plugin that no longer loads are not shown active', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginDir(t);
  await writePlugins(plugins, [LOC_PLUGIN]);
  const flags = { plugins: { directories: [plugins] }, watch: false };
  const first = await startTestServerWithBuiltIns(t, repo, { flags });
  t.equal((await first.api('/api/overlays/loc/apply', { method: 'POST' })).body.data.state, 'active');
  await first.stop();
  // Restarted with the plugin built for another SDK.
  await writePlugins(plugins, [{ ...LOC_PLUGIN, sdk: '^9.0.0' }]);
  const second = await startTestServerWithBuiltIns(t, repo, { flags });
  const listed = (await second.api('/api/overlays')).body.plugins.find((plugin: { id: string }) => plugin.id === 'loc');
  t.match(
    listed,
    { loaded: false, state: 'incompatible', overlayState: 'inactive', name: 'Plugin loc', description: 'Fixture plugin loc' },
    'listed inactive, under the name its manifest gives',
  );
  const listing = (await second.api('/api/overlays')).body.plugins as Array<{ loaded: boolean }>;
  const loadedLog = second.logs.find((record) => record.msg === 'plugins loaded')!;
  t.match(loadedLog, { plugins: listing.filter((plugin) => plugin.loaded).length, pluginsNotLoaded: 1 }, 'the log counts the plugins loaded and those not');
  const status = (await second.api('/api/overlays/loc/status')).body.data;
  t.match(status, {
    state: 'inactive',
    styledNodes: 0,
    error: {
      kind: 'not-loaded',
      message: /plugin "loc" is not loaded \(built for SDK \^9\.0\.0; this host provides SDK [\d.]+\); its overlays are applied again once it loads/,
    },
  });
  t.equal((await second.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`)).body.data.overlays, undefined, 'and nothing of it is served');
  await second.stop();

  // Fixed again: its overlays come back.
  await writePlugins(plugins, [LOC_PLUGIN]);
  const third = await startTestServerWithBuiltIns(t, repo, { flags });
  let state = '';
  for (let i = 0; i < 100 && state !== 'active'; i++) {
    state = (await third.api('/api/overlays/loc/status')).body.data.state;
    if (state !== 'active') await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.equal(state, 'active', 'once it loads, its overlays are active again');
});

t.test('inputs reach plugins that declare inputs:read', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginDir(t);
  await writePlugins(plugins, [
    {
      id: 'reader',
      capabilities: ['inputs:read'],
      code: pluginCode(`
        const [text] = ctx.inputs.get('report');
        if (text === 'bad') { const error = new Error('report: line 3: not XML'); error.name = 'InvalidInputError'; throw error; }
        ctx.overlay('main').set('file:README.md', { badge: text, value: ctx.inputs.names().length });
        return { summary: { filesWithoutData: 3, source: 'report' } };`),
    },
  ]);
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const response = await server.api('/api/overlays/reader/apply', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ inputs: { report: 'hello' } }),
  });
  t.equal(response.status, 200);
  t.same(response.body.data.inputs, ['report']);
  t.same((await server.api(`/api/graph/nodes/${encodeURIComponent('file:README.md')}`)).body.data.overlays, { reader: { main: { badge: 'hello', value: 1 } } });
  t.same(response.body.data.summary, { filesWithoutData: 3, source: 'report' }, 'the summary the plugin returned is in the status');

  const bad = await server.api('/api/overlays/reader/apply', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ inputs: { report: 'bad' } }),
  });
  t.equal(bad.status, 400, "an InvalidInputError is the request's fault");
  t.match(bad.body.error, { code: 'INVALID_PARAMETER', message: 'plugin "reader": report: line 3: not XML' });
  // The apply before it succeeded: its result stays, with the error (test/plugins/last-good-result.test.ts).
  t.match((await server.api('/api/overlays/reader/status')).body.data, { state: 'active', error: { kind: 'invalid-input' } });
});

t.test('hot reload: a save is live within a second; a broken save keeps the last good version; events tell clients', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginDir(t);
  const folder = path.join(plugins, 'live');
  const version = (color: string) => pluginCode(`for (const i of ctx.graph.nodesOfKind('file')) ctx.overlay('main').set(i, { color: '${color}' });`);
  await writePlugin(folder, { id: 'live', code: version('#111111') });
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { plugins: { directories: [plugins] }, dev: true } });
  t.equal((await server.api('/api/overlays/live/apply', { method: 'POST' })).status, 200);

  const events: string[] = [];
  const controller = new AbortController();
  t.teardown(() => controller.abort());
  const stream = await fetch(`${server.url}/api/events`, { signal: controller.signal });
  t.equal(stream.headers.get('content-type'), 'text/event-stream; charset=utf-8');
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const match of value.matchAll(/^event: (.+)$/gm)) events.push(match[1]!);
      }
    } catch {
      // aborted
    }
  })();

  const colorOfIndex = async () => (await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`)).body.data.overlays?.live?.main?.color;
  const waitFor = async (check: () => Promise<boolean>, ms: number) => {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return false;
  };
  t.equal(await colorOfIndex(), '#111111');

  // Editors often write a temporary file and rename it over the original.
  const entry = path.join(folder, 'dist', 'plugin.js');
  await writeFile(`${entry}.tmp`, version('#222222'));
  const { rename } = await import('node:fs/promises');
  await rename(`${entry}.tmp`, entry);
  t.ok(await waitFor(async () => (await colorOfIndex()) === '#222222', 3000), 'the new version is applied');
  t.ok(await waitFor(async () => events.includes('plugin.reloaded') && events.includes('overlay.applied'), 1000), 'clients are told');

  // A file the plugin does not load, then a save that changes nothing, then a real one: one reload, for the last.
  // Apart, so that each is a change of its own (the watcher waits 60 ms for a save to settle).
  const apart = () => new Promise((resolve) => setTimeout(resolve, 300));
  await writeFile(path.join(folder, 'notes.txt'), 'to do\n');
  await apart();
  await writeFile(entry, version('#222222'));
  await apart();
  await writeFile(entry, version('#333333'));
  t.ok(await waitFor(async () => (await colorOfIndex()) === '#333333', 3000), 'the real change is applied');
  t.ok(await waitFor(async () => events.filter((event) => event === 'plugin.reloaded').length >= 2, 1000));
  t.equal(events.filter((event) => event === 'plugin.reloaded').length, 2, 'one reload for the rename, one for the real change: none for the others');

  await writeFile(entry, 'export default {{{ broken');
  t.ok(
    await waitFor(async () => {
      const listed = (await server.api('/api/overlays')).body.plugins.find((plugin: { id: string }) => plugin.id === 'live');
      return /does not compile/.test(listed.reloadError ?? '');
    }, 3000),
    'the error is listed',
  );
  t.equal(await colorOfIndex(), '#333333', 'the last good version keeps serving');
  t.equal((await server.api('/api/overlays/live/apply', { method: 'POST' })).status, 200, 'and can still be applied');
  t.ok(await waitFor(async () => events.includes('plugin.failed'), 1000), 'clients are told of the failed reload');
  // A write may reach the watcher as two changes (the file cut, then its bytes): the same bytes are not loaded again.
  await new Promise((resolve) => setTimeout(resolve, 600));
  t.equal(events.filter((event) => event === 'plugin.failed').length, 1, 'once');

  // A version that loads but fails to apply: the reload is done, the overlays are not.
  await writeFile(entry, pluginCode(`throw new Error('apply broke');`));
  const failedAgain = (record: Record<string, unknown>): boolean =>
    record.msg === 'plugin reloaded; applying its overlays again failed (its last good result stays)';
  t.ok(await waitFor(async () => server.logs.some(failedAgain), 3000), 'the log says that applying again failed');
  const warning = server.logs.find(failedAgain)!;
  t.equal(warning.level, 'warn');
  t.match(warning.error, { kind: 'threw', message: /apply broke/ });
  t.notOk(
    server.logs.some((record) => record.msg === 'plugin reloaded and its overlays re-applied' && record.time! > warning.time!),
    'and does not also say it worked',
  );
  t.equal(await colorOfIndex(), '#333333', 'the last good result keeps serving');
  t.ok(await waitFor(async () => events.includes('overlay.failed'), 1000), 'clients are told that applying failed');
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.notOk(
    events.slice(events.lastIndexOf('overlay.failed') + 1).includes('plugin.ready'),
    'and no plugin.ready follows the failure (the page cleared the error it showed)',
  );

  // Deleting the folder unloads the plugin and takes its overlays away.
  await rm(folder, { recursive: true, force: true });
  t.ok(
    await waitFor(async () => !(await server.api('/api/overlays')).body.plugins.some((plugin: { id: string }) => plugin.id === 'live'), 3000),
    'the plugin is gone',
  );
  t.equal(await colorOfIndex(), undefined, 'and so are its styles');
  t.equal((await server.api('/api/overlays/live/status')).status, 404);
  // The event stream can trail the API by a moment.
  t.ok(await waitFor(async () => events.includes('plugin.removed'), 1000), 'clients are told');
});

t.test('git and file capabilities answer from the served repository', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const { execFileSync } = await import('node:child_process');
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: repo, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null' } });
  git('init', '-q', '-b', 'main');
  await writeFile(path.join(repo, 'src/three.ts'), 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n');
  git('-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'add', '.');
  git('-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'commit', '-q', '-m', 'first', '--date', '2026-01-10T10:00:00Z');
  await writeFile(path.join(repo, 'src/index.ts'), `${(await import('node:fs')).readFileSync(path.join(repo, 'src/index.ts'), 'utf8')}// more\n`);
  // Bob's commit takes the middle line of Ada's file: her commit then owns two runs, apart.
  await writeFile(path.join(repo, 'src/three.ts'), 'export const a = 1;\nexport const b = 20;\nexport const c = 3;\n');
  git('mv', 'README.md', 'GUIDE.md');
  git('-c', 'user.name=Bob', '-c', 'user.email=bob@example.com', 'commit', '-q', '-am', 'second', '--date', '2026-02-10T10:00:00Z');
  await writeFile(path.join(repo, '.mailmap'), 'Robert <robert@example.com> <bob@example.com>\n');
  // Not committed: a line added to a committed file, and a new file.
  const helper = path.join(repo, 'src/util/helper.ts');
  const helperLines = (await readFile(helper, 'utf8')).split('\n').length - 1;
  await writeFile(helper, `${await readFile(helper, 'utf8')}export const more = 1;\n`);
  await writeFile(path.join(repo, 'src/new.ts'), 'export const n = 1;\n');

  const plugins = await pluginDir(t);
  await writePlugins(plugins, [
    {
      id: 'history',
      capabilities: ['graph:read', 'git:log', 'git:blame', 'files:read', 'files:list'],
      code: pluginCode(`
        const commits = await ctx.git.log({ since: '2026-01-01', paths: ['src'] });
        const all = await ctx.git.log({});
        const blame = await ctx.git.blame('src/index.ts');
        const blamedLines = blame.reduce((sum, run) => sum + run.lineCount, 0);
        const listed = await ctx.files.list(['src/util/*.ts']);
        const text = await ctx.files.read('src/types.ts');
        const second = all.find((c) => c.subject === 'second');
        const rename = second.files.find((f) => f.previousPath);
        const o = ctx.overlay('main');
        o.set('file:src/index.ts', { value: commits.length, badge: blame.at(-1).authorName + ':' + blame.length + '/' + blamedLines });
        o.set('file:src/types.ts', { value: text.length, badge: listed.map((p) => p.split('/').pop()).join(',') });
        o.set('dir:src', { badge: second.authorName + ':' + rename.previousPath + '>' + rename.path });
        o.set('dir:.', { value: second.files.find((f) => f.path === 'src/index.ts').added, badge: blame[0].authorEmail });
        const runs = await ctx.git.blame('src/three.ts');
        const [changed, added] = await ctx.git.blameMany(['src/util/helper.ts', 'src/new.ts']);
        const notYet = (run) => (/^0+$/.test(run.hash) ? 'uncommitted' : run.authorName) + ' ' + run.startLine + '+' + run.lineCount;
        return { summary: {
          runs: runs.map((run) => run.authorName + ' ' + run.authorEmail + ' ' + run.date.slice(0, 10) + ' ' + run.startLine + '+' + run.lineCount).join(', '),
          changed: changed.ranges.map(notYet).join(', '),
          added: added.ranges ? added.ranges.map(notYet).join(', ') : 'error: ' + added.error,
        } };
      `),
    },
  ]);
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { plugins: { directories: [plugins] }, watch: false } });
  const response = await server.api('/api/overlays/history/apply', { method: 'POST' });
  t.equal(response.status, 200, JSON.stringify(response.body));
  const style = async (id: string) => (await server.api(`/api/graph/nodes/${encodeURIComponent(id)}`)).body.data.overlays.history.main;
  const indexLines = (await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`)).body.data.lines;
  t.same(
    await style('file:src/index.ts'),
    { value: 2, badge: `Robert:2/${indexLines}` },
    'log by path and date; blame as two runs (Ada, then Bob) covering every line, with .mailmap',
  );
  t.same(
    await style('file:src/types.ts'),
    { value: 'export interface Shape { size: number }\n'.length, badge: 'format.ts,helper.ts' },
    'files by glob, sorted; a file as text',
  );
  t.same(await style('dir:src'), { badge: 'Robert:README.md>GUIDE.md' }, 'renames carry the old path');
  t.same(await style('dir:.'), { value: 1, badge: 'ada@example.com' }, 'numstat and blame e-mails');
  t.same(
    response.body.data.summary,
    {
      runs: 'Ada ada@example.com 2026-01-10 1+1, Robert robert@example.com 2026-02-10 2+1, Ada ada@example.com 2026-01-10 3+1',
      changed: `Ada 1+${helperLines}, uncommitted ${helperLines + 1}+1`,
      added: "error: git blame failed: fatal: no such path 'src/new.ts' in HEAD",
    },
    "a commit that owns two runs apart gives both its author (git names a commit's author once); lines not committed yet are the working tree's",
  );
});

t.test('active overlays follow the graph as the repository changes', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginDir(t);
  await writePlugins(plugins, [LOC_PLUGIN]);
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { plugins: { directories: [plugins] } } });
  t.equal((await server.api('/api/overlays/loc/apply', { method: 'POST' })).status, 200);
  await writeFile(path.join(repo, 'src', 'added.ts'), 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\nexport const d = 4;\n');
  let overlays: unknown;
  for (let i = 0; i < 100 && overlays === undefined; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const node = await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/added.ts')}`);
    overlays = node.status === 200 ? node.body.data.overlays : undefined;
  }
  t.same(overlays, { loc: { main: { color: '#ff0000', value: 4, badge: 'f' } } }, 'the new file is painted');
  t.equal((await server.api('/api/overlays/loc/status')).body.data.state, 'active');
});
