import { Type } from '@sinclair/typebox';
import type { GraphAnalysis } from '../analysis/graph-analysis.js';
import { StrataError } from '../errors/strata-error.js';

/**
 * What the routes that serve edges in an edge overlay's shape share
 * (`GET /api/overlays/{id}/edges`, `GET /api/graph/violations/edges`): the
 * query that sums them to directories, the schema of one edge, and the sum.
 */

/** `level` or `parent`: sum the edges between the directories at a depth, or between the children of one directory. */
export const EdgeGroupingQuery = {
  level: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: 'Directory depth to sum at.' })),
  parent: Type.Optional(Type.String({ minLength: 1, description: 'A directory id: sum between its children.' })),
};

/** One edge of an edge overlay, as given or summed. */
export const OverlayEdgeSchema = Type.Object({
  source: Type.String(),
  target: Type.String(),
  weight: Type.Number({ minimum: 0 }),
  label: Type.Optional(Type.String()),
  value: Type.Optional(Type.Number()),
  count: Type.Optional(Type.Integer({ minimum: 1, description: 'Summed: how many edges this one sums.' })),
});

/** Summed: edges whose nodes are no longer in the graph. */
export const UnplacedSchema = Type.Optional(Type.Integer({ description: 'Summed: edges whose nodes are no longer in the graph.' }));

type Edge = { source: string; target: string; weight: number; value?: number };

/** The grouping a query asks for: none, a `level`, or a `parent`; both at once is a 400. */
export function edgeGroupingOf(query: { level?: string; parent?: string }): { level: number } | { parent: string } | undefined {
  if (query.level !== undefined && query.parent !== undefined) throw new StrataError('INVALID_PARAMETER', 'query: give `level` or `parent`, not both');
  if (query.level !== undefined) return { level: Number(query.level) };
  return query.parent !== undefined ? { parent: query.parent } : undefined;
}

/** The overlays' edges as asked: as they are without a grouping, else summed between directories (`GraphAnalysis.aggregateWeighted`). */
export function groupedOverlayEdges<O extends { edges: Edge[] }>(
  analysis: GraphAnalysis,
  overlays: O[],
  grouping: { level: number } | { parent: string } | undefined,
): Array<O | (Omit<O, 'edges'> & { edges: Edge[]; unplaced: number })> {
  if (!grouping) return overlays;
  return overlays.map((overlay) => {
    const summed = analysis.aggregateWeighted(overlay.edges, grouping);
    return { ...overlay, edges: summed.edges, unplaced: summed.unplaced };
  });
}
