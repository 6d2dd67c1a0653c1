// The graph store alone (host/src/graph/graph-store.ts): revisions, lookups by id and by edge end, and the change
// log that `GET /api/graph/changes?since=` answers from.
import 'reflect-metadata';
import type { GraphEdge, GraphNode } from '@strata/sdk';
import t from 'tap';
import type { CodeGraph } from '../../host/dist/graph/code-graph.js';
import { CHANGE_LOG_MAX_ENTRIES, CHANGE_LOG_MAX_REVISIONS, InMemoryGraphStore } from '../../host/dist/graph/graph-store.js';

const BUILD = { repository: 'repo', indexedAt: '2026-11-26T00:00:00.000Z', durationMs: 1, skipped: [], unresolvedCount: 0 } as unknown as CodeGraph['build'];

function file(path: string, lines = 1): GraphNode {
  return { id: `file:${path}`, kind: 'file', name: path.split('/').at(-1)!, path, parent: 'dir:.', lines };
}

function imports(from: string, to: string): GraphEdge {
  return { id: `imports:file:${from}->file:${to}`, source: `file:${from}`, target: `file:${to}`, kind: 'imports' };
}

function graph(nodes: GraphNode[], edges: GraphEdge[]): CodeGraph {
  return { nodes: [{ id: 'dir:.', kind: 'directory', name: 'repo', path: '.' }, ...nodes], edges, build: BUILD };
}

const none = { removedNodes: [], upsertedNodes: [], removedEdges: [], upsertedEdges: [] };

t.test('replace: a new revision, lookups by id and by either end of an edge', async (t) => {
  const store = new InMemoryGraphStore();
  t.equal(store.revision, 0, 'no graph yet');
  store.replace(graph([file('a.ts'), file('b.ts')], [imports('a.ts', 'b.ts')]));
  t.equal(store.revision, 1);
  t.equal(store.nodeCount, 3);
  t.equal(store.edgeCount, 1);
  t.equal(store.node('file:a.ts')?.path, 'a.ts');
  t.equal(store.has('file:c.ts'), false);
  t.same(
    store.edgesOf('file:b.ts').incoming.map((edge) => edge.source),
    ['file:a.ts'],
  );
  t.same(
    store.edgesOf('file:a.ts').outgoing.map((edge) => edge.target),
    ['file:b.ts'],
  );
  t.same(store.edgesOf('file:a.ts').incoming, []);
  t.ok(Object.isFrozen(store.node('file:a.ts')), 'served records cannot be changed by a reader');
});

t.test('holds: a rebuild equal to the graph held is told apart from one that differs', async (t) => {
  const store = new InMemoryGraphStore();
  store.replace(graph([file('a.ts', 3)], []));
  t.equal(store.holds(graph([file('a.ts', 3)], [])), true);
  t.equal(store.holds(graph([file('a.ts', 4)], [])), false, 'a field changed');
  t.equal(store.holds(graph([file('a.ts', 3), file('b.ts')], [])), false, 'a node added');
  t.equal(store.holds(graph([file('a.ts', 3)], [imports('a.ts', 'a.ts')])), false, 'an edge added');
});

t.test('apply: edges follow their nodes; the change log gives the net change since any revision it keeps', async (t) => {
  const store = new InMemoryGraphStore();
  store.replace(graph([file('a.ts'), file('b.ts')], [imports('a.ts', 'b.ts')]));
  const base = store.revision;
  store.apply({ ...none, upsertedNodes: [file('c.ts')], upsertedEdges: [imports('c.ts', 'a.ts')] });
  store.apply({ ...none, upsertedNodes: [file('a.ts', 9)] });
  store.apply({ ...none, removedNodes: ['file:b.ts'], removedEdges: [imports('a.ts', 'b.ts').id] });
  t.equal(store.revision, base + 3, 'one revision per change');
  t.same(store.edgesOf('file:b.ts'), { incoming: [], outgoing: [] }, "a removed edge is gone from both ends' lists");
  t.same(
    store.edges().map((edge) => edge.id),
    [imports('c.ts', 'a.ts').id],
  );

  const since = store.changesSince(base)!;
  t.same(
    since.nodes.map((node) => [node.id, node.lines]),
    [
      ['file:c.ts', 1],
      ['file:a.ts', 9],
    ],
    'added and changed nodes, as they are now',
  );
  t.same(since.removedNodes, ['file:b.ts']);
  t.same(since.addedNodes, ['file:c.ts'], 'of them, the node added (file:a.ts only changed)');
  t.same(
    since.edges.map((edge) => edge.id),
    [imports('c.ts', 'a.ts').id],
  );
  t.same(since.removedEdges, [imports('a.ts', 'b.ts').id]);
  t.same(store.changesSince(store.revision), { nodes: [], removedNodes: [], addedNodes: [], edges: [], removedEdges: [] }, 'nothing since now');
  t.same(store.changesSince(base + 2)!.removedNodes, ['file:b.ts'], 'from a later revision, only what came after it');
});

t.test('the change log: net changes only, and undefined where it cannot tell', async (t) => {
  const store = new InMemoryGraphStore();
  store.replace(graph([file('a.ts')], []));
  const base = store.revision;
  t.equal(store.apply({ ...none, upsertedNodes: [file('tmp.ts')] }), true);
  t.equal(store.apply({ ...none, removedNodes: ['file:tmp.ts'] }), true);
  t.equal(store.apply({ ...none, upsertedNodes: [file('a.ts')] }), false, 'a node upserted as it was changes nothing');
  t.equal(store.revision, base + 2, 'and is no new revision (clients following the graph fetch nothing)');
  t.same(
    store.changesSince(base),
    { nodes: [], removedNodes: [], addedNodes: [], edges: [], removedEdges: [] },
    'added then removed, and rewritten as it was: no change',
  );
  t.equal(store.changesSince(store.revision + 1), undefined, 'a revision after the current one');
  t.equal(store.changesSince(1.5), undefined, 'not a revision');
  store.replace(graph([file('a.ts')], []));
  t.equal(store.changesSince(base), undefined, 'before the last replace');
  t.same(store.changesSince(store.revision), { nodes: [], removedNodes: [], addedNodes: [], edges: [], removedEdges: [] });
});

t.test(`the change log keeps at most ${CHANGE_LOG_MAX_REVISIONS} revisions and ${CHANGE_LOG_MAX_ENTRIES} changes`, async (t) => {
  const store = new InMemoryGraphStore();
  store.replace(graph([], []));
  const base = store.revision;
  for (let i = 0; i <= CHANGE_LOG_MAX_REVISIONS; i++) store.apply({ ...none, upsertedNodes: [file(`f${i}.ts`)] });
  t.equal(store.changesSince(base), undefined, 'the oldest revision is dropped');
  t.equal(store.changesSince(store.revision - CHANGE_LOG_MAX_REVISIONS)?.nodes.length, CHANGE_LOG_MAX_REVISIONS, 'the last ones are kept');

  const big = new InMemoryGraphStore();
  big.replace(graph([], []));
  const before = big.revision;
  big.apply({
    ...none,
    upsertedNodes: Array.from({ length: CHANGE_LOG_MAX_ENTRIES + 1 }, (_, i) => file(`g${i}.ts`)),
  });
  t.equal(big.changesSince(before), undefined, 'a change larger than the log is not kept');
  big.apply({ ...none, upsertedNodes: [file('last.ts')] });
  t.same(
    big.changesSince(before + 1)?.nodes.map((node) => node.id),
    ['file:last.ts'],
    'later revisions are answered',
  );
});
