import { inject, injectable } from 'tsyringe';
import type { GraphNode } from '@strata/sdk';
import { LayoutPositionStore } from '../layout/layout-position-store.js';
import { GraphStore } from './graph-store.js';

/** The graph serialized as `{"nodes":[...],"edges":[...]}`, with saved positions merged in. */
export interface GraphJson {
  body: Buffer;
  graphRevision: number;
  layoutRevision: number;
}

/**
 * Serializes the graph for `GET /api/graph` once per change of the graph or
 * of the layout instead of once per request.
 */
@injectable()
export class GraphJsonCache {
  private cached: GraphJson | undefined;

  constructor(
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(LayoutPositionStore) private readonly layout: LayoutPositionStore,
  ) {}

  current(): GraphJson {
    const graphRevision = this.graph.revision;
    const layoutRevision = this.layout.revision;
    if (this.cached && this.cached.graphRevision === graphRevision && this.cached.layoutRevision === layoutRevision) return this.cached;
    const nodes: GraphNode[] = [];
    for (const node of this.graph.nodes()) {
      const position = this.layout.position(node.id);
      nodes.push(position ? { ...node, position } : node);
    }
    const body = Buffer.from(JSON.stringify({ nodes, edges: this.graph.edges() }));
    this.cached = { body, graphRevision, layoutRevision };
    return this.cached;
  }
}
