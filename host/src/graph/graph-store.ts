import { injectable } from 'tsyringe';
import type { GraphEdge, GraphNode } from '@strata/sdk';
import type { CodeGraph, GraphBuildInfo } from './code-graph.js';

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
  private edgeList: GraphEdge[] = [];
  private incoming = new Map<string, GraphEdge[]>();
  private outgoing = new Map<string, GraphEdge[]>();
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
    return this.edgeList.length;
  }

  replace(graph: CodeGraph): void {
    const nodesById = new Map<string, GraphNode>();
    for (const node of graph.nodes) nodesById.set(node.id, Object.freeze(node));
    const incoming = new Map<string, GraphEdge[]>();
    const outgoing = new Map<string, GraphEdge[]>();
    for (const edge of graph.edges) {
      Object.freeze(edge);
      push(outgoing, edge.source, edge);
      push(incoming, edge.target, edge);
    }
    this.nodesById = nodesById;
    this.edgeList = graph.edges;
    this.incoming = incoming;
    this.outgoing = outgoing;
    this.info = graph.build;
    this.currentRevision += 1;
  }

  node(id: string): GraphNode | undefined {
    return this.nodesById.get(id);
  }

  has(id: string): boolean {
    return this.nodesById.has(id);
  }

  edgesOf(id: string): NodeEdges {
    return { incoming: this.incoming.get(id) ?? NO_EDGES, outgoing: this.outgoing.get(id) ?? NO_EDGES };
  }

  nodes(): Iterable<GraphNode> {
    return this.nodesById.values();
  }

  edges(): readonly GraphEdge[] {
    return this.edgeList;
  }
}

function push(map: Map<string, GraphEdge[]>, key: string, edge: GraphEdge): void {
  const list = map.get(key);
  if (list) list.push(edge);
  else map.set(key, [edge]);
}
