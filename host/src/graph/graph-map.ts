import { inject, injectable } from 'tsyringe';
import { LayoutPositionStore } from '../layout/layout-position-store.js';
import { GraphStore } from './graph-store.js';

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

  constructor(
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(LayoutPositionStore) private readonly layout: LayoutPositionStore,
  ) {}

  current(): GraphMapJson {
    const graphRevision = this.graph.revision;
    const layoutRevision = this.layout.revision;
    const cached = this.cached;
    if (cached && cached.graphRevision === graphRevision && cached.layoutRevision === layoutRevision) return cached;
    this.cached = { body: Buffer.from(JSON.stringify(this.columns())), graphRevision, layoutRevision };
    return this.cached;
  }

  private columns(): object {
    const nodes = [...this.graph.nodes()];
    const n = nodes.length;
    const indexOf = new Map<string, number>();
    for (let i = 0; i < n; i++) indexOf.set(nodes[i]!.id, i);
    const kinds: string[] = [];
    const languages: string[] = [];
    const code = (names: string[], value: string): number => {
      const found = names.indexOf(value);
      return found >= 0 ? found : names.push(value) - 1;
    };
    const column = {
      id: new Array<string>(n),
      name: new Array<string>(n),
      kind: new Array<number>(n),
      parent: new Array<number>(n),
      language: new Array<number>(n),
      lines: new Array<number | null>(n),
      files: new Array<number | null>(n),
      x: new Array<number | null>(n),
      y: new Array<number | null>(n),
    };
    for (let i = 0; i < n; i++) {
      const node = nodes[i]!;
      column.id[i] = node.id;
      column.name[i] = node.name;
      column.kind[i] = code(kinds, node.kind);
      column.parent[i] = node.parent === undefined ? -1 : (indexOf.get(node.parent) ?? -1);
      column.language[i] = node.language === undefined ? -1 : code(languages, node.language);
      column.lines[i] = node.lines ?? null;
      column.files[i] = node.files ?? null;
      const position = this.layout.position(node.id);
      column.x[i] = position?.x ?? null;
      column.y[i] = position?.y ?? null;
    }
    const source: number[] = [];
    const target: number[] = [];
    for (const edge of this.graph.edges()) {
      if (edge.kind !== 'imports') continue;
      const from = indexOf.get(edge.source);
      const to = indexOf.get(edge.target);
      if (from === undefined || to === undefined) continue;
      source.push(from);
      target.push(to);
    }
    return { kinds, languages, nodes: column, imports: { source, target } };
  }
}
