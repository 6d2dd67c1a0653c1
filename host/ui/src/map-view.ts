// The map: sigma.js (WebGL) over a graphology graph of what is drawn.
// Level of detail: directories, files and packages are drawn; a file's
// symbols only while it is expanded (by hand, or by zooming in on it).
// Labels are left to sigma's label grid (the largest nodes win), plus the
// hovered and selected nodes and the selection's neighbours.
import Graph from 'graphology';
import Sigma from 'sigma';
import { EdgeLineProgram, NodePointProgram } from 'sigma/rendering';
import type { CameraState } from 'sigma/types';
import { DirectoryRegions, type DrawnRegion, type DrawnRegionEdge } from './directory-regions.js';
import { type ApiEdge, isSymbol, type PlacedNode } from './graph-data.js';
import type { GraphModel, ModelDiff } from './graph-model.js';
import { composeStyle, type OverlayRef } from './overlay-composition.js';
import { languageColors, reachColor, type ThemeColors, themeColors } from './palette.js';
import type { ShownReach } from './reach-section.js';

interface NodeAttributes {
  x: number;
  y: number;
  size: number;
  color: string;
  label: string;
  hidden: boolean;
  zIndex: number;
}

interface EdgeAttributes {
  size: number;
  color: string;
  kind: 'contains' | 'imports';
  hidden: boolean;
}

export interface MapViewEvents {
  select(id: string | undefined): void;
  hover(id: string | undefined, at: { x: number; y: number }): void;
  cameraChanged(): void;
  /** A node was dragged to a new place. */
  moved(id: string): void;
}

/** Which nodes are drawn. */
export interface VisibilityFilter {
  /** Node kinds not drawn. */
  hiddenKinds: Set<string>;
  /** File languages not drawn. */
  hiddenLanguages: Set<string>;
  /** Only this directory's subtree is drawn. */
  focus: string | undefined;
}

/** Above this many edges, edges are not drawn while the camera moves. */
const MANY_EDGES = 20_000;

/**
 * The map's class until it is given its first graph: its canvases, made while
 * the worker loads that graph, are hidden until then. Shown empty, the seven
 * canvases (sigma's layers, each the size of the map) were composited in
 * every frame the page drew while it loaded, in software WebGL as much work
 * as drawing the graph: at 10,000 files the GPU process took 1.0 to 1.5 s of
 * CPU for the page's load, 0.6 to 0.8 s with them hidden, and the first frame
 * came 300 ms sooner (bench:ui).
 */
const UNDRAWN = 'undrawn';
/** The map's class while a node is hovered or selected: sigma's hover layers are shown only then (styles.css). */
const HIGHLIGHTING = 'highlighting';
/**
 * Above this many imports, only the selected and the hovered node's are drawn:
 * at 10,000 files (17,000 imports) all of them are a gray mat that costs a
 * third of the first frame.
 */
const MANY_IMPORTS = 5_000;
/**
 * A selected node's neighbours whose labels are always drawn, the largest first; the others' labels only where
 * sigma's label grid has room, so that a hub's hundreds of neighbours do not pile their labels up.
 */
const MAX_FORCED_LABELS = 24;
/** Above this many imports, they are drawn faint (the theme's `faintImportEdge`). */
const FAINT_IMPORTS = 1_000;
/** Zoomed in this far on at most this many files, their symbols are drawn. */
const AUTO_EXPAND_FILES = 40;
/** Of the nodes a reach reaches directly, how many are labeled whatever the label grid says (fewer than a selection's: they crowd round one node). */
const MAX_REACH_LABELS = 12;
/** The share of the map's width or height a framed set of nodes fills (`fitNodes`): room at the edges for their discs and labels. */
const FRAMED_SHARE = 0.75;
/** The camera's closest zoom. */
const MIN_CAMERA_RATIO = 0.0005;

export class MapView {
  private graph = new Graph<NodeAttributes, EdgeAttributes>({ type: 'directed', multi: false, allowSelfLoops: true });
  private renderer: Sigma<NodeAttributes, EdgeAttributes> | undefined;
  private theme: ThemeColors = themeColors();
  private languageColor = new Map<string, string>();
  private overlays: OverlayRef[] = [];
  private selected: string | undefined;
  private neighbours = new Set<string>();
  /** The neighbours whose labels are drawn whatever the label grid says: the largest few (a hub has hundreds). */
  private labeledNeighbours = new Set<string>();
  private hovered: string | undefined;
  private readonly expanded = new Set<string>();
  private readonly autoExpanded = new Set<string>();
  private readonly collapsed = new Set<string>();
  private filter: VisibilityFilter = { hiddenKinds: new Set(), hiddenLanguages: new Set(), focus: undefined };
  private dragged: string | undefined;
  private dragMoved = false;
  /** Where the pointer is over the map (page coordinates), for hovering again when the map moves under it. */
  private pointer: { clientX: number; clientY: number } | undefined;
  /** True while a camera move waits to be drawn (see drawOnlyWhenStill). */
  private drawPending = false;
  private lodTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * Many imports: they are drawn for the selected or hovered node only (at
   * 100,000 files, 140,000 lines are a gray mat), and only those are in the
   * drawn graph (`demandEdges`).
   */
  private importsOnDemand = false;
  private readonly demandEdges = new Set<string>();
  /** Nodes or edges were added since sigma last indexed the graph: a highlight must index them first. */
  private unindexed = false;
  /**
   * Whether a visible overlay colors nodes: then files it does not color are gray, not their language's color,
   * so that a language's color is never read as a value of the overlay.
   */
  private colorOverlayShown = false;
  /** A dependents or dependencies question shown: the nodes it reached colored by depth, the rest faded. */
  private reach: ShownReach | undefined;
  /** Of the nodes a reach reached directly, the largest few, labeled. */
  private reachLabels = new Set<string>();
  /** Directories drawn as regions, on a canvas under the edges. */
  private readonly regions: DirectoryRegions;

