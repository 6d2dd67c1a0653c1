import { inject, injectable } from 'tsyringe';
import { StrataError } from '../errors/strata-error.js';
import { GraphStore } from '../graph/graph-store.js';
import type { RuleSet, Severity } from './dependency-rules.js';
import { compare, type ImportCycle, importCycles } from './import-cycles.js';
import { buildImportGraph, type ImportGraph, REFERENCE_KINDS, type ReferenceKind, referenceMask, UnitKind } from './import-graph.js';
import { type ReachDirection, reach, shortestImportPath } from './import-reach.js';
import { type RuleViolation, ruleViolations } from './rule-violations.js';
import {
  type AggregatedEdge,
  aggregatedImports,
  groupByChildOf,
  groupByLevel,
  instability,
  type StructureMetrics,
  structureMetrics,
  unitGroups,
} from './structure-metrics.js';

/** A node the reach of another node reached. */
export interface ReachedNode {
  id: string;
  /** Imports away from the node asked about (1: directly). */
  depth: number;
  /** The import edge that reached it (for a directory import, the edge to the directory). */
  edge: string;
  /** The node at one depth less (or in the node asked about) that this edge joins it to. */
  from: string;
}

/** The answer to a dependents or dependencies question. */
export interface ReachAnswer {
  node: string;
  direction: ReachDirection;
  /** The files the question started from: the node's file, or the files below a directory. */
  startCount: number;
  /** The depth asked for; null for no limit. */
  maxDepth: number | null;
  excluded: ReferenceKind[];
  /** Nodes reached in all. */
  total: number;
  /** How many at each depth: `byDepth[d - 1]` at depth `d`. */
  byDepth: number[];
  /** The nodes reached, nearest first, then by id, from `offset`, at most `limit`. */
  nodes: ReachedNode[];
  offset: number;
  limit: number;
  truncated: boolean;
}

/** The answer to a cycles question. */
export interface CyclesAnswer {
  level: 'file' | 'directory';
  excluded: ReferenceKind[];
  /** Components in all. */
  componentCount: number;
  /** Members of all components together. */
  memberCount: number;
  /** The components from `offset`, largest first, at most `limit`. */
  components: ImportCycle[];
  offset: number;
  limit: number;
  truncated: boolean;
  /** Internal edges listed per component at most. */
  edgeLimit: number;
}

/** The metrics of one node. */
export interface NodeMetrics {
  id: string;
  /** Files below it (1 for a file). */
  files: number;
  fanIn: number;
  fanOut: number;
  instability: number;
  depth: number;
}

/** The answer to a check of rules. */
export interface ViolationsAnswer {
  /** Where the rules came from; null when there are none. */
  source: string | null;
  /** What was read and not checked, or why there are no rules. */
  notes: string[];
  rules: Array<{ name: string; severity: Severity; comment?: string }>;
  /** Violations by severity, in all. */
  counts: { error: number; warn: number; info: number };
  /** What was checked: the files and the imports of the graph. */
  checked: { files: number; imports: number };
  total: number;
  /** Rule by rule, from `offset`, at most `limit`. */
  violations: RuleViolation[];
  offset: number;
  limit: number;
  truncated: boolean;
}

/** What the metrics of a kind can be sorted by. */
export const METRIC_SORTS = ['fanIn', 'fanOut', 'instability', 'depth', 'id'] as const;

/**
 * The questions asked of the import graph: cycles, what reaches a node and
 * what it reaches, the shortest import path, coupling metrics and imports
 * summed between directories. Each is answered from the import graph of the
 * current revision, made once per revision when first asked, so answers
 * follow live edits as the graph does.
 */
@injectable()
export class GraphAnalysis {
  private cached: ImportGraph | undefined;
  private cachedCycles = new Map<string, ImportCycle[]>();
  private cachedMetrics = new Map<number, StructureMetrics>();

  /** `graph`: the store whose current revision every answer reads. */
  constructor(@inject(GraphStore) readonly graph: GraphStore) {}

