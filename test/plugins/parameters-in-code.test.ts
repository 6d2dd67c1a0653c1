// Parameters declared once, in the plugin's code (`definePlugin({ parameters })`): the host takes the schema from
// the loaded plugin, serves it, checks requests against it, and refuses a schema it cannot use; the harness
// (@strata/sdk-testing) checks the same way with the same words.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PluginTester } from '@strata/sdk-testing';
import t from 'tap';
import { type FixturePlugin, writePlugins } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { postJson, startTestServerWithBuiltIns } from '../helpers/strata-server.ts';

/** A descriptor as definePlugin makes it, with `parameters` (any JavaScript expression) and an apply body. */
function withParameters(parameters: string, apply = ''): string {
  return `export default { strataPlugin: 1, sdkVersion: '0.1.0', parameters: ${parameters}, overlays: [{ id: 'main', name: 'Main', type: 'badge' }], async apply(ctx) {\n${apply}\n} };\n`;
}

const SCHEMA = {
  type: 'object',
  properties: {
    level: { type: 'integer', minimum: 1, maximum: 9, default: 3, description: 'How deep.' },
    label: { type: 'string', pattern: '^(a|a)*$' },
  },
  additionalProperties: false,
};

/** Badges every file with the parameters it was given, defaults filled in. */
const LEVELS: FixturePlugin = {
  id: 'levels',
  code: withParameters(
    JSON.stringify(SCHEMA),
    `const overlay = ctx.overlay('main'); for (const i of ctx.graph.nodesOfKind('file')) overlay.set(i, { badge: JSON.stringify(ctx.params).slice(0, 32) });`,
  ),
};

async function pluginDir(t: { teardown(fn: () => unknown): void }, plugins: FixturePlugin[]): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'strata-plugins-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writePlugins(dir, plugins);
  return dir;
}

t.test('a schema declared in definePlugin is served, checked, and its defaults filled in', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginDir(t, [LEVELS]);
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const listed = (await server.api('/api/overlays')).body.plugins.find((plugin: { id: string }) => plugin.id === 'levels');
  t.match(listed, { loaded: true, state: 'loaded' });
  t.same(listed.parameters, SCHEMA, 'GET /api/overlays serves it, for the apply form');

  const applied = await server.api('/api/overlays/levels/apply', postJson({}));
  t.equal(applied.status, 200);
  const node = await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`);
  t.same(node.body.data.overlays.levels.main, { badge: '{"level":3}' }, 'the default, filled in before apply ran');
  const again = await server.api('/api/overlays/levels/apply', postJson({ level: 7, label: 'aa' }));
  t.equal(again.status, 200);

  const cases: Array<[Record<string, unknown>, string]> = [
    [{ level: 0 }, 'body.level: must be >= 1'],
    [{ level: 'deep' }, 'body.level: must be integer'],
    [{ depth: 2 }, 'body.depth: is not a known field; plugin "levels" takes "level", "label"'],
    // On RE2: a backtracking engine would take minutes on this; the answer comes at once.
    [{ label: `${'a'.repeat(34)}b` }, 'body.label: must match pattern "^(a|a)*$"'],
  ];
  for (const [body, message] of cases) {
    const refused = await server.api('/api/overlays/levels/apply', postJson(body));
    t.equal(refused.status, 400, JSON.stringify(body));
    t.same(refused.body.error, { code: 'INVALID_PARAMETER', message }, 'the field named');
    // The harness, on the same plugin folder: the same code and the same words.
    await t.rejects(
      new PluginTester(path.join(plugins, 'levels')).run({ graph: { nodes: [] }, params: body }),
      { code: 'INVALID_PARAMETER', message },
      `the harness: ${message}`,
    );
  }
  const status = await server.api('/api/overlays/levels/status');
  t.match(status.body.data, { state: 'active', params: { level: 7, label: 'aa' } }, 'a refused request changes nothing');
});

t.test('a schema the host cannot use keeps the plugin from loading, with the reason; so does one declared twice', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const cases: Array<[string, string, RegExp, Record<string, unknown>?]> = [
    ['twice', JSON.stringify(SCHEMA), /the parameters are declared twice, in package\.json \(strata\.parameters\) and in definePlugin: keep one/, SCHEMA],
    ['not-object-schema', `{ type: 'array' }`, /definePlugin parameters: must be an object schema/],
    ['bad-schema', `{ type: 'object', properties: { a: { type: 'nope' } } }`, /definePlugin parameters is not a valid JSON schema/],
    ['declares-inputs', `{ type: 'object', properties: { inputs: { type: 'string' } } }`, /definePlugin parameters may not declare "inputs"/],
    ['lookbehind', `{ type: 'object', properties: { a: { type: 'string', pattern: '(?<=x)y' } } }`, /definePlugin parameters is not a valid JSON schema/],
    ['not-json', `{ type: 'object', get properties() { throw new Error('no'); } }`, /the plugin is not valid: no/],
    ['an-array', `[1, 2]`, /parameters must be a JSON schema object/],
    ['too-large', `{ type: 'object', description: 'x'.repeat(70000) }`, /parameters must be a JSON schema of at most 65536 characters/],
    ['cyclic', `(() => { const s = { type: 'object' }; s.properties = { a: s }; return s; })()`, /the plugin is not valid: .*circular/i],
  ];
  const plugins = await pluginDir(
    t,
    cases.map(([id, parameters, , manifestParameters]) => ({
      id,
      code: withParameters(parameters),
      ...(manifestParameters && { parameters: manifestParameters }),
    })),
  );
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const byId = Object.fromEntries((await server.api('/api/overlays')).body.plugins.map((plugin: { id: string }) => [plugin.id, plugin]));
  for (const [id, , reason] of cases) {
    t.match(byId[id], { loaded: false, reason }, id);
    t.equal(byId[id]?.state === 'loaded', false, `${id} is not served`);
    // The harness refuses the same folder with the same reason.
    await t.rejects(
      new PluginTester(path.join(plugins, id)).run({ graph: { nodes: [] } }),
      { code: 'PLUGIN_NOT_LOADED', message: reason },
      `the harness: ${id}`,
    );
  }
  const apply = await server.api('/api/overlays/twice/apply', postJson({}));
  t.equal(apply.status, 409);
  t.match(apply.body.error, { code: 'PLUGIN_NOT_LOADED', message: /declared twice/ });
  t.match(byId['git-activity'], { loaded: true }, 'the others load');
});

t.test('the harness refuses what the host refuses in a manifest, in the same words', async (t) => {
  const plugins = await pluginDir(t, [
    { id: 'inputs-param', code: withParameters('undefined'), parameters: { type: 'object', properties: { inputs: { type: 'string' } } } },
    { id: 'future', code: withParameters('undefined'), sdk: '^9.0.0' },
  ]);
  await t.rejects(new PluginTester(path.join(plugins, 'inputs-param')).run({ graph: { nodes: [] } }), {
    code: 'PLUGIN_NOT_LOADED',
    message: 'plugin "inputs-param" is not loaded: package.json: strata.parameters may not declare "inputs": that key of the apply body carries input texts',
  });
  await t.rejects(new PluginTester(path.join(plugins, 'future')).run({ graph: { nodes: [] } }), {
    code: 'PLUGIN_NOT_LOADED',
    message: 'plugin "future" is not loaded: built for SDK ^9.0.0; this host provides SDK 0.2.0',
  });
});
