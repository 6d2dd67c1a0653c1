// The graph as the API serves it, and where nodes without a saved position go.
// Shared by the page and the graph worker; imports nothing of the DOM.

import type { GraphEdge, GraphNode, NodeStyle } from '@strata/sdk';

export type { NodeStyle };
/** A node record of GET /api/graph: the SDK's type, which the API's schema is checked against. */
export type ApiNode = GraphNode;
/** An edge record of GET /api/graph. */
export type ApiEdge = GraphEdge;

/** A node as the page keeps it: the record, where it is drawn, and whether that place was saved. */
export interface PlacedNode extends ApiNode {
  x: number;
  y: number;
  /** True when the position came from the saved layout. */
  saved: boolean;
}

/**
 * What the graph worker gives the page: `GET /api/graph/map`'s columns (one
 * entry per node), placed. Typed arrays are moved to the page, not copied.
 */
export interface LoadedGraph {
  revision: number;
  repository: string;
  /** The repository's absolute path, when the server is on this machine. */
  repositoryPath?: string;
  ids: string[];
  names: string[];
  /** Index into `kinds`. */
  kind: Uint8Array;
  kinds: string[];
  /** Index of the parent node, -1 for none. */
  parent: Int32Array;
  /** Index into `languages`, -1 for none. */
  language: Int16Array;
  languages: string[];
  /** NaN where the node has none. */
  lines: Float64Array;
  /** NaN where the node has none. */
  files: Float64Array;
  x: Float64Array;
  y: Float64Array;
  /** 1 where the position came from the saved layout. */
  saved: Uint8Array;
  /** Import edges: node indexes. */
  importSource: Int32Array;
  importTarget: Int32Array;
  /** Nodes that had a saved position. */
  savedPositions: number;
}

/** `GET /api/graph/map`'s `data`. */
export interface GraphMapData {
  kinds: string[];
  languages: string[];
  nodes: {
    id: string[];
    name: string[];
    kind: number[];
    parent: number[];
    language: number[];
    lines: (number | null)[];
    files: (number | null)[];
    x: (number | null)[];
    y: (number | null)[];
  };
  imports: { source: number[]; target: number[] };
}

/** A node's path from its id (`dir:<path>`, `file:<path>`, `pkg:<name>`, `sym:<path>#<name>`: the SDK's `GraphNode.id`). */
export function pathOfId(id: string): string {
  const colon = id.indexOf(':');
  const rest = id.slice(colon + 1);
  if (id.startsWith('sym:')) {
    const hash = rest.indexOf('#');
    return hash >= 0 ? rest.slice(0, hash) : rest;
  }
  return rest;
}

export const SYMBOL_KINDS: ReadonlySet<string> = new Set(['function', 'class', 'method', 'interface', 'type', 'variable']);

/** Whether a node is a symbol (drawn only when its file is expanded). */
export function isSymbol(node: { kind: string }): boolean {
  return SYMBOL_KINDS.has(node.kind);
}

/** Distance between a directory and its children in the tree placement. */
const RING = 100;
const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

/** What the placement reads and writes: the graph's columns (`LoadedGraph`'s). */
export type PlacementColumns = Pick<LoadedGraph, 'names' | 'kind' | 'kinds' | 'parent' | 'x' | 'y' | 'saved'>;

/**
 * Gives every node a position: its saved one (`saved` set, `x` and `y`
 * given); else, when some nodes have one, a place next to its parent (new
 * files appear beside their directory); else a radial tree: the root in the
 * middle, each directory's children on the next ring within the angle its
 * share of the files gives it, symbols close around their file, packages on
 * an outer ring. Deterministic. Works on indexes and typed arrays: at
 * 200,000 nodes, maps keyed by id made it take over a second.
 */
export function placeColumns(graph: PlacementColumns): void {
  const n = graph.parent.length;
  const symbolKind = graph.kinds.map((kind) => SYMBOL_KINDS.has(kind));
  const isSymbolAt = (i: number): boolean => symbolKind[graph.kind[i]!] === true;
  // Children of each node, in node order (compressed rows: `childStart[i]` to `childStart[i + 1]` in `childList`).
  const childStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (graph.parent[i]! >= 0) childStart[graph.parent[i]! + 1]! += 1;
  for (let i = 0; i < n; i++) childStart[i + 1]! += childStart[i]!;
  const childList = new Int32Array(childStart[n]!);
  const filled = childStart.slice(0, n);
  for (let i = 0; i < n; i++) {
    const parent = graph.parent[i]!;
    if (parent >= 0) childList[filled[parent]!++] = i;
  }
  const tree = { childStart, childList, isSymbolAt };
  let saved = 0;
  for (let i = 0; i < n; i++) saved += graph.saved[i]!;
  if (saved === 0) placeRadially(graph, tree);
  else placeNearParents(graph, tree);
}

interface Tree {
  childStart: Int32Array;
  childList: Int32Array;
  isSymbolAt(i: number): boolean;
}