  constructor(
    private readonly container: HTMLElement,
    private readonly model: GraphModel,
    private readonly events: MapViewEvents,
  ) {
    container.classList.add(UNDRAWN);
    this.regions = new DirectoryRegions(model);
  }

  /** The directory regions of the last frame, largest first (their labels, boxes and tints): for the tests. */
  drawnRegions(): readonly DrawnRegion[] {
    return this.regions.lastDrawn();
  }

  /** The imports summed between regions in the last frame (maps with many imports). */
  drawnRegionEdges(): readonly DrawnRegionEdge[] {
    return this.regions.lastDrawnEdges();
  }

  /**
   * Makes the renderer on an empty graph: its WebGL context, canvases and
   * shaders (400 ms in software WebGL at start), while the worker loads the
   * graph.
   */
  prepare(): void {
    if (!this.renderer) this.createRenderer(null);
  }

  /**
   * Draws the model from scratch (first load, or after a reset); the camera
   * stays where it was unless `fit`. Sigma indexes and draws once: every
   * attribute, visibility included, is set before it sees the graph, and the
   * coordinate frame is fixed from the start.
   */
  render(fit: boolean): void {
    this.languageColor = languageColors(this.model.languages());
    const graph = new Graph<NodeAttributes, EdgeAttributes>({ type: 'directed', multi: false, allowSelfLoops: true });
    const isHidden = this.hiddenTest();
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    for (const node of this.model.nodes.values()) {
      if (!this.isDrawn(node)) continue;
      graph.addNode(node.id, { ...this.attributesOf(node), hidden: isHidden(node) });
      if (node.x < minX) minX = node.x;
      if (node.x > maxX) maxX = node.x;
      if (node.y < minY) minY = node.y;
      if (node.y > maxY) maxY = node.y;
    }
    this.importsOnDemand = this.model.edges.size > MANY_IMPORTS;
    this.demandEdges.clear();
    const drawEdges = !location.search.includes('noedges');
    if (drawEdges) {
      for (const node of this.model.nodes.values()) this.addTreeEdge(graph, node);
      if (!this.importsOnDemand) {
        for (const edge of this.model.edges.values()) {
          if (graph.hasNode(edge.source) && graph.hasNode(edge.target) && !graph.hasEdge(edge.id))
            graph.addEdgeWithKey(edge.id, edge.source, edge.target, this.edgeAttributes(edge.kind));
        }
      }
    }
    this.graph = graph;
    this.regions.invalidate();
    for (const event of ['nodeAdded', 'edgeAdded'] as const) graph.on(event, () => (this.unindexed = true));
    // A fixed frame: nodes added or moved later never shift the others.
    const frame = Number.isFinite(minX)
      ? ({ x: [minX, maxX === minX ? minX + 1 : maxX], y: [minY, maxY === minY ? minY + 1 : maxY] } as { x: [number, number]; y: [number, number] })
      : null;
    if (!this.renderer) {
      this.createRenderer(frame);
    } else {
      const camera = this.renderer.getCamera().getState();
      if (this.renderer.getSetting('hideEdgesOnMove') !== graph.size > MANY_EDGES) this.renderer.setSetting('hideEdgesOnMove', graph.size > MANY_EDGES);
      this.renderer.setCustomBBox(frame);
      this.renderer.setGraph(graph);
      if (!fit) this.renderer.getCamera().setState(camera);
    }
    this.unindexed = false;
    this.container.classList.remove(UNDRAWN);
    if (fit) this.renderer!.getCamera().setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 });
    if (this.syncDemandEdges()) this.repaint();
  }

  /** Nodes drawn now (visible ones), for the status line and the tests. */
  get drawnCount(): { nodes: number; edges: number } {
    let nodes = 0;
    this.graph.forEachNode((_id, attributes) => {
      if (!attributes.hidden) nodes += 1;
    });
    return { nodes, edges: this.graph.size };
  }

  /** Follows a change of the model in place: the camera and the nodes already drawn stay where they are. */
  update(diff: ModelDiff): void {
    this.regions.invalidate();
    for (const id of diff.removedEdges) if (this.graph.hasEdge(id)) this.graph.dropEdge(id);
    for (const id of diff.removedNodes) if (this.graph.hasNode(id)) this.graph.dropNode(id);
    const isHidden = this.hiddenTest();
    for (const node of [...diff.added, ...diff.updated]) {
      if (!this.isDrawn(node)) continue;
      if (this.graph.hasNode(node.id))
        this.graph.mergeNodeAttributes(node.id, { ...this.attributesOf(node), hidden: this.graph.getNodeAttribute(node.id, 'hidden') });
      else this.graph.addNode(node.id, { ...this.attributesOf(node), hidden: isHidden(node) });
    }
    if (!location.search.includes('noedges')) {
      for (const node of diff.added) this.addTreeEdge(this.graph, node);
      for (const edge of diff.addedEdges) {
        if (this.importsOnDemand && edge.kind === 'imports') continue;
        if (!this.graph.hasNode(edge.source) || !this.graph.hasNode(edge.target)) continue;
        if (this.graph.hasEdge(edge.id)) this.graph.dropEdge(edge.id);
        this.graph.addEdgeWithKey(edge.id, edge.source, edge.target, this.edgeAttributes(edge.kind));
      }
    }
    if (this.selected && !this.graph.hasNode(this.selected)) this.select(undefined);
    else this.syncDemandEdges();
  }

  /**
   * With many imports, only the selected and the hovered node's are in the
   * drawn graph: added when one is chosen, dropped when it no longer is.
   * Whether the drawn graph changed.
   */
  private syncDemandEdges(): boolean {
    if (!this.importsOnDemand) return false;
    const wanted = new Map<string, ApiEdge>();
    for (const focus of [this.selected, this.hovered]) {
      if (focus === undefined) continue;
      for (const edge of this.model.importsOf(focus)) wanted.set(edge.id, edge);
    }
    for (const id of this.reach?.edges ?? []) {
      const edge = this.model.edges.get(id);
      if (edge) wanted.set(id, edge);
    }
    let changed = false;
    for (const id of this.demandEdges) {
      if (wanted.has(id)) continue;
      this.demandEdges.delete(id);
      if (this.graph.hasEdge(id)) this.graph.dropEdge(id);
      changed = true;
    }
    for (const [id, edge] of wanted) {
      if (this.demandEdges.has(id) || !this.graph.hasNode(edge.source) || !this.graph.hasNode(edge.target)) continue;
      if (!this.graph.hasEdge(id)) this.graph.addEdgeWithKey(id, edge.source, edge.target, { ...this.edgeAttributes('imports'), hidden: false });
      this.demandEdges.add(id);
      changed = true;
    }
    return changed;
  }

  /** Draws a reach (what depends on a node, or what it depends on), or stops drawing one. */
  showReach(reach: ShownReach | undefined): void {
    this.reach = reach;
    const direct = reach ? [...reach.depths].filter(([id, depth]) => depth === 1 && this.graph.hasNode(id)).map(([id]) => id) : [];
    direct.sort((a, b) => this.graph.getNodeAttribute(b, 'size') - this.graph.getNodeAttribute(a, 'size') || (a < b ? -1 : 1));
    this.reachLabels = new Set(direct.slice(0, MAX_REACH_LABELS));
    this.syncDemandEdges();
    this.repaint();
    if (reach) this.fitNodes([reach.root, ...reach.depths.keys()]);
  }

  /** Repaints with these overlays (topmost first). */
  setOverlays(overlays: OverlayRef[]): void {
    this.overlays = overlays;
    this.restyle();
  }

  /** Repaints every node from the model's styles (a plugin's styles changed). */
  restyle(): void {
    this.colorOverlayShown = this.overlays.length > 0 && [...this.model.nodes.values()].some((node) => composeStyle(node, this.overlays).color !== undefined);
    this.graph.updateEachNodeAttributes((id, attributes) => {
      const node = this.model.nodes.get(id);
      return node ? { ...attributes, ...this.styleOf(node) } : attributes;
    });
  }

  /** Draws again in the page's theme (rare: the graph is built anew, with the camera kept). */
  setTheme(): void {
    this.theme = themeColors();
    if (!this.renderer) return;
    this.renderer.setSetting('labelColor', { color: this.theme.label });
    this.render(false);
  }

  select(id: string | undefined): void {
    this.selected = id !== undefined && this.graph.hasNode(id) ? id : undefined;
    this.syncDemandEdges();
    this.neighbours = new Set(this.selected ? this.graph.neighbors(this.selected) : []);
    const bySize = [...this.neighbours].sort((a, b) => this.graph.getNodeAttribute(b, 'size') - this.graph.getNodeAttribute(a, 'size') || (a < b ? -1 : 1));
    this.labeledNeighbours = new Set(bySize.slice(0, MAX_FORCED_LABELS));
    this.repaint();
  }

  get selection(): string | undefined {
    return this.selected;
  }

  /** Makes a node drawn (expanding its file, its collapsed directories, leaving a focus that excludes it) and centers on it. */
  reveal(id: string): void {
    const node = this.model.nodes.get(id);
    if (!node) return;
    let changed = false;
    const file = isSymbol(node) ? this.model.fileOf(id) : undefined;
    if (file && !this.expanded.has(file.id)) {
      this.expand(file.id);
      changed = true;
    }
    for (const ancestor of this.model.ancestorsOf(id)) if (this.collapsed.delete(ancestor)) changed = true;
    if (this.filter.focus && !this.model.ancestorsOf(id).includes(this.filter.focus) && id !== this.filter.focus) {
      this.filter.focus = undefined;
      changed = true;
    }
    if (changed) this.applyVisibility();
    this.repaint();
    this.center(id);
  }

  center(id: string): void {
    if (!this.renderer || !this.graph.hasNode(id)) return;
    const at = this.renderer.viewportToFramedGraph(this.renderer.graphToViewport(this.graph.getNodeAttributes(id)));
    const camera = this.renderer.getCamera();
    void camera.animate({ x: at.x, y: at.y, ratio: Math.min(camera.ratio, 0.5) }, { duration: 300 });
  }

  /** Draws a file's symbols. */
  expand(fileId: string): void {
    this.expanded.add(fileId);
    this.addSymbols(fileId);
  }

  /** The model's symbols arrived (after the first frame): those of the expanded files are drawn. */
  symbolsAdded(): void {
    const files = new Set([...this.expanded, ...this.autoExpanded]);
    for (const id of files) this.addSymbols(id);
    if (files.size > 0) this.repaint();
  }

  collapseFile(fileId: string): void {
    this.expanded.delete(fileId);
    this.autoExpanded.delete(fileId);
    this.removeSymbols(fileId);
  }

  isExpanded(fileId: string): boolean {
    return this.expanded.has(fileId) || this.autoExpanded.has(fileId);
  }

  /** Collapses or expands a directory: a collapsed one hides everything below it. */
  toggleDirectory(dirId: string): void {
    if (!this.collapsed.delete(dirId)) this.collapsed.add(dirId);
    this.applyVisibility();
  }

  isCollapsed(dirId: string): boolean {
    return this.collapsed.has(dirId);
  }

  setFilter(filter: Partial<VisibilityFilter>): void {
    this.filter = { ...this.filter, ...filter };
    this.applyVisibility();
  }

  get currentFilter(): VisibilityFilter {
    return this.filter;
  }

  camera(): CameraState | undefined {
    return this.renderer?.getCamera().getState();
  }

  setCamera(state: Partial<CameraState>): void {
    this.renderer?.getCamera().setState(state);
  }

  zoom(factor: number): void {
    const camera = this.renderer?.getCamera();
    if (camera) void camera.animate({ ratio: camera.ratio / factor }, { duration: 150 });
  }

  fit(): void {
    void this.renderer?.getCamera().animate({ x: 0.5, y: 0.5, ratio: 1, angle: 0 }, { duration: 300 });
  }

  /**
   * Frames the drawn nodes of `ids`: their bounding box centered, filling
   * FRAMED_SHARE of the map's width or height, whichever it reaches first (a
   * focused directory in a corner of a large map fills the view, not a few
   * pixels of it). One node, or none apart, is centered as `center` does.
   */
  fitNodes(ids: Iterable<string>): void {
    const renderer = this.renderer;
    if (!renderer) return;
    let left = Infinity;
    let right = -Infinity;
    let top = Infinity;
    let bottom = -Infinity;
    for (const id of ids) {
      if (!this.graph.hasNode(id) || this.graph.getNodeAttribute(id, 'hidden')) continue;
      const at = renderer.graphToViewport(this.graph.getNodeAttributes(id));
      left = Math.min(left, at.x);
      right = Math.max(right, at.x);
      top = Math.min(top, at.y);
      bottom = Math.max(bottom, at.y);
    }
    if (left > right) return;
    const camera = renderer.getCamera();
    const middle = renderer.viewportToFramedGraph({ x: (left + right) / 2, y: (top + bottom) / 2 });
    const { width, height } = renderer.getDimensions();
    // On screen, distances scale as 1 / ratio (the camera does not turn): the ratio at which the box fills the share.
    const filled = Math.max((right - left) / (FRAMED_SHARE * width), (bottom - top) / (FRAMED_SHARE * height));
    const ratio = filled > 0 ? camera.ratio * filled : Math.min(camera.ratio, 0.5);
    void camera.animate({ x: middle.x, y: middle.y, ratio: Math.max(ratio, MIN_CAMERA_RATIO), angle: 0 }, { duration: 300 });
  }

  /** Where every drawn node is now (what "save layout" sends). */
  positions(): Record<string, { x: number; y: number }> {
    const positions: Record<string, { x: number; y: number }> = {};
    for (const node of this.model.nodes.values()) positions[node.id] = { x: node.x, y: node.y };
    return positions;
  }

  /** Where a drawn node is on the map, in pixels from the map's top left corner. */
  screenPosition(id: string): { x: number; y: number } | undefined {
    if (!this.renderer || !this.graph.hasNode(id) || this.graph.getNodeAttribute(id, 'hidden')) return undefined;
    // From the node's own coordinates, not sigma's display data (getNodeDisplayData): after a link selected a
    // symbol, those held coordinates that put it 300,000 px off the map while it was drawn at the map's center.
    return this.renderer.graphToViewport(this.graph.getNodeAttributes(id));
  }

  /** The nodes whose labels are drawn whatever the label grid says (the selection, the hovered node, some neighbours). */
  forcedLabels(): string[] {
    const forced: string[] = [];
    this.graph.forEachNode((id, attributes) => {
      if ((this.reduceNode(id, attributes) as { forceLabel?: boolean }).forceLabel) forced.push(id);
    });
    return forced;
  }

  /** A drawn node's size, as sigma is given it; undefined when it is not in the drawn graph. */
  drawnSize(id: string): number | undefined {
    return this.graph.hasNode(id) ? this.graph.getNodeAttribute(id, 'size') : undefined;
  }

  /** A drawn node's color before highlights; undefined when it is not in the drawn graph. */
  drawnColor(id: string): string | undefined {
    return this.graph.hasNode(id) ? this.graph.getNodeAttribute(id, 'color') : undefined;
  }

  /** A drawn node's color as shown now (after selection, hover and reach); undefined when it is not drawn. */
  shownColor(id: string): string | undefined {
    return this.graph.hasNode(id) ? (this.reduceNode(id, this.graph.getNodeAttributes(id)).color ?? undefined) : undefined;
  }

  /** The import edges drawn now: id, source, target and color. */
  shownImports(): Array<{ id: string; source: string; target: string; color: string }> {
    const shown: Array<{ id: string; source: string; target: string; color: string }> = [];
    this.graph.forEachEdge((id, attributes, source, target) => {
      if (attributes.kind !== 'imports' || attributes.hidden) return;
      const reduced = this.reduceEdge(id, attributes);
      if (!reduced.hidden && !this.graph.getNodeAttribute(source, 'hidden') && !this.graph.getNodeAttribute(target, 'hidden'))
        shown.push({ id, source, target, color: reduced.color });
    });
    return shown;
  }

  /** Whether a node is in the drawn graph and not hidden. */
  isVisible(id: string): boolean {
    return this.graph.hasNode(id) && !this.graph.getNodeAttribute(id, 'hidden');
  }

  private createRenderer(frame: { x: [number, number]; y: [number, number] } | null): void {
    const renderer = new Sigma<NodeAttributes, EdgeAttributes>(this.graph, this.container, {
      hideEdgesOnMove: this.graph.size > MANY_EDGES,
      renderLabels: !location.search.includes('nolabels'),
      zIndex: true,
      labelColor: { color: this.theme.label },
      labelFont: 'system-ui, sans-serif',
      labelSize: 12,
      labelWeight: '500',
      labelDensity: 0.6,
      labelGridCellSize: 110,
      // Files get a label once drawn this large (zoomed in): further out, the regions' labels name the places.
      labelRenderedSizeThreshold: 9,
      hideLabelsOnMove: false,
      defaultEdgeType: 'line',
      minCameraRatio: MIN_CAMERA_RATIO,
      maxCameraRatio: 20,
      allowInvalidContainer: true,
      // Discs drawn as WebGL points (one vertex each) rather than sigma's default triangles (three each, instanced):
      // a frame of 105,000 nodes took 4 to 7 s to draw in software WebGL (SwiftShader) with triangles, 1.0 to 1.7 s with points.
      // They take the names of sigma's default programs so that sigma compiles no program the map does not use.
      defaultNodeType: 'circle',
      nodeProgramClasses: { circle: NodePointProgram },
      edgeProgramClasses: { arrow: EdgeLineProgram },
      nodeReducer: (id, attributes) => this.reduceNode(id, attributes),
      edgeReducer: (id, attributes) => this.reduceEdge(id, attributes),
    });
    this.renderer = renderer;
    // The regions' canvas, under the edges; sized with sigma's own, drawn after each of its frames.
    renderer.createCanvas('regions', { beforeLayer: 'edges' });
    renderer.createCanvas('regionLabels', { afterLayer: 'nodes' });
    renderer.on('afterRender', () => this.drawRegions(renderer));
    // Sigma sizes its canvases when it draws, and hears only the window's resizes: the map also changes size when
    // the node panel opens or closes. Without this its canvases kept their old width and covered the node panel.
    new ResizeObserver(() => renderer.scheduleRender()).observe(this.container);
    this.pickOnlyWhenStill(renderer);
    this.drawOnlyWhenStill(renderer);
    this.followPointer(renderer);
    // The same extent sigma found: kept from now on, set without drawing again (a frame costs a second in software).
    (renderer as unknown as { customBBox: typeof frame }).customBBox = frame;
    renderer.on('clickNode', ({ node }) => {
      if (this.dragMoved) return;
      this.events.select(node);
    });
    renderer.on('clickStage', () => {
      if (!this.dragMoved) this.events.select(undefined);
    });
    renderer.on('doubleClickNode', ({ node, preventSigmaDefault }) => {
      preventSigmaDefault();
      const record = this.model.nodes.get(node);
      if (record?.kind === 'file') {
        if (this.isExpanded(node)) this.collapseFile(node);
        else this.expand(node);
      } else if (record?.kind === 'directory') this.toggleDirectory(node);
    });
    renderer.on('enterNode', ({ node, event }) => {
      this.hovered = node;
      this.syncDemandEdges();
      this.events.hover(node, { x: event.x, y: event.y });
      this.repaint();
    });
    renderer.on('leaveNode', ({ event }) => {
      this.hovered = undefined;
      this.syncDemandEdges();
      this.events.hover(undefined, { x: event.x, y: event.y });
      this.repaint();
    });
    // Dragging a node moves it (and only it); the camera stays.
    renderer.on('downNode', ({ node }) => {
      this.dragged = node;
      this.dragMoved = false;
    });
    const captor = renderer.getMouseCaptor();
    captor.on('mousemovebody', (event) => {
      if (!this.dragged) return;
      const at = renderer.viewportToGraph(event);
      this.graph.mergeNodeAttributes(this.dragged, { x: at.x, y: at.y });
      const record = this.model.nodes.get(this.dragged);
      if (record) Object.assign(record, { x: at.x, y: at.y });
      this.regions.invalidate();
      this.dragMoved = true;
      event.preventSigmaDefault();
      event.original.preventDefault();
      event.original.stopPropagation();
    });
    captor.on('mousedown', () => {
      this.dragMoved = false;
    });
    captor.on('mouseup', () => {
      if (this.dragged && this.dragMoved) this.events.moved(this.dragged);
      this.dragged = undefined;
      // A click event follows the mouseup: it must still see that this was a drag.
      setTimeout(() => (this.dragMoved = false), 0);
    });
    renderer.getCamera().on('updated', () => {
      this.events.cameraChanged();
      clearTimeout(this.lodTimer);
      this.lodTimer = setTimeout(() => this.levelOfDetail(), 250);
    });
  }

  private drawRegions(renderer: Sigma<NodeAttributes, EdgeAttributes>): void {
    const { width, height } = renderer.getDimensions();
    const ratio = window.devicePixelRatio || 1;
    const contextOf = (canvas: HTMLCanvasElement | undefined): CanvasRenderingContext2D | undefined => {
      const context = canvas?.getContext('2d');
      if (!canvas || !context) return undefined;
      if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
        canvas.width = Math.round(width * ratio);
        canvas.height = Math.round(height * ratio);
      }
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      return context;
    };
    const canvases = renderer.getCanvases();
    const context = contextOf(canvases.regions);
    const labels = contextOf(canvases.regionLabels);
    if (!context || !labels) return;
    const theme = this.theme;
    this.regions.draw(context, labels, width, height, {
      toViewport: (point) => renderer.graphToViewport(point),
      isShown: (id) => this.graph.hasNode(id) && !this.graph.getNodeAttribute(id, 'hidden'),
      tintOf: (id) => {
        const node = this.model.nodes.get(id);
        return node ? composeStyle(node, this.overlays).color : undefined;
      },
      badgesOf: (id) => {
        const node = this.model.nodes.get(id);
        return node ? composeStyle(node, this.overlays).badges : [];
      },
      colors: { outline: theme.directory, fill: theme.directory, label: theme.label, halo: theme.background, edge: theme.importEdge },
      // Too many imports to draw one by one: summed between the regions shown, so that a large map still shows its dependencies.
      summedImports: this.importsOnDemand && !location.search.includes('noedges') ? () => this.model.edges.values() : undefined,
    });
  }

  /** Runs the reducers again (a highlight changed); nodes added since the last indexation are indexed first. */
  private repaint(): void {
    if (!this.renderer) return;
    this.container.classList.toggle(HIGHLIGHTING, this.selected !== undefined || this.hovered !== undefined);
    if (this.unindexed) {
      this.unindexed = false;
      this.renderer.refresh();
    } else this.renderer.refresh({ skipIndexation: true });
  }

  /**
   * Sigma finds the node under the pointer by reading a pixel back from the
   * GPU (WebGL picking) on every pointer move. With a software GPU that read
   * waits for the frame being drawn, which made each step of a pan wait for a
   * whole frame: 14 s of `readPixels` in a 20-step pan at 10,000 nodes. While
   * the stage is being dragged, or the camera moves, nothing is picked
   * (nothing can be hovered then anyway); a press still picks, so that nodes
   * can be dragged.
   */
  private pickOnlyWhenStill(renderer: Sigma<NodeAttributes, EdgeAttributes>): void {
    // A private method of sigma 3 (the one its pointer handlers call): wrapped, not changed.
    const picking = renderer as unknown as { getNodeAtPosition(position: { x: number; y: number }): string | null };
    const pick = picking.getNodeAtPosition.bind(renderer);
    const captor = renderer.getMouseCaptor();
    picking.getNodeAtPosition = (position) => {
      const stageDragged = captor.isMouseDown && this.dragged === undefined && captor.draggedEvents > 0;
      if (stageDragged || renderer.getCamera().isAnimated() || captor.currentWheelDirection !== 0) return null;
      return pick(position);
    };
  }

  /**
   * Sigma looks for the node under the pointer only when the pointer moves.
   * When the map moves under a still pointer (a fit, a zoom by key, a camera
   * animation that was under way when the pointer arrived, during which
   * nothing is picked), the node now under it is hovered once the new frame
   * is drawn, as if the pointer had moved.
   */
  private followPointer(renderer: Sigma<NodeAttributes, EdgeAttributes>): void {
    const captor = renderer.getMouseCaptor();
    captor.on('mousemove', (event) => {
      const original = event.original;
      if ('clientX' in original) this.pointer = { clientX: original.clientX, clientY: original.clientY };
    });
    captor.on('mouseleave', () => {
      this.pointer = undefined;
    });
  }

  private hoverAgain(): void {
    const renderer = this.renderer;
    const pointer = this.pointer;
    if (!renderer || !pointer || renderer.getMouseCaptor().isMouseDown) return;
    const target = renderer.getCanvases().mouse;
    if (!target) return;
    target.dispatchEvent(new MouseEvent('mousemove', { ...pointer, bubbles: true }));
  }

  /**
   * Whether the map shows its current state: no camera move under way or
   * waiting to be drawn, no frame scheduled. What a test waits for before it
   * looks at the map or points at a node.
   */
  still(): boolean {
    const renderer = this.renderer as unknown as { renderFrame: number | null; renderHighlightedNodesFrame: number | null } | undefined;
    if (!renderer || !this.renderer) return false;
    return !this.drawPending && !this.renderer.getCamera().isAnimated() && renderer.renderFrame === null && renderer.renderHighlightedNodesFrame === null;
  }

  /**
   * Pans and zooms move the last drawn frame (a CSS transform of sigma's
   * canvases, done by the compositor) and draw the graph again once the
   * camera holds still for a moment, the way map viewers move tiles. With a
   * software GPU one frame of 10,000 nodes takes about a second to draw: a
   * pan that draws every step cannot follow the pointer. Renders that are not
   * camera moves (a highlight, a change of the graph) draw at once.
   */
  private drawOnlyWhenStill(renderer: Sigma<NodeAttributes, EdgeAttributes>): void {
    const internals = renderer as unknown as { render(): unknown };
    const draw = internals.render.bind(renderer);
    const captor = renderer.getMouseCaptor();
    const camera = renderer.getCamera();
    let drawnWith = camera.getState();
    let drawnSize = renderer.getDimensions();
    let settle: ReturnType<typeof setTimeout> | undefined;
    const canvases = () =>
      Object.entries(renderer.getCanvases())
        .filter(([name]) => name !== 'mouse')
        .map(([, canvas]) => canvas);
    const drawNow = (): unknown => {
      clearTimeout(settle);
      settle = undefined;
      this.drawPending = false;
      for (const canvas of canvases()) canvas.style.transform = '';
      const before = drawnWith;
      const sizeBefore = drawnSize;
      drawnWith = camera.getState();
      const drawn = draw();
      const now = drawnWith;
      drawnSize = renderer.getDimensions();
      // A new camera, or a new size of the map (the node panel opened or closed), moves nodes under a still pointer.
      const moved = now.x !== before.x || now.y !== before.y || now.ratio !== before.ratio || now.angle !== before.angle;
      if (moved || drawnSize.width !== sizeBefore.width || drawnSize.height !== sizeBefore.height) setTimeout(() => this.hoverAgain(), 0);
      return drawn;
    };
    const moving = (): boolean =>
      (captor.isMouseDown && this.dragged === undefined && captor.draggedEvents > 0) || captor.currentWheelDirection !== 0 || camera.isAnimated();
    internals.render = () => {
      const now = camera.getState();
      const sameCamera = now.x === drawnWith.x && now.y === drawnWith.y && now.ratio === drawnWith.ratio && now.angle === drawnWith.angle;
      if (sameCamera || now.angle !== drawnWith.angle || !moving()) return drawNow();
      // Where the corners of the drawn frame are now: a translation and a scale.
      const { width, height } = renderer.getDimensions();
      const topLeft = renderer.framedGraphToViewport(renderer.viewportToFramedGraph({ x: 0, y: 0 }, { cameraState: drawnWith }));
      const bottomRight = renderer.framedGraphToViewport(renderer.viewportToFramedGraph({ x: width, y: height }, { cameraState: drawnWith }));
      const scale = (bottomRight.x - topLeft.x) / width;
      for (const canvas of canvases()) {
        canvas.style.transformOrigin = '0 0';
        canvas.style.transform = `translate(${topLeft.x}px, ${topLeft.y}px) scale(${scale})`;
      }
      clearTimeout(settle);
      this.drawPending = true;
      const waitUntilStill = (): void => {
        settle = setTimeout(() => (moving() ? waitUntilStill() : drawNow()), 120);
      };
      waitUntilStill();
      return renderer;
    };
  }

  /** Zoomed in on a few files: their symbols are drawn; zoomed out again, they go. */
  private levelOfDetail(): void {
    const renderer = this.renderer;
    if (!renderer) return;
    const { width, height } = renderer.getDimensions();
    const inView: string[] = [];
    let tooMany = false;
    this.graph.forEachNode((id, attributes) => {
      if (tooMany || attributes.hidden) return;
      const record = this.model.nodes.get(id);
      if (record?.kind !== 'file') return;
      const at = renderer.graphToViewport(attributes);
      if (at.x < 0 || at.y < 0 || at.x > width || at.y > height) return;
      inView.push(id);
      if (inView.length > AUTO_EXPAND_FILES) tooMany = true;
    });
    const wanted = new Set(tooMany ? [] : inView);
    for (const id of [...this.autoExpanded]) {
      if (wanted.has(id)) continue;
      this.autoExpanded.delete(id);
      if (!this.expanded.has(id)) this.removeSymbols(id);
    }
    for (const id of wanted) {
      if (this.expanded.has(id) || this.autoExpanded.has(id)) continue;
      this.autoExpanded.add(id);
      this.addSymbols(id);
    }
  }

  private addSymbols(fileId: string): void {
    const stack = this.model.childrenOf(fileId);
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (!isSymbol(node)) continue;
      if (!this.graph.hasNode(node.id)) this.graph.addNode(node.id, this.attributesOf(node));
      if (node.parent !== undefined && this.graph.hasNode(node.parent) && !this.graph.hasEdge(node.parent, node.id)) {
        this.graph.addEdgeWithKey(`contains:${node.parent}->${node.id}`, node.parent, node.id, this.edgeAttributes('contains'));
      }
      stack.push(...this.model.childrenOf(node.id));
    }
  }

  private removeSymbols(fileId: string): void {
    const stack = this.model.childrenOf(fileId);
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (!isSymbol(node)) continue;
      if (this.graph.hasNode(node.id)) this.graph.dropNode(node.id);
      stack.push(...this.model.childrenOf(node.id));
    }
    if (this.selected && !this.graph.hasNode(this.selected)) this.select(undefined);
  }

  private isDrawn(node: PlacedNode): boolean {
    if (!isSymbol(node)) return true;
    const file = this.model.fileOf(node.id);
    return file !== undefined && this.isExpanded(file.id);
  }

  /** Whether a node is hidden: filtered out, below a collapsed directory, or outside the focus. */
  private hiddenTest(): (node: PlacedNode) => boolean {
    const hiddenBelow = new Map<string, boolean>();
    const hiddenByAncestors = (id: string | undefined): boolean => {
      if (id === undefined) return false;
      const known = hiddenBelow.get(id);
      if (known !== undefined) return known;
      const node = this.model.nodes.get(id);
      const hidden = this.collapsed.has(id) || hiddenByAncestors(node?.parent);
      hiddenBelow.set(id, hidden);
      return hidden;
    };
    const { focus, hiddenKinds, hiddenLanguages } = this.filter;
    const inFocus = (node: PlacedNode): boolean => focus === undefined || node.id === focus || this.model.ancestorsOf(node.id).includes(focus);
    return (node) =>
      hiddenKinds.has(node.kind) ||
      (node.kind === 'file' && node.language !== undefined && hiddenLanguages.has(node.language)) ||
      hiddenByAncestors(node.parent) ||
      (node.kind === 'package' ? focus !== undefined : !inFocus(node));
  }

  private applyVisibility(): void {
    const isHidden = this.hiddenTest();
    this.graph.updateEachNodeAttributes(
      (id, attributes) => {
        const node = this.model.nodes.get(id);
        if (!node) return attributes;
        const hidden = isHidden(node);
        return attributes.hidden === hidden ? attributes : { ...attributes, hidden };
      },
      // The hint lets sigma skip indexing again, which it can only do when every node is indexed already.
      this.unindexed ? undefined : { attributes: ['hidden'] },
    );
  }

  /**
   * Edges drawn: imports, and the tree between directories (and a file's
   * symbols when expanded). A file's edge to its directory is left out: the
   * file sits by its directory anyway, and at 100,000 files those edges cost
   * as much to draw as all the rest.
   */
  private addTreeEdge(graph: Graph<NodeAttributes, EdgeAttributes>, node: PlacedNode): void {
    if (node.kind !== 'directory' || node.parent === undefined || !graph.hasNode(node.id) || !graph.hasNode(node.parent)) return;
    const id = `contains:${node.parent}->${node.id}`;
    if (!graph.hasEdge(id)) graph.addEdgeWithKey(id, node.parent, node.id, this.edgeAttributes('contains'));
  }

  private attributesOf(node: PlacedNode): NodeAttributes {
    return { x: node.x, y: node.y, hidden: false, ...this.styleOf(node) };
  }

  private styleOf(node: PlacedNode): Pick<NodeAttributes, 'size' | 'color' | 'label' | 'zIndex'> {
    const composed = composeStyle(node, this.overlays);
    const badges = composed.badges.length > 0 ? ` [${composed.badges.join(' · ')}]` : '';
    if (node.kind === 'directory') {
      // A directory is its region (directory-regions.ts): its overlay color tints the region, and its own disc
      // stays small, never grown over its files; its name is drawn at the region's edge.
      return { size: DIRECTORY_SIZE, color: this.theme.directory, label: (node.path !== '.' ? `${node.name}/` : node.name) + badges, zIndex: 1 };
    }
    return {
      size: baseSize(node) * (composed.size ?? 1),
      color: composed.color ?? this.baseColor(node),
      label: node.name + badges,
      // Files over directories (1): their colors matter more than a directory's small disc.
      zIndex: node.kind === 'file' ? 2 : 0,
    };
  }

  private baseColor(node: PlacedNode): string {
    if (node.kind === 'directory') return this.theme.directory;
    if (node.kind === 'package') return this.theme.package;
    if (isSymbol(node)) return this.theme.symbol;
    if (this.colorOverlayShown) return this.theme.otherLanguage;
    return (node.language !== undefined && this.languageColor.get(node.language)) || this.theme.otherLanguage;
  }

  private edgeAttributes(kind: 'contains' | 'imports'): EdgeAttributes {
    // Many imports are drawn faint, so that the regions under them stay readable.
    const importColor = this.model.edges.size > FAINT_IMPORTS ? this.theme.faintImportEdge : this.theme.importEdge;
    return { kind, size: kind === 'imports' ? 0.6 : 0.4, color: kind === 'imports' ? importColor : this.theme.edge, hidden: false };
  }

  private reduceNode(id: string, attributes: NodeAttributes): Partial<NodeAttributes> & { forceLabel?: boolean; highlighted?: boolean } {
    if (this.reach) return this.reduceReachedNode(id, attributes);
    if (this.selected === undefined && this.hovered === undefined) return attributes.zIndex === 1 ? { ...attributes, label: '' } : attributes;
    if (id === this.selected) return { ...attributes, forceLabel: true, highlighted: true, zIndex: 5 };
    if (id === this.hovered) return { ...attributes, forceLabel: true, zIndex: 4 };
    if (this.selected === undefined) return attributes;
    if (this.neighbours.has(id)) return { ...attributes, forceLabel: this.labeledNeighbours.has(id), zIndex: 3 };
    return { ...attributes, color: this.theme.faded, label: '', zIndex: 0 };
  }

  /** While a reach is shown: the node asked about and the hovered one labeled, the reached by depth, the rest faded (directories keep their regions). */
  private reduceReachedNode(id: string, attributes: NodeAttributes): Partial<NodeAttributes> & { forceLabel?: boolean; highlighted?: boolean } {
    const reach = this.reach!;
    if (id === reach.root) return { ...attributes, color: this.theme.highlight, forceLabel: true, highlighted: true, zIndex: 5 };
    const depth = reach.depths.get(id);
    const hovered = id === this.hovered || id === this.selected;
    if (depth !== undefined)
      return { ...attributes, color: reachColor(this.theme, depth), forceLabel: hovered || this.reachLabels.has(id), zIndex: hovered ? 4 : 3 };
    if (attributes.zIndex === 1) return { ...attributes, label: '' };
    return { ...attributes, color: this.theme.faded, label: hovered ? attributes.label : '', forceLabel: hovered, zIndex: 0 };
  }

  private reduceEdge(id: string, attributes: EdgeAttributes): EdgeAttributes {
    if (this.reach) {
      if (attributes.kind !== 'imports') return attributes;
      if (!this.reach.edges.has(id)) return { ...attributes, hidden: true };
      const depth = this.reach.depths.get(this.reach.direction === 'dependents' ? this.graph.source(id) : this.graph.target(id));
      return { ...attributes, hidden: false, color: reachColor(this.theme, depth ?? 1), size: 1 };
    }
    const focus = this.selected ?? this.hovered;
    if (focus === undefined) return attributes;
    const [source, target] = this.graph.extremities(id);
    if (source === focus || target === focus) return { ...attributes, hidden: false, color: this.theme.highlight, size: 1.2 };
    return this.selected !== undefined ? { ...attributes, hidden: true } : attributes;
  }
}

/** A directory's own disc: small, whatever its size or overlays (its region shows what is below it). */
const DIRECTORY_SIZE = 2.5;

/** Drawn size before overlays: files by their lines. */
function baseSize(node: PlacedNode): number {
  if (node.kind === 'file') return 2.5 + Math.log10((node.lines ?? 0) + 1) * 1.6;
  if (node.kind === 'package') return 3;
  return 2;
}