  /** The import graph of the current revision. */
  importGraph(): ImportGraph {
    if (this.cached?.revision !== this.graph.revision) {
      this.cached = buildImportGraph(this.graph.nodes(), this.graph.edges(), this.graph.revision, (id) => this.graph.node(id));
      this.cachedCycles.clear();
      this.cachedMetrics.clear();
    }
    return this.cached;
  }

  cycles(options: { level: 'file' | 'directory'; excluded: ReferenceKind[]; offset: number; limit: number; edgeLimit: number }): CyclesAnswer {
    const graph = this.importGraph();
    const key = `${options.level} ${referenceMask(options.excluded)} ${options.edgeLimit}`;
    let all = this.cachedCycles.get(key);
    if (!all) {
      all = importCycles(graph, { level: options.level, excludedMask: referenceMask(options.excluded), edgeLimit: options.edgeLimit });
      this.cachedCycles.set(key, all);
    }
    return {
      level: options.level,
      excluded: options.excluded,
      componentCount: all.length,
      memberCount: all.reduce((sum, cycle) => sum + cycle.members.length, 0),
      components: all.slice(options.offset, options.offset + options.limit),
      offset: options.offset,
      limit: options.limit,
      truncated: options.offset + options.limit < all.length,
      edgeLimit: options.edgeLimit,
    };
  }

  reach(id: string, direction: ReachDirection, options: { maxDepth: number | null; excluded: ReferenceKind[]; offset: number; limit: number }): ReachAnswer {
    const graph = this.importGraph();
    const start = graph.startSet(this.unitOf(graph, id, 'id'));
    const found = reach(graph, start, direction, options.maxDepth ?? Number.POSITIVE_INFINITY, referenceMask(options.excluded));
    const page = pageInOrder(found, graph, options.offset, options.limit);
    return {
      node: id,
      direction,
      startCount: start.length,
      maxDepth: options.maxDepth,
      excluded: options.excluded,
      total: found.reached.length,
      byDepth: found.byDepth,
      nodes: page.map((i) => ({
        id: graph.ids[found.reached[i]!]!,
        depth: found.depth[i]!,
        edge: graph.importEdgeId[found.via[i]!]!,
        from: graph.ids[found.from[i]!]!,
      })),
      offset: options.offset,
      limit: options.limit,
      truncated: options.offset + options.limit < found.reached.length,
    };
  }

  /** The shortest chain of imports from one node to another. */
  path(
    from: string,
    to: string,
    excluded: ReferenceKind[],
  ): { from: string; to: string; excluded: ReferenceKind[]; found: boolean; nodes: string[]; edges: string[] } {
    const graph = this.importGraph();
    const start = graph.startSet(this.unitOf(graph, from, 'from'));
    const goal = graph.startSet(this.unitOf(graph, to, 'to'));
    const path = shortestImportPath(graph, start, goal, referenceMask(excluded));
    return {
      from,
      to,
      excluded,
      found: path !== undefined,
      nodes: path?.units.map((u) => graph.ids[u]!) ?? [],
      edges: path?.imports.map((e) => graph.importEdgeId[e]!) ?? [],
    };
  }

  /** The metrics of every file, directory or package, sorted (largest first, but `id`), from `offset`, at most `limit`. */
  metrics(options: { kind: 'file' | 'directory' | 'package'; excluded: ReferenceKind[]; sort: (typeof METRIC_SORTS)[number]; offset: number; limit: number }): {
    kind: string;
    excluded: ReferenceKind[];
    total: number;
    nodes: NodeMetrics[];
    offset: number;
    limit: number;
    truncated: boolean;
  } {
    const graph = this.importGraph();
    const metrics = this.metricsOf(graph, referenceMask(options.excluded));
    const kind = { file: UnitKind.File, directory: UnitKind.Directory, package: UnitKind.Package }[options.kind];
    const all: NodeMetrics[] = [];
    for (let u = 0; u < graph.ids.length; u++) if (graph.kind[u] === kind) all.push(this.metricsRecord(graph, metrics, u));
    const sort = options.sort;
    all.sort((a, b) => (sort === 'id' ? 0 : b[sort] - a[sort]) || compare(a.id, b.id));
    return {
      kind: options.kind,
      excluded: options.excluded,
      total: all.length,
      nodes: all.slice(options.offset, options.offset + options.limit),
      offset: options.offset,
      limit: options.limit,
      truncated: options.offset + options.limit < all.length,
    };
  }

