import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import t from 'tap';
import { LOC_PLUGIN, writePlugins } from '../helpers/fixture-plugins.ts';
import { type FixtureFiles, makeRepo, SAMPLE_REPO, writeFiles } from '../helpers/fixture-repo.ts';
import { followEventsConnected, postJson, startTestServer, type TestServer } from '../helpers/strata-server.ts';

interface Item {
  id: string;
}

interface Graph {
  nodes: Item[];
  edges: Item[];
}

interface Changes extends Graph {
  since: number;
  revision: number;
  reset: boolean;
  removedNodes: string[];
  removedEdges: string[];
}

/** Waits until the served graph's revision passes `revision` and `ready` holds for it. */
async function nextGraph(server: TestServer, revision: number, ready: (graph: any) => boolean = () => true): Promise<any> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { body } = await server.api('/api/graph');
    if (body.meta.revision > revision && ready(body)) return body;
    if (Date.now() > deadline) throw new Error(`the graph did not change in time (revision ${body.meta.revision})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function ids(graph: { data: Graph }): Set<string> {
  return new Set(graph.data.nodes.map((node) => node.id));
}

function byId<T extends Item>(items: T[]): Map<string, T> {
  return new Map(items.map((item) => [item.id, item]));
}

/** What a client following the graph does with an answer: removes, then adds or replaces by id. */
function applyChanges(graph: Graph, changes: Changes): Graph {
  const nodes = byId(graph.nodes);
  const edges = byId(graph.edges);
  for (const id of changes.removedNodes) nodes.delete(id);
  for (const node of changes.nodes) nodes.set(node.id, node);
  for (const id of changes.removedEdges) edges.delete(id);
  for (const edge of changes.edges) edges.set(edge.id, edge);
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

/** Ids added or changed, and ids removed, from one list of records to another. */
function difference(before: Item[], after: Item[]): { changed: string[]; removed: string[] } {
  const old = byId(before);
  const now = byId(after);
  return {
    changed: [...now]
      .filter(([id, item]) => !isDeepStrictEqual(old.get(id), item))
      .map(([id]) => id)
      .sort(),
    removed: [...old.keys()].filter((id) => !now.has(id)).sort(),
  };
}

/** Nodes and edges as sets: records by id. */
function asSets(graph: Graph): { nodes: Record<string, Item>; edges: Record<string, Item> } {
  return { nodes: Object.fromEntries(byId(graph.nodes)), edges: Object.fromEntries(byId(graph.edges)) };
}

async function changesSince(server: TestServer, since: number | string): Promise<Changes> {
  const { status, body } = await server.api(`/api/graph/changes?since=${since}`);
  if (status !== 200) throw new Error(`GET /api/graph/changes?since=${since}: ${status} ${JSON.stringify(body)}`);
  return body.data;
}

const sorted = (values: string[]): string[] => [...values].sort();

t.test('after edits, an added and a deleted file, the answer is exactly the net change, and applying it gives the current graph', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  await server.api('/api/graph/layout', postJson({ positions: { 'file:src/types.ts': { x: 5, y: 6 } } }));
  const before = (await server.api('/api/graph')).body;

  await writeFile(
    path.join(repo, 'src/types.ts'),
    "import { format } from './util/format';\nexport interface Shape { size: number }\nexport function area(s: Shape) { return format(s.size); }\n",
  );
  const afterEdit = await nextGraph(server, before.meta.revision, (g) => ids(g).has('sym:src/types.ts#area'));
  await writeFile(
    path.join(repo, 'src/types.ts'),
    "import { format } from './util/format';\nexport interface Shape { size: number }\nexport function area(s: Shape) { return format(s.size); }\nexport function volume(s: Shape) { return s.size ** 3; }\n",
  );
  let graph = await nextGraph(server, afterEdit.meta.revision, (g) => ids(g).has('sym:src/types.ts#volume'));
  await writeFiles(repo, { 'src/added.ts': "import { area } from './types';\nexport const added = area;\n" });
  graph = await nextGraph(server, graph.meta.revision, (g) => ids(g).has('file:src/added.ts'));
  await writeFiles(repo, { 'src/temporary.ts': "import { added } from './added';\nexport const temporary = added;\n" });
  graph = await nextGraph(server, graph.meta.revision, (g) => ids(g).has('file:src/temporary.ts'));
  await rm(path.join(repo, 'src/temporary.ts'));
  graph = await nextGraph(server, graph.meta.revision, (g) => !ids(g).has('file:src/temporary.ts'));
  await rm(path.join(repo, 'src/lazy.ts'));
  graph = await nextGraph(server, graph.meta.revision, (g) => !ids(g).has('file:src/lazy.ts'));
  const after = (await server.api('/api/graph')).body;

  const changes = await changesSince(server, before.meta.revision);
  t.match(changes, { since: before.meta.revision, revision: after.meta.revision, reset: false });
  t.ok(after.meta.revision >= before.meta.revision + 6, 'six changes, as many revisions at least');

  const nodes = difference(before.data.nodes, after.data.nodes);
  const edges = difference(before.data.edges, after.data.edges);
  t.same(sorted(changes.nodes.map((node) => node.id)), nodes.changed, 'nodes: exactly those added or changed');
  t.same(sorted(changes.removedNodes), nodes.removed, 'removedNodes: exactly those removed');
  t.same(sorted(changes.edges.map((edge) => edge.id)), edges.changed, 'edges: exactly those added or changed');
  t.same(sorted(changes.removedEdges), edges.removed, 'removedEdges: exactly those removed');
  t.same(asSets(applyChanges(before.data, changes)), asSets(after.data), 'applied to the earlier graph, the answer gives the current one');

  const served = byId(changes.nodes as Array<Item & Record<string, unknown>>);
  t.equal(changes.nodes.filter((node) => node.id === 'file:src/types.ts').length, 1, 'a node changed twice is there once');
  t.match(served.get('file:src/types.ts'), { lines: 4, position: { x: 5, y: 6 } }, 'as it is now, with its saved position');
  t.ok(served.has('sym:src/types.ts#area') && served.has('sym:src/types.ts#volume') && served.has('file:src/added.ts'), 'new symbols and the new file');
  t.ok(
    changes.edges.some((edge) => edge.id === 'imports:file:src/types.ts->file:src/util/format.ts'),
    'the new import',
  );
  t.ok(changes.removedNodes.includes('file:src/lazy.ts'), 'the deleted file');
  t.ok(changes.removedEdges.includes('imports:file:src/index.ts->file:src/lazy.ts'), 'and the import of it');
  const all = [...changes.nodes.map((node) => node.id), ...changes.removedNodes, ...changes.edges.map((edge) => edge.id), ...changes.removedEdges];
  t.notOk(
    all.some((id) => id.includes('temporary')),
    'a file added and deleted since is not there at all',
  );
  t.notOk(served.has('file:src/index.ts') || served.has('dir:src'), 'nodes that changed and changed back are not there');

  const sinceEdit = await changesSince(server, afterEdit.meta.revision);
  t.notOk(
    sinceEdit.nodes.some((node) => node.id === 'sym:src/types.ts#area'),
    'from a later revision, what changed before it is left out',
  );
  t.ok(sinceEdit.nodes.some((node) => node.id === 'sym:src/types.ts#volume'));
  t.same(asSets(applyChanges(afterEdit.data, sinceEdit)), asSets(after.data), "and applied to that revision's graph it gives the current one");

  t.same(
    await changesSince(server, after.meta.revision),
    { since: after.meta.revision, revision: after.meta.revision, reset: false, nodes: [], removedNodes: [], edges: [], removedEdges: [] },
    'since the current revision: nothing',
  );
});

t.test('reset when the answer cannot be told: before the first graph, a future revision, a rebuilt graph', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  const empty = { nodes: [], removedNodes: [], edges: [], removedEdges: [] };
  t.same(await changesSince(server, 0), { since: 0, revision: graph.meta.revision, reset: true, ...empty }, 'revision 0 is before the graph was built');
  t.same(
    await changesSince(server, graph.meta.revision + 1),
    { since: graph.meta.revision + 1, revision: graph.meta.revision, reset: true, ...empty },
    'a revision the server has not reached (it restarted since)',
  );
  t.same(await changesSince(server, 999_999_999_999_999), { since: 999_999_999_999_999, revision: graph.meta.revision, reset: true, ...empty });

  const built = graph.meta.revision;
  await writeFile(path.join(repo, 'src/types.ts'), 'export interface Shape { size: number; name: string }\n');
  graph = await nextGraph(server, graph.meta.revision);
  t.match(await changesSince(server, built), { reset: false }, 'an edit is answered');
  const edited = graph.meta.revision;
  await writeFile(path.join(repo, '.gitignore'), 'dist/\n*.log\nsrc/legacy/\n');
  graph = await nextGraph(server, graph.meta.revision, (g) => !ids(g).has('dir:src/legacy'));
  t.same(
    await changesSince(server, edited),
    { since: edited, revision: graph.meta.revision, reset: true, ...empty },
    'a .gitignore change rebuilds the graph wholesale',
  );
  t.same(
    await changesSince(server, graph.meta.revision),
    { since: graph.meta.revision, revision: graph.meta.revision, reset: false, ...empty },
    'and it is followed again from there',
  );
});

t.test('a rebuild that changes nothing (a .gitignore saved again as it was) is no new revision: following the graph goes on', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const before = (await server.api('/api/graph')).body.meta.revision as number;
  const rebuiltAsBefore = () => server.logs.filter((record) => record.msg === 'graph rebuilt after its listing rules changed: nothing changed').length;
  // The same rules, saved again: the graph is listed again, and is the same.
  await writeFile(path.join(repo, '.gitignore'), `${SAMPLE_REPO['.gitignore']}`);
  const deadline = Date.now() + 10_000;
  while (rebuiltAsBefore() === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  t.ok(rebuiltAsBefore() > 0, 'the rules were read again');
  // The watcher may report the one save as two changes (the file emptied, then written): each is read again, and
  // each finds the graph as it was. Once it has been quiet for a second:
  for (let seen = -1; seen !== rebuiltAsBefore() && Date.now() < deadline; ) {
    seen = rebuiltAsBefore();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  t.equal((await server.api('/api/graph')).body.meta.revision, before, 'and the revision did not move');
  await writeFile(path.join(repo, 'src/types.ts'), 'export interface Shape { size: number; label: string }\n');
  await nextGraph(server, before);
  const changes = await changesSince(server, before);
  t.equal(changes.reset, false, 'a client following the graph goes on from where it was');
  t.ok(
    changes.nodes.some((node: { id: string }) => node.id === 'file:src/types.ts'),
    'with the edit',
  );
});

t.test('a bad since is 400 INVALID_PARAMETER naming it', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  for (const query of ['?since=-1', '?since=abc', '?since=1.5', '?since=1e3', '?since=', '?since=%201', '?since=1234567890123456', '', '?from=1']) {
    const { status, body } = await server.api(`/api/graph/changes${query}`);
    t.equal(status, 400, `"${query}"`);
    t.match(body.error, { code: 'INVALID_PARAMETER', message: /^query\.since: / }, `"${query}"`);
  }
});

t.test('a one-file edit in a large repository is answered in a few KB', async (t) => {
  const files: FixtureFiles = {};
  for (let i = 0; i < 1500; i++) {
    files[`src/m${i % 30}/f${i}.ts`] =
      `import { f${(i + 1) % 1500} } from '../m${(i + 1) % 30}/f${(i + 1) % 1500}';\nexport function f${i}() { return f${(i + 1) % 1500}; }\nexport const c${i} = ${i};\n`;
  }
  const repo = await makeRepo(t, files);
  const server = await startTestServer(t, repo);
  const before = (await server.api('/api/graph')).body;
  await writeFile(
    path.join(repo, 'src/m7/f7.ts'),
    "import { f8 } from '../m8/f8';\nexport function f7() { return f8; }\nexport const c7 = 7;\nexport function g7() { return c7; }\n",
  );
  const after = await nextGraph(server, before.meta.revision, (g) => ids(g).has('sym:src/m7/f7.ts#g7'));
  const { body } = await server.api(`/api/graph/changes?since=${before.meta.revision}`);
  const changeBytes = Buffer.byteLength(JSON.stringify(body));
  const graphBytes = Buffer.byteLength(JSON.stringify(after));
  t.ok(changeBytes < 4096, `the answer is ${changeBytes} bytes`);
  t.ok(changeBytes * 100 < graphBytes, `against ${graphBytes} bytes for the whole graph`);
  t.same(sorted(body.data.nodes.map((node: Item) => node.id)), ['file:src/m7/f7.ts', 'sym:src/m7/f7.ts#g7']);
  t.same(asSets(applyChanges(before.data, body.data)), asSets(after.data));
});

t.test('changed nodes carry the styles of the active overlays, as GET /api/graph serves them', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await mkdtemp(path.join(tmpdir(), 'strata-plugins-'));
  t.teardown(() => rm(plugins, { recursive: true, force: true }));
  await writePlugins(plugins, [LOC_PLUGIN]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins] } } });
  t.equal((await server.api('/api/overlays/loc/apply', { method: 'POST' })).status, 200);
  const before = (await server.api('/api/graph')).body;
  await writeFiles(repo, { 'src/more.ts': 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\nexport const d = 4;\n' });
  await nextGraph(server, before.meta.revision, (g) => ids(g).has('file:src/more.ts'));
  // Overlays are applied again once the graph has been quiet for a moment. The write may reach the graph in
  // more than one revision (the file seen created, then written): the last graph read is the one compared.
  const deadline = Date.now() + 10_000;
  let styled: any;
  let graph: any;
  while (!styled?.overlays && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    graph = (await server.api('/api/graph')).body;
    styled = graph.data.nodes.find((node: Item) => node.id === 'file:src/more.ts');
  }
  t.same(styled.overlays, { loc: { main: { color: '#ff0000', value: 4, badge: 'f' } } }, 'the new file is painted');
  const changes = await changesSince(server, before.meta.revision);
  t.equal(changes.revision, graph.meta.revision, 'the changes lead to the graph last read');
  t.same(
    changes.nodes.find((node) => node.id === 'file:src/more.ts'),
    styled,
    'and served with its styles in the changes',
  );
});

t.test('a new file is one change: the directory listed again a second later, as it was, is no new revision', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const before = (await server.api('/api/graph')).body;
  const events = await followEventsConnected(t, server);
  await writeFiles(repo, { 'src/util/added.ts': 'export const added = 1;\nexport const other = 2;\n' });
  const changed = await nextGraph(server, before.meta.revision, (graph) =>
    graph.data.nodes.some((node: Item & { lines?: number }) => node.id === 'file:src/util/added.ts' && node.lines === 2),
  );
  // The live updater lists the directories of a burst of changes again a second after it (BURST_CHECK_MS), for
  // changes the watcher did not report: here there are none.
  await new Promise((resolve) => setTimeout(resolve, 2500));
  const after = (await server.api('/api/graph')).body;
  t.equal(after.meta.revision, changed.meta.revision, 'no revision after the one that brought the file in');
  const revisions = events.filter((event) => event.type === 'graph.changed').map((event) => event.data.revision);
  t.equal(revisions.at(-1), changed.meta.revision, 'the last graph.changed is that revision');
});
