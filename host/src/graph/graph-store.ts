import { injectable } from 'tsyringe';
import type { GraphEdge, GraphNode } from '@strata/sdk';
import type { CodeGraph, GraphBuildInfo } from './code-graph.js';
import type { GraphDelta } from './graph-delta.js';

/** Edges that meet one node. */
export interface NodeEdges {
  incoming: readonly GraphEdge[];
  outgoing: readonly GraphEdge[];
}

/** Holds the current graph, with lookups by id and a revision that changes with it. */
export interface GraphStore {
  /** Increases by one each time the graph changes. 0 before the first graph. */
  readonly revision: number;
  /** How the current graph was built; undefined before the first graph. */
  readonly buildInfo: GraphBuildInfo | undefined;
  readonly nodeCount: number;
  readonly edgeCount: number;
  /** Replaces the whole graph. */
  replace(graph: CodeGraph): void;
  /** Applies a change; the revision increases once. `buildInfo` replaces the old one when given. */
  apply(delta: GraphDelta, buildInfo?: GraphBuildInfo): void;
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
  }

  apply(delta: GraphDelta, buildInfo?: GraphBuildInfo): void {
    for (const id of delta.removedEdges) this.removeEdge(id);
    for (const id of delta.removedNodes) this.nodesById.delete(id);
    for (const node of delta.upsertedNodes) this.nodesById.set(node.id, Object.freeze(node));
    for (const edge of delta.upsertedEdges) {
      this.removeEdge(edge.id);
      this.putEdge(edge);
    }
    this.edgeList = undefined;
    if (buildInfo) this.info = buildInfo;
    this.currentRevision += 1;
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

function index(map: Map<string, Map<string, GraphEdge>>, key: string): Map<string, GraphEdge> {
  let entry = map.get(key);
  if (!entry) map.set(key, (entry = new Map()));
  return entry;
}
