import type { GraphEdge, GraphNode } from '@strata/sdk';

/** The reference kinds an import edge carries (`GraphEdge.references`), each a bit of `ImportGraph.referenceBits`. */
export const REFERENCE_KINDS = ['static', 'dynamic', 'require', 're-export', 'type-only'] as const;

/** One reference kind of an import. */
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

/** What a node of the import graph stands for. */
export const UnitKind = { File: 0, Package: 1, Directory: 2 } as const;

/** One of `UnitKind`'s values. */
export type UnitKind = (typeof UnitKind)[keyof typeof UnitKind];

/**
 * The import graph of one graph revision, in compressed adjacency arrays:
 * the files, packages and directories of the graph as indexes, and one
 * import per (file, target file or package). An import of a directory (a Go
 * package, a PHP include of a folder) counts as an import of each file
 * directly in it, as the language builds them together. Symbols are not
 * units: a symbol's questions are its file's.
 */
export interface ImportGraph {
  /** The graph revision this was made from. */
  readonly revision: number;
  /** Node ids, by unit index. */
  readonly ids: readonly string[];
  /** Repository paths (a package's name), by unit index. */
  readonly paths: readonly string[];
  readonly kind: Uint8Array;
  /** 1 for a package of the language or its platform (`GraphNode.builtin`). */
  readonly builtin: Uint8Array;
  /** 1 for a file of a language the indexer parses for imports (the others are never in an import). */
  readonly parsed: Uint8Array;
  /** The containing directory's unit index, -1 for the root and packages. */
  readonly parent: Int32Array;
  /** Unit index of each node id (symbols map to their file). */
  indexOf(id: string): number;
  /** Number of imports. */
  readonly importCount: number;
  readonly importSource: Int32Array;
  readonly importTarget: Int32Array;
  /** Reference kinds of each import, one bit per entry of `REFERENCE_KINDS`. */
  readonly referenceBits: Uint8Array;
  /** The id of the graph edge each import comes from (its target a directory for an expanded directory import). */
  readonly importEdgeId: readonly string[];
  /** Imports leaving unit `u`: `outImports[outStart[u] .. outStart[u + 1])`. */
  readonly outStart: Int32Array;
  readonly outImports: Int32Array;
  /** Imports arriving at unit `u`: `inImports[inStart[u] .. inStart[u + 1])`. */
  readonly inStart: Int32Array;
  readonly inImports: Int32Array;
  /** Units whose files a question about unit `u` starts from: the file itself, the files below a directory, the package itself. */
  startSet(u: number): Int32Array;
}

/** The languages whose files the indexer reads for imports (`GraphNode.language`). */
export const PARSED_LANGUAGES: ReadonlySet<string> = new Set([
  'typescript',
  'tsx',
  'javascript',
  'python',
  'go',
  'rust',
  'java',
  'kotlin',
  'c#',
  'ruby',
  'php',
  'c',
  'c++',
]);

/** The bits of the kinds named. */
export function referenceMask(kinds: readonly ReferenceKind[]): number {
  let mask = 0;
  for (const kind of kinds) mask |= 1 << REFERENCE_KINDS.indexOf(kind);
  return mask;
}

/**
 * Whether import `e` counts once the kinds in `excludedMask` are left out:
 * it counts while one of its kinds is not left out (an import both
 * `type-only` and `static` is still an import without type-only ones).
 */
export function counts(graph: ImportGraph, e: number, excludedMask: number): boolean {
  return (graph.referenceBits[e]! & ~excludedMask) !== 0;
}

/**
 * Builds the import graph of a graph's nodes and edges. `nodeOf` finds a
 * node that is not a unit (a symbol), for `indexOf`.
 */
