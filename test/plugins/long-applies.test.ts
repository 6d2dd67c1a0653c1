// A long apply over HTTP and the CLI: its progress in the status, in
// `overlay.progress` events and on the CLI's standard error; and time limits
// that grow with the repository, so that what fits a small one fits a large one.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { type FixturePlugin, pluginCode, pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { runStrata } from '../helpers/strata-cli.ts';
import { followEvents, startTestServer } from '../helpers/strata-server.ts';

/** Ten steps of about 300 ms of its own work each, reported as it goes. */
const STEPPER: FixturePlugin = {
  id: 'stepper',
  code: pluginCode(`
    ctx.progress(0, 10, 'steps');
    for (let step = 1; step <= 10; step++) {
      const until = Date.now() + 300;
      while (Date.now() < until) {}
      ctx.progress(step, 10, 'steps');
    }
    const overlay = ctx.overlay('main');
    for (const i of ctx.graph.nodesOfKind('file')) overlay.set(i, { color: '#123456' });
  `),
};

/** Burns about `ms` of CPU, then paints. */
const burner = (ms: number): FixturePlugin => ({
  id: 'burner',
  code: pluginCode(`
    const until = Date.now() + ${ms};
    while (Date.now() < until) {}
    for (const i of ctx.graph.nodesOfKind('file')) ctx.overlay('main').set(i, { color: '#654321' });
  `),
});

t.test("a long apply's progress: in its status, in events, and on the CLI's standard error", async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [STEPPER]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins], cpuTimeMs: 20_000, wallTimeMs: 30_000 }, watch: false } });
  const events = followEvents(t, server);
  t.equal((await server.api('/api/overlays/stepper/status')).body.data.progress, null, 'no progress before an apply');

  const applying = server.api('/api/overlays/stepper/apply', { method: 'POST' });
  let seen: any = null;
  for (let i = 0; i < 300 && !seen?.progress?.done; i++) {
    seen = (await server.api('/api/overlays/stepper/status')).body.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.equal(seen.state, 'applying');
  t.match(seen.progress, { done: Number, total: 10, message: 'steps', at: String }, 'the status says how far it has come');
  t.ok(seen.progress.done >= 1 && seen.progress.done <= 10);
  const applied = await applying;
  t.equal(applied.status, 200);
  t.equal(applied.body.data.state, 'active');
  t.equal(applied.body.data.progress, null, 'no progress once done');

  for (let i = 0; i < 100 && !events.some((event) => event.type === 'overlay.applied'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  const reports = events.filter((event) => event.type === 'overlay.progress').map((event) => event.data);
  t.ok(reports.length >= 3, `progress events (${reports.length})`);
  t.match(reports.at(-1), { pluginId: 'stepper', done: 10, total: 10, message: 'steps', elapsedMs: Number }, 'the last one says done');
  const order = events.map((event) => event.type).filter((type) => type.startsWith('overlay.'));
  t.equal(order[0], 'overlay.applying');
  t.equal(order.at(-1), 'overlay.applied', 'progress comes between applying and applied');

  // The CLI asks the server for the status while its apply runs; without a terminal it writes a line as tenths are done.
  const cli = runStrata(t, ['overlay', 'apply', 'stepper', '--server', server.url]);
  t.equal(await cli.exited, 0, cli.stderr());
  t.match(cli.stdout(), /Applied stepper: \d+ nodes styled/);
  const lines = cli
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('Applying stepper: '));
  t.ok(lines.length >= 2, `progress lines on standard error:\n${cli.stderr()}`);
  t.match(lines.at(-1), /^Applying stepper: \d+\/10 steps · \d+ s$/);
});

t.test('time limits grow with the repository: so much per file on top of the base', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [burner(1500)]);
  // A base of 300 ms of CPU; 1000 ms more per file of the sample's files gives several seconds.
  const scaled = await startTestServer(t, repo, {
    flags: { plugins: { directories: [plugins], cpuTimeMs: 300, cpuTimeMsPerFile: 1000, wallTimeMs: 30_000 }, watch: false },
  });
  const files = (await scaled.api('/api/graph')).body.data.nodes.filter((node: { kind: string }) => node.kind === 'file').length;
  t.ok(files >= 3, `${files} files`);
  const fits = await scaled.api('/api/overlays/burner/apply', { method: 'POST' });
  t.equal(fits.status, 200, `1.5 s of CPU fits 300 ms + ${files} x 1000 ms: ${JSON.stringify(fits.body.error)}`);
  await scaled.stop();

  // Another repository: the first one's store would have the second server apply its restored overlay at start.
  const fixed = await startTestServer(t, await makeRepo(t, SAMPLE_REPO), {
    flags: { plugins: { directories: [plugins], cpuTimeMs: 300, cpuTimeMsPerFile: 0, wallTimeMs: 30_000 }, watch: false },
  });
  const over = await fixed.api('/api/overlays/burner/apply', { method: 'POST' });
  t.equal(over.status, 500);
  t.match(over.body.error, { code: 'PLUGIN_FAILED', message: /\(cpu-time\): .*CPU time limit of 300 ms/ }, 'with nothing per file, the base alone');
});

t.test('a file read the file system never answers does not hold an apply open: it is refused after the wall time', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const reader: FixturePlugin = {
    id: 'reader',
    capabilities: ['graph:read', 'files:read'],
    code: pluginCode(`
      const text = await ctx.files.read('src/index.ts');
      for (const i of ctx.graph.nodesOfKind('file')) ctx.overlay('main').set(i, { value: text.length });
    `),
  };
  const plugins = await pluginsFolder(t, [reader]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins], wallTimeMs: 1500, wallTimeMsPerFile: 0 }, watch: false } });
  // A stalled file system, simulated in this process (the test server runs in it): reads of the file never finish.
  // The host imports readFile from node:fs/promises; syncBuiltinESMExports puts the replacement behind that import.
  const { createRequire, syncBuiltinESMExports } = await import('node:module');
  const fsPromises = createRequire(import.meta.url)('node:fs/promises') as typeof import('node:fs/promises');
  const realReadFile = fsPromises.readFile;
  const stalled = path.join(realpathSync(repo), 'src', 'index.ts');
  fsPromises.readFile = ((file: Parameters<typeof realReadFile>[0], ...rest: unknown[]) =>
    String(file) === stalled ? new Promise(() => {}) : (realReadFile as (...args: unknown[]) => Promise<unknown>)(file, ...rest)) as typeof realReadFile;
  syncBuiltinESMExports();
  t.teardown(() => {
    fsPromises.readFile = realReadFile;
    syncBuiltinESMExports();
  });

  const applied = await server.api('/api/overlays/reader/apply', { method: 'POST' });
  t.equal(applied.status, 500, 'the apply ends');
  t.match(applied.body.error, { code: 'PLUGIN_FAILED', message: /files\.read: src\/index\.ts: the file system did not answer within 1500 ms/ });
  t.equal((await server.api('/api/graph')).status, 200, 'the host answers meanwhile and after');

  fsPromises.readFile = realReadFile;
  syncBuiltinESMExports();
  const again = await server.api('/api/overlays/reader/apply', { method: 'POST' });
  t.equal(again.status, 200, 'once the file system answers, the same apply succeeds');
});
