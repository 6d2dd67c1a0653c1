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

/**
 * The change that turns a graph into `next`: nodes and edges that are gone,
 * and those that are new or differ (compared field by field).
 */
export function deltaBetween(currentNodes: Iterable<GraphNode>, currentEdges: Iterable<GraphEdge>, next: { nodes: readonly GraphNode[]; edges: readonly GraphEdge[] }): GraphDelta {
  const nodes = changes(currentNodes, next.nodes);
  const edges = changes(currentEdges, next.edges);
  return { removedNodes: nodes.removed, upsertedNodes: nodes.upserted, removedEdges: edges.removed, upsertedEdges: edges.upserted };
}

function changes<T extends { id: string }>(current: Iterable<T>, next: readonly T[]): { removed: string[]; upserted: T[] } {
  const before = new Map<string, T>();
  for (const item of current) before.set(item.id, item);
  const upserted: T[] = [];
  for (const item of next) {
    const old = before.get(item.id);
    before.delete(item.id);
    if (!old || !sameRecord(old as Record<string, unknown>, item as Record<string, unknown>)) upserted.push(item);
  }
  return { removed: [...before.keys()], upserted };
}

/** Same fields with the same values; arrays compared item by item, other objects by their JSON. */
function sameRecord(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    const x = a[key];
    const y = b[key];
    if (x === y) continue;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length || x.some((item, i) => item !== y[i] && JSON.stringify(item) !== JSON.stringify(y[i]))) return false;
    } else if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null || JSON.stringify(x) !== JSON.stringify(y)) {
      return false;
    }
  }
  return true;
}