export function buildImportGraph(
  nodes: Iterable<GraphNode>,
  edges: readonly GraphEdge[],
  revision: number,
  nodeOf: (id: string) => GraphNode | undefined,
): ImportGraph {
  const ids: string[] = [];
  const paths: string[] = [];
  const kinds: number[] = [];
  const builtins: number[] = [];
  const parsedFlags: number[] = [];
  const parentIds: Array<string | undefined> = [];
  const index = new Map<string, number>();
  for (const node of nodes) {
    let kind: UnitKind;
    if (node.kind === 'file') kind = UnitKind.File;
    else if (node.kind === 'package') kind = UnitKind.Package;
    else if (node.kind === 'directory') kind = UnitKind.Directory;
    else continue;
    index.set(node.id, ids.length);
    ids.push(node.id);
    paths.push(node.path);
    kinds.push(kind);
    parentIds.push(node.parent);
    builtins.push(node.builtin ? 1 : 0);
    parsedFlags.push(kind === UnitKind.File && node.language !== undefined && PARSED_LANGUAGES.has(node.language) ? 1 : 0);
  }
  const n = ids.length;
  const kind = Uint8Array.from(kinds);
  const parent = new Int32Array(n).fill(-1);
  /** Files directly in each directory, for directory imports. */
  const filesIn = new Map<number, number[]>();
  for (let c = 0; c < n; c++) {
    const p = parentIds[c] === undefined ? undefined : index.get(parentIds[c]!);
    if (p === undefined) continue;
    parent[c] = p;
    if (kind[c] === UnitKind.File) {
      let list = filesIn.get(p);
      if (!list) filesIn.set(p, (list = []));
      list.push(c);
    }
  }

  const source: number[] = [];
  const target: number[] = [];
  const bits: number[] = [];
  const edgeIds: string[] = [];
  for (const edge of edges) {
    if (edge.kind !== 'imports') continue;
    const s = index.get(edge.source);
    const t = index.get(edge.target);
    if (s === undefined || t === undefined || kind[s] !== UnitKind.File) continue;
    let mask = 0;
    for (const reference of edge.references ?? ['static']) {
      const bit = REFERENCE_KINDS.indexOf(reference as ReferenceKind);
      if (bit >= 0) mask |= 1 << bit;
    }
    if (mask === 0) mask = 1;
    const targets = kind[t] === UnitKind.Directory ? (filesIn.get(t) ?? []) : [t];
    for (const to of targets) {
      if (to === s) continue;
      source.push(s);
      target.push(to);
      bits.push(mask);
      edgeIds.push(edge.id);
    }
  }
  const importSource = Int32Array.from(source);
  const importTarget = Int32Array.from(target);
  const [outStart, outImports] = adjacency(n, importSource);
  const [inStart, inImports] = adjacency(n, importTarget);

  // Files below each directory, in one pass: the files in path order, and each directory's range of them.
  const filesByPath: number[] = [];
  for (let u = 0; u < n; u++) if (kind[u] === UnitKind.File) filesByPath.push(u);
  filesByPath.sort((a, b) => (paths[a]! < paths[b]! ? -1 : paths[a]! > paths[b]! ? 1 : 0));
  const sortedFiles = Int32Array.from(filesByPath);
  const sortedPaths = filesByPath.map((u) => paths[u]!);

  return {
    revision,
    ids,
    paths,
    kind,
    builtin: Uint8Array.from(builtins),
    parsed: Uint8Array.from(parsedFlags),
    parent,
    indexOf(id) {
      const found = index.get(id);
      if (found !== undefined) return found;
      const node = nodeOf(id);
      return node === undefined ? -1 : (index.get(`file:${node.path}`) ?? -1);
    },
    importCount: importSource.length,
    importSource,
    importTarget,
    referenceBits: Uint8Array.from(bits),
    importEdgeId: edgeIds,
    outStart,
    outImports,
    inStart,
    inImports,
    startSet(u) {
      if (kind[u] !== UnitKind.Directory) return Int32Array.of(u);
      const path = paths[u]!;
      if (path === '.') return sortedFiles;
      const prefix = `${path}/`;
      const from = lowerBound(sortedPaths, prefix);
      let to = from;
      while (to < sortedPaths.length && sortedPaths[to]!.startsWith(prefix)) to++;
      return sortedFiles.subarray(from, to);
    },
  };
}

/** Compressed adjacency: for each unit the range of the imports whose `end` it is. */
function adjacency(n: number, end: Int32Array): [Int32Array, Int32Array] {
  const start = new Int32Array(n + 1);
  for (let e = 0; e < end.length; e++) start[end[e]! + 1]!++;
  for (let u = 0; u < n; u++) start[u + 1]! += start[u]!;
  const fill = start.slice(0, n);
  const list = new Int32Array(end.length);
  for (let e = 0; e < end.length; e++) list[fill[end[e]!]!++] = e;
  return [start, list];
}

/** The first index of a sorted array whose value is not below `value`. */
function lowerBound(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
