// Every event the host sends matches its description in the OpenAPI document (one member per event type in the
// schema of GET /api/events), and the stream below sends every type the document lists.
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import t from 'tap';
import { pluginCode, pluginsFolder, writePlugin } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { followEventsConnected, postJson, startTestServer } from '../helpers/strata-server.ts';
import { until } from '../helpers/until.ts';

const PAINT = pluginCode(`
  ctx.log('painting');
  ctx.progress(1, 2, 'files painted');
  for (const i of ctx.graph.nodesOfKind('file')) ctx.overlay('main').set(i, { color: '#112233' });
`);

t.test('every event sent on GET /api/events matches its schema in the OpenAPI document', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [
    { id: 'paint', code: PAINT },
    { id: 'thrower', code: pluginCode(`throw new Error('no');`) },
  ]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins] }, dev: true } });
  const { body: document } = await server.api('/api/openapi.json');
  const content = document.paths['/api/events'].get.responses['200'].content;
  t.same(Object.keys(content), ['text/event-stream'], 'the stream is described as text/event-stream');
  const members = content['text/event-stream'].schema.anyOf as Array<{ properties: { event: { const: string }; data: unknown } }>;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validators = new Map(members.map((member) => [member.properties.event.const, ajv.compile(member)]));

  const events = await followEventsConnected(t, server);
  const seen = (type: string) => events.some((event) => event.type === type);
  const wait = async (type: string) => t.ok(await until(() => seen(type), `${type} sent`, 30_000), `${type} was sent`);

  t.equal((await server.api('/api/overlays/paint/apply', { method: 'POST' })).status, 200);
  t.equal((await server.api('/api/overlays/thrower/apply', { method: 'POST' })).body.error.code, 'PLUGIN_FAILED');
  t.equal((await server.api('/api/overlays/paint/apply', { method: 'DELETE' })).status, 200);
  await writeFile(path.join(plugins, 'paint', 'dist', 'plugin.js'), 'export default {');
  await wait('plugin.failed');
  await writeFile(path.join(plugins, 'paint', 'dist', 'plugin.js'), PAINT);
  await wait('plugin.reloaded');
  await wait('plugin.ready');
  await writePlugin(path.join(plugins, 'later'), { id: 'later', code: PAINT });
  // The start's plugins may be announced on this stream too (a start does not wait for its plugins): this one's.
  t.ok(
    await until(() => events.some((event) => event.type === 'plugin.loaded' && event.data.pluginId === 'later'), 'later loaded', 30_000),
    'plugin.loaded was sent',
  );
  await rm(path.join(plugins, 'later'), { recursive: true, force: true });
  await wait('plugin.removed');
  await writeFile(path.join(repo, 'src', 'added.ts'), 'export const added = 1;\n');
  await wait('graph.changed');
  t.equal((await server.api('/api/graph/layout/compute', postJson({ iterations: 20, seed: 1 }))).status, 200);
  await wait('layout.finished');

  // stream.dropped, the stream's own last event to a client that fell behind, is checked against the same schema in
  // test/events/slow-clients.test.ts.
  t.ok(validators.has('stream.dropped'), 'the document lists stream.dropped');
  t.same(
    [...new Set(events.map((event) => event.type))].sort(),
    [...validators.keys()].filter((type) => type !== 'stream.dropped').sort(),
    'every type the document lists was sent, and no other',
  );
  for (const event of events) {
    const validate = validators.get(event.type)!;
    t.ok(
      validate({ event: event.type, data: event.data }),
      `${event.type} ${JSON.stringify(event.data)} matches its schema${validate.errors ? `: ${ajv.errorsText(validate.errors)}` : ''}`,
    );
  }
});
