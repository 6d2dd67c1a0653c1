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
 * Serializes the graph for `GET /api/graph` once per change instead of once
 * per request. Each node's JSON is kept too, so a new layout re-renders the
 * list without serializing every node again.
 */
@injectable()
export class GraphJsonCache {
  private cached: GraphJson | undefined;
  private nodeJson = new WeakMap<GraphNode, string>();

  constructor(
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(LayoutPositionStore) private readonly layout: LayoutPositionStore,
  ) {}

  current(): GraphJson {
    const graphRevision = this.graph.revision;
    const layoutRevision = this.layout.revision;
    if (this.cached && this.cached.graphRevision === graphRevision && this.cached.layoutRevision === layoutRevision) return this.cached;
    const parts: string[] = ['{"nodes":['];
    let first = true;
    for (const node of this.graph.nodes()) {
      let json = this.nodeJson.get(node);
      if (json === undefined) {
        json = JSON.stringify(node);
        this.nodeJson.set(node, json);
      }
      const position = this.layout.position(node.id);
      if (position) json = `${json.slice(0, -1)},"position":{"x":${position.x},"y":${position.y}}}`;
      parts.push(first ? json : `,${json}`);
      first = false;
    }
    parts.push('],"edges":[');
    first = true;
    for (const edge of this.graph.edges()) {
      parts.push(first ? JSON.stringify(edge) : `,${JSON.stringify(edge)}`);
      first = false;
    }
    parts.push(']}');
    this.cached = { body: Buffer.from(parts.join('')), graphRevision, layoutRevision };
    return this.cached;
  }
}
