import { Type } from '@sinclair/typebox';
import { inject, injectable } from 'tsyringe';
import { StrataError } from '../errors/strata-error.js';
import { GraphJsonCache } from '../graph/graph-json.js';
import { GraphStore } from '../graph/graph-store.js';
import { LayoutPositionStore } from '../layout/layout-position-store.js';
import { SerializedJson, defineRoute, type ApiResource, type ApiRoute } from '../http/api-route.js';
import { GraphEdgeSchema, GraphNodeSchema } from './graph-schemas.js';

/** `GET /api/graph` and `GET /api/graph/nodes/{id}` (spec 4.1). */
@injectable()
export class GraphResource implements ApiResource {
  constructor(
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(LayoutPositionStore) private readonly layout: LayoutPositionStore,
    @inject(GraphJsonCache) private readonly graphJson: GraphJsonCache,
  ) {}

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
        responseMeta: Type.Object({
          revision: Type.Integer({ description: 'Increases each time the graph changes.' }),
          nodeCount: Type.Integer(),
          edgeCount: Type.Integer(),
          positionCount: Type.Integer({ description: 'Saved positions, including any for nodes not in the graph now.' }),
          repository: Type.String(),
          indexedAt: Type.String({ format: 'date-time' }),
          indexDurationMs: Type.Integer(),
          skipped: Type.Array(Type.Object({ path: Type.String(), reason: Type.String() })),
          unresolvedCount: Type.Integer({ description: 'Imports that led neither to a file nor to a package.' }),
          unresolved: Type.Array(Type.Object({ file: Type.String(), specifier: Type.String(), reason: Type.String() }), { description: 'The first of them, with the reason.' }),
        }),
        errors: [],
        handle: async () => {
          const { body } = this.graphJson.current();
          const build = this.graph.buildInfo;
          const meta = {
            timestamp: new Date().toISOString(),
            revision: this.graph.revision,
            nodeCount: this.graph.nodeCount,
            edgeCount: this.graph.edgeCount,
            positionCount: this.layout.size,
            repository: build?.repository ?? '',
            indexedAt: build?.indexedAt ?? '',
            indexDurationMs: build?.durationMs ?? 0,
            skipped: build?.skipped ?? [],
            unresolvedCount: build?.unresolvedCount ?? 0,
            unresolved: build?.unresolved ?? [],
          };
          return new SerializedJson(['{"data":', body, `,"meta":${JSON.stringify(meta)}}`]);
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
        response: Type.Intersect([
          GraphNodeSchema,
          Type.Object({ incoming: Type.Array(GraphEdgeSchema), outgoing: Type.Array(GraphEdgeSchema) }),
        ]),
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
