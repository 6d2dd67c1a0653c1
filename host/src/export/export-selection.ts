import type { GraphNode } from '@strata/sdk';
import type { GraphAnalysis } from '../analysis/graph-analysis.js';
import { type ReferenceKind, referenceMask, UnitKind } from '../analysis/import-graph.js';
import { reach } from '../analysis/import-reach.js';
import { aggregatedImports } from '../analysis/structure-metrics.js';
import { StrataError } from '../errors/strata-error.js';
import type { GraphStore } from '../graph/graph-store.js';
import type { ExportEdge, ExportGraph } from './export-graph.js';

/** The node kinds an export may hold: files, directories, packages, symbols (every kind of symbol). */
export const EXPORT_NODE_KINDS = ['file', 'directory', 'package', 'symbol'] as const;

/** One of `EXPORT_NODE_KINDS`. */
export type ExportNodeKind = (typeof EXPORT_NODE_KINDS)[number];

/** What part of the graph to export, and how. */
export interface ExportSelection {
  /** `file`: files (and what `include` adds); `directory`: the files collapsed to the directories holding them, imports summed. */
  level: 'file' | 'directory';
  /** The node kinds written. */
  include: readonly ExportNodeKind[];
  /** A node id: only it and what reaches it or it reaches within `depth` imports. */
  focus?: string;
  depth: number;
  direction: 'dependents' | 'dependencies' | 'both';
  excluded: readonly ReferenceKind[];
}

/**
 * The nodes and edges an export writes, from the current graph: files
 * (and packages) chosen, all of them or those within `depth` imports of
 * `focus` (the reach of `GET /api/graph/nodes/{id}/dependents`), their
 * imports summed as `GET /api/graph/edges` sums them, to each file or to the
 * directory holding it.
 */
export function exportSelection(
  store: GraphStore,
  analysis: GraphAnalysis,
  selection: ExportSelection,
  overlayValues: ExportGraph['overlayValues'],
): ExportGraph {
  const graph = analysis.importGraph();
  const mask = referenceMask(selection.excluded);
  const n = graph.ids.length;
  const chosen = new Uint8Array(n);
  if (selection.focus !== undefined) {
    const focus = graph.indexOf(selection.focus);
    if (focus < 0) throw new StrataError('NOT_FOUND', `query.focus: node "${selection.focus}" does not exist`);
    const start = graph.startSet(focus);
    for (const u of start) chosen[u] = 1;
    const directions = selection.direction === 'both' ? (['dependents', 'dependencies'] as const) : [selection.direction];
    for (const direction of directions) for (const u of reach(graph, start, direction, selection.depth, mask).reached) chosen[u] = 1;
  } else {
    for (let u = 0; u < n; u++) if (graph.kind[u] === UnitKind.File || graph.kind[u] === UnitKind.Package) chosen[u] = 1;
  }
  const include = new Set(selection.include);
  if (!include.has('package')) for (let u = 0; u < n; u++) if (graph.kind[u] === UnitKind.Package) chosen[u] = 0;

  const nodeOf = (u: number): GraphNode => store.node(graph.ids[u]!)!;
  const nodes: GraphNode[] = [];
  let edges: ExportEdge[];
  if (selection.level === 'directory') {
    const groups = new Uint8Array(n);
    const groupOf = (u: number): number => (!chosen[u] ? -1 : graph.kind[u] === UnitKind.Package ? u : graph.parent[u]!);
    for (let u = 0; u < n; u++) if (chosen[u]) groups[groupOf(u)] = 1;
    for (let u = 0; u < n; u++) if (groups[u]) nodes.push(nodeOf(u));
    edges = aggregatedImports(graph, groupOf, mask, { packages: include.has('package') }).map((edge) => ({ kind: 'imports', ...edge }));
  } else {
    if (include.has('directory')) {
      for (let u = 0; u < n; u++)
        if (chosen[u] && graph.kind[u] === UnitKind.File) for (let d = graph.parent[u]!; d >= 0 && !chosen[d]; d = graph.parent[d]!) chosen[d] = 1;
    }
    for (let u = 0; u < n; u++) if (chosen[u]) nodes.push(nodeOf(u));
    edges = aggregatedImports(graph, (u) => (chosen[u] ? u : -1), mask, { packages: include.has('package') }).map((edge) => ({ kind: 'imports', ...edge }));
    const kept = new Set(nodes.map((node) => node.id));
    if (include.has('symbol')) {
      for (const node of store.nodes()) {
        if (node.kind === 'file' || node.kind === 'directory' || node.kind === 'package') continue;
        if (!chosen[graph.indexOf(`file:${node.path}`)]) continue;
        nodes.push(node);
        kept.add(node.id);
      }
    }
    for (const node of nodes)
      if (node.parent !== undefined && kept.has(node.parent)) edges.push({ kind: 'contains', source: node.parent, target: node.id, count: 1, references: {} });
  }
  return { level: selection.level, nodes, edges, overlayValues };
}
