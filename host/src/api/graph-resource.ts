import { isIP } from 'node:net';
import { Type } from '@sinclair/typebox';
import { inject, injectable } from 'tsyringe';
import { StrataConfig } from '../config/strata-config.js';
import { StrataError } from '../errors/strata-error.js';
import { CHANGE_LOG_MAX_ENTRIES, CHANGE_LOG_MAX_REVISIONS, GraphStore } from '../graph/graph-store.js';
import { type ApiResource, type ApiRoute, defineRoute, SerializedJson } from '../http/api-route.js';
import { LayoutPositionStore } from '../layout/layout-position-store.js';
import { GraphJsonCache } from './graph-json.js';
import { GraphMapCache } from './graph-map.js';
import { GraphEdgeSchema, GraphNodeSchema } from './graph-schemas.js';

/** `meta` of GET /api/graph and GET /api/graph/map. */
const GraphMetaSchema = Type.Object({
  revision: Type.Integer({ description: 'Increases each time the graph changes.' }),
  nodeCount: Type.Integer(),
  edgeCount: Type.Integer(),
  positionCount: Type.Integer({ description: 'Saved positions, including any for nodes not in the graph now.' }),
  repository: Type.String(),
  repositoryPath: Type.Optional(
    Type.String({
      description:
        "The repository's absolute path on the server, for links that open a file in an editor; only when the server listens on a loopback address (the browser is on the same machine).",
    }),
  ),
  indexedAt: Type.String({ format: 'date-time' }),
  indexDurationMs: Type.Integer(),
  skipped: Type.Array(Type.Object({ path: Type.String(), reason: Type.String() })),
  unresolvedCount: Type.Integer({ description: 'Imports that led neither to a file nor to a package.' }),
  unresolved: Type.Array(Type.Object({ file: Type.String(), specifier: Type.String(), reason: Type.String() }), {
    description: 'The first of them, with the reason.',
  }),
});

/** `GET /api/graph`, `GET /api/graph/changes` and `GET /api/graph/nodes/{id}` (spec 4.1). */
@injectable()
export class GraphResource implements ApiResource {
  constructor(
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(LayoutPositionStore) private readonly layout: LayoutPositionStore,
    @inject(GraphJsonCache) private readonly graphJson: GraphJsonCache,
    @inject(GraphMapCache) private readonly graphMap: GraphMapCache,
    @inject(StrataConfig) private readonly config: StrataConfig,
  ) {}

  /** `meta` of the whole-graph routes: counts, revision, repository and what the indexer skipped. */
  private graphMeta(): object {
    const build = this.graph.buildInfo;
    return {
      timestamp: new Date().toISOString(),
      revision: this.graph.revision,
      nodeCount: this.graph.nodeCount,
      edgeCount: this.graph.edgeCount,
      positionCount: this.layout.size,
      repository: build?.repository ?? '',
      ...(isLoopback(this.config.host) && { repositoryPath: this.config.repositoryRoot }),
      indexedAt: build?.indexedAt ?? '',
      indexDurationMs: build?.durationMs ?? 0,
      skipped: build?.skipped ?? [],
      unresolvedCount: build?.unresolvedCount ?? 0,
      unresolved: build?.unresolved ?? [],
    };
  }

