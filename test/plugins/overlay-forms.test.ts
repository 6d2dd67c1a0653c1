import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { pluginCode, writePlugins } from '../helpers/fixture-plugins.ts';
import { startTestServer } from '../helpers/strata-server.ts';

async function pluginDir(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'strata-plugins-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A fixture plugin's whole manifest, with `changes` over the usual fields. */
function manifest(id: string, changes: Record<string, unknown>): Record<string, unknown> {
  return { id, name: `Plugin ${id}`, description: `Fixture plugin ${id}`, sdk: '^0.1.0', entry: 'dist/plugin.js', capabilities: ['graph:read', 'inputs:read'], ...changes };
}

t.test('an invalid inputs declaration lists the plugin as not loaded, with a reason naming the problem', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginDir(t);
  const input = { description: 'A report.' };
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['no-capability', { capabilities: ['graph:read'], inputs: { report: input } }, /strata\.inputs declares "report", but strata\.capabilities lacks "inputs:read"/],
    ['no-capabilities', { capabilities: undefined, inputs: { report: input, teams: input } }, /strata\.inputs declares "report", "teams", but strata\.capabilities lacks "inputs:read"/],
    ['no-description', { inputs: { report: { accept: '.xml' } } }, /strata\.inputs\.report\.description: is required/],
    ['empty-description', { inputs: { report: { description: '' } } }, /strata\.inputs\.report\.description: /],
    ['unknown-field', { inputs: { report: { ...input, required: true } } }, /strata\.inputs\.report\.required: is not a known field/],
    ['bad-multiple', { inputs: { report: { ...input, multiple: 'yes' } } }, /strata\.inputs\.report\.multiple: must be boolean/],
    ['bad-accept', { inputs: { report: { ...input, accept: 'xml files' } } }, /strata\.inputs\.report\.accept: "xml files" must list file extensions \("\.xml"\) and media types/],
    ['bad-name', { inputs: { 'the report': input } }, /strata\.inputs\["the report"\]: an input name is a letter/],
    ['not-an-object', { inputs: ['report'] }, /strata\.inputs: must be object/],
  ];
  await writePlugins(plugins, cases.map(([id, changes]) => ({ id, code: pluginCode(''), manifest: manifest(id, changes) })));
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const { body } = await server.api('/api/overlays');
  const byId = Object.fromEntries(body.plugins.map((plugin: { id: string }) => [plugin.id, plugin]));
  for (const [id, , reason] of cases) {
    t.match(byId[id], { loaded: false, state: 'invalid', reason }, id);
  }
  t.match(byId['test-coverage'], { loaded: true }, 'the built-ins declaring inputs load');
  t.match(byId.ownership, { loaded: true });
  const apply = await server.api('/api/overlays/no-capability/apply', { method: 'POST' });
  t.equal(apply.status, 409);
  t.match(apply.body.error, { code: 'PLUGIN_NOT_LOADED', message: /inputs:read/ });
});
