// The page's copy of the graph: every node (symbols included), the imports
// (a `contains` edge is a node's `parent`), overlay styles plugin by plugin,
// and the changes the server reports applied in place.
import { type ApiEdge, type ApiNode, isSymbol, type LoadedGraph, type NodeStyle, nearby, type PlacedNode, pathOfId, SYMBOL_KINDS } from './graph-data.js';

/** GET /api/graph/changes?since=N */
export interface GraphChanges {
  since: number;
  revision: number;
  reset: boolean;
  nodes: ApiNode[];
  removedNodes: string[];
  edges: ApiEdge[];
  removedEdges: string[];
}

/** What a change did to the model, for the map to follow. */
export interface ModelDiff {
  added: PlacedNode[];
  updated: PlacedNode[];
  removedNodes: string[];
  addedEdges: ApiEdge[];
  removedEdges: string[];
}

/** The styles one plugin serves, overlay by overlay (GET /api/overlays/{id}/styles). */
type PluginOverlayStyles = ReadonlyArray<{ id: string; styles: Record<string, NodeStyle> }>;

export class GraphModel {
  revision = 0;
  repository = '';
  repositoryPath: string | undefined;
  readonly nodes = new Map<string, PlacedNode>();
  readonly edges = new Map<string, ApiEdge>();
  /** Each node's children's ids: made when first asked for (a model of 200,000 nodes is made faster without), then kept up to date. */
  private childIndex: Map<string, Set<string>> | undefined;
  /** Import edges by node, made when first asked for and dropped when the edges change. */
  private importIndex: Map<string, ApiEdge[]> | undefined;
  /** The largest side of the drawing, for placing new nodes at a fitting distance. */
  private extent = 1;
  /** The symbols of the last whole graph that are not in `nodes` yet (`replace` with `deferSymbols`). */
  private deferredSymbols: { graph: LoadedGraph; indexes: number[]; styles: Map<string, PluginOverlayStyles> } | undefined;

  /**
   * Takes a whole graph from the worker's columns. With `deferSymbols`, the
   * symbols (about half the nodes, drawn only when their file is expanded)
   * wait for `completeSymbols()`: the page draws the map first and adds them
   * after that frame.
   */
  replace(graph: LoadedGraph, { deferSymbols = false }: { deferSymbols?: boolean } = {}): void {
    this.revision = graph.revision;
    this.repository = graph.repository;
    this.repositoryPath = graph.repositoryPath;
    this.nodes.clear();
    this.edges.clear();
    this.childIndex = undefined;
    this.importIndex = undefined;
    const symbolKind = graph.kinds.map((kind) => SYMBOL_KINDS.has(kind));
    const deferred: number[] = [];
    for (let i = 0; i < graph.ids.length; i++) {
      if (deferSymbols && symbolKind[graph.kind[i]!]) deferred.push(i);
      else this.putNode(nodeAt(graph, i));
    }
    this.deferredSymbols = deferred.length > 0 ? { graph, indexes: deferred, styles: new Map() } : undefined;
    const { ids } = graph;
    for (let j = 0; j < graph.importSource.length; j++) {
      const source = ids[graph.importSource[j]!]!;
      const target = ids[graph.importTarget[j]!]!;
      const id = `imports:${source}->${target}`;
      this.edges.set(id, { id, source, target, kind: 'imports' });
    }
    this.measure();
  }

  /** Adds the symbols `replace()` left for later; whether there were any. */
  completeSymbols(): boolean {
    const deferred = this.deferredSymbols;
    if (!deferred) return false;
    this.deferredSymbols = undefined;
    const added = new Set<string>();
    for (const i of deferred.indexes) {
      const node = nodeAt(deferred.graph, i);
      this.putNode(node);
      added.add(node.id);
    }
    for (const [pluginId, overlays] of deferred.styles) {
      for (const overlay of overlays) {
        for (const [id, style] of Object.entries(overlay.styles)) {
          if (!added.has(id)) continue;
          const node = this.nodes.get(id)!;
          ((node.overlays ??= Object.create(null))[pluginId] ??= Object.create(null))[overlay.id] = style;
        }
      }
    }
    return true;
  }

