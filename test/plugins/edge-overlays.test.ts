import path from 'node:path';
import { PluginTester } from '@strata/sdk-testing';
import t from 'tap';
import { pluginCode, pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const REPO = {
  'src/a/one.ts': 'export const one = 1;\n',
  'src/a/two.ts': 'export const two = 2;\n',
  'src/b/three.ts': 'export const three = 3;\n',
  'lib/four.ts': 'export const four = 4;\n',
};

const EDGE_OVERLAYS = `[{ id: 'together', name: 'Changed together', type: 'edge', legend: { weak: '#cccccc', strong: '#e53935' } }, { id: 'sum', name: 'Sum', type: 'color' }]`;

/** An edge overlay whose edges the parameters choose: `weight` for one of them, `extra` for one more, `many` for a flood. */
const EDGES_PLUGIN = {
  id: 'pairs',
  code: pluginCode(
    `
    const together = ctx.overlay('together');
    together.setEdge('file:src/a/one.ts', 'file:src/b/three.ts', { weight: ctx.params.weight ?? 0.5, value: 3, label: '50 %' });
    together.setEdge('file:src/a/two.ts', 'file:src/b/three.ts', { weight: 0.25 });
    together.setEdge(ctx.graph.indexOf('file:src/a/one.ts'), ctx.graph.indexOf('file:lib/four.ts'), { weight: 1, value: 5 });
    together.setEdge('file:src/a/one.ts', 'file:src/a/two.ts', { weight: 2 });
    together.setEdge('file:src/a/one.ts', 'file:src/a/two.ts', { weight: 0.75, label: 'again' });
    if (ctx.params.extra) together.setEdge(ctx.params.extra[0], ctx.params.extra[1], { weight: 1 });
    if (ctx.params.many) {
      const n = ctx.graph.nodeCount;
      for (let i = 0, made = 0; made < ctx.params.many; i++) if (Math.floor(i / n) !== i % n) together.setEdge(Math.floor(i / n), i % n, { weight: 1 }), made++;
    }
    ctx.overlay('sum').set('file:src/a/one.ts', { color: '#e53935', value: 1.5 });
  `,
    EDGE_OVERLAYS,
  ),
  parameters: { type: 'object', properties: { weight: { type: 'number' }, extra: { type: 'array', items: { type: 'string' } }, many: { type: 'integer' } } },
};

const apply = (server: Awaited<ReturnType<typeof startTestServer>>, params: object = {}) =>
  server.api('/api/overlays/pairs/apply', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });

t.test('an edge overlay: listed with its type, its edges served, summed to directories, kept across a restart', async (t) => {
  const repo = await makeRepo(t, REPO);
  const plugins = await pluginsFolder(t, [EDGES_PLUGIN]);
  const dataDir = path.join(repo, '.strata');
  const server = await startTestServer(t, repo, { flags: { dataDir, plugins: { directories: [plugins] } } });
  const listed = await server.api('/api/overlays');
  const pairs = listed.body.plugins.find((plugin: { id: string }) => plugin.id === 'pairs');
  t.match(pairs, {
    loaded: true,
    sdk: '^0.1.0',
    overlays: [
      { id: 'together', type: 'edge', legend: { weak: '#cccccc', strong: '#e53935' } },
      { id: 'sum', type: 'color' },
    ],
  });

  const before = await server.api('/api/overlays/pairs/edges');
  t.same(before.body.data, { pluginId: 'pairs', state: 'inactive', serving: false, overlays: [] });

  // The event stream says how many edges the apply gave.
  const controller = new AbortController();
  t.teardown(() => controller.abort());
  const stream = await fetch(`${server.url}/api/events`, { signal: controller.signal });
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  let received = '';
  const appliedEvent = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return undefined;
      received += value;
      const match = /event: overlay\.applied\ndata: (.+)\n/.exec(received);
      if (match) return JSON.parse(match[1]!) as { pluginId: string; styledNodes: number; edges: number };
    }
  })();

  const applied = await apply(server);
  t.equal(applied.status, 200, JSON.stringify(applied.body.error));
  t.match(await appliedEvent, { pluginId: 'pairs', styledNodes: 1, edges: 4 }, 'overlay.applied counts the edges');
  controller.abort();
  const { status, body } = await server.api('/api/overlays/pairs/edges');
  t.equal(status, 200);
  t.equal(body.data.serving, true);
  t.same(body.data.overlays, [
    {
      id: 'together',
      legend: { weak: '#cccccc', strong: '#e53935' },
      edges: [
        { source: 'file:src/a/one.ts', target: 'file:src/b/three.ts', weight: 0.5, label: '50 %', value: 3 },
        { source: 'file:src/a/two.ts', target: 'file:src/b/three.ts', weight: 0.25 },
        { source: 'file:src/a/one.ts', target: 'file:lib/four.ts', weight: 1, value: 5 },
        { source: 'file:src/a/one.ts', target: 'file:src/a/two.ts', weight: 0.75, label: 'again' },
      ],
    },
  ]);
  const styles = await server.api('/api/overlays/pairs/styles');
  t.same(
    styles.body.data.overlays.map((overlay: { id: string; styles: object }) => [overlay.id, Object.keys(overlay.styles)]),
    [
      ['together', []],
      ['sum', ['file:src/a/one.ts']],
    ],
    'node styles as before; an edge overlay styles no node',
  );

  const level2 = await server.api('/api/overlays/pairs/edges?level=2');
  t.same(
    level2.body.data.overlays[0].edges,
    [
      { source: 'dir:src/a', target: 'file:lib/four.ts', weight: 1, count: 1, value: 5 },
      { source: 'dir:src/a', target: 'dir:src/b', weight: 0.75, count: 2, value: 3 },
    ],
    'src/a -> src/b sums two edges; lib/four.ts, less deep, stands for itself; heaviest first',
  );
  const level1 = await server.api('/api/overlays/pairs/edges?level=1');
  t.same(level1.body.data.overlays[0].edges, [{ source: 'dir:src', target: 'dir:lib', weight: 1, count: 1, value: 5 }]);
  t.equal(level1.body.data.overlays[0].unplaced, 0);
  const children = await server.api(`/api/overlays/pairs/edges?parent=${encodeURIComponent('dir:src')}`);
  t.same(children.body.data.overlays[0].edges, [{ source: 'dir:src/a', target: 'dir:src/b', weight: 0.75, count: 2, value: 3 }]);
  const bad = await server.api('/api/overlays/pairs/edges?level=1&parent=dir%3Asrc');
  t.equal(bad.status, 400);
  t.match(bad.body.error, { code: 'INVALID_PARAMETER', message: /`level` or `parent`, not both/ });

  await server.stop();
  const again = await startTestServer(t, repo, { flags: { dataDir, plugins: { directories: [plugins] } } });
  const kept = await again.api('/api/overlays/pairs/edges');
  t.equal(kept.body.data.overlays[0].edges.length, 4, 'the edges are kept in the store');
});

