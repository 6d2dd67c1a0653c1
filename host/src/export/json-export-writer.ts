import type { ExportGraph } from './export-graph.js';

/** The graph as JSON in the API's own shapes: `{level, nodes, edges}`, nodes as `GET /api/graph` gives them, edges as `GET /api/graph/edges` with their `kind`. */
export function* jsonExportText(graph: ExportGraph): Generator<string> {
  yield `{"level":${JSON.stringify(graph.level)},"nodes":[`;
  for (const [i, node] of graph.nodes.entries()) yield (i === 0 ? '' : ',') + JSON.stringify(node);
  yield '],"edges":[';
  for (const [i, edge] of graph.edges.entries()) yield (i === 0 ? '' : ',') + JSON.stringify(edge);
  yield ']}\n';
}
