// A plugin saved while one of its applies runs (`strata serve --dev`): the reload ends the old version's sandbox
// under the apply, and the request in flight is answered by the new version (200, its result), or, when the new
// version cannot take the request, with 409 PLUGIN_RELOADED saying why; never a 500. The old version's apply waits
// on nothing that ever settles, so the reload always lands while it runs: the test saves once the apply has said,
// through ctx.progress, that it is under way.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { followEventsConnected, postJson, startTestServer } from '../helpers/strata-server.ts';
import { until } from '../helpers/until.ts';

/** A descriptor with a parameter schema (`definePlugin`'s) and an apply body. */
function version(parameters: Record<string, unknown>, apply: string): string {
  return `export default { strataPlugin: 1, sdkVersion: '0.1.0', parameters: ${JSON.stringify(parameters)}, overlays: [{ id: 'main', name: 'Main', type: 'badge' }], async apply(ctx) {\n${apply}\n} };\n`;
}

const TAKES_LEVEL = { type: 'object', properties: { level: { type: 'integer', default: 1 } }, additionalProperties: false };
const TAKES_NOTHING = { type: 'object', properties: {}, additionalProperties: false };
/** Says it is under way, then waits on a promise nothing settles (until its sandbox is ended). */
const STUCK = `ctx.progress(0, 1, 'waiting'); await new Promise(() => {});`;
/** Badges every file with its version and the level it was given. */
const ANSWERS = (label: string) =>
  `for (const i of ctx.graph.nodesOfKind('file')) ctx.overlay('main').set(i, { badge: '${label}' }); return { summary: { version: '${label}', level: ctx.params.level ?? 'none' } };`;

t.test('a reload during an apply: the request in flight gets the new version’s result, or 409 PLUGIN_RELOADED', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [
    { id: 'moving', code: version(TAKES_LEVEL, STUCK) },
    { id: 'narrowing', code: version(TAKES_LEVEL, STUCK) },
  ]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins] }, dev: true } });
  const events = await followEventsConnected(t, server);
  const eventsOf = (pluginId: string) => events.filter((event) => event.data.pluginId === pluginId).map((event) => event.type);
  const underWay = (pluginId: string) => until(() => eventsOf(pluginId).includes('overlay.progress'), `${pluginId}'s apply is under way`, 30_000);

  // The new version takes the request: it answers it.
  const moving = server.api('/api/overlays/moving/apply', postJson({ level: 4 }));
  await underWay('moving');
  await writeFile(path.join(plugins, 'moving', 'dist', 'plugin.js'), version(TAKES_LEVEL, ANSWERS('v2')));
  const moved = await moving;
  t.equal(moved.status, 200, `answered by the new version: ${JSON.stringify(moved.body?.error)}`);
  t.match(moved.body.data, { state: 'active', summary: { version: 'v2', level: 4 }, params: { level: 4 }, error: null });
  const node = await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`);
  t.same(node.body.data.overlays.moving.main, { badge: 'v2' }, "the new version's styles are served");
  await until(() => eventsOf('moving').includes('plugin.ready'), 'moving is ready', 30_000);
  const movingEvents = eventsOf('moving');
  t.notOk(movingEvents.includes('overlay.failed'), 'no failure is told');
  t.equal(movingEvents.filter((type) => type === 'overlay.applied').length, 1, 'applied once: the reload does not apply it again');
  t.ok(movingEvents.indexOf('overlay.applied') < movingEvents.indexOf('plugin.ready'), 'ready once the apply in flight is done');

  // The new version refuses the request's parameters: 409, naming the field, and the overlay says so.
  const narrowing = server.api('/api/overlays/narrowing/apply', postJson({ level: 4 }));
  await underWay('narrowing');
  await writeFile(path.join(plugins, 'narrowing', 'dist', 'plugin.js'), version(TAKES_NOTHING, ANSWERS('v2')));
  const narrowed = await narrowing;
  t.equal(narrowed.status, 409);
  t.same(narrowed.body.error, {
    code: 'PLUGIN_RELOADED',
    message:
      'plugin "narrowing" was reloaded while it applied, and its new version refuses the request: body.level: is not a known field; apply again with what it takes',
  });
  t.match((await server.api('/api/overlays/narrowing/status')).body.data, { state: 'failed', error: { kind: 'reloaded' } });
  const again = await server.api('/api/overlays/narrowing/apply', postJson({}));
  t.equal(again.status, 200, `applied again with what the new version takes: ${JSON.stringify(again.body?.error)}`);
  t.match(again.body.data.summary, { version: 'v2', level: 'none' });
});