t.test('bad edges fail the apply with a clear message, and the last good edges keep serving', async (t) => {
  const repo = await makeRepo(t, REPO);
  const plugins = await pluginsFolder(t, [EDGES_PLUGIN]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins] } } });
  t.equal((await apply(server)).status, 200);
  for (const [params, message] of [
    [{ extra: ['file:src/a/one.ts', 'file:nope.ts'] }, /overlay "together": unknown node id "file:nope\.ts" \(the target of an edge\)/],
    [{ extra: ['file:src/a/one.ts', 'file:src/a/one.ts'] }, /an edge joins two different nodes/],
    [{ weight: -1 }, /weight of the edge file:src\/a\/one\.ts -> file:src\/b\/three\.ts is -1; weights are finite numbers of at least 0/],
  ] as const) {
    const failed = await apply(server, params);
    t.equal(failed.status, 500, JSON.stringify(params));
    t.equal(failed.body.error.code, 'PLUGIN_FAILED');
    t.match(failed.body.error.message, message);
  }
  const served = await server.api('/api/overlays/pairs/edges');
  t.equal(served.body.data.overlays[0].edges.length, 4, 'the last good result');
  t.equal(served.body.data.overlays[0].edges[0].weight, 0.5);
});

t.test('the harness asserts on edges', async (t) => {
  const plugins = await pluginsFolder(t, [{ ...EDGES_PLUGIN, code: EDGES_PLUGIN.code.replace("sdkVersion: '0.1.0'", "sdkVersion: '0.2.0'") }]);
  const tester = new PluginTester(path.join(plugins, 'pairs'));
  const graph = {
    nodes: Object.keys(REPO).map((file) => ({ id: `file:${file}`, kind: 'file' as const, name: path.basename(file), path: file })),
  };
  const result = await tester.run({ graph, params: { weight: 0.9 } });
  t.same(result.edge('together', 'file:src/a/one.ts', 'file:src/b/three.ts'), {
    source: 'file:src/a/one.ts',
    target: 'file:src/b/three.ts',
    weight: 0.9,
    label: '50 %',
    value: 3,
  });
  t.equal(result.overlays.together!.edges.length, 4);
  t.same(result.overlays.sum!.edges, []);
  t.same(
    result.snapshot().overlays.together!.edges?.[0],
    { source: 'file:src/a/one.ts', target: 'file:lib/four.ts', weight: 1, value: 5 },
    'sorted by source, then target',
  );

  const big = { nodes: Array.from({ length: 400 }, (_, i) => ({ id: `file:f${i}.ts`, kind: 'file' as const, name: `f${i}.ts`, path: `f${i}.ts` })) };
  const bigger = { nodes: [...big.nodes, ...graph.nodes] };
  const flood = await tester.run({ graph: bigger, params: { many: 99_996 } }).then(
    () => undefined,
    (error: Error) => error,
  );
  t.equal(flood, undefined, '100,000 edges in all are allowed (4 and 99,996)');
  const over = await tester.run({ graph: bigger, params: { many: 100_001 } }).then(
    () => undefined,
    (error: Error & { code?: string }) => error,
  );
  t.match(over, { code: 'PLUGIN_FAILED', message: /more than 100000 edges; an overlay gives at most 100000/ });
});
