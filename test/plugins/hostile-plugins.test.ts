/**
 * The hostile suite: plugins that misbehave, each in its own case. For each,
 * the host stays up and answers, a well-behaved plugin still applies, and the
 * status names the failure.
 */

import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t, { type Test } from 'tap';
import { type FixturePlugin, LOC_PLUGIN, pluginCode, writePlugins } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { startTestServer, type TestServer } from '../helpers/strata-server.ts';

interface HostileCase {
  plugin: FixturePlugin;
  /** What the failure must say: in the apply response and in the status. */
  error: RegExp;
  /** `load`: the plugin must be listed as not loaded with this reason instead. */
  at?: 'load';
}

const node = "'file:src/index.ts'";
const cases: Record<string, HostileCase> = {
  'an endless loop': { plugin: { id: 'endless-loop', code: pluginCode('for (;;) {}') }, error: /cpu-time.*CPU time limit/ },
  'an endless chain of microtasks': { plugin: { id: 'microtask-loop', code: pluginCode('for (;;) await null;') }, error: /cpu-time|wall-time/ },
  'a typed-array memory bomb (outside the V8 heap)': {
    plugin: { id: 'buffer-bomb', code: pluginCode('const hoard = []; for (;;) hoard.push(new Float64Array(1 << 24));') },
    error: /memory|crashed|RangeError/,
  },
  'deep recursion': { plugin: { id: 'deep-recursion', code: pluginCode('const down = (n) => down(n + 1) + 1; down(0);') }, error: /Maximum call stack/ },
  'a promise that never settles': { plugin: { id: 'never-settles', code: pluginCode('await new Promise(() => {});') }, error: /wall-time/ },
  'throwing a string': { plugin: { id: 'throws-string', code: pluginCode("throw 'oops';") }, error: /threw "oops", not an Error/ },
  'throwing an object whose message getter never returns': {
    plugin: { id: 'throws-trap', code: pluginCode('throw { get message() { for (;;) {} } };') },
    error: /not an Error/,
  },
  // Where it threw is read through V8's own stack accessor only: neither of these is ever called.
  'throwing after setting a stack formatter that never returns': {
    plugin: { id: 'throws-prepare', code: pluginCode("Error.prepareStackTrace = () => { for (;;) {} }; throw new Error('formatted');") },
    error: /formatted$/,
  },
  'throwing an error whose stack getter never returns': {
    plugin: {
      id: 'throws-stack-trap',
      code: pluginCode("const e = new Error('trapped'); Object.defineProperty(e, 'stack', { get() { for (;;) {} } }); throw e;"),
    },
    error: /trapped$/,
  },
  'throwing a proxy': {
    plugin: {
      id: 'throws-proxy',
      code: pluginCode('throw new Proxy(new Error("x"), { getOwnPropertyDescriptor() { for (;;) {} }, getPrototypeOf() { for (;;) {} } });'),
    },
    error: /cpu-time|not an Error/,
  },
  'a result far too large (legend)': {
    plugin: {
      id: 'huge-legend',
      code: pluginCode("const legend = {}; for (let i = 0; i < 100000; i++) legend['l' + i] = '#000000'; ctx.overlay('main').setLegend(legend);"),
    },
    error: /at most 64 entries/,
  },
  'a result far too large (badge)': {
    plugin: { id: 'huge-badge', code: pluginCode(`ctx.overlay('main').set(${node}, { badge: 'x'.repeat(10_000_000) });`) },
    error: /at most 32/,
  },
  'bad colors': {
    plugin: { id: 'bad-color', code: pluginCode(`ctx.overlay('main').set(${node}, { color: 'red' });`) },
    error: /color of file:src\/index\.ts is "red", not a hex color/,
  },
  'a size out of bounds': {
    plugin: { id: 'bad-size', code: pluginCode(`ctx.overlay('main').set(${node}, { size: Infinity });`) },
    error: /size of file:src\/index\.ts is Infinity/,
  },
  'unknown node ids': {
    plugin: { id: 'unknown-node', code: pluginCode("ctx.overlay('main').set('file:nope.ts', { color: '#fff' });") },
    error: /unknown node id "file:nope\.ts"/,
  },
  'reaching for require': { plugin: { id: 'wants-require', code: pluginCode("require('fs');") }, error: /require is not defined/ },
  'reaching for process': { plugin: { id: 'wants-process', code: pluginCode('process.exit(1);') }, error: /process is not defined/ },
  'reaching for fetch': { plugin: { id: 'wants-fetch', code: pluginCode("await fetch('http://example.com');") }, error: /fetch is not defined/ },
  // WebAssembly memory lives outside the isolate's heap limit: three memories of 1 GiB passed a limit of 128 MiB.
  'WebAssembly memory': {
    plugin: { id: 'wasm-memory', code: pluginCode('globalThis.kept = [1, 2, 3].map(() => new WebAssembly.Memory({ initial: 16384 }));') },
    error: /WebAssembly is not defined/,
  },
  'reaching for timers': { plugin: { id: 'wants-timers', code: pluginCode('setTimeout(() => {}, 1);') }, error: /setTimeout is not defined/ },
  'path traversal through a capability': {
    plugin: { id: 'traversal', capabilities: ['files:read'], code: pluginCode("await ctx.files.read('../../../etc/passwd');") },
    error: /leaves the repository/,
  },
  'an absolute path through a capability': {
    plugin: { id: 'absolute-path', capabilities: ['files:read'], code: pluginCode("await ctx.files.read('/etc/passwd');") },
    error: /is absolute/,
  },
  'a symlink out of the repository': {
    plugin: { id: 'symlink-out', capabilities: ['files:read'], code: pluginCode("await ctx.files.read('escape');") },
    error: /link that leads out of the repository/,
  },
  'reading .git': {
    plugin: { id: 'reads-git', capabilities: ['files:read'], code: pluginCode("await ctx.files.read('.git/config');") },
    error: /inside \.git/,
  },
  'reading .GIT, as a case-insensitive file system would allow': {
    plugin: { id: 'reads-git-upper', capabilities: ['files:read'], code: pluginCode("await ctx.files.read('src/../.GIT/config');") },
    error: /inside \.git/,
  },
  "a symlink into Strata's data directory": {
    plugin: { id: 'store-link', capabilities: ['files:read'], code: pluginCode("await ctx.files.read('store-link');") },
    error: /inside Strata's data directory/,
  },
  'blaming a file over the size limit': {
    plugin: { id: 'blame-big', capabilities: ['git:blame'], code: pluginCode("await ctx.git.blame('big.txt');") },
    error: /over the limit/,
  },
  'a capability it did not declare': {
    plugin: { id: 'undeclared', capabilities: ['graph:read'], code: pluginCode('await ctx.git.log();') },
    error: /capability "git:log" was not declared/,
  },
  'a flood of capability calls': {
    plugin: { id: 'flood', capabilities: ['files:list'], code: pluginCode("await Promise.all(Array.from({ length: 5000 }, () => ctx.files.list('**')));") },
    error: /too many capability calls at once|capability call limit/,
  },
  'an incompatible SDK range': {
    plugin: { id: 'incompatible', sdk: '>=2.0.0', code: pluginCode('') },
    error: /built for SDK >=2\.0\.0; this host provides SDK 0\.2\.0/,
    at: 'load',
  },
  'a syntax error': { plugin: { id: 'syntax-error', code: 'export default { strataPlugin: 1,, }' }, error: /does not compile/, at: 'load' },
  'an import of another module': { plugin: { id: 'imports', code: "import fs from 'node:fs';\nexport default fs;" }, error: /imports "node:fs"/, at: 'load' },
  'hanging during load': {
    plugin: { id: 'hangs-on-load', code: 'for (;;) {}\nexport default 1;' },
    error: /CPU time limit|wall-time limit|timed out/i,
    at: 'load',
  },
  'a top-level await that never settles': {
    plugin: { id: 'awaits-on-load', code: 'await new Promise(() => {});\nexport default 1;' },
    error: /not initialized yet \(a top-level await that has not settled\?\)|wall-time limit/,
    at: 'load',
  },
  'a default export that is not a descriptor': {
    plugin: { id: 'not-a-plugin', code: 'export default { apply() {} };' },
    error: /not a plugin descriptor/,
    at: 'load',
  },
};

