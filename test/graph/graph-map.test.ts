import t from 'tap';
import { LOC_PLUGIN, pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO, writeFiles } from '../helpers/fixture-repo.ts';
import { postJson, startTestServer, type TestServer } from '../helpers/strata-server.ts';

interface MapData {
  kinds: string[];
  languages: string[];
  nodes: {
    id: string[];
    name: string[];
    kind: number[];
    parent: number[];
    language: number[];
    lines: (number | null)[];
    files: (number | null)[];
    x: (number | null)[];
    y: (number | null)[];
  };
  imports: { source: number[]; target: number[] };
}

/** The map's columns read back as GET /api/graph's records (the fields the map carries), and its edges as ids. */
function fromMap(data: MapData): { nodes: Map<string, Record<string, unknown>>; edges: Set<string> } {
  const { nodes: column, kinds, languages } = data;
  const nodes = new Map<string, Record<string, unknown>>();
  const edges = new Set<string>();
  for (let i = 0; i < column.id.length; i++) {
    const node: Record<string, unknown> = { id: column.id[i], kind: kinds[column.kind[i]!], name: column.name[i] };
    if (column.parent[i]! >= 0) {
      node.parent = column.id[column.parent[i]!];
      edges.add(`contains:${node.parent}->${node.id}`);
    }
    if (column.language[i]! >= 0) node.language = languages[column.language[i]!];
    if (column.lines[i] !== null) node.lines = column.lines[i];
    if (column.files[i] !== null) node.files = column.files[i];
    if (column.x[i] !== null) node.position = { x: column.x[i], y: column.y[i] };
    nodes.set(node.id as string, node);
  }
  for (let j = 0; j < data.imports.source.length; j++) edges.add(`imports:${column.id[data.imports.source[j]!]}->${column.id[data.imports.target[j]!]}`);
  return { nodes, edges };
}

/** GET /api/graph's records cut to the fields the map carries. */
function fromGraph(graph: { nodes: Array<Record<string, unknown>>; edges: Array<{ id: string }> }): {
  nodes: Map<string, Record<string, unknown>>;
  edges: Set<string>;
} {
  const nodes = new Map<string, Record<string, unknown>>();
  for (const node of graph.nodes) {
    const kept: Record<string, unknown> = {};
    for (const field of ['id', 'kind', 'name', 'parent', 'language', 'lines', 'files', 'position']) if (node[field] !== undefined) kept[field] = node[field];
    nodes.set(node.id as string, kept);
  }
  return { nodes, edges: new Set(graph.edges.map((edge) => edge.id)) };
}

async function both(server: TestServer): Promise<{ graph: any; map: any }> {
  const [graph, map] = await Promise.all([server.api('/api/graph'), server.api('/api/graph/map')]);
  return { graph: graph.body, map: map.body };
}

t.test('the map holds every node and edge of GET /api/graph: each contains edge is a parent, each import a pair of indexes', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const { status, headers } = await server.api('/api/graph/map');
  t.equal(status, 200);
  t.match(headers.get('content-type'), /application\/json/);
  const { graph, map } = await both(server);
  t.ok(graph.data.nodes.length > 10, `${graph.data.nodes.length} nodes`);
  t.ok(
    graph.data.edges.some((edge: { kind: string }) => edge.kind === 'imports'),
    'the fixture has imports',
  );
  const expected = fromGraph(graph.data);
  const got = fromMap(map.data);
  t.same([...got.nodes.keys()].sort(), [...expected.nodes.keys()].sort(), 'the same nodes');
  for (const [id, node] of expected.nodes) t.same(got.nodes.get(id), node, id);
  t.same([...got.edges].sort(), [...expected.edges].sort(), 'the same edges: contains from parents, imports from pairs');
  t.equal(map.meta.revision, graph.meta.revision);
  t.equal(map.meta.nodeCount, graph.meta.nodeCount);
  t.equal(map.meta.edgeCount, graph.meta.edgeCount);
  t.equal(map.meta.repository, graph.meta.repository);
  t.ok(JSON.stringify(map).length < JSON.stringify(graph).length, 'smaller than the whole graph');
});

t.test('saved positions are in the map; nodes without one have null; a new file comes with the next revision', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  t.equal((await server.api('/api/graph/layout', postJson({ positions: { 'file:src/index.ts': { x: 12.5, y: -3 } } }))).status, 200);
  const { map } = await both(server);
  const index = map.data.nodes.id.indexOf('file:src/index.ts');
  t.same([map.data.nodes.x[index], map.data.nodes.y[index]], [12.5, -3]);
  const other = map.data.nodes.id.indexOf('file:src/lazy.ts');
  t.same([map.data.nodes.x[other], map.data.nodes.y[other]], [null, null]);
  t.equal(map.meta.positionCount, 1);

  await writeFiles(repo, { 'src/added.ts': "import { main } from './index';\nexport const again = main;\n" });
  const deadline = Date.now() + 10_000;
  let next = map;
  while (!next.data.nodes.id.includes('file:src/added.ts') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    next = (await server.api('/api/graph/map')).body;
  }
  t.ok(next.meta.revision > map.meta.revision, 'a later revision');
  const edges = fromMap(next.data).edges;
  t.ok(edges.has('imports:file:src/added.ts->file:src/index.ts'), 'its import');
  t.ok(edges.has('contains:dir:src->file:src/added.ts'), 'its directory');
});

t.test("GET /api/overlays/{id}/styles serves what GET /api/graph merges into each node's overlays, and nothing once removed", async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [LOC_PLUGIN]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins] } } });

  const before = await server.api('/api/overlays/loc/styles');
  t.equal(before.status, 200);
  t.same(before.body.data, { pluginId: 'loc', state: 'inactive', serving: false, overlays: [] });

  t.equal((await server.api('/api/overlays/loc/apply', { method: 'POST' })).status, 200);
  const styles = (await server.api('/api/overlays/loc/styles')).body.data;
  t.equal(styles.serving, true);
  t.equal(styles.state, 'active');
  t.same(
    styles.overlays.map((overlay: { id: string }) => overlay.id),
    ['main'],
  );
  t.same(styles.overlays[0].legend, { low: '#00ff00', high: '#ff0000' });
  const graph = (await server.api('/api/graph')).body.data;
  const expected: Record<string, unknown> = {};
  for (const node of graph.nodes) if (node.overlays?.loc?.main) expected[node.id] = node.overlays.loc.main;
  t.ok(Object.keys(expected).length >= 8, `${Object.keys(expected).length} nodes painted`);
  t.same(styles.overlays[0].styles, expected, 'node by node, the styles of GET /api/graph');

  t.equal((await server.api('/api/overlays/loc/apply', { method: 'DELETE' })).status, 200);
  t.same((await server.api('/api/overlays/loc/styles')).body.data, { pluginId: 'loc', state: 'inactive', serving: false, overlays: [] });

  const unknown = await server.api('/api/overlays/nope/styles');
  t.equal(unknown.status, 404);
  t.equal(unknown.body.error.code, 'NOT_FOUND');
  t.match(unknown.body.error.message, /nope/);
});