  /** The metrics of one node (a symbol's are its file's). */
  metricsOfNode(id: string, excluded: ReferenceKind[]): NodeMetrics {
    const graph = this.importGraph();
    const u = this.unitOf(graph, id, 'id');
    return this.metricsRecord(graph, this.metricsOf(graph, referenceMask(excluded)), u);
  }

  /**
   * Imports summed between groups: the directories `level` below the root
   * (with the files less deep as themselves), or the children of directory
   * `parent` (imports of files outside it left out).
   */
  aggregatedEdges(
    grouping: { level: number } | { parent: string },
    excluded: ReferenceKind[],
    offset: number,
    limit: number,
  ): { total: number; edges: AggregatedEdge[]; offset: number; limit: number; truncated: boolean } {
    const graph = this.importGraph();
    let groupOf: (file: number) => number;
    if ('level' in grouping) groupOf = groupByLevel(graph, grouping.level);
    else {
      const parent = this.unitOf(graph, grouping.parent, 'parent');
      if (graph.kind[parent] !== UnitKind.Directory) throw new StrataError('INVALID_PARAMETER', `query.parent: "${grouping.parent}" is not a directory`);
      groupOf = groupByChildOf(graph, parent);
    }
    const all = aggregatedImports(graph, groupOf, referenceMask(excluded));
    return { total: all.length, edges: all.slice(offset, offset + limit), offset, limit, truncated: offset + limit < all.length };
  }

  /** The violations of a rule set in the current graph (none without one), from `offset`, at most `limit`. */
  violations(ruleSet: RuleSet | { source: null; notes: string[] }, offset: number, limit: number): ViolationsAnswer {
    const graph = this.importGraph();
    const rules = 'rules' in ruleSet ? ruleSet.rules : [];
    const all = ruleViolations(graph, rules, (sourceId, edgeId) => this.graph.edgesOf(sourceId).outgoing.find((edge) => edge.id === edgeId)?.specifiers);
    const counts = { error: 0, warn: 0, info: 0 };
    for (const violation of all) counts[violation.severity]++;
    let files = 0;
    for (let u = 0; u < graph.ids.length; u++) if (graph.kind[u] === UnitKind.File) files++;
    return {
      source: ruleSet.source,
      notes: ruleSet.notes,
      rules: rules.map((rule) => ({ name: rule.name, severity: rule.severity, ...(rule.comment !== undefined && { comment: rule.comment }) })),
      counts,
      checked: { files, imports: new Set(graph.importEdgeId).size },
      total: all.length,
      violations: all.slice(offset, offset + limit),
      offset,
      limit,
      truncated: offset + limit < all.length,
    };
  }