// CPU time enough that only the endless cases reach it: under CI's load, cases that do real work before their own
// failure (a 100,000-entry legend, a memory bomb) ran past a limit of 500 ms (3 runs of 13 in two sessions).
// Fixed limits: none added per file of the repository.
const LIMITS = { memoryMb: 32, cpuTimeMs: 2000, cpuTimeMsPerFile: 0, wallTimeMs: 3000, wallTimeMsPerFile: 0, loadTimeMs: 1000, maxCapabilityCalls: 1000 };

/** The API still answers, and a well-behaved plugin still applies. */
async function healthy(t: Test, server: TestServer): Promise<void> {
  t.equal((await server.api('/api/graph')).status, 200, 'the API still answers');
  const good = await server.api('/api/overlays/loc/apply', { method: 'POST' });
  t.equal(good.status, 200, 'a well-behaved plugin still applies');
  t.equal(good.body.data.state, 'active');
}

/** Applying plugin `id` fails, and both the response and the status name the failure. */
async function applyFails(t: Test, server: TestServer, id: string, error: RegExp): Promise<void> {
  const apply = await server.api(`/api/overlays/${id}/apply`, { method: 'POST' });
  t.equal(apply.status, 500);
  t.equal(apply.body.error.code, 'PLUGIN_FAILED');
  t.match(apply.body.error.message, error, 'the response names the failure');
  const status = (await server.api(`/api/overlays/${id}/status`)).body.data;
  t.equal(status.state, 'failed');
  t.match(`${status.error.kind}: ${status.error.message}`, error, 'so does the status');
}