  routes(): ApiRoute[] {
    return [
      defineRoute({
        method: 'GET',
        path: '/api/graph',
        operationId: 'getGraph',
        summary: 'All nodes and edges',
        description: 'Every node (with `position` when one is saved) and every edge. `meta` adds counts, the graph revision and what the indexer skipped.',
        tags: ['graph'],
        response: Type.Object({ nodes: Type.Array(GraphNodeSchema), edges: Type.Array(GraphEdgeSchema) }),
        responseMeta: GraphMetaSchema,
        errors: [],
        handle: async () => {
          const { body } = this.graphJson.current();
          return new SerializedJson(['{"data":', body, `,"meta":${JSON.stringify(this.graphMeta())}}`]);
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/api/graph/map',
        operationId: 'getGraphMap',
        summary: 'The graph in columns, for drawing it',
        description:
          'The nodes and imports of GET /api/graph in columns, for a client that draws the whole graph (the web UI): entry `i` of every `nodes` column is node `i`; ' +
          '`kind` and `language` index `kinds` and `languages` (-1: none); `parent` is the index of the containing node (-1: none); `lines` and `files` are null where the node has none; ' +
          '`x` and `y` are the saved position, null where none is saved. `imports` lists the import edges as pairs of node indexes (`source[j]` imports `target[j]`). ' +
          "`contains` edges are not listed: each is a node's `parent` (edge id `contains:<parent id>-><id>`), and an import edge's id is `imports:<source id>-><target id>`. " +
          "Overlay styles are not included: GET /api/overlays/{id}/styles serves each plugin's. " +
          'About a seventh of GET /api/graph at 100,000 files; `meta` is the same.',
        tags: ['graph'],
        response: Type.Object({
          kinds: Type.Array(Type.String(), { description: 'Node kinds, indexed by `nodes.kind`.' }),
          languages: Type.Array(Type.String(), { description: 'Languages, indexed by `nodes.language`.' }),
          nodes: Type.Object({
            id: Type.Array(Type.String()),
            name: Type.Array(Type.String()),
            kind: Type.Array(Type.Integer({ minimum: 0 })),
            parent: Type.Array(Type.Integer({ minimum: -1 })),
            language: Type.Array(Type.Integer({ minimum: -1 })),
            lines: Type.Array(Type.Union([Type.Integer(), Type.Null()])),
            files: Type.Array(Type.Union([Type.Integer(), Type.Null()])),
            x: Type.Array(Type.Union([Type.Number(), Type.Null()])),
            y: Type.Array(Type.Union([Type.Number(), Type.Null()])),
          }),
          imports: Type.Object({ source: Type.Array(Type.Integer({ minimum: 0 })), target: Type.Array(Type.Integer({ minimum: 0 })) }),
        }),
        responseMeta: GraphMetaSchema,
        errors: [],
        handle: async () => {
          const { body } = this.graphMap.current();
          return new SerializedJson(['{"data":', body, `,"meta":${JSON.stringify(this.graphMeta())}}`]);
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/api/graph/changes',
        operationId: 'getGraphChanges',
        summary: 'What changed in the graph since a revision',
        description:
          'The net change of the graph from revision `since` (`meta.revision` of GET /api/graph, `revision` of a `graph.changed` event) to the current `revision`, ' +
          'so that a client following the graph downloads only what changed: `nodes` and `edges` added or changed, as GET /api/graph serves them now ' +
          '(with `position` and `overlays`), and the ids of those removed. A node or edge changed several times appears once, as it is now; one added and removed again ' +
          'since does not appear. Only graph revisions are followed: saving a layout or applying an overlay changes no revision (follow `layout.finished` and `overlay.*` events). ' +
          'With a saved layout, the nodes the graph gained come with a position: the server places them next to their directory before it announces the change (`graph.changed`), and saves them with the layout; no saved position moves. ' +
          `The server keeps the changes of the last ${CHANGE_LOG_MAX_REVISIONS.toLocaleString('en-US')} revisions that changed something, and at most ` +
          `${CHANGE_LOG_MAX_ENTRIES.toLocaleString('en-US')} node and edge changes over them. ` +
          '`reset: true`, with empty lists, when it cannot answer from them: `since` is older than what it keeps, after the current revision (the server restarted), ' +
          'or the graph was rebuilt wholesale since (a `.gitignore` or `.git/info/exclude` changed); the client then fetches GET /api/graph. `since` equal to `revision` answers empty lists.',
        tags: ['graph'],
        query: Type.Object({
          since: Type.String({ pattern: '^[0-9]{1,15}$', description: 'A graph revision: an integer >= 0.' }),
        }),
        response: Type.Object({
          since: Type.Integer({ minimum: 0, description: 'The revision asked about.' }),
          revision: Type.Integer({ minimum: 0, description: 'The current revision: the one to ask from next time.' }),
          reset: Type.Boolean({ description: 'True when the change cannot be told (the lists are then empty): fetch GET /api/graph.' }),
          nodes: Type.Array(GraphNodeSchema, { description: 'Nodes added or changed, as they are now.' }),
          removedNodes: Type.Array(Type.String(), { description: 'Ids of the nodes removed.' }),
          edges: Type.Array(GraphEdgeSchema, { description: 'Edges added or changed, as they are now.' }),
          removedEdges: Type.Array(Type.String(), { description: 'Ids of the edges removed.' }),
        }),
        errors: ['INVALID_PARAMETER'],
        handle: async ({ query }) => {
          const since = Number(query.since);
          const revision = this.graph.revision;
          const changes = this.graph.changesSince(since);
          if (!changes) return { data: { since, revision, reset: true, nodes: [], removedNodes: [], edges: [], removedEdges: [] } };
          return {
            data: {
              since,
              revision,
              reset: false,
              nodes: this.graphJson.served(changes.nodes),
              removedNodes: changes.removedNodes,
              edges: changes.edges,
              removedEdges: changes.removedEdges,
            },
          };
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/api/graph/nodes/:id',
        operationId: 'getNode',
        summary: 'One node with its incoming and outgoing edges',
        description: 'The id goes in the path encoded with `encodeURIComponent` (ids hold `:` and `/`).',
        tags: ['graph'],
        params: Type.Object({ id: Type.String({ minLength: 1, description: 'Node id.' }) }),
        response: Type.Intersect([GraphNodeSchema, Type.Object({ incoming: Type.Array(GraphEdgeSchema), outgoing: Type.Array(GraphEdgeSchema) })]),
        errors: ['NOT_FOUND'],
        handle: async ({ params }) => {
          const node = this.graph.node(params.id);
          if (!node) throw new StrataError('NOT_FOUND', `node "${params.id}" does not exist`);
          const { incoming, outgoing } = this.graph.edgesOf(node.id);
          return { data: { ...this.graphJson.served([node])[0]!, incoming, outgoing }, meta: { revision: this.graph.revision } };
        },
      }),
    ];
  }
}

/** Whether the server listens only where this machine alone can reach it. */
function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}