function placeRadially(graph: PlacementColumns, { childStart, childList, isSymbolAt }: Tree): void {
  const n = graph.parent.length;
  const packageKind = graph.kinds.indexOf('package');
  const directoryKind = graph.kinds.indexOf('directory');
  const fileKind = graph.kinds.indexOf('file');
  // Weight: the non-symbol nodes below a node, itself included (symbols take no angle of their own); at least 1.
  const order: number[] = [];
  for (let i = 0; i < n; i++) if (graph.parent[i]! < 0) order.push(i);
  for (let k = 0; k < order.length; k++) for (let c = childStart[order[k]!]!; c < childStart[order[k]! + 1]!; c++) order.push(childList[c]!);
  const below = new Float64Array(n);
  for (let k = order.length - 1; k >= 0; k--) {
    const i = order[k]!;
    below[i]! += isSymbolAt(i) ? 0 : 1;
    if (graph.parent[i]! >= 0) below[graph.parent[i]!]! += below[i]!;
  }
  const weight = (i: number): number => Math.max(below[i]!, 1);
  // Directories first, then by kind, then by name in code unit order (cheaper than `localeCompare` over 100,000 files).
  const byKindThenName = (a: number, b: number): number => {
    const ka = graph.kind[a]!;
    const kb = graph.kind[b]!;
    if (ka !== kb) return ka === directoryKind ? -1 : kb === directoryKind ? 1 : graph.kinds[ka]! < graph.kinds[kb]! ? -1 : 1;
    const na = graph.names[a]!;
    const nb = graph.names[b]!;
    return na < nb ? -1 : na > nb ? 1 : 0;
  };
  const around = (parent: number, radius: number): void => {
    const count = childStart[parent + 1]! - childStart[parent]!;
    for (let k = 0; k < count; k++) {
      const kid = childList[childStart[parent]! + k]!;
      const r = radius * Math.sqrt((k + 1) / Math.max(count, 1));
      graph.x[kid] = graph.x[parent]! + r * Math.cos(k * GOLDEN_ANGLE);
      graph.y[kid] = graph.y[parent]! + r * Math.sin(k * GOLDEN_ANGLE);
      if (childStart[kid + 1]! > childStart[kid]!) around(kid, radius * 0.4);
    }
  };
  let maxDepth = 0;
  const place = (i: number, depth: number, from: number, to: number): void => {
    maxDepth = Math.max(maxDepth, depth);
    const angle = (from + to) / 2;
    graph.x[i] = depth * RING * Math.cos(angle);
    graph.y[i] = depth * RING * Math.sin(angle);
    if (graph.kind[i] === fileKind || isSymbolAt(i)) {
      around(i, graph.kind[i] === fileKind ? RING * 0.3 : RING * 0.12);
      return;
    }
    const kids = Array.from(childList.subarray(childStart[i]!, childStart[i + 1]!)).sort(byKindThenName);
    let total = 0;
    for (const kid of kids) total += weight(kid);
    let start = from;
    for (const kid of kids) {
      const span = ((to - from) * weight(kid)) / Math.max(total, 1);
      place(kid, depth + 1, start, start + span);
      start += span;
    }
  };
  const roots: number[] = [];
  const packages: number[] = [];
  for (let i = 0; i < n; i++) if (graph.parent[i]! < 0) (graph.kind[i] === packageKind ? packages : roots).push(i);
  let treeWeight = 0;
  for (const root of roots) treeWeight += below[root]!;
  let start = 0;
  for (const root of roots) {
    const span = (2 * Math.PI * weight(root)) / Math.max(treeWeight, 1);
    // A single root sits in the middle; several share the circle.
    if (roots.length === 1) place(root, 0, 0, 2 * Math.PI);
    else place(root, 1, start, start + span);
    start += span;
  }
  const radius = (maxDepth + 1.5) * RING;
  packages.forEach((pkg, k) => {
    const angle = (2 * Math.PI * k) / Math.max(packages.length, 1);
    graph.x[pkg] = radius * Math.cos(angle);
    graph.y[pkg] = radius * Math.sin(angle);
  });
}

function placeNearParents(graph: PlacementColumns, { childStart, childList, isSymbolAt }: Tree): void {
  const n = graph.parent.length;
  // The scale of the saved layout: new nodes sit at a small fraction of its extent from their parent.
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    if (!graph.saved[i]) continue;
    minX = Math.min(minX, graph.x[i]!);
    maxX = Math.max(maxX, graph.x[i]!);
    minY = Math.min(minY, graph.y[i]!);
    maxY = Math.max(maxY, graph.y[i]!);
  }
  const extent = Math.max(maxX - minX, maxY - minY, 1);
  const siblingIndex = new Int32Array(n);
  for (let p = 0; p < n; p++) for (let c = childStart[p]!; c < childStart[p + 1]!; c++) siblingIndex[childList[c]!] = c - childStart[p]!;
  const done = new Uint8Array(n);
  let orphans = 0;
  const settle = (i: number): void => {
    // Ancestors first (iteratively: a deep chain of unsaved directories must not overflow the stack).
    const chain: number[] = [];
    for (let at = i; at >= 0 && !graph.saved[at] && !done[at]; at = graph.parent[at]!) chain.push(at);
    for (let k = chain.length - 1; k >= 0; k--) {
      const node = chain[k]!;
      done[node] = 1;
      const parent = graph.parent[node]!;
      const at =
        parent >= 0
          ? nearby({ x: graph.x[parent]!, y: graph.y[parent]! }, siblingIndex[node]!, extent * (isSymbolAt(node) ? 0.004 : 0.02))
          : nearby({ x: (minX + maxX) / 2, y: (minY + maxY) / 2 }, orphans++, extent * 0.55);
      graph.x[node] = at.x;
      graph.y[node] = at.y;
    }
  };
  for (let i = 0; i < n; i++) settle(i);
}

/** The `index`-th place on a spiral of the given radius around a point. */
export function nearby(center: { x: number; y: number }, index: number, radius: number): { x: number; y: number } {
  const r = radius * (0.6 + 0.4 * ((index % 7) / 7));
  return { x: center.x + r * Math.cos(index * GOLDEN_ANGLE), y: center.y + r * Math.sin(index * GOLDEN_ANGLE) };
}