t.test('hostile plugins', async (t) => {
  const repo = await makeRepo(t, {
    ...SAMPLE_REPO,
    escape: { symlink: '/etc/hostname' },
    'store-link': { symlink: '.strata/layout.db' },
    'big.txt': 'x'.repeat(4096),
  });
  const plugins = await mkdtemp(path.join(tmpdir(), 'strata-hostile-'));
  t.teardown(() => rm(plugins, { recursive: true, force: true }));
  await writePlugins(plugins, [LOC_PLUGIN, ...Object.values(cases).map((c) => c.plugin)]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins], ...LIMITS }, watch: false, index: { maxFileBytes: 1024 } } });
  const listed = new Map<string, { loaded: boolean; reason?: string }>((await server.api('/api/overlays')).body.plugins.map((p: { id: string }) => [p.id, p]));

  for (const [name, hostile] of Object.entries(cases)) {
    await t.test(name, async (t) => {
      const id = hostile.plugin.id;
      if (hostile.at === 'load') {
        t.equal(listed.get(id)?.loaded, false, 'listed as not loaded');
        t.match(listed.get(id)?.reason, hostile.error, 'with the reason');
        const apply = await server.api(`/api/overlays/${id}/apply`, { method: 'POST' });
        t.equal(apply.status, 409);
        t.equal(apply.body.error.code, 'PLUGIN_NOT_LOADED');
      } else {
        t.equal(listed.get(id)?.loaded, true, 'loads');
        await applyFails(t, server, id, hostile.error);
      }
      await healthy(t, server);
    });
  }
});

