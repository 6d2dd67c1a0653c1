import type { GraphEdge, GraphNode } from '@strata/sdk';
import { injectable } from 'tsyringe';
import type { CodeGraph, GraphBuildInfo } from './code-graph.js';
import type { GraphDelta } from './graph-delta.js';

/** Edges that meet one node. */
export interface NodeEdges {
  incoming: readonly GraphEdge[];
  outgoing: readonly GraphEdge[];
}

/**
 * The net change of the graph between a revision and the current one: ids
 * are in one list at most. Nodes and edges added or changed are given as they
 * are now; a node or edge added and removed again since is left out.
 */
export interface GraphChanges {
  /** Nodes added or changed, as they are now. */
  nodes: GraphNode[];
  /** Ids of nodes that were there at the revision asked about and are gone. */
  removedNodes: string[];
  /** Ids of the nodes of `nodes` that were not there at the revision asked about. */
  addedNodes: string[];
  /** Edges added or changed, as they are now. */
  edges: GraphEdge[];
  /** Ids of edges that were there at the revision asked about and are gone. */
  removedEdges: string[];
}

/** Most revisions the change log keeps (`GraphStore.changesSince`). */
export const CHANGE_LOG_MAX_REVISIONS = 1_000;
/**
 * Most node and edge changes the change log keeps over all its revisions,
 * each an id and the record it replaced (tens of MB at worst). A one-file
 * edit logs tens; a branch switch of thousands of files may log more than
 * this alone, and then only later revisions can be answered.
 */
export const CHANGE_LOG_MAX_ENTRIES = 100_000;

/** Holds the current graph, with lookups by id and a revision that changes with it. */
export interface GraphStore {
  /** Increases by one each time the graph changes. 0 before the first graph. */
  readonly revision: number;
  /** How the current graph was built; undefined before the first graph. */
  readonly buildInfo: GraphBuildInfo | undefined;
  readonly nodeCount: number;
  readonly edgeCount: number;
  /** Replaces the whole graph; the change log starts again from here. */
  replace(graph: CodeGraph): void;
  /**
   * Whether `graph` has exactly the nodes and edges held now (a rebuild that
   * changed nothing: a `.gitignore` saved again as it was, or one change
   * the watcher reported twice).
   */
  holds(graph: CodeGraph): boolean;
  /**
   * Applies a change; the revision increases once, when it changed
   * something (upserts equal to what was there are no change: a directory
   * listed again as it was). `buildInfo` replaces the old one when given.
   * What the change really changed goes to the change log. Answers whether
   * it changed anything.
   */
  apply(delta: GraphDelta, buildInfo?: GraphBuildInfo): boolean;
  /**
   * The net change from revision `since` to the current one, or undefined
   * when the change log cannot tell: `since` is after the current revision,
   * before the last `replace`, or older than what the log keeps (at most
   * `CHANGE_LOG_MAX_REVISIONS` revisions and `CHANGE_LOG_MAX_ENTRIES` changes).
   */
  changesSince(since: number): GraphChanges | undefined;
  node(id: string): GraphNode | undefined;
  has(id: string): boolean;
  edgesOf(id: string): NodeEdges;
  nodes(): Iterable<GraphNode>;
  edges(): readonly GraphEdge[];
}

/** Injection token of the `GraphStore`. */
export const GraphStore = Symbol('GraphStore');

const NO_EDGES: readonly GraphEdge[] = Object.freeze([]);

/** A `GraphStore` in memory, indexed for lookups by node id. */
@injectable()
export class InMemoryGraphStore implements GraphStore {
  private nodesById = new Map<string, GraphNode>();
  private edgesById = new Map<string, GraphEdge>();
  private edgeList: GraphEdge[] | undefined = [];
  private incoming = new Map<string, Map<string, GraphEdge>>();
  private outgoing = new Map<string, Map<string, GraphEdge>>();
  private currentRevision = 0;
  private info: GraphBuildInfo | undefined;
  /** What each revision since `logBase` changed, oldest first; revisions that changed nothing are not logged. */
  private changeLog: LoggedRevision[] = [];
  /** Changes in `changeLog`. */
  private loggedEntries = 0;
  /** The oldest revision `changesSince` can answer from. */
  private logBase = 0;

