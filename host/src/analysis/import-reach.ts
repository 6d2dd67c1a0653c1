import { counts, type ImportGraph } from './import-graph.js';

/** Which way a reach follows imports: to what imports the start (`dependents`) or to what the start imports (`dependencies`). */
export type ReachDirection = 'dependents' | 'dependencies';

/** The units a start reaches, in the order found (by depth). */
export interface Reach {
  /** Unit indexes reached, nearest first. */
  reached: Int32Array;
  /** Depth of each (1: one import away). */
  depth: Int32Array;
  /** The import that reached each. */
  via: Int32Array;
  /** The unit it was reached from (in the start, or one depth nearer). */
  from: Int32Array;
  /** How many were reached at each depth: `byDepth[d - 1]` at depth `d`. */
  byDepth: number[];
}

/**
 * Breadth-first over imports from the units of `start`, in `direction`, up
 * to `maxDepth` imports away, leaving out imports of only `excludedMask`
 * kinds. The start's own units are never reached.
 */
export function reach(graph: ImportGraph, start: Int32Array, direction: ReachDirection, maxDepth: number, excludedMask: number): Reach {
  const n = graph.ids.length;
  const seen = new Uint8Array(n);
  for (const u of start) seen[u] = 1;
  const [adjacencyStart, adjacency, far] =
    direction === 'dependents' ? [graph.inStart, graph.inImports, graph.importSource] : [graph.outStart, graph.outImports, graph.importTarget];
  const reached: number[] = [];
  const depth: number[] = [];
  const via: number[] = [];
  const from: number[] = [];
  const byDepth: number[] = [];
  let frontier: ArrayLike<number> = start;
  for (let d = 1; d <= maxDepth && frontier.length > 0; d++) {
    const next: number[] = [];
    for (let i = 0; i < frontier.length; i++) {
      const u = frontier[i]!;
      for (let k = adjacencyStart[u]!; k < adjacencyStart[u + 1]!; k++) {
        const e = adjacency[k]!;
        const v = far[e]!;
        if (seen[v] || !counts(graph, e, excludedMask)) continue;
        seen[v] = 1;
        next.push(v);
        reached.push(v);
        depth.push(d);
        via.push(e);
        from.push(u);
      }
    }
    if (next.length > 0) byDepth.push(next.length);
    frontier = next;
  }
  return { reached: Int32Array.from(reached), depth: Int32Array.from(depth), via: Int32Array.from(via), from: Int32Array.from(from), byDepth };
}

/**
 * A shortest chain of imports from a unit of `from` to a unit of `to`
 * (breadth-first from all of `from` at once): the units in order and the
 * import between each and the next, or undefined when none leads there.
 */
export function shortestImportPath(
  graph: ImportGraph,
  from: Int32Array,
  to: Int32Array,
  excludedMask: number,
): { units: number[]; imports: number[] } | undefined {
  const n = graph.ids.length;
  const goal = new Uint8Array(n);
  for (const u of to) goal[u] = 1;
  const previousImport = new Int32Array(n).fill(-2);
  for (const u of from) {
    previousImport[u] = -1;
    if (goal[u]) return { units: [u], imports: [] };
  }
  let frontier: ArrayLike<number> = from;
  while (frontier.length > 0) {
    const next: number[] = [];
    for (let i = 0; i < frontier.length; i++) {
      const u = frontier[i]!;
      for (let k = graph.outStart[u]!; k < graph.outStart[u + 1]!; k++) {
        const e = graph.outImports[k]!;
        const v = graph.importTarget[e]!;
        if (previousImport[v] !== -2 || !counts(graph, e, excludedMask)) continue;
        previousImport[v] = e;
        if (goal[v]) {
          const units = [v];
          const imports: number[] = [];
          let at = v;
          while (previousImport[at]! >= 0) {
            const e2 = previousImport[at]!;
            imports.push(e2);
            at = graph.importSource[e2]!;
            units.push(at);
          }
          return { units: units.reverse(), imports: imports.reverse() };
        }
        next.push(v);
      }
    }
    frontier = next;
  }
  return undefined;
}