t.test('a memory bomb is stopped by its memory limit', async (t) => {
  // A server of its own, with CPU time to spare: under a loaded CI machine the bomb twice ran past the suite's
  // 500 ms of CPU before its 32 MiB (alone it reaches them in about 60 ms of CPU).
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await mkdtemp(path.join(tmpdir(), 'strata-hostile-'));
  t.teardown(() => rm(plugins, { recursive: true, force: true }));
  await writePlugins(plugins, [
    LOC_PLUGIN,
    { id: 'memory-bomb', code: pluginCode('const hoard = []; for (;;) hoard.push(new Array(1e6).fill(Math.random()));') },
  ]);
  const server = await startTestServer(t, repo, {
    flags: { plugins: { directories: [plugins], ...LIMITS, cpuTimeMs: 10_000, wallTimeMs: 20_000 }, watch: false },
  });
  await applyFails(t, server, 'memory-bomb', /memory limit of 32 MiB/);
  const status = (await server.api('/api/overlays/memory-bomb/status')).body.data;
  t.equal(status.error.kind, 'memory');
  await healthy(t, server);
});

t.test('a flood of capability calls within the call limit: those past what may wait are refused at once, the others answered', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await mkdtemp(path.join(tmpdir(), 'strata-hostile-'));
  t.teardown(() => rm(plugins, { recursive: true, force: true }));
  const flood = `
    const settled = await Promise.allSettled(Array.from({ length: 10_200 }, () => ctx.files.read('src/index.ts')));
    const refused = settled.filter((result) => result.status === 'rejected');
    return { summary: { answered: settled.length - refused.length, refused: refused.length, reason: String(refused[0]?.reason?.message ?? refused[0]?.reason) } };`;
  await writePlugins(plugins, [LOC_PLUGIN, { id: 'wide-flood', capabilities: ['files:read'], code: pluginCode(flood) }]);
  const server = await startTestServer(t, repo, {
    flags: { plugins: { directories: [plugins], ...LIMITS, maxCapabilityCalls: 50_000, cpuTimeMs: 20_000, wallTimeMs: 60_000 }, watch: false },
  });
  const applied = await server.api('/api/overlays/wide-flood/apply', { method: 'POST' });
  t.equal(applied.status, 200, JSON.stringify(applied.body));
  const summary = (await server.api('/api/overlays/wide-flood/status')).body.data.summary;
  // Answers that come back while the calls are still being made free places: a few more than 10,064 may be taken.
  t.ok(
    summary.answered >= 10_064 && summary.answered < 10_200,
    `at least 64 sent to the host and 10,000 waiting in the sandbox process are answered (${summary.answered})`,
  );
  t.equal(summary.answered + summary.refused, 10_200, 'the rest are refused');
  t.match(summary.reason, /too many capability calls at once: 10064 are waiting for an answer already; await some before making more/);
  await healthy(t, server);
});