  /**
   * Edges the graph has: the imports kept here, and one `contains` edge per
   * node with a parent (the page draws those from `parent`).
   */
  get edgeCount(): number {
    let contained = 0;
    for (const node of this.nodes.values()) if (node.parent !== undefined) contained += 1;
    if (this.deferredSymbols) for (const i of this.deferredSymbols.indexes) if (this.deferredSymbols.graph.parent[i]! >= 0) contained += 1;
    return this.edges.size + contained;
  }

  /** Nodes the graph has: those in `nodes` and the symbols still to come (`completeSymbols`). */
  get nodeCount(): number {
    return this.nodes.size + this.deferredSymbolCount;
  }

  /** Symbols of the graph not in `nodes` yet. */
  get deferredSymbolCount(): number {
    return this.deferredSymbols?.indexes.length ?? 0;
  }

  /** Sets the styles one plugin serves now (none: its overlays are gone); nodes it does not paint lose its styles. */
  setPluginStyles(pluginId: string, overlays: PluginOverlayStyles): void {
    // The styles of symbols still to come are set when they come.
    if (this.deferredSymbols) this.deferredSymbols.styles.set(pluginId, overlays);
    for (const node of this.nodes.values()) {
      if (!node.overlays || !Object.hasOwn(node.overlays, pluginId)) continue;
      delete node.overlays[pluginId];
      // Set to undefined, not deleted: a deleted property puts the object in V8's slow dictionary mode.
      if (Object.keys(node.overlays).length === 0) node.overlays = undefined;
    }
    for (const overlay of overlays) {
      for (const [id, style] of Object.entries(overlay.styles)) {
        const node = this.nodes.get(id);
        if (!node) continue;
        ((node.overlays ??= Object.create(null))[pluginId] ??= Object.create(null))[overlay.id] = style;
      }
    }
  }

  /** Applies GET /api/graph/changes: nodes already placed keep their place, new ones go next to their parent. */
  apply(changes: GraphChanges): ModelDiff {
    this.completeSymbols();
    const diff: ModelDiff = { added: [], updated: [], removedNodes: [], addedEdges: [], removedEdges: [] };
    this.importIndex = undefined;
    for (const id of changes.removedEdges) if (this.edges.delete(id)) diff.removedEdges.push(id);
    for (const id of changes.removedNodes) {
      const node = this.nodes.get(id);
      if (!node) continue;
      this.nodes.delete(id);
      if (node.parent !== undefined) this.childIndex?.get(node.parent)?.delete(id);
      diff.removedNodes.push(id);
    }
    // Parents before their children, so that a new directory's files go next to it.
    const incoming = [...changes.nodes].sort((a, b) => depth(a) - depth(b));
    for (const record of incoming) {
      const existing = this.nodes.get(record.id);
      if (existing) {
        const placed: PlacedNode = {
          ...record,
          x: record.position?.x ?? existing.x,
          y: record.position?.y ?? existing.y,
          saved: record.position !== undefined || existing.saved,
        };
        this.putNode(placed);
        diff.updated.push(placed);
      } else {
        const parent = record.parent !== undefined ? this.nodes.get(record.parent) : undefined;
        const siblings = record.parent !== undefined ? (this.children().get(record.parent)?.size ?? 0) : this.nodes.size;
        const at = record.position ?? nearby(parent ?? { x: 0, y: 0 }, siblings, this.extent * (parent ? (isSymbol(record) ? 0.004 : 0.02) : 0.55));
        const placed: PlacedNode = { ...record, x: at.x, y: at.y, saved: record.position !== undefined };
        this.putNode(placed);
        diff.added.push(placed);
      }
    }
    for (const edge of changes.edges) {
      // A `contains` edge is its target's `parent`, as when the graph is loaded.
      if (edge.kind === 'contains') continue;
      this.edges.set(edge.id, edge);
      diff.addedEdges.push(edge);
    }
    this.revision = changes.revision;
    return diff;
  }

