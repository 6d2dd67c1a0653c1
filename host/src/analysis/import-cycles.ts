import { counts, type ImportGraph, UnitKind } from './import-graph.js';

/** An import between two members of a cycle. */
export interface CycleEdge {
  source: string;
  target: string;
  /** Imports of the files behind it: 1 at file level, the file imports between the two directories at directory level. */
  count: number;
  /** The graph edges behind it (at file level, the one edge). At most `MAX_EDGE_IDS_PER_LINK`. */
  edges: string[];
}

/** One strongly connected component of the import graph: every member reaches every other by imports. */
export interface ImportCycle {
  /** Member ids, sorted. */
  members: string[];
  /** Imports between members. */
  edgeCount: number;
  /** The first `edgeLimit` of them, in member order. */
  edges: CycleEdge[];
  /** A shortest cycle: member ids in import order, each importing the next and the last the first; it starts at its least id. */
  cycle: string[];
  /** Whether `cycle` is known to be a shortest of the component (false when the search for one was cut short by its budget). */
  cycleIsShortest: boolean;
}

/** What a cycle query takes. */
export interface CycleQuery {
  level: 'file' | 'directory';
  /** Reference kinds left out (`referenceMask`). */
  excludedMask: number;
  /** Most internal edges listed per component. */
  edgeLimit: number;
}

/** Most edge ids a directory-level link lists. */
export const MAX_EDGE_IDS_PER_LINK = 20;
/** Most edge visits spent looking for shortest cycles in one query, over all components. */
const SHORTEST_CYCLE_BUDGET = 4_000_000;

/**
 * The import cycles of a graph: its strongly connected components with more
 * than one member (Tarjan's algorithm, without recursion), largest first. At
 * directory level the members are directories, and a directory imports
 * another when one of the files directly in it imports a file directly in
 * the other.
 */
export function importCycles(graph: ImportGraph, query: CycleQuery): ImportCycle[] {
  const links = query.level === 'file' ? fileLinks(graph, query.excludedMask) : directoryLinks(graph, query.excludedMask);
  const components = stronglyConnected(links, 2);
  let budget = SHORTEST_CYCLE_BUDGET;
  const cycles: ImportCycle[] = [];
  const componentOf = new Int32Array(links.n).fill(-1);
  for (const [c, members] of components.entries()) for (const u of members) componentOf[u] = c;
  for (const [c, members] of components.entries()) {
    const sortedMembers = [...members].sort((a, b) => compare(links.ids[a]!, links.ids[b]!));
    const edges: CycleEdge[] = [];
    let edgeCount = 0;
    for (const u of sortedMembers) {
      for (let k = links.start[u]!; k < links.start[u + 1]!; k++) {
        const v = links.target[k]!;
        if (componentOf[v] !== c) continue;
        edgeCount++;
        if (edges.length < query.edgeLimit)
          edges.push({ source: links.ids[u]!, target: links.ids[v]!, count: links.count[k]!, edges: links.edgeIds[k]!.slice(0, MAX_EDGE_IDS_PER_LINK) });
      }
    }
    const shortest = shortestCycle(links, componentOf, c, sortedMembers, budget);
    budget = Math.max(0, budget - shortest.spent);
    cycles.push({
      members: sortedMembers.map((u) => links.ids[u]!),
      edgeCount,
      edges,
      cycle: rotateToLeast(shortest.cycle.map((u) => links.ids[u]!)),
      cycleIsShortest: shortest.complete,
    });
  }
  cycles.sort((a, b) => b.members.length - a.members.length || compare(a.members[0]!, b.members[0]!));
  return cycles;
}

/** A graph of links (deduplicated imports) between the members of one level, in compressed adjacency. */
export interface Links {
  n: number;
  /** The unit index of each member. */
  units: number[];
  ids: string[];
  start: Int32Array;
  target: Int32Array;
  count: Int32Array;
  edgeIds: string[][];
}

/** File to file, one link per import that counts. */
export function fileLinks(graph: ImportGraph, excludedMask: number): Links {
  const files: number[] = [];
  const local = new Int32Array(graph.ids.length).fill(-1);
  for (let u = 0; u < graph.ids.length; u++) {
    if (graph.kind[u] !== UnitKind.File) continue;
    local[u] = files.length;
    files.push(u);
  }
  const byMember: Array<Array<{ to: number; edge: string }>> = files.map(() => []);
  for (const [i, u] of files.entries()) {
    for (let k = graph.outStart[u]!; k < graph.outStart[u + 1]!; k++) {
      const e = graph.outImports[k]!;
      const to = local[graph.importTarget[e]!]!;
      if (to < 0 || !counts(graph, e, excludedMask)) continue;
      byMember[i]!.push({ to, edge: graph.importEdgeId[e]! });
    }
  }
  return linksOf(graph, files, byMember);
}