  get revision(): number {
    return this.currentRevision;
  }

  get buildInfo(): GraphBuildInfo | undefined {
    return this.info;
  }

  get nodeCount(): number {
    return this.nodesById.size;
  }

  get edgeCount(): number {
    return this.edgesById.size;
  }

  replace(graph: CodeGraph): void {
    this.nodesById = new Map();
    this.edgesById = new Map();
    this.incoming = new Map();
    this.outgoing = new Map();
    for (const node of graph.nodes) this.nodesById.set(node.id, Object.freeze(node));
    for (const edge of graph.edges) this.putEdge(edge);
    this.edgeList = graph.edges;
    this.info = graph.build;
    this.currentRevision += 1;
    this.changeLog = [];
    this.loggedEntries = 0;
    this.logBase = this.currentRevision;
  }

  holds(graph: CodeGraph): boolean {
    if (graph.nodes.length !== this.nodesById.size || graph.edges.length !== this.edgesById.size) return false;
    for (const node of graph.nodes) {
      const held = this.nodesById.get(node.id);
      if (!held || !sameRecord(held, node)) return false;
    }
    for (const edge of graph.edges) {
      const held = this.edgesById.get(edge.id);
      if (!held || !sameRecord(held, edge)) return false;
    }
    return true;
  }

  apply(delta: GraphDelta, buildInfo?: GraphBuildInfo): boolean {
    // What the touched ids were before, to log only what the delta really changes.
    const nodesBefore = new Map<string, GraphNode | undefined>();
    for (const id of delta.removedNodes) if (!nodesBefore.has(id)) nodesBefore.set(id, this.nodesById.get(id));
    for (const node of delta.upsertedNodes) if (!nodesBefore.has(node.id)) nodesBefore.set(node.id, this.nodesById.get(node.id));
    const edgesBefore = new Map<string, GraphEdge | undefined>();
    for (const id of delta.removedEdges) if (!edgesBefore.has(id)) edgesBefore.set(id, this.edgesById.get(id));
    for (const edge of delta.upsertedEdges) if (!edgesBefore.has(edge.id)) edgesBefore.set(edge.id, this.edgesById.get(edge.id));

    for (const id of delta.removedEdges) this.removeEdge(id);
    for (const id of delta.removedNodes) this.nodesById.delete(id);
    for (const node of delta.upsertedNodes) this.nodesById.set(node.id, Object.freeze(node));
    for (const edge of delta.upsertedEdges) {
      this.removeEdge(edge.id);
      this.putEdge(edge);
    }
    this.edgeList = undefined;
    if (buildInfo) this.info = buildInfo;
    if (!this.log(nodesBefore, edgesBefore, this.currentRevision + 1)) return false;
    this.currentRevision += 1;
    return true;
  }

  changesSince(since: number): GraphChanges | undefined {
    if (!Number.isInteger(since) || since < this.logBase || since > this.currentRevision) return undefined;
    let first = this.changeLog.length;
    while (first > 0 && this.changeLog[first - 1]!.revision > since) first--;
    // What each id was at `since`: what its first change after `since` replaced.
    const nodesThen = new Map<string, GraphNode | undefined>();
    const edgesThen = new Map<string, GraphEdge | undefined>();
    for (let i = first; i < this.changeLog.length; i++) {
      const logged = this.changeLog[i]!;
      for (const [j, id] of logged.nodeIds.entries()) if (!nodesThen.has(id)) nodesThen.set(id, logged.nodesBefore[j]);
      for (const [j, id] of logged.edgeIds.entries()) if (!edgesThen.has(id)) edgesThen.set(id, logged.edgesBefore[j]);
    }
    const changes: GraphChanges = { nodes: [], removedNodes: [], addedNodes: [], edges: [], removedEdges: [] };
    for (const [id, then] of nodesThen) {
      const now = this.nodesById.get(id);
      if (now) {
        if (!then || !sameRecord(then, now)) changes.nodes.push(now);
        if (!then) changes.addedNodes.push(id);
      } else if (then) changes.removedNodes.push(id);
    }
    for (const [id, then] of edgesThen) {
      const now = this.edgesById.get(id);
      if (now) {
        if (!then || !sameRecord(then, now)) changes.edges.push(now);
      } else if (then) changes.removedEdges.push(id);
    }
    return changes;
  }

