import { fileLinks, stronglyConnected } from './import-cycles.js';
import { counts, type ImportGraph, REFERENCE_KINDS, UnitKind } from './import-graph.js';

/**
 * Coupling metrics of every unit, as dependency-cruiser's `metrics` reporter
 * defines them (and Robert C. Martin before it):
 *
 * - a file's afferent couplings (`fanIn`, Ca) are the files that import it,
 *   its efferent couplings (`fanOut`, Ce) what it imports (files, packages,
 *   directories), and its instability Ce / (Ca + Ce), 0 when both are 0;
 * - a directory's Ca counts, for each file below it, the files outside it
 *   that import that file, and its Ce, for each file below it, what that file
 *   imports outside it: an import between two files below the directory is
 *   inside it and counts for neither.
 *
 * `depth` is the longest chain of imports from a unit down to files that
 * import no file (0 for those), counted on the graph with each import cycle
 * made one step (its files share one depth); a directory's is the deepest of
 * its files'. Packages have a fan-in and nothing else.
 */
export interface StructureMetrics {
  fanIn: Int32Array;
  fanOut: Int32Array;
  depth: Int32Array;
  /** Files below each directory (1 for a file, 0 for a package). */
  files: Int32Array;
}

/** Instability Ce / (Ca + Ce), 0 for a unit that imports nothing and that nothing imports. */
export function instability(fanIn: number, fanOut: number): number {
  return fanIn + fanOut === 0 ? 0 : fanOut / (fanIn + fanOut);
}

/** The metrics of every unit of the graph, leaving out imports of only `excludedMask` kinds. */
export function structureMetrics(graph: ImportGraph, excludedMask: number): StructureMetrics {
  const n = graph.ids.length;
  const fanIn = new Int32Array(n);
  const fanOut = new Int32Array(n);
  const files = new Int32Array(n);
  const level = directoryLevels(graph);
  for (let u = 0; u < n; u++) {
    if (graph.kind[u] !== UnitKind.File) continue;
    for (let d = graph.parent[u]!; d >= 0; d = graph.parent[d]!) files[d]!++;
    files[u] = 1;
  }
  for (let e = 0; e < graph.importCount; e++) {
    if (!counts(graph, e, excludedMask)) continue;
    const s = graph.importSource[e]!;
    const t = graph.importTarget[e]!;
    // An import of a directory is one import for its importer (and for the directories above it), one for each file it reaches.
    const repeat = e > 0 && graph.importSource[e - 1] === s && graph.importEdgeId[e - 1] === graph.importEdgeId[e];
    fanIn[t]!++;
    if (!repeat) fanOut[s]!++;
    // The directories holding one end and not the other: each end's ancestors below the two's lowest common one.
    let a = graph.parent[s]!;
    let b = graph.kind[t] === UnitKind.Package ? -1 : graph.parent[t]!;
    while (a !== b) {
      if (b < 0 || (a >= 0 && level[a]! >= level[b]!)) {
        if (!repeat) fanOut[a]!++;
        a = graph.parent[a]!;
      } else {
        fanIn[b]!++;
        b = graph.parent[b]!;
      }
    }
  }
  return { fanIn, fanOut, depth: importDepths(graph, excludedMask), files };
}

/** How deep each directory is below the root (the root 0), -1 for other units. */
function directoryLevels(graph: ImportGraph): Int32Array {
  const n = graph.ids.length;
  const level = new Int32Array(n).fill(-1);
  const of = (u: number): number => {
    if (level[u]! >= 0) return level[u]!;
    const p = graph.parent[u]!;
    level[u] = p < 0 ? 0 : of(p) + 1;
    return level[u]!;
  };
  for (let u = 0; u < n; u++) if (graph.kind[u] === UnitKind.Directory) of(u);
  return level;
}

/** `StructureMetrics.depth`: longest import chains on the graph of import cycles. */
function importDepths(graph: ImportGraph, excludedMask: number): Int32Array {
  const links = fileLinks(graph, excludedMask);
  const components = stronglyConnected(links, 1);
  const componentOf = new Int32Array(links.n);
  for (const [c, members] of components.entries()) for (const u of members) componentOf[u] = c;
  // Tarjan closes a component after every component it reaches: in that order each depth is known when needed.
  const componentDepth = new Int32Array(components.length);
  for (const [c, members] of components.entries()) {
    let deepest = 0;
    for (const u of members) {
      for (let k = links.start[u]!; k < links.start[u + 1]!; k++) {
        const other = componentOf[links.target[k]!]!;
        if (other !== c) deepest = Math.max(deepest, componentDepth[other]! + 1);
      }
    }
    componentDepth[c] = deepest;
  }
  const depth = new Int32Array(graph.ids.length);
  for (let local = 0; local < links.n; local++) {
    const u = links.units[local]!;
    depth[u] = componentDepth[componentOf[local]!]!;
    for (let d = graph.parent[u]!; d >= 0; d = graph.parent[d]!) if (depth[d]! < depth[u]!) depth[d] = depth[u]!;
  }
  return depth;
}

