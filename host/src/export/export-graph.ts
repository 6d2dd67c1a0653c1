import type { GraphNode } from '@strata/sdk';
import type { AggregatedEdge } from '../analysis/structure-metrics.js';

/** One edge of an export: imports summed between two nodes, or a `contains` link of the tree. */
export interface ExportEdge extends AggregatedEdge {
  kind: 'imports' | 'contains';
}

/**
 * The part of the graph an export writes, in the API's own shapes: nodes as
 * `GET /api/graph` gives them, edges as `GET /api/graph/edges` sums them
 * (with their `kind`). The writers of each format read only this.
 */
export interface ExportGraph {
  level: 'file' | 'directory';
  nodes: GraphNode[];
  edges: ExportEdge[];
  /** The figures of the overlays applied, by node id: `<plugin>/<overlay>` -> its value. */
  overlayValues(nodeId: string): Record<string, number> | undefined;
}