/** Directory to directory, through the files directly in them. */
function directoryLinks(graph: ImportGraph, excludedMask: number): Links {
  const directories: number[] = [];
  const local = new Int32Array(graph.ids.length).fill(-1);
  for (let u = 0; u < graph.ids.length; u++) {
    if (graph.kind[u] !== UnitKind.Directory) continue;
    local[u] = directories.length;
    directories.push(u);
  }
  const byMember: Array<Array<{ to: number; edge: string }>> = directories.map(() => []);
  for (let e = 0; e < graph.importCount; e++) {
    if (!counts(graph, e, excludedMask)) continue;
    const target = graph.importTarget[e]!;
    if (graph.kind[target] !== UnitKind.File) continue;
    const from = local[graph.parent[graph.importSource[e]!]!] ?? -1;
    const to = local[graph.parent[target]!] ?? -1;
    if (from < 0 || to < 0 || from === to) continue;
    byMember[from]!.push({ to, edge: graph.importEdgeId[e]! });
  }
  return linksOf(graph, directories, byMember);
}

/** Merges the imports of each member by target into links. */
function linksOf(graph: ImportGraph, units: number[], byMember: Array<Array<{ to: number; edge: string }>>): Links {
  const ids = units.map((u) => graph.ids[u]!);
  const start = new Int32Array(ids.length + 1);
  const target: number[] = [];
  const count: number[] = [];
  const edgeIds: string[][] = [];
  for (const [u, imports] of byMember.entries()) {
    const merged = new Map<number, number>();
    for (const { to, edge } of imports) {
      const at = merged.get(to);
      if (at === undefined) {
        merged.set(to, target.length);
        target.push(to);
        count.push(1);
        edgeIds.push([edge]);
      } else {
        count[at]!++;
        if (edgeIds[at]!.length < MAX_EDGE_IDS_PER_LINK && !edgeIds[at]!.includes(edge)) edgeIds[at]!.push(edge);
      }
    }
    start[u + 1] = target.length;
  }
  return { n: ids.length, units, ids, start, target: Int32Array.from(target), count: Int32Array.from(count), edgeIds };
}

/**
 * The strongly connected components of at least `minSize` members (Tarjan,
 * with an explicit stack), in the order Tarjan's algorithm closes them: a
 * component comes after every component it reaches.
 */
export function stronglyConnected(links: Links, minSize: number): number[][] {
  const { n, start, target } = links;
  const order = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const callNode: number[] = [];
  const callEdge: number[] = [];
  const components: number[][] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (order[root]! >= 0) continue;
    callNode.push(root);
    callEdge.push(start[root]!);
    order[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (callNode.length > 0) {
      const top = callNode.length - 1;
      const u = callNode[top]!;
      const k = callEdge[top]!;
      if (k < start[u + 1]!) {
        callEdge[top] = k + 1;
        const v = target[k]!;
        if (order[v]! < 0) {
          order[v] = low[v] = counter++;
          stack.push(v);
          onStack[v] = 1;
          callNode.push(v);
          callEdge.push(start[v]!);
        } else if (onStack[v]) {
          low[u] = Math.min(low[u]!, order[v]!);
        }
        continue;
      }
      callNode.pop();
      callEdge.pop();
      if (callNode.length > 0) {
        const caller = callNode[callNode.length - 1]!;
        low[caller] = Math.min(low[caller]!, low[u]!);
      }
      if (low[u] === order[u]) {
        const component: number[] = [];
        let v: number;
        do {
          v = stack.pop()!;
          onStack[v] = 0;
          component.push(v);
        } while (v !== u);
        if (component.length >= minSize) components.push(component);
      }
    }
  }
  return components;
}

/**
 * A shortest cycle in component `c`: a breadth-first search from each member
 * for the shortest way back to it, cut off at the shortest found so far, until
 * a cycle of two is found, every member was tried or the budget of edge visits
 * is spent.
 */
function shortestCycle(
  links: Links,
  componentOf: Int32Array,
  c: number,
  members: number[],
  budget: number,
): { cycle: number[]; complete: boolean; spent: number } {
  const { start, target } = links;
  const distance = new Map<number, number>();
  const previous = new Map<number, number>();
  let best: number[] = [];
  let spent = 0;
  let tried = 0;
  for (const s of members) {
    if (best.length === 2 || (tried > 0 && spent >= budget)) break;
    tried++;
    distance.clear();
    previous.clear();
    distance.set(s, 0);
    let frontier = [s];
    let found = -1;
    const limit = best.length === 0 ? Number.POSITIVE_INFINITY : best.length - 1;
    search: for (let depth = 0; frontier.length > 0 && depth < limit; depth++) {
      const next: number[] = [];
      for (const u of frontier) {
        for (let k = start[u]!; k < start[u + 1]!; k++) {
          spent++;
          const v = target[k]!;
          if (componentOf[v] !== c) continue;
          if (v === s) {
            found = u;
            break search;
          }
          if (distance.has(v)) continue;
          distance.set(v, depth + 1);
          previous.set(v, u);
          next.push(v);
        }
      }
      frontier = next;
    }
    if (found < 0) continue;
    const cycle = [found];
    while (cycle[cycle.length - 1] !== s) cycle.push(previous.get(cycle[cycle.length - 1]!)!);
    cycle.reverse();
    if (best.length === 0 || cycle.length < best.length) best = cycle;
  }
  return { cycle: best, complete: best.length === 2 || tried === members.length, spent };
}

/** The cycle turned to start at its least id. */
function rotateToLeast(cycle: string[]): string[] {
  let least = 0;
  for (let i = 1; i < cycle.length; i++) if (compare(cycle[i]!, cycle[least]!) < 0) least = i;
  return [...cycle.slice(least), ...cycle.slice(0, least)];
}

/** Code-unit order, the order of every sorted id list the analysis answers. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
