import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { type FixturePlugin, pluginCode, writePlugins } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { postJson, startTestServerWithBuiltIns } from '../helpers/strata-server.ts';

const EXTENSIONS = fileURLToPath(new URL('../../extensions/', import.meta.url));

async function pluginDir(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'strata-plugins-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A fixture plugin's whole manifest, with `changes` over the usual fields. */
function manifest(id: string, changes: Record<string, unknown>): Record<string, unknown> {
  return {
    id,
    name: `Plugin ${id}`,
    description: `Fixture plugin ${id}`,
    sdk: '^0.1.0',
    entry: 'dist/plugin.js',
    capabilities: ['graph:read', 'inputs:read'],
    ...changes,
  };
}

/** Badges every file with the number of texts sent under `notes`. */
const NOTES_PLUGIN: FixturePlugin = {
  id: 'notes',
  code: pluginCode(
    `const overlay = ctx.overlay('main'); for (const i of ctx.graph.nodesOfKind('file')) overlay.set(i, { badge: ctx.inputs.get('notes').length });`,
  ),
  manifest: manifest('notes', {
    inputs: { notes: { description: 'Notes to count.', multiple: true }, extra: { description: 'Anything else.', accept: 'text/*, .txt,application/json' } },
  }),
};

t.test('GET /api/overlays gives each plugin its parameters schema and its inputs, for an apply form', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginDir(t);
  await writePlugins(plugins, [NOTES_PLUGIN, { id: 'plain', code: pluginCode('') }]);
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const { status, body } = await server.api('/api/overlays');
  t.equal(status, 200);
  const byId = Object.fromEntries(body.plugins.map((plugin: { id: string }) => [plugin.id, plugin]));

  const gitActivity = JSON.parse(await readFile(path.join(EXTENSIONS, 'git-activity/package.json'), 'utf8')).strata;
  t.same(byId['git-activity'].parameters, gitActivity.parameters, 'git-activity: the schema of its manifest');
  t.same(Object.keys(byId['git-activity'].parameters.properties), ['since', 'until']);
  t.same(byId['git-activity'].inputs, [], 'and no inputs');

  t.same(byId['test-coverage'].inputs, [{ name: 'report', description: byId['test-coverage'].inputs[0]?.description, accept: '.xml', multiple: true }]);
  t.match(byId['test-coverage'].inputs[0].description, /Cobertura/);
  t.match(byId['test-coverage'].parameters, { type: 'object', properties: { languages: { type: 'array' } } });
  t.match(byId.ownership.inputs, [{ name: 'teams', description: /team/i, accept: '.json', multiple: false }]);
  t.equal(byId.ownership.inputs.length, 1);

  t.same(
    byId.notes.inputs,
    [
      { name: 'notes', description: 'Notes to count.', multiple: true },
      { name: 'extra', description: 'Anything else.', accept: 'text/*, .txt,application/json', multiple: false },
    ],
    "in the manifest's order; multiple false and no accept unless declared",
  );
  t.notOk('parameters' in byId.notes, 'no parameters key for a plugin that declares none');
  t.notOk('parameters' in byId.plain);
  t.same(byId.plain.inputs, []);

  const applied = await server.api('/api/overlays/notes/apply', postJson({ inputs: { notes: ['a', 'b'] } }));
  t.equal(applied.status, 200, 'a plugin declaring inputs is applied as before');
  t.same(applied.body.data.inputs, ['notes']);
});

t.test('an invalid inputs declaration lists the plugin as not loaded, with a reason naming the problem', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginDir(t);
  const input = { description: 'A report.' };
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      'no-capability',
      { capabilities: ['graph:read'], inputs: { report: input } },
      /strata\.inputs declares "report", but strata\.capabilities lacks "inputs:read"/,
    ],
    [
      'no-capabilities',
      { capabilities: undefined, inputs: { report: input, teams: input } },
      /strata\.inputs declares "report", "teams", but strata\.capabilities lacks "inputs:read"/,
    ],
    ['no-description', { inputs: { report: { accept: '.xml' } } }, /strata\.inputs\.report\.description: is required/],
    ['empty-description', { inputs: { report: { description: '' } } }, /strata\.inputs\.report\.description: /],
    ['unknown-field', { inputs: { report: { ...input, required: true } } }, /strata\.inputs\.report\.required: is not a known field/],
    ['bad-multiple', { inputs: { report: { ...input, multiple: 'yes' } } }, /strata\.inputs\.report\.multiple: must be boolean/],
    [
      'bad-accept',
      { inputs: { report: { ...input, accept: 'xml files' } } },
      /strata\.inputs\.report\.accept: "xml files" must list file extensions \("\.xml"\) and media types/,
    ],
    ['bad-name', { inputs: { 'the report': input } }, /strata\.inputs\["the report"\]: an input name is a letter/],
    ['not-an-object', { inputs: ['report'] }, /strata\.inputs: must be object/],
  ];
  await writePlugins(
    plugins,
    cases.map(([id, changes]) => ({ id, code: pluginCode(''), manifest: manifest(id, changes) })),
  );
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const { body } = await server.api('/api/overlays');
  const byId = Object.fromEntries(body.plugins.map((plugin: { id: string }) => [plugin.id, plugin]));
  for (const [id, , reason] of cases) {
    t.match(byId[id], { loaded: false, state: 'invalid', reason, inputs: [] }, id);
    t.notOk('parameters' in (byId[id] ?? {}), `${id}: nothing of an invalid manifest is served`);
  }
  t.match(byId['test-coverage'], { loaded: true }, 'the built-ins declaring inputs load');
  t.match(byId.ownership, { loaded: true });
  const apply = await server.api('/api/overlays/no-capability/apply', { method: 'POST' });
  t.equal(apply.status, 409);
  t.match(apply.body.error, { code: 'PLUGIN_NOT_LOADED', message: /inputs:read/ });
});