  /** The import edges from and to a node. */
  importsOf(id: string): ApiEdge[] {
    if (!this.importIndex) {
      this.importIndex = new Map();
      for (const edge of this.edges.values()) {
        if (edge.kind !== 'imports') continue;
        for (const end of [edge.source, edge.target]) {
          let list = this.importIndex.get(end);
          if (!list) this.importIndex.set(end, (list = []));
          list.push(edge);
        }
      }
    }
    return this.importIndex.get(id) ?? [];
  }

  childrenOf(id: string): PlacedNode[] {
    return [...(this.children().get(id) ?? [])].map((child) => this.nodes.get(child)!).filter(Boolean);
  }

  /** The file a symbol belongs to (a method's class's file). */
  fileOf(id: string): PlacedNode | undefined {
    let node = this.nodes.get(id);
    while (node && isSymbol(node)) node = node.parent !== undefined ? this.nodes.get(node.parent) : undefined;
    return node?.kind === 'file' ? node : undefined;
  }

  /** The ids of a node's ancestors, nearest first. */
  ancestorsOf(id: string): string[] {
    const ancestors: string[] = [];
    let parent = this.nodes.get(id)?.parent;
    while (parent !== undefined && ancestors.length < 10_000) {
      ancestors.push(parent);
      parent = this.nodes.get(parent)?.parent;
    }
    return ancestors;
  }

  /** A node and every node below it, the node first. */
  subtreeOf(id: string): string[] {
    if (!this.nodes.has(id)) return [];
    const children = this.children();
    const subtree = [id];
    for (let i = 0; i < subtree.length; i++) for (const child of children.get(subtree[i]!) ?? []) subtree.push(child);
    return subtree;
  }

  /** How many files each language has. */
  languages(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const node of this.nodes.values()) if (node.kind === 'file' && node.language) counts.set(node.language, (counts.get(node.language) ?? 0) + 1);
    return counts;
  }

  private putNode(node: PlacedNode): void {
    this.nodes.set(node.id, node);
    if (node.parent !== undefined && this.childIndex) addChild(this.childIndex, node.parent, node.id);
  }

  private children(): Map<string, Set<string>> {
    if (!this.childIndex) {
      this.childIndex = new Map();
      for (const node of this.nodes.values()) if (node.parent !== undefined) addChild(this.childIndex, node.parent, node.id);
    }
    return this.childIndex;
  }

  private measure(): void {
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    for (const node of this.nodes.values()) {
      minX = Math.min(minX, node.x);
      maxX = Math.max(maxX, node.x);
      minY = Math.min(minY, node.y);
      maxY = Math.max(maxY, node.y);
    }
    this.extent = Number.isFinite(minX) ? Math.max(maxX - minX, maxY - minY, 1) : 1;
  }
}

/**
 * Node `i` of the worker's columns as the page keeps it. Every field is set,
 * in one order (undefined where the node has none), so that all nodes share
 * one shape: the page's loops over them stay monomorphic.
 */
function nodeAt(graph: LoadedGraph, i: number): PlacedNode {
  const id = graph.ids[i]!;
  const parent = graph.parent[i]!;
  const language = graph.language[i]!;
  const lines = graph.lines[i]!;
  const files = graph.files[i]!;
  return {
    id,
    kind: graph.kinds[graph.kind[i]!],
    name: graph.names[i]!,
    path: pathOfId(id),
    parent: parent >= 0 ? graph.ids[parent] : undefined,
    language: language >= 0 ? graph.languages[language] : undefined,
    lines: Number.isNaN(lines) ? undefined : lines,
    files: Number.isNaN(files) ? undefined : files,
    x: graph.x[i]!,
    y: graph.y[i]!,
    saved: graph.saved[i] === 1,
    overlays: undefined,
  } as PlacedNode;
}

function addChild(index: Map<string, Set<string>>, parent: string, child: string): void {
  let set = index.get(parent);
  if (!set) index.set(parent, (set = new Set()));
  set.add(child);
}

function depth(node: ApiNode): number {
  return node.path === '.' ? 0 : node.path.split('/').length + (isSymbol(node) ? node.id.split('.').length : 0);
}