  /**
   * Weighted edges between any nodes (an edge overlay's) summed between
   * groups as `aggregatedEdges` sums imports: weights and values added, edges
   * counted; edges within one group left out, and edges whose ends are no
   * longer in the graph counted apart (`unplaced`). Heaviest first.
   */
  aggregateWeighted(
    edges: ReadonlyArray<{ source: string; target: string; weight: number; value?: number }>,
    grouping: { level: number } | { parent: string },
  ): { edges: Array<{ source: string; target: string; weight: number; count: number; value?: number }>; unplaced: number } {
    const graph = this.importGraph();
    let groupOf: (unit: number) => number;
    if ('level' in grouping) groupOf = unitGroups(graph, grouping);
    else {
      const parent = this.unitOf(graph, grouping.parent, 'parent');
      if (graph.kind[parent] !== UnitKind.Directory) throw new StrataError('INVALID_PARAMETER', `query.parent: "${grouping.parent}" is not a directory`);
      groupOf = unitGroups(graph, { parent });
    }
    const merged = new Map<string, { source: string; target: string; weight: number; count: number; value?: number }>();
    let unplaced = 0;
    for (const edge of edges) {
      const s = graph.indexOf(edge.source);
      const t = graph.indexOf(edge.target);
      if (s < 0 || t < 0) {
        unplaced++;
        continue;
      }
      const a = groupOf(s);
      const b = groupOf(t);
      if (a < 0 || b < 0 || a === b) continue;
      const key = `${a} ${b}`;
      let entry = merged.get(key);
      if (!entry) merged.set(key, (entry = { source: graph.ids[a]!, target: graph.ids[b]!, weight: 0, count: 0 }));
      entry.weight += edge.weight;
      entry.count++;
      if (edge.value !== undefined) entry.value = (entry.value ?? 0) + edge.value;
    }
    const out = [...merged.values()].sort((x, y) => y.weight - x.weight || compare(x.source, y.source) || compare(x.target, y.target));
    return { edges: out, unplaced };
  }

  private metricsOf(graph: ImportGraph, mask: number): StructureMetrics {
    let metrics = this.cachedMetrics.get(mask);
    if (!metrics) {
      metrics = structureMetrics(graph, mask);
      this.cachedMetrics.set(mask, metrics);
    }
    return metrics;
  }

  private metricsRecord(graph: ImportGraph, metrics: StructureMetrics, u: number): NodeMetrics {
    const fanIn = metrics.fanIn[u]!;
    const fanOut = metrics.fanOut[u]!;
    return { id: graph.ids[u]!, files: metrics.files[u]!, fanIn, fanOut, instability: instability(fanIn, fanOut), depth: metrics.depth[u]! };
  }

  /** The unit of a node id, or 404 naming the parameter. */
  private unitOf(graph: ImportGraph, id: string, parameter: string): number {
    const u = graph.indexOf(id);
    if (u < 0) throw new StrataError('NOT_FOUND', `${parameter}: node "${id}" does not exist`);
    return u;
  }
}

/**
 * The entries of a reach from `offset`, at most `limit`, nearest first and
 * then by id: a reach lists them by depth already, so only the depths the
 * page covers are sorted (half of a 100,000-file graph is reached from its
 * most imported file; sorting all of it was most of the answer's time).
 */
function pageInOrder(found: ReturnType<typeof reach>, graph: ImportGraph, offset: number, limit: number): number[] {
  const page: number[] = [];
  let start = 0;
  for (const count of found.byDepth) {
    const end = start + count;
    if (end > offset && start < offset + limit) {
      const group = Array.from({ length: count }, (_, i) => start + i).sort((a, b) => compare(graph.ids[found.reached[a]!]!, graph.ids[found.reached[b]!]!));
      for (let i = Math.max(start, offset); i < Math.min(end, offset + limit); i++) page.push(group[i - start]!);
    }
    start = end;
    if (start >= offset + limit) break;
  }
  return page;
}

/** Reads a comma-separated list of reference kinds, naming the parameter when one is unknown. */
export function referenceKindsOf(value: string | undefined, parameter: string): ReferenceKind[] {
  if (value === undefined || value === '') return [];
  const kinds: ReferenceKind[] = [];
  for (const raw of value.split(',')) {
    const kind = raw.trim();
    if (!(REFERENCE_KINDS as readonly string[]).includes(kind))
      throw new StrataError('INVALID_PARAMETER', `${parameter}: "${kind}" is not a reference kind (one of ${REFERENCE_KINDS.join(', ')})`);
    if (!kinds.includes(kind as ReferenceKind)) kinds.push(kind as ReferenceKind);
  }
  return kinds;
}
