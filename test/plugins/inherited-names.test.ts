import t from 'tap';
import { pluginCode, pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';

/**
 * Plugin and overlay ids are lower-case letters, digits and dashes, so a
 * plugin may be named `constructor` and an overlay `keys`: names every
 * object inherits, or Object itself has. Their styles are served under them
 * like any others', and nothing is written onto Object.
 */
t.test('a plugin named constructor with an overlay named keys: served under its names, Object untouched', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [
    {
      id: 'constructor',
      code: pluginCode(`ctx.overlay('keys').set('file:src/index.ts', { color: '#123456', value: 7 });`, `[{ id: 'keys', name: 'Keys', type: 'color' }]`),
    },
  ]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const applied = await server.api('/api/overlays/constructor/apply', { method: 'POST' });
  t.equal(applied.status, 200, JSON.stringify(applied.body.error));

  const node = await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`);
  t.same(node.body.data.overlays, { constructor: { keys: { color: '#123456', value: 7 } } });
  const graph = await server.api('/api/graph');
  const index = graph.body.data.nodes.find((n: { id: string }) => n.id === 'file:src/index.ts');
  t.same(index.overlays, { constructor: { keys: { color: '#123456', value: 7 } } }, 'GET /api/graph as well');
  const styles = await server.api('/api/overlays/constructor/styles');
  t.same(styles.body.data.overlays[0].styles, { 'file:src/index.ts': { color: '#123456', value: 7 } });
  t.equal(typeof Object.keys, 'function', 'Object.keys is still a function');
  t.notOk(Object.hasOwn(Object, 'main'), 'no style was written onto Object');
  const other = await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/lazy.ts')}`);
  t.equal(other.body.data.overlays, undefined, 'a node the plugin did not paint has no overlays');
});
