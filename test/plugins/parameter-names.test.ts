// Parameters named as the properties every JavaScript object inherits (`constructor`, `toString`...) are
// parameters like any other: an apply without them gets their defaults, an apply with them gets what was sent,
// through HTTP and in the harness (@strata/sdk-testing), which checks requests with the same code. `__proto__` is
// the exception: Ajv never checks a property of that name, so a schema that declares one is refused at load (sent
// to a plugin that does not declare it, it is a field like any other).
import path from 'node:path';
import { PluginTester } from '@strata/sdk-testing';
import t from 'tap';
import { pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { postJson, startTestServer } from '../helpers/strata-server.ts';

/** Every property of Object.prototype but `__proto__` (see above), the legacy `__defineGetter__` family included. */
const INHERITED_NAMES = Object.getOwnPropertyNames(Object.prototype)
  .filter((name) => name !== '__proto__')
  .sort();

/** One string parameter per inherited name, each with a default. */
const SCHEMA = {
  type: 'object',
  properties: Object.fromEntries(INHERITED_NAMES.map((name) => [name, { type: 'string', default: 'd' }])),
  additionalProperties: false,
};

/** One optional parameter without a default, and one required, both with inherited names. */
const BARE_SCHEMA = {
  type: 'object',
  properties: { constructor: { type: 'integer' }, toString: { type: 'string' } },
  required: ['toString'],
  additionalProperties: false,
};

/** Says what it was given: the parameters it holds as its own, as JSON, in its summary. */
const ECHO = `export default { strataPlugin: 1, sdkVersion: '0.1.0', overlays: [{ id: 'main', name: 'Main', type: 'badge' }], async apply(ctx) {
  const own = Object.getOwnPropertyNames(ctx.params).sort().map((name) => [name, ctx.params[name]]);
  return { summary: { params: JSON.stringify(own) } };
} };
`;

/** What ECHO's summary holds for `params`. */
const echoed = (params: Record<string, unknown>): string => JSON.stringify(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** A JSON body holding `entries` as own keys (`__proto__` included: JSON.parse keeps it a key). */
const body = (entries: Array<[string, unknown]>): string => `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`;

t.test('parameters named as inherited properties get their defaults, or what was sent', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [
    { id: 'echo', code: ECHO, parameters: SCHEMA },
    { id: 'bare', code: ECHO, parameters: BARE_SCHEMA },
    {
      id: 'proto',
      code: ECHO,
      parameters: { type: 'object', properties: { deep: { type: 'object', properties: JSON.parse('{"__proto__":{"type":"integer"}}') } } },
    },
  ]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const tester = new PluginTester(path.join(plugins, 'echo'));
  const defaults = Object.fromEntries(INHERITED_NAMES.map((name) => [name, 'd']));

  const none = await server.api('/api/overlays/echo/apply', { method: 'POST' });
  t.equal(none.status, 200, `no body: ${JSON.stringify(none.body?.error)}`);
  t.equal(none.body.data.summary.params, echoed(defaults), 'every default filled in, and nothing else');
  const empty = await server.api('/api/overlays/echo/apply', postJson({}));
  t.equal(empty.status, 200, `{}: ${JSON.stringify(empty.body?.error)}`);
  t.equal(empty.body.data.summary.params, echoed(defaults));
  t.equal(echoed((await server.api('/api/overlays/echo/status')).body.data.params), echoed(defaults), 'the status keeps them');
  const harness = await tester.run({ graph: { nodes: [] } });
  t.equal(harness.summary.params, echoed(defaults), 'the harness fills in the same defaults');

  for (const name of INHERITED_NAMES) {
    const sent = await server.api('/api/overlays/echo/apply', { method: 'POST', headers: { 'content-type': 'application/json' }, body: body([[name, 's']]) });
    t.equal(sent.status, 200, `${name} given: ${JSON.stringify(sent.body?.error)}`);
    t.equal(sent.body.data.summary.params, echoed({ ...defaults, [name]: 's' }), `${name}: what was sent, the others their defaults`);
    const refused = await server.api('/api/overlays/echo/apply', { method: 'POST', headers: { 'content-type': 'application/json' }, body: body([[name, 7]]) });
    t.equal(refused.status, 400, `${name} of the wrong type is refused`);
    t.same(refused.body.error, { code: 'INVALID_PARAMETER', message: `body.${name}: must be string` }, `${name}: the field named`);
  }
  const given = await tester.run({
    graph: { nodes: [] },
    params: JSON.parse(
      body([
        ['constructor', 's'],
        ['valueOf', 't'],
      ]),
    ),
  });
  t.equal(given.summary.params, echoed({ ...defaults, constructor: 's', valueOf: 't' }), 'the harness takes them as sent');
  const proto = await server.api('/api/overlays/echo/apply', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body([['__proto__', 's']]),
  });
  t.equal(proto.status, 400, 'an undeclared __proto__ is refused as any unknown field');
  t.match(proto.body.error, { code: 'INVALID_PARAMETER', message: /^body\.__proto__: is not a known field; plugin "echo" takes "__defineGetter__", / });

  // Without defaults: an inherited name is absent until sent, and a required one is missing until sent.
  const missing = await server.api('/api/overlays/bare/apply', postJson({}));
  t.equal(missing.status, 400);
  t.same(missing.body.error, { code: 'INVALID_PARAMETER', message: 'body.toString: is required' });
  const bare = await server.api('/api/overlays/bare/apply', postJson({ toString: 'x' }));
  t.equal(bare.status, 200, `constructor absent: ${JSON.stringify(bare.body?.error)}`);
  t.equal(bare.body.data.summary.params, echoed({ toString: 'x' }));
  const both = await server.api('/api/overlays/bare/apply', postJson({ toString: 'x', constructor: 3 }));
  t.equal(both.body.data.summary.params, echoed({ constructor: 3, toString: 'x' }));
  await t.rejects(new PluginTester(path.join(plugins, 'bare')).run({ graph: { nodes: [] } }), {
    code: 'INVALID_PARAMETER',
    message: 'body.toString: is required',
  });

  // A schema declaring __proto__, at any depth: not loaded, with the reason, by the host and the harness alike.
  const reason = 'package.json: strata.parameters declares a property named "__proto__", which Ajv (the JSON schema validator) never checks: name it otherwise';
  const listed = (await server.api('/api/overlays')).body.plugins.find((plugin: { id: string }) => plugin.id === 'proto');
  t.match(listed, { loaded: false, state: 'invalid', reason });
  const notLoaded = await server.api('/api/overlays/proto/apply', { method: 'POST' });
  t.equal(notLoaded.status, 409);
  t.same(notLoaded.body.error, { code: 'PLUGIN_NOT_LOADED', message: `plugin "proto" is not loaded: ${reason}` });
  await t.rejects(new PluginTester(path.join(plugins, 'proto')).run({ graph: { nodes: [] } }), {
    code: 'PLUGIN_NOT_LOADED',
    message: `plugin "proto" is not loaded: ${reason}`,
  });
});

