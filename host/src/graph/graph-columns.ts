import { type GraphPayload, graphPayloadOf } from '@strata/sandbox';
import { inject, injectable } from 'tsyringe';
import { GraphStore } from './graph-store.js';

/**
 * The graph as columns (typed arrays and string arrays), the form it takes
 * inside plugin sandboxes: cheap to copy across the boundary and cheap to
 * loop over. Built once per graph revision.
 */
@injectable()
export class GraphColumnsCache {
  private cached: GraphPayload | undefined;

  constructor(@inject(GraphStore) private readonly graph: GraphStore) {}

  current(): GraphPayload {
    if (this.cached && this.cached.revision === this.graph.revision) return this.cached;
    this.cached = graphPayloadOf([...this.graph.nodes()], this.graph.edges(), this.graph.revision);
    return this.cached;
  }
}
