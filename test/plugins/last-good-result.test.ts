// A failed apply never takes away the overlay a team was looking at: whatever fails (the plugin's own
// check of its input, a throw, a limit), the last good result keeps serving, and the status, the event
// and the answer say so.
import t from 'tap';
import { type FixturePlugin, pluginCode, pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { followEvents, postJson, startTestServer, type TestServer } from '../helpers/strata-server.ts';

/** Paints every file, or fails as `mode` says. */
const FLAKY: FixturePlugin = {
  id: 'flaky',
  code: pluginCode(`
    const mode = ctx.params.mode ?? 'ok';
    if (mode === 'bad-input') { const error = new Error('the report is not XML'); error.name = 'InvalidInputError'; throw error; }
    if (mode === 'throw') throw new Error('boom');
    if (mode === 'spin') for (;;) {}
    const overlay = ctx.overlay('main');
    for (const i of ctx.graph.nodesOfKind('file')) overlay.set(i, { color: mode === 'ok' ? '#123456' : '#654321' });
  `),
  parameters: { type: 'object', properties: { mode: { enum: ['ok', 'other', 'bad-input', 'throw', 'spin'] } }, additionalProperties: false },
};

async function start(t: { teardown(fn: () => unknown): void }, repo: string, plugins: string): Promise<TestServer> {
  return startTestServer(t, repo, { flags: { plugins: { directories: [plugins], cpuTimeMs: 300, wallTimeMs: 3_000 }, watch: false } });
}

async function painted(server: TestServer): Promise<Record<string, string>> {
  const { body } = await server.api('/api/overlays/flaky/styles');
  const colors: Record<string, string> = {};
  for (const overlay of body.data.overlays)
    for (const [id, style] of Object.entries(overlay.styles as Record<string, { color: string }>)) colors[id] = style.color;
  return colors;
}

async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

t.test('every failure of an apply keeps the last good result serving, and says so', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [FLAKY]);
  const server = await start(t, repo, plugins);
  const events = followEvents(t, server);

  t.equal((await server.api('/api/overlays/flaky/apply', postJson({ mode: 'ok' }))).status, 200);
  const good = await painted(server);
  const count = Object.keys(good).length;
  t.ok(count >= 8, `${count} files painted`);
  const graphBefore = (await server.api('/api/graph')).body.data.nodes.filter((node: any) => node.overlays?.flaky).length;
  t.equal(graphBefore, count);

  for (const [mode, status, code, kind] of [
    ['bad-input', 400, 'INVALID_PARAMETER', 'invalid-input'],
    ['throw', 500, 'PLUGIN_FAILED', 'threw'],
    ['spin', 500, 'PLUGIN_FAILED', 'cpu-time'],
  ] as const) {
    const seen = events.length;
    const answer = await server.api('/api/overlays/flaky/apply', postJson({ mode }));
    t.equal(answer.status, status, `${mode}: ${status}`);
    t.equal(answer.body.error.code, code);
    t.match(
      answer.body.error.message,
      new RegExp(`its last good result \\(${count} nodes, applied .+\\) stays`),
      `${mode}: the answer says the last good result stays`,
    );
    const state = (await server.api('/api/overlays/flaky/status')).body.data;
    t.equal(state.state, 'active', `${mode}: still active`);
    t.same(state.params, { mode: 'ok' }, `${mode}: the parameters of the result that serves`);
    t.equal(state.styledNodes, count);
    t.equal(state.error.kind, kind, `${mode}: the error is in the status`);
    t.same(await painted(server), good, `${mode}: the same styles serve`);
    t.equal(
      (await server.api('/api/graph')).body.data.nodes.filter((node: any) => node.overlays?.flaky).length,
      count,
      `${mode}: GET /api/graph still paints them`,
    );
    const failed = await until(() => events.slice(seen).find((event) => event.type === 'overlay.failed'), `${mode}'s overlay.failed`);
    t.equal(failed.data.serving, 'last good result', `${mode}: the event says what serves`);
    t.equal(failed.data.error.kind, kind);
  }
  // A check of the request itself (the plugin's schema) runs nothing and changes nothing.
  t.equal((await server.api('/api/overlays/flaky/apply', postJson({ mode: 'nope' }))).status, 400);
  t.same(await painted(server), good);
  // A good apply after the failures clears the error.
  t.equal((await server.api('/api/overlays/flaky/apply', postJson({ mode: 'other' }))).status, 200);
  const after = (await server.api('/api/overlays/flaky/status')).body.data;
  t.equal(after.error, null);
  t.same(after.params, { mode: 'other' });
  t.ok(
    Object.values(await painted(server)).every((color) => color === '#654321'),
    'the new result serves',
  );
});

t.test('the last good result outlives a failed apply across a restart; with none, a failure serves nothing', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [FLAKY]);
  const first = await start(t, repo, plugins);
  const events = followEvents(t, first);
  // Nothing good yet: the failure leaves nothing.
  t.equal((await first.api('/api/overlays/flaky/apply', postJson({ mode: 'throw' }))).status, 500);
  t.equal((await first.api('/api/overlays/flaky/status')).body.data.state, 'failed');
  t.same(await painted(first), {});
  t.equal((await until(() => events.find((event) => event.type === 'overlay.failed'), 'overlay.failed')).data.serving, 'nothing');

  t.equal((await first.api('/api/overlays/flaky/apply', postJson({ mode: 'ok' }))).status, 200);
  const good = await painted(first);
  t.equal((await first.api('/api/overlays/flaky/apply', postJson({ mode: 'bad-input' }))).status, 400);
  await first.stop();

  const second = await start(t, repo, plugins);
  t.same(await painted(second), good, "the last good styles, restored (served while they are applied again on this run's graph)");
  let restored = (await second.api('/api/overlays/flaky/status')).body.data;
  for (const deadline = Date.now() + 10_000; restored.state === 'applying' && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    restored = (await second.api('/api/overlays/flaky/status')).body.data;
  }
  t.equal(restored.state, 'active', 'active after the restart');
  t.same(restored.params, { mode: 'ok' }, 'applied again with the parameters of the good result');
  t.same(await painted(second), good);
});