t.test('inputs named as inherited properties are read as sent', async (t) => {
  const plugins = await pluginsFolder(t, [
    {
      id: 'reader',
      capabilities: ['inputs:read'],
      code: `export default { strataPlugin: 1, sdkVersion: '0.1.0', overlays: [{ id: 'main', name: 'Main', type: 'badge' }], async apply(ctx) {
        return { summary: { inputs: JSON.stringify(ctx.inputs.names().sort().map((name) => [name, ctx.inputs.get(name)])) } };
      } };\n`,
    },
  ]);
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const sent = await server.api('/api/overlays/reader/apply', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"inputs":{"__proto__":"a","constructor":["b","c"]}}`,
  });
  t.equal(sent.status, 200, JSON.stringify(sent.body?.error));
  t.equal(
    sent.body.data.summary.inputs,
    JSON.stringify([
      ['__proto__', ['a']],
      ['constructor', ['b', 'c']],
    ]),
  );
  t.same(sent.body.data.inputs.sort(), ['__proto__', 'constructor'], 'the status names them');
});

t.test('summaries and legends may name entries as inherited properties', async (t) => {
  const plugins = await pluginsFolder(t, [
    {
      id: 'named',
      code: `export default { strataPlugin: 1, sdkVersion: '0.1.0', overlays: [{ id: 'main', name: 'Main', type: 'color' }], async apply(ctx) {
        ctx.overlay('main').setLegend({ ['__proto__']: '#ff0000', constructor: '#00ff00', toString: '#0000ff' });
        return { summary: { ['__proto__']: 1, constructor: 'c', valueOf: 2 } };
      } };\n`,
    },
  ]);
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const applied = await server.api('/api/overlays/named/apply', { method: 'POST' });
  t.equal(applied.status, 200, JSON.stringify(applied.body?.error));
  const summary = echoed({ ['__proto__']: 1, constructor: 'c', valueOf: 2 });
  const legend = echoed({ ['__proto__']: '#ff0000', constructor: '#00ff00', toString: '#0000ff' });
  t.equal(echoed(applied.body.data.summary), summary, 'the summary as returned');
  const listed = (await server.api('/api/overlays')).body.plugins.find((plugin: { id: string }) => plugin.id === 'named');
  t.equal(echoed(listed.overlays[0].legend), legend, 'the legend as set');
  const harness = await new PluginTester(path.join(plugins, 'named')).run({ graph: { nodes: [] } });
  t.equal(echoed(harness.summary), summary, 'the harness: the same summary');
  t.equal(echoed(harness.overlays.main!.legend), legend, 'the harness: the same legend');
});