  node(id: string): GraphNode | undefined {
    return this.nodesById.get(id);
  }

  has(id: string): boolean {
    return this.nodesById.has(id);
  }

  edgesOf(id: string): NodeEdges {
    const incoming = this.incoming.get(id);
    const outgoing = this.outgoing.get(id);
    return { incoming: incoming ? [...incoming.values()] : NO_EDGES, outgoing: outgoing ? [...outgoing.values()] : NO_EDGES };
  }

  nodes(): Iterable<GraphNode> {
    return this.nodesById.values();
  }

  edges(): readonly GraphEdge[] {
    this.edgeList ??= [...this.edgesById.values()];
    return this.edgeList;
  }

  /** Logs what the last revision changed, and drops the oldest revisions past the bounds. */
  private log(nodesBefore: Map<string, GraphNode | undefined>, edgesBefore: Map<string, GraphEdge | undefined>, revision: number): boolean {
    const logged: LoggedRevision = { revision, nodeIds: [], nodesBefore: [], edgeIds: [], edgesBefore: [] };
    for (const [id, before] of nodesBefore) {
      const after = this.nodesById.get(id);
      if (before === after || (before && after && sameRecord(before, after))) continue;
      logged.nodeIds.push(id);
      logged.nodesBefore.push(before);
    }
    for (const [id, before] of edgesBefore) {
      const after = this.edgesById.get(id);
      if (before === after || (before && after && sameRecord(before, after))) continue;
      logged.edgeIds.push(id);
      logged.edgesBefore.push(before);
    }
    const size = logged.nodeIds.length + logged.edgeIds.length;
    if (size === 0) return false;
    this.changeLog.push(logged);
    this.loggedEntries += size;
    let drop = 0;
    while (drop < this.changeLog.length && (this.changeLog.length - drop > CHANGE_LOG_MAX_REVISIONS || this.loggedEntries > CHANGE_LOG_MAX_ENTRIES)) {
      const dropped = this.changeLog[drop++]!;
      this.loggedEntries -= dropped.nodeIds.length + dropped.edgeIds.length;
      this.logBase = dropped.revision;
    }
    if (drop > 0) this.changeLog.splice(0, drop);
    return true;
  }

  private putEdge(edge: GraphEdge): void {
    Object.freeze(edge);
    this.edgesById.set(edge.id, edge);
    index(this.outgoing, edge.source).set(edge.id, edge);
    index(this.incoming, edge.target).set(edge.id, edge);
  }

  private removeEdge(id: string): void {
    const edge = this.edgesById.get(id);
    if (!edge) return;
    this.edgesById.delete(id);
    this.outgoing.get(edge.source)?.delete(id);
    this.incoming.get(edge.target)?.delete(id);
  }
}

/** The ids one revision changed, each with the record it replaced (undefined for one it added). */
interface LoggedRevision {
  revision: number;
  nodeIds: string[];
  nodesBefore: Array<GraphNode | undefined>;
  edgeIds: string[];
  edgesBefore: Array<GraphEdge | undefined>;
}

/** Whether two node or edge records hold the same fields (their values are scalars or arrays of scalars). */
function sameRecord(a: object, b: object): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    const x = (a as Record<string, unknown>)[key];
    const y = (b as Record<string, unknown>)[key];
    if (x === y) continue;
    if (Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((value, i) => value === y[i])) continue;
    return false;
  }
  return true;
}

function index(map: Map<string, Map<string, GraphEdge>>, key: string): Map<string, GraphEdge> {
  let entry = map.get(key);
  if (!entry) map.set(key, (entry = new Map()));
  return entry;
}
