// A plugin's parameter schema is plugin code: its patterns must not be able to stall the host.
import t from 'tap';
import { pluginCode, pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { postJson, startTestServer } from '../helpers/strata-server.ts';

const PAINT = `const overlay = ctx.overlay('main'); for (const i of ctx.graph.nodesOfKind('file')) overlay.set(i, { color: '#00ff00' });`;

t.test('a catastrophic pattern in a parameter schema is matched in linear time: the host answers, and so do others meanwhile', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [
    {
      id: 'redos',
      code: pluginCode(PAINT),
      parameters: {
        type: 'object',
        properties: { name: { type: 'string', pattern: '^(a|a)*$' } },
        patternProperties: { '^(x+x+)+y$': { type: 'number' } },
        additionalProperties: false,
      },
    },
    { id: 'lookahead', code: pluginCode(PAINT), parameters: { type: 'object', properties: { name: { type: 'string', pattern: '^(?=a)a+$' } } } },
  ]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins] }, watch: false } });
  // On JavaScript's backtracking engine each extra character about doubles the time: 40 would take hours.
  const hostile = server.api('/api/overlays/redos/apply', postJson({ name: `${'a'.repeat(40)}b` }));
  const meanwhile = await server.api('/api/graph');
  t.equal(meanwhile.status, 200, 'another request is answered while the hostile one is checked');
  const answer = await hostile;
  t.equal(answer.status, 400);
  t.equal(answer.body.error.code, 'INVALID_PARAMETER');
  t.match(answer.body.error.message, /body\.name/);
  const keys = await server.api('/api/overlays/redos/apply', postJson({ [`${'x'.repeat(40)}`]: 1 }));
  t.equal(keys.status, 400, 'patternProperties too');
  const good = await server.api('/api/overlays/redos/apply', postJson({ name: 'aaaa' }));
  t.equal(good.status, 200, `a matching value applies (${JSON.stringify(good.body)})`);

  // RE2 has no lookaround: such a schema does not load, and says why.
  const listing = (await server.api('/api/overlays')).body.plugins.find((plugin: { id: string }) => plugin.id === 'lookahead');
  t.equal(listing.loaded, false);
  t.match(listing.reason, /strata\.parameters is not a valid JSON schema/);
});