t.test('the prototype polluter, a plugin that keeps running after its apply, and a killed sandbox', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await mkdtemp(path.join(tmpdir(), 'strata-hostile-'));
  t.teardown(() => rm(plugins, { recursive: true, force: true }));
  await writePlugins(plugins, [
    LOC_PLUGIN,
    {
      id: 'polluter',
      code: pluginCode(`
        Object.prototype.polluted = 'yes';
        Array.prototype.push = function () { throw new Error('hijacked'); };
        Object.defineProperty(Object.prototype, 'color', { get() { return 'javascript:alert(1)'; }, configurable: true });
        ctx.graph.nodes.parent.fill(0);
        ctx.overlay('main').set(${node}, { value: 1 });
      `),
    },
    {
      id: 'lingers',
      capabilities: ['files:list'],
      code: pluginCode(`(async () => { for (;;) { ctx.log('tick'); await ctx.files.list('**'); } })(); ctx.overlay('main').set(${node}, { value: 1 });`),
    },
    { id: 'slow', code: pluginCode('await new Promise(() => {});') },
    { id: 'victim', code: pluginCode('await new Promise(() => {});') },
    { id: 'keeps-going', capabilities: ['files:list'], code: pluginCode("for (;;) { ctx.log('going'); await ctx.files.list('**'); }") },
    {
      id: 'brace-bomb',
      capabilities: ['files:list'],
      code: pluginCode(
        `const found = await ctx.files.list(Array.from({ length: 20 }, (_, i) => '{1..99999}x' + i)); ctx.overlay('main').set(${node}, { value: found.length });`,
      ),
    },
    {
      id: 'badges-twice',
      code: pluginCode(`const o = ctx.overlay('main'); o.set(${node}, { badge: 'a' }); o.set(${node}, { badge: 'b' }); o.set(${node}, { badge: 'c' });`),
    },
  ]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins], ...LIMITS, wallTimeMs: 20_000 }, watch: false } });

  // Pollution stays in the plugin's own isolate.
  const polluted = await server.api('/api/overlays/polluter/apply', { method: 'POST' });
  t.equal(polluted.status, 200);
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'the host realm is untouched');
  const styles = (await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`)).body.data.overlays;
  t.same(styles.polluter, { main: { value: 1 } }, 'no color crept in through the prototype');
  t.equal((await server.api('/api/overlays/loc/apply', { method: 'POST' })).status, 200);
  const again = await server.api('/api/overlays/polluter/apply', { method: 'POST' });
  t.equal(again.status, 200, 'the polluted isolate still applies (its graph is copied in fresh)');

  // Work left running after an apply gets no more answers.
  t.equal((await server.api('/api/overlays/lingers/apply', { method: 'POST' })).status, 200);
  const ticks = () => server.logs.filter((record) => record.msg === 'tick').length;
  await new Promise((resolve) => setTimeout(resolve, 300));
  const early = ticks();
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.ok(early <= 2, `at most one capability call is made after the apply ends (${early} ticks)`);
  t.equal(ticks(), early, 'and nothing runs after that');

  // Patterns are not brace-expanded: '{1..99999}' is a name, matched at once.
  const bombed = await server.api('/api/overlays/brace-bomb/apply', { method: 'POST' });
  t.equal(bombed.status, 200);
  t.equal((await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`)).body.data.overlays['brace-bomb'].main.value, 0);

  // Setting a node's badge again replaces it.
  t.equal((await server.api('/api/overlays/badges-twice/apply', { method: 'POST' })).status, 200);
  t.equal((await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`)).body.data.overlays['badges-twice'].main.badge, 'c');

  // A plugin removed while it works stops working.
  const going = server.api('/api/overlays/keeps-going/apply', { method: 'POST' });
  const goings = () => server.logs.filter((record) => record.msg === 'going').length;
  for (let i = 0; i < 100 && goings() < 5; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  t.ok(goings() >= 5, 'it is busy calling capabilities');
  t.equal((await server.api('/api/graph')).status, 200, 'the API answers meanwhile');
  await server.api('/api/overlays/keeps-going/apply', { method: 'DELETE' });
  await going;
  const atRemoval = goings();
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.equal(goings(), atRemoval, 'no capability call after its removal');

  // A sandbox process that dies (as from a fatal V8 error) fails its apply, and only that.
  const victim = server.api('/api/overlays/victim/apply', { method: 'POST' });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const children = execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map(Number);
  for (const pid of children) {
    const command = execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' });
    if (command.includes('sandbox-process.js')) process.kill(pid, 'SIGKILL');
  }
  const killed = await victim;
  t.equal(killed.status, 500);
  t.match(killed.body.error.message, /crashed.*sandbox process ended/);
  t.equal((await server.api('/api/overlays/loc/apply', { method: 'POST' })).status, 200, 'killed sandboxes start again on the next call');

  // Removing an overlay that is applying stops the plugin.
  const applying = server.api('/api/overlays/slow/apply', { method: 'POST' });
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.equal((await server.api('/api/overlays/slow/status')).body.data.state, 'applying');
  const busy = await server.api('/api/overlays/slow/apply', { method: 'POST' });
  t.equal(busy.status, 409);
  t.equal(busy.body.error.code, 'OVERLAY_BUSY');
  const removed = await server.api('/api/overlays/slow/apply', { method: 'DELETE' });
  t.equal(removed.body.data.state, 'inactive');
  t.equal((await applying).status, 200, 'the cancelled apply answers');
  t.equal((await server.api('/api/overlays/slow/status')).body.data.state, 'inactive');
});

t.test('a sandbox process that stops answering is stopped by the host, and the error says what it was asked', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await mkdtemp(path.join(tmpdir(), 'strata-hostile-'));
  t.teardown(() => rm(plugins, { recursive: true, force: true }));
  await writePlugins(plugins, [LOC_PLUGIN, { id: 'frozen', code: pluginCode('await new Promise(() => {});') }]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins], ...LIMITS }, watch: false } });
  const sandboxes = (): number[] =>
    execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map(Number)
      .filter((pid) => execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).includes('sandbox-process.js'));
  const applying = server.api('/api/overlays/frozen/apply', { method: 'POST' });
  for (let i = 0; (await server.api('/api/overlays/frozen/status')).body.data.state !== 'applying'; i++) {
    if (i === 200) throw new Error('the apply did not start');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  // Stopped by a signal, the process cannot run the isolate's own watchdog: only the host's clock is left.
  const stopped = sandboxes();
  for (const pid of stopped) process.kill(pid, 'SIGSTOP');
  t.teardown(() => {
    for (const pid of stopped) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Already gone.
      }
    }
  });
  const answer = await applying;
  for (const pid of sandboxes()) process.kill(pid, 'SIGCONT');
  t.equal(answer.status, 500);
  const expected = new RegExp(
    `did not answer an apply \\(wall time limit ${LIMITS.wallTimeMs} ms, not counting capability calls, plus ${LIMITS.loadTimeMs} ms to load the plugin again if it had to\\) within ${LIMITS.wallTimeMs + LIMITS.loadTimeMs + 3000} ms; it was stopped`,
  );
  t.match(answer.body.error, { code: 'PLUGIN_FAILED', message: expected });
  t.equal((await server.api('/api/overlays/loc/apply', { method: 'POST' })).status, 200, 'the other plugins work on');
  t.equal((await server.api('/api/graph')).status, 200);
});

t.test('a plugin that hangs while loading delays the overlay routes, not the graph', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await mkdtemp(path.join(tmpdir(), 'strata-hostile-'));
  t.teardown(() => rm(plugins, { recursive: true, force: true }));
  await writePlugins(plugins, [LOC_PLUGIN, { id: 'slow-load', code: 'for (;;) {}\nexport default 1;' }]);
  const { createServer } = await import('node:net');
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const { startStrata } = await import('@strata/host');
  const { Writable } = await import('node:stream');
  const starting = startStrata({
    repository: repo,
    env: {},
    flags: { port, logLevel: 'silent', watch: false, plugins: { directories: [plugins], loadTimeMs: 3000 } },
    logDestination: new Writable({ write: (_c, _e, done) => done() }),
  });
  t.teardown(async () => (await starting).stop());
  let graphStatus = 0;
  for (let i = 0; i < 200 && graphStatus !== 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    graphStatus = await fetch(`http://127.0.0.1:${port}/api/graph`).then(
      (response) => response.status,
      () => 0,
    );
  }
  t.equal(graphStatus, 200, 'the graph is served');
  // The start is done once the graph is served; the plugins go on loading, and the overlay listing waits for them: it
  // answers with the outcome of the load that runs out of time (3 s), not with a plugin half loaded.
  await starting;
  const listed = (await (await fetch(`http://127.0.0.1:${port}/api/overlays`)).json()) as { plugins: Array<{ id: string; loaded: boolean; reason?: string }> };
  t.match(
    listed.plugins.find((plugin) => plugin.id === 'slow-load'),
    { loaded: false, reason: /CPU time limit|wall-time|timed out/i },
    'the overlay listing waited for the plugins',
  );
  t.equal(listed.plugins.find((plugin) => plugin.id === 'loc')?.loaded, true);
});
