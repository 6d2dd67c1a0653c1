import { type LocalGraph, placeLocally } from '@strata/extension-gpu-layout/placement';
import { inject, injectable } from 'tsyringe';
import { GraphStore } from '../graph/graph-store.js';
import { Logger } from '../logging/logger.js';
import { EDGE_WEIGHTS, LayoutComputation } from './layout-computation.js';
import { LayoutPositionStore } from './layout-position-store.js';

/** What one placement did. */
export interface PlacementResult {
  /** Nodes given a position. */
  placed: number;
  /** Time to place them (they are saved in the background). */
  placeMs: number;
}

/**
 * Places the nodes the live graph gains into the saved layout, as the graph
 * changes: next to their directory, refined locally (placeLocally of the
 * layout extension), every saved position left where it is, and served
 * before the change is announced (saved in the background): a client that
 * follows `graph.changed` finds the new nodes' positions in
 * `GET /api/graph/changes`.
 * Nothing is placed without a saved layout (the web UI places such nodes
 * itself), while a computation runs (it saves every position when it ends),
 * or after a wholesale rebuild of the graph.
 */
@injectable()
export class LivePlacement {
  private seenRevision = 0;

  constructor(
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(LayoutPositionStore) private readonly positions: LayoutPositionStore,
    @inject(LayoutComputation) private readonly computation: LayoutComputation,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  /** Nodes added from the graph's current revision on are placed by `placeNew`. */
  start(): void {
    this.seenRevision = this.graph.revision;
  }

  /**
   * Places and saves the nodes without a position that the graph gained since
   * the last call; undefined when none were placed. The positions are served
   * before it returns its promise (nothing here awaits before they are in):
   * called in the turn the graph took a revision, no request reads that
   * revision without them.
   */
  async placeNew(): Promise<PlacementResult | undefined> {
    const since = this.seenRevision;
    this.seenRevision = this.graph.revision;
    if (this.positions.size === 0 || this.computation.current().state === 'running') return undefined;
    const changes = this.graph.changesSince(since);
    // Added nodes only: a node that changed keeps what it has (with a partial saved layout, none).
    const fresh = (changes?.addedNodes ?? []).filter((id) => !this.positions.position(id));
    if (fresh.length === 0) return undefined;
    const started = performance.now();
    const placed = placeLocally(fresh, this.localGraph(), this.graph.revision);
    const placeMs = performance.now() - started;
    const rounded = (ms: number): number => Math.round(ms * 10) / 10;
    // Served at once; written in the background (the announcement does not wait for the disk).
    const saving = performance.now();
    this.positions.addPlaced(placed).then(
      () => this.logger.info({ saveMs: rounded(performance.now() - saving), revision: this.graph.revision }, 'saved the placed nodes'),
      (error: unknown) => this.logger.warn({ err: error, nodes: placed.size }, 'the placed nodes were not saved; the next placement writes them again'),
    );
    this.logger.info({ placed: placed.size, placeMs: rounded(placeMs), revision: this.graph.revision }, 'placed the new nodes in the saved layout');
    return { placed: placed.size, placeMs };
  }

  /** The graph around the new nodes, as placeLocally reads it. */
  private localGraph(): LocalGraph {
    const neighbours = (id: string) => {
      const { incoming, outgoing } = this.graph.edgesOf(id);
      return [
        ...incoming.map((edge) => ({ id: edge.source, weight: EDGE_WEIGHTS[edge.kind] ?? 0.25 })),
        ...outgoing.map((edge) => ({ id: edge.target, weight: EDGE_WEIGHTS[edge.kind] ?? 0.25 })),
      ];
    };
    return {
      position: (id: string) => this.positions.position(id),
      parent: (id: string) => this.graph.node(id)?.parent,
      neighbours,
      children: (id: string) =>
        this.graph
          .edgesOf(id)
          .outgoing.filter((edge) => edge.kind === 'contains')
          .map((edge) => edge.target),
    };
  }
}
