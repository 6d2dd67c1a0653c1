import { inject, injectable } from 'tsyringe';
import { GraphColumnsCache } from '../graph/graph-columns.js';
import { GraphStore } from '../graph/graph-store.js';
import { LayoutPositionStore } from '../layout/layout-position-store.js';

/** How long the graph stays unchanged before the map is serialized again ahead of a request. */
const PREPARE_AFTER_QUIET_MS = 500;

/** The graph as `GET /api/graph/map` serves it, serialized once per change of the graph or of the layout. */
export interface GraphMapJson {
  body: Buffer;
  graphRevision: number;
  layoutRevision: number;
}

/**
 * The graph in columns, for a client that draws it (the web UI): one entry
 * per node in each column, imports as pairs of node indexes, `contains`
 * edges left out (each is a node's `parent`). At 100,000 files it is about a
 * seventh of `GET /api/graph`, which repeats every field name for every node
 * and carries what a map does not draw (bytes, lines of symbols, specifiers).
 */
@injectable()
export class GraphMapCache {
  private cached: GraphMapJson | undefined;
  /** Whether a client has asked for the map: from then on it is serialized again once the graph is quiet after a change. */
  private asked = false;
  private prepareTimer: NodeJS.Timeout | undefined;

  constructor(
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(LayoutPositionStore) private readonly layout: LayoutPositionStore,
    @inject(GraphColumnsCache) private readonly graphColumns: GraphColumnsCache,
  ) {}

  /** The map as a client asks for it. */
  current(): GraphMapJson {
    this.asked = true;
    return this.prepare();
  }

  /**
   * The graph changed. If a client has asked for the map (a web UI is in
   * use), it is serialized again once the graph has been quiet for
   * `PREPARE_AFTER_QUIET_MS`, so that the next page load finds it ready: on a
   * busy machine (a browser loading the page beside the server on two cores)
   * serializing it when asked took 150 to 450 ms at 10,000 files.
   */
  graphChanged(): void {
    if (!this.asked) return;
    clearTimeout(this.prepareTimer);
    this.prepareTimer = setTimeout(() => this.prepare(), PREPARE_AFTER_QUIET_MS);
    this.prepareTimer.unref();
  }

  /** Stops serializing ahead. */
  close(): void {
    clearTimeout(this.prepareTimer);
    this.prepareTimer = undefined;
    this.asked = false;
  }

  /** The map, serialized now unless it already is for this graph and layout. */
  prepare(): GraphMapJson {
    const graphRevision = this.graph.revision;
    const layoutRevision = this.layout.revision;
    const cached = this.cached;
    if (cached && cached.graphRevision === graphRevision && cached.layoutRevision === layoutRevision) return cached;
    this.cached = { body: Buffer.from(JSON.stringify(this.columns())), graphRevision, layoutRevision };
    return this.cached;
  }

  /** The columns the sandboxes and the layout already use (one pass over the graph per revision), as JSON. */
  private columns(): object {
    const { nodes, edges } = this.graphColumns.current();
    const n = nodes.id.length;
    const directory = nodes.kindNames.indexOf('directory');
    const column = {
      id: nodes.id,
      name: nodes.name,
      kind: Array.from(nodes.kind),
      parent: Array.from(nodes.parent),
      // The columns' language 0 is "none": here -1, and the names without it.
      language: Array.from(nodes.language, (code) => code - 1),
      lines: Array.from(nodes.lines, (lines) => (Number.isNaN(lines) ? null : lines)),
      files: new Array<number | null>(n).fill(null),
      x: new Array<number | null>(n).fill(null),
      y: new Array<number | null>(n).fill(null),
    };
    for (let i = 0; i < n; i++) {
      if (nodes.kind[i] === directory) column.files[i] = this.graph.node(nodes.id[i]!)?.files ?? null;
      const position = this.layout.position(nodes.id[i]!);
      if (position) {
        column.x[i] = position.x;
        column.y[i] = position.y;
      }
    }
    const imports = edges.kindNames.indexOf('imports');
    const source: number[] = [];
    const target: number[] = [];
    for (let j = 0; j < edges.kind.length; j++) {
      if (edges.kind[j] !== imports || edges.source[j]! < 0 || edges.target[j]! < 0) continue;
      source.push(edges.source[j]!);
      target.push(edges.target[j]!);
    }
    return { kinds: nodes.kindNames, languages: nodes.languageNames.slice(1), nodes: column, imports: { source, target } };
  }
}
