import type { GraphNode } from '@strata/sdk';
import { inject, injectable } from 'tsyringe';
import { GraphStore } from '../graph/graph-store.js';
import { LayoutPositionStore } from '../layout/layout-position-store.js';
import { ServedOverlays } from '../overlays/served-overlays.js';

/** The graph serialized as `{"nodes":[...],"edges":[...]}`, with saved positions and active overlay styles merged in. */
export interface GraphJson {
  body: Buffer;
  graphRevision: number;
  layoutRevision: number;
  overlayRevision: number;
}

/**
 * Serializes the graph for `GET /api/graph` once per change of the graph or
 * of the layout instead of once per request.
 */
@injectable()
export class GraphJsonCache {
  private cached: GraphJson | undefined;

  constructor(
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(LayoutPositionStore) private readonly layout: LayoutPositionStore,
    @inject(ServedOverlays) private readonly overlays: ServedOverlays,
  ) {}

  current(): GraphJson {
    const graphRevision = this.graph.revision;
    const layoutRevision = this.layout.revision;
    const overlayRevision = this.overlays.revision;
    const cached = this.cached;
    if (cached && cached.graphRevision === graphRevision && cached.layoutRevision === layoutRevision && cached.overlayRevision === overlayRevision)
      return cached;
    const body = Buffer.from(JSON.stringify({ nodes: this.served(this.graph.nodes()), edges: this.graph.edges() }));
    this.cached = { body, graphRevision, layoutRevision, overlayRevision };
    return this.cached;
  }

  /**
   * Nodes of the store as the graph routes serve them: each with its saved
   * `position` and the `overlays` styling it, when it has them.
   */
  served(nodes: Iterable<GraphNode>): GraphNode[] {
    const served: GraphNode[] = [];
    const withOverlays = this.overlays.anyServed;
    for (const node of nodes) {
      const position = this.layout.position(node.id);
      const overlays = withOverlays ? this.overlays.stylesOf(node.id) : undefined;
      served.push(position || overlays ? { ...node, ...(position && { position }), ...(overlays && { overlays }) } : node);
    }
    return served;
  }
}
