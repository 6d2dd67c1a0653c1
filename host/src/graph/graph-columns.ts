import { type GraphPayload, graphPayloadInSlices, graphPayloadOf } from '@strata/sandbox';
import { inject, injectable } from 'tsyringe';
import { eventLoopTurns } from '../concurrency/event-loop-turns.js';
import { GraphStore } from './graph-store.js';

/**
 * The graph as columns (typed arrays and string arrays), the form it takes
 * inside plugin sandboxes: cheap to copy across the boundary and cheap to
 * loop over. Built once per graph revision.
 */
@injectable()
export class GraphColumnsCache {
  private cached: GraphPayload | undefined;
  /** The payload being made in slices, for the revision it is of. */
  private making: { revision: number; payload: Promise<GraphPayload> } | undefined;

  constructor(@inject(GraphStore) private readonly graph: GraphStore) {}

  current(): GraphPayload {
    if (this.cached && this.cached.revision === this.graph.revision) return this.cached;
    this.cached = graphPayloadOf([...this.graph.nodes()], this.graph.edges(), this.graph.revision);
    return this.cached;
  }

  /**
   * The same, made a slice at a time with a turn for requests (and file changes) between slices, for work in the
   * background (an overlay applied again after a change): the graph as it was when it was asked for.
   */
  async inSlices(): Promise<GraphPayload> {
    const revision = this.graph.revision;
    if (this.cached && this.cached.revision === revision) return this.cached;
    if (this.making?.revision !== revision) {
      const made = graphPayloadInSlices([...this.graph.nodes()], this.graph.edges(), revision, eventLoopTurns(SLICE_MS)).then((payload) => {
        if (this.graph.revision === payload.revision) this.cached = payload;
        return payload;
      });
      this.making = { revision, payload: made };
    }
    return this.making.payload;
  }
}

/** Longest slice of `inSlices` between two turns. */
const SLICE_MS = 10;
