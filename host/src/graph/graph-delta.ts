import type { GraphEdge, GraphNode } from '@strata/sdk';

/** A change to the graph: what to remove and what to add or replace, by id. */
export interface GraphDelta {
  removedNodes: string[];
  upsertedNodes: GraphNode[];
  removedEdges: string[];
  upsertedEdges: GraphEdge[];
}

/** True when the delta changes nothing. */
export function isEmptyDelta(delta: GraphDelta): boolean {
  return delta.removedNodes.length === 0 && delta.upsertedNodes.length === 0 && delta.removedEdges.length === 0 && delta.upsertedEdges.length === 0;
}
