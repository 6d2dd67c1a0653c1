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

/**
 * Gives every node a position: its saved one; else, when most nodes have one,
 * a place next to its parent (new files appear beside their directory); else
 * a radial tree: the root in the middle, each directory's children on the
 * next ring within the angle its share of the files gives it, symbols close
 * around their file, packages on an outer ring. Deterministic.
 */
export function placeNodes(nodes: ApiNode[]): PlacedNode[] {
  const placed = nodes as PlacedNode[];
  for (const node of placed) {
    node.x = node.position?.x ?? 0;
    node.y = node.position?.y ?? 0;
    node.saved = node.position !== undefined;
  }
  const byId = new Map(placed.map((node) => [node.id, node]));
  const children = new Map<string, PlacedNode[]>();
  const roots: PlacedNode[] = [];
  for (const node of placed) {
    const parent = node.parent !== undefined ? byId.get(node.parent) : undefined;
    if (parent) {
      let list = children.get(parent.id);
      if (!list) children.set(parent.id, (list = []));
      list.push(node);
    } else roots.push(node);
  }
  const savedCount = placed.filter((node) => node.saved).length;
  if (savedCount === 0) placeRadially(roots, children);
  else placeNearParents(placed, byId, children);
  return placed;
}

function placeRadially(roots: PlacedNode[], children: Map<string, PlacedNode[]>): void {
  // Weight: the non-symbol nodes below a node, itself included; symbols take no angle of their own.
  const weight = new Map<string, number>();
  const weigh = (node: PlacedNode): number => {
    let total = isSymbol(node) ? 0 : 1;
    for (const child of children.get(node.id) ?? []) total += weigh(child);
    weight.set(node.id, Math.max(total, 1));
    return total;
  };
  const trees = roots.filter((node) => node.kind !== 'package');
  const packages = roots.filter((node) => node.kind === 'package');
  let maxDepth = 0;
  const place = (node: PlacedNode, depth: number, from: number, to: number): void => {
    maxDepth = Math.max(maxDepth, depth);
    const angle = (from + to) / 2;
    node.x = depth * RING * Math.cos(angle);
    node.y = depth * RING * Math.sin(angle);
    const kids = children.get(node.id) ?? [];
    if (node.kind === 'file' || isSymbol(node)) {
      placeAround(node, kids, children, node.kind === 'file' ? RING * 0.3 : RING * 0.12);
      return;
    }
    const total = kids.reduce((sum, kid) => sum + (weight.get(kid.id) ?? 1), 0);
    let start = from;
    for (const kid of kids.sort(byKindThenName)) {
      const span = ((to - from) * (weight.get(kid.id) ?? 1)) / Math.max(total, 1);
      place(kid, depth + 1, start, start + span);
      start += span;
    }
  };
  const treeWeight = trees.reduce((sum, tree) => sum + weigh(tree), 0);
  let start = 0;
  for (const tree of trees) {
    const span = (2 * Math.PI * (weight.get(tree.id) ?? 1)) / Math.max(treeWeight, 1);
    // A single root sits in the middle; several share the circle.
    if (trees.length === 1) place(tree, 0, 0, 2 * Math.PI);
    else place(tree, 1, start, start + span);
    start += span;
  }
  const radius = (maxDepth + 1.5) * RING;
  packages.forEach((pkg, i) => {
    const angle = (2 * Math.PI * i) / Math.max(packages.length, 1);
    pkg.x = radius * Math.cos(angle);
    pkg.y = radius * Math.sin(angle);
  });
}

/** Directories first, then by name in code unit order (cheaper than `localeCompare` over 100,000 files). */
function byKindThenName(a: PlacedNode, b: PlacedNode): number {
  if (a.kind !== b.kind) return a.kind === 'directory' ? -1 : b.kind === 'directory' ? 1 : a.kind < b.kind ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Children spread on a small spiral around their parent (symbols around a file, methods around a class). */
function placeAround(parent: PlacedNode, kids: PlacedNode[], children: Map<string, PlacedNode[]>, radius: number): void {
  kids.forEach((kid, i) => {
    const r = radius * Math.sqrt((i + 1) / Math.max(kids.length, 1));
    kid.x = parent.x + r * Math.cos(i * GOLDEN_ANGLE);
    kid.y = parent.y + r * Math.sin(i * GOLDEN_ANGLE);
    const grandchildren = children.get(kid.id);
    if (grandchildren) placeAround(kid, grandchildren, children, radius * 0.4);
  });
}

function placeNearParents(placed: PlacedNode[], byId: Map<string, PlacedNode>, children: Map<string, PlacedNode[]>): void {
  // The scale of the saved layout: new nodes sit at a small fraction of its extent from their parent.
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (const node of placed) {
    if (!node.saved) continue;
    minX = Math.min(minX, node.x);
    maxX = Math.max(maxX, node.x);
    minY = Math.min(minY, node.y);
    maxY = Math.max(maxY, node.y);
  }
  const extent = Math.max(maxX - minX, maxY - minY, 1);
  const done = new Set<string>();
  let orphans = 0;
  const siblingIndex = new Map<PlacedNode, number>();
  for (const siblings of children.values()) siblings.forEach((sibling, i) => siblingIndex.set(sibling, i));
  const settle = (node: PlacedNode): void => {
    if (node.saved || done.has(node.id)) return;
    done.add(node.id);
    const parent = node.parent !== undefined ? byId.get(node.parent) : undefined;
    if (parent) {
      settle(parent);
      const index = siblingIndex.get(node) ?? 0;
      Object.assign(node, nearby(parent, index, extent * (isSymbol(node) ? 0.004 : 0.02)));
    } else {
      Object.assign(node, nearby({ x: (minX + maxX) / 2, y: (minY + maxY) / 2 }, orphans++, extent * 0.55));
    }
  };
  for (const node of placed) settle(node);
}

/** The `index`-th place on a spiral of the given radius around a point. */
export function nearby(center: { x: number; y: number }, index: number, radius: number): { x: number; y: number } {
  const r = radius * (0.6 + 0.4 * ((index % 7) / 7));
  return { x: center.x + r * Math.cos(index * GOLDEN_ANGLE), y: center.y + r * Math.sin(index * GOLDEN_ANGLE) };
}