/** Imports between two groups of files, summed. */
export interface AggregatedEdge {
  source: string;
  target: string;
  /** File imports between the two. */
  count: number;
  /** How many of them carry each reference kind (an import may carry several). */
  references: Partial<Record<(typeof REFERENCE_KINDS)[number], number>>;
}

/**
 * The imports between groups of files: each file stands for the unit
 * `groupOf` maps it to (-1: left out), and imports within one group are
 * left out. Packages are left out, or with `packages`, each stands for
 * itself when `groupOf` keeps it (does not map it to -1). Largest first.
 */
export function aggregatedImports(
  graph: ImportGraph,
  groupOf: (file: number) => number,
  excludedMask: number,
  options: { packages?: boolean } = {},
): AggregatedEdge[] {
  const group = new Int32Array(graph.ids.length).fill(-1);
  for (let u = 0; u < graph.ids.length; u++) {
    if (graph.kind[u] === UnitKind.File) group[u] = groupOf(u);
    else if (options.packages && graph.kind[u] === UnitKind.Package) group[u] = groupOf(u) < 0 ? -1 : u;
  }
  const merged = new Map<number, { source: number; target: number; count: number; kinds: Int32Array }>();
  const n = graph.ids.length;
  for (let e = 0; e < graph.importCount; e++) {
    const s = group[graph.importSource[e]!]!;
    const t = group[graph.importTarget[e]!]!;
    if (s < 0 || t < 0 || s === t || !counts(graph, e, excludedMask)) continue;
    const key = s * n + t;
    let entry = merged.get(key);
    if (!entry) merged.set(key, (entry = { source: s, target: t, count: 0, kinds: new Int32Array(REFERENCE_KINDS.length) }));
    entry.count++;
    const bits = graph.referenceBits[e]! & ~excludedMask;
    for (let k = 0; k < REFERENCE_KINDS.length; k++) if (bits & (1 << k)) entry.kinds[k]!++;
  }
  const edges: AggregatedEdge[] = [];
  for (const { source, target, count, kinds } of merged.values()) {
    const references: AggregatedEdge['references'] = {};
    for (const [k, kind] of REFERENCE_KINDS.entries()) if (kinds[k]! > 0) references[kind] = kinds[k]!;
    edges.push({ source: graph.ids[source]!, target: graph.ids[target]!, count, references });
  }
  edges.sort((a, b) => b.count - a.count || (a.source < b.source ? -1 : a.source > b.source ? 1 : a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
  return edges;
}

/** Maps each file to its directory `level` below the root (the file itself when it is less deep). */
export function groupByLevel(graph: ImportGraph, level: number): (file: number) => number {
  const levels = directoryLevels(graph);
  return (file) => {
    let d = graph.parent[file]!;
    if (d < 0 || levels[d]! < level) return file;
    while (levels[d]! > level) d = graph.parent[d]!;
    return d;
  };
}

/** Maps each file below directory `directory` to the child of `directory` holding it, other files to -1. */
export function groupByChildOf(graph: ImportGraph, directory: number): (file: number) => number {
  return (file) => {
    let child = file;
    for (let d = graph.parent[file]!; d >= 0; child = d, d = graph.parent[d]!) if (d === directory) return child;
    return -1;
  };
}

/**
 * Maps any unit (file, directory, package) to the group that stands for it:
 * the directory `level` below the root holding it (a unit less deep stands
 * for itself, a package too), or with `parent`, the child of that directory
 * holding it (-1 for units outside it, and for the directory itself).
 */
export function unitGroups(graph: ImportGraph, grouping: { level: number } | { parent: number }): (unit: number) => number {
  if ('level' in grouping) {
    const levels = directoryLevels(graph);
    return (unit) => {
      if (graph.kind[unit] === UnitKind.Package) return unit;
      let d = graph.kind[unit] === UnitKind.Directory ? unit : graph.parent[unit]!;
      if (d < 0 || levels[d]! < grouping.level) return unit;
      while (levels[d]! > grouping.level) d = graph.parent[d]!;
      return d;
    };
  }
  return (unit) => {
    let child = unit;
    for (let d = graph.parent[unit]!; d >= 0; child = d, d = graph.parent[d]!) if (d === grouping.parent) return child;
    return -1;
  };
}
