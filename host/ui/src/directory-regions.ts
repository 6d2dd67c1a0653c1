// Directories drawn as regions: each directory is the convex hull of its own
// node and of every file and directory below it (symbols left out: they sit
// on their file), tinted and outlined on a canvas under the edges, with its
// name at its top edge. The layout nests them (extensions/gpu-layout's
// nesting.ts) so that sibling regions do not overlap; the same hulls are what
// its measure of containment and overlap uses (regions.ts there).
//
// A directory's overlay color tints its region: a directory is never a disc
// grown over its files. Labels give the shortest path that tells a directory
// apart from every other (`element/src/`, not `src/`), larger regions first,
// none drawn over another.
import { polygonHull } from 'd3-polygon';
import { isSymbol, type PlacedNode } from './graph-data.js';
import type { GraphModel } from './graph-model.js';

type Point = [number, number];

/** A directory's region, in graph coordinates. */
export interface DirectoryRegion {
  id: string;
  depth: number;
  /** The hull's corners (one or two points when the directory holds fewer than three places). */
  hull: Point[];
  /** The label drawn at its edge: the shortest distinguishing path. */
  label: string;
}

/** A region drawn on screen, with where its label went (none when it was culled): what the tests read. */
export interface DrawnRegion {
  id: string;
  /** Its shortest distinguishing path. */
  name: string;
  /** The label drawn (the name and the overlays' badges); undefined when the region is too small or the label was culled. */
  label: string | undefined;
  /** The label's box on the map, in pixels. */
  labelBox: { x: number; y: number; width: number; height: number } | undefined;
  /** The region's box on the map, in pixels. */
  box: { x: number; y: number; width: number; height: number };
  tint: string | undefined;
}

/** How the map projects and styles what the regions draw. */
export interface RegionPainter {
  toViewport(point: { x: number; y: number }): { x: number; y: number };
  /** Whether a directory is drawn now (not filtered, collapsed away or out of focus). */
  isShown(id: string): boolean;
  /** A directory's overlay color, if a visible overlay colors it. */
  tintOf(id: string): string | undefined;
  /** Badges of the visible overlays for a directory, shown after its label. */
  badgesOf(id: string): string[];
  colors: { outline: string; fill: string; label: string; halo: string; edge: string };
  /**
   * The imports to draw summed between the regions shown (a map with too many to draw one by one), as pairs of
   * node ids; undefined: none summed.
   */
  summedImports?: () => Iterable<{ source: string; target: string }>;
}

/** An import edge summed between two regions drawn: what the tests read. */
export interface DrawnRegionEdge {
  source: string;
  target: string;
  count: number;
}

/** Regions smaller than this on screen (their box's larger side, in pixels) are not drawn. */
const MIN_REGION_PIXELS = 18;
/** Regions whose box is at least this large get a label. */
const MIN_LABELED_PIXELS = 46;
/** Most regions drawn in one frame (the largest on screen first). */
const MAX_DRAWN = 1500;
/** A region opens (its imports summed by its children's regions) once its box is this share of the map's larger side. */
const OPEN_SHARE = 0.4;
/** Most summed edges drawn, the heaviest first. */
const MAX_SUMMED_EDGES = 400;
/** Padding around a hull, in pixels (the hull passes through the outer nodes' centers). */
const PADDING = 7;
const LABEL_FONT = '600 12px system-ui, sans-serif';

export class DirectoryRegions {
  private regions: DirectoryRegion[] | undefined;
  private drawn: DrawnRegion[] = [];
  private drawnEdges: DrawnRegionEdge[] = [];
  /** Each node's directories, innermost first (made with the regions). */
  private ancestors = new Map<string, string[]>();

  constructor(private readonly model: GraphModel) {}

  /** Positions or the tree changed: hulls are made again when next drawn. */
  invalidate(): void {
    this.regions = undefined;
  }

  /** The summed imports drawn in the last frame, heaviest first. */
  lastDrawnEdges(): readonly DrawnRegionEdge[] {
    return this.drawnEdges;
  }

  /** The regions drawn in the last frame, largest first. */
  lastDrawn(): readonly DrawnRegion[] {
    return this.drawn;
  }

  /** Every directory's region, in graph coordinates (made when first asked for after a change). */
  all(): readonly DirectoryRegion[] {
    this.regions ??= this.build();
    return this.regions;
  }

  /** Draws the regions on `context` (under the edges) and their labels on `labels` (over the nodes). */
  draw(context: CanvasRenderingContext2D, labels: CanvasRenderingContext2D, width: number, height: number, painter: RegionPainter): void {
    context.clearRect(0, 0, width, height);
    labels.clearRect(0, 0, width, height);
    const onScreen: Array<{ region: DirectoryRegion; points: Point[]; box: DrawnRegion['box']; size: number }> = [];
    for (const region of this.all()) {
      // The repository's own region is the whole picture.
      if (region.depth === 0 || !painter.isShown(region.id)) continue;
      const points = region.hull.map(([x, y]) => {
        const at = painter.toViewport({ x, y });
        return [at.x, at.y] as Point;
      });
      let minX = Infinity;
      let minY = Infinity;
      let maxX = -Infinity;
      let maxY = -Infinity;
      for (const [x, y] of points) {
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        minY = Math.min(minY, y);
        maxY = Math.max(maxY, y);
      }
      const size = Math.max(maxX - minX, maxY - minY) + 2 * PADDING;
      if (size < MIN_REGION_PIXELS) continue;
      if (maxX + PADDING < 0 || maxY + PADDING < 0 || minX - PADDING > width || minY - PADDING > height) continue;
      onScreen.push({
        region,
        points,
        size,
        box: { x: minX - PADDING, y: minY - PADDING, width: maxX - minX + 2 * PADDING, height: maxY - minY + 2 * PADDING },
      });
    }
    // The largest first: labels of the larger regions win, and a region is drawn over its parent.
    onScreen.sort((a, b) => b.size - a.size || a.region.depth - b.region.depth);
    const shown = onScreen.slice(0, MAX_DRAWN);
    context.lineJoin = 'round';
    context.lineCap = 'round';
    for (const { region, points } of shown) {
      const tint = painter.tintOf(region.id);
      this.trace(context, points);
      context.globalAlpha = tint ? 0.14 : 0.05;
      context.fillStyle = tint ?? painter.colors.fill;
      context.strokeStyle = tint ?? painter.colors.fill;
      context.lineWidth = 2 * PADDING;
      context.fill();
      context.stroke();
      context.globalAlpha = tint ? 0.9 : 0.45;
      context.lineWidth = tint ? 2 : 1;
      context.strokeStyle = tint ?? painter.colors.outline;
      this.traceOutline(context, points);
      context.stroke();
    }
    context.globalAlpha = 1;
    this.drawSummedImports(context, shown, width, height, painter);
    // Labels at the top edge of each region, none over another.
    labels.font = LABEL_FONT;
    labels.textAlign = 'center';
    labels.textBaseline = 'bottom';
    labels.lineJoin = 'round';
    const taken: Array<DrawnRegion['box']> = [];
    this.drawn = [];
    for (const { region, points, box } of shown) {
      const tint = painter.tintOf(region.id);
      let labelBox: DrawnRegion['labelBox'];
      let label: string | undefined;
      if (box.width >= MIN_LABELED_PIXELS || box.height >= MIN_LABELED_PIXELS) {
        const badges = painter.badgesOf(region.id);
        const text = badges.length > 0 ? `${region.label} · ${badges.join(' · ')}` : region.label;
        const textWidth = labels.measureText(text).width;
        // At the region's top edge, or else at its bottom edge.
        const top = points.reduce((best, point) => (point[1] < best[1] ? point : best), points[0]!);
        const bottom = points.reduce((best, point) => (point[1] > best[1] ? point : best), points[0]!);
        const place = (at: Point, below: boolean): { x: number; y: number; box: DrawnRegion['box'] } => {
          const x = Math.min(Math.max(at[0], textWidth / 2 + 2), width - textWidth / 2 - 2);
          const y = Math.max(below ? at[1] + PADDING + 15 : at[1] - PADDING - 1, 15);
          return { x, y, box: { x: x - textWidth / 2 - 2, y: y - 14, width: textWidth + 4, height: 15 } };
        };
        const spot = [place(top, false), place(bottom, true)].find((candidate) => !taken.some((other) => overlaps(other, candidate.box)));
        if (spot) {
          const { x, y, box: candidate } = spot;
          taken.push(candidate);
          labelBox = candidate;
          label = text;
          labels.lineWidth = 3;
          labels.strokeStyle = painter.colors.halo;
          labels.strokeText(text, x, y);
          labels.fillStyle = painter.colors.label;
          labels.fillText(text, x, y);
        }
      }
      this.drawn.push({ id: region.id, name: region.label, label, labelBox, box, tint });
    }
  }

  /**
   * Imports summed between the regions shown: each end stands for its outermost region that is drawn and not
   * open (smaller than OPEN_SHARE of the map); a line between the two regions' middles, as thick as the log of its
   * count. Zoomed in, a region grows open and its children's regions take its ends.
   */
  private drawSummedImports(
    context: CanvasRenderingContext2D,
    shown: ReadonlyArray<{ region: DirectoryRegion; points: Point[]; box: DrawnRegion['box']; size: number }>,
    width: number,
    height: number,
    painter: RegionPainter,
  ): void {
    this.drawnEdges = [];
    if (!painter.summedImports) return;
    const open = OPEN_SHARE * Math.max(width, height);
    const closed = new Map<string, Point>();
    for (const { region, box, size } of shown) if (size < open) closed.set(region.id, [box.x + box.width / 2, box.y + box.height / 2]);
    const endOf = (id: string): string | undefined => {
      const chain = this.ancestors.get(id);
      if (!chain) return undefined;
      let end: string | undefined;
      for (const directory of chain) if (closed.has(directory)) end = directory;
      return end;
    };
    const counts = new Map<string, DrawnRegionEdge>();
    for (const { source, target } of painter.summedImports()) {
      const a = endOf(source);
      const b = endOf(target);
      if (a === undefined || b === undefined || a === b) continue;
      // A region's import into its own subdirectory is inside it: not drawn between them.
      if (this.ancestors.get(a)?.includes(b) || this.ancestors.get(b)?.includes(a)) continue;
      const key = `${a}\u0000${b}`;
      const known = counts.get(key);
      if (known) known.count++;
      else counts.set(key, { source: a, target: b, count: 1 });
    }
    const edges = [...counts.values()].sort((x, y) => y.count - x.count).slice(0, MAX_SUMMED_EDGES);
    context.strokeStyle = painter.colors.edge;
    context.globalAlpha = 0.55;
    for (const edge of edges) {
      const [x1, y1] = closed.get(edge.source)!;
      const [x2, y2] = closed.get(edge.target)!;
      context.lineWidth = 0.8 + Math.log2(edge.count);
      context.beginPath();
      // A slight bend, to the right of the way from source to target, so that the two ways stay apart.
      const mx = (x1 + x2) / 2 + (y2 - y1) * 0.12;
      const my = (y1 + y2) / 2 - (x2 - x1) * 0.12;
      context.moveTo(x1, y1);
      context.quadraticCurveTo(mx, my, x2, y2);
      context.stroke();
    }
    context.globalAlpha = 1;
    this.drawnEdges = edges;
  }

  /** The padded shape: the hull itself, stroked wide (a point or a segment: a disc or a capsule). */
  private trace(context: CanvasRenderingContext2D, points: Point[]): void {
    context.beginPath();
    if (points.length === 1) {
      context.arc(points[0]![0], points[0]![1], 0.5, 0, 2 * Math.PI);
      return;
    }
    context.moveTo(points[0]![0], points[0]![1]);
    for (let i = 1; i < points.length; i++) context.lineTo(points[i]![0], points[i]![1]);
    context.closePath();
  }

  /** The outline, a padding outside the hull: each corner pushed out from the hull's center. */
  private traceOutline(context: CanvasRenderingContext2D, points: Point[]): void {
    context.beginPath();
    let cx = 0;
    let cy = 0;
    for (const [x, y] of points) {
      cx += x;
      cy += y;
    }
    cx /= points.length;
    cy /= points.length;
    if (points.length < 3) {
      let r = 0;
      for (const [x, y] of points) r = Math.max(r, Math.hypot(x - cx, y - cy));
      context.arc(cx, cy, r + PADDING, 0, 2 * Math.PI);
      return;
    }
    const out = points.map(([x, y]): Point => {
      const d = Math.hypot(x - cx, y - cy) || 1;
      return [x + ((x - cx) / d) * PADDING, y + ((y - cy) / d) * PADDING];
    });
    context.moveTo(out[0]![0], out[0]![1]);
    for (let i = 1; i < out.length; i++) context.lineTo(out[i]![0], out[i]![1]);
    context.closePath();
  }

  /** Hulls bottom-up: a directory's hull is that of its node, its files and its subdirectories' hulls. */
  private build(): DirectoryRegion[] {
    const nodes = this.model.nodes;
    const directories: PlacedNode[] = [];
    const points = new Map<string, Point[]>();
    for (const node of nodes.values()) {
      if (node.kind === 'directory') directories.push(node);
      if (isSymbol(node) || node.kind === 'package' || !Number.isFinite(node.x) || !Number.isFinite(node.y)) continue;
      const own = node.kind === 'directory' ? node.id : node.parent;
      if (own === undefined) continue;
      let list = points.get(own);
      if (!list) points.set(own, (list = []));
      list.push([node.x, node.y]);
    }
    const depthOf = new Map<string, number>();
    const depth = (node: PlacedNode): number => {
      let d = 0;
      for (let at = node.parent; at !== undefined && d < 256; at = nodes.get(at)?.parent) d++;
      return d;
    };
    for (const directory of directories) depthOf.set(directory.id, depth(directory));
    // Deepest first, so that each directory's hull is made before its parent takes its corners.
    directories.sort((a, b) => depthOf.get(b.id)! - depthOf.get(a.id)!);
    const labels = distinguishingLabels(directories);
    this.ancestors = new Map();
    const chainOf = (id: string): string[] => {
      const known = this.ancestors.get(id);
      if (known) return known;
      const node = nodes.get(id);
      const up = node?.parent;
      const above = up !== undefined && up !== id ? chainOf(up) : [];
      const chain = node?.kind === 'directory' ? [id, ...above] : above;
      this.ancestors.set(id, chain);
      return chain;
    };
    for (const node of nodes.values()) if (node.kind === 'file' || node.kind === 'directory') chainOf(node.id);
    const regions: DirectoryRegion[] = [];
    for (const directory of directories) {
      const own = points.get(directory.id) ?? [[directory.x, directory.y]];
      const hull = own.length >= 3 ? (polygonHull(own) ?? own.slice(0, 2)) : own;
      regions.push({ id: directory.id, depth: depthOf.get(directory.id)!, hull, label: labels.get(directory.id)! });
      if (directory.parent === undefined) continue;
      let parentPoints = points.get(directory.parent);
      if (!parentPoints) points.set(directory.parent, (parentPoints = []));
      for (const corner of hull) parentPoints.push(corner);
    }
    return regions;
  }
}

/**
 * Each directory's shortest path suffix that no other directory shares, with a trailing slash: `src/` where
 * there is one `src`, `element/src/` where there are several. The repository's root is its name.
 */
export function distinguishingLabels(directories: readonly Pick<PlacedNode, 'id' | 'path' | 'name'>[]): Map<string, string> {
  const segments = directories.map((directory) => (directory.path === '.' || directory.path === '' ? [] : directory.path.split('/')));
  const counts = new Map<string, number>();
  for (const parts of segments)
    for (let k = 1; k <= parts.length; k++) {
      const suffix = parts.slice(parts.length - k).join('/');
      counts.set(suffix, (counts.get(suffix) ?? 0) + 1);
    }
  const labels = new Map<string, string>();
  directories.forEach((directory, i) => {
    const parts = segments[i]!;
    if (parts.length === 0) {
      labels.set(directory.id, directory.name);
      return;
    }
    let k = 1;
    while (k < parts.length && counts.get(parts.slice(parts.length - k).join('/'))! > 1) k++;
    labels.set(directory.id, `${parts.slice(parts.length - k).join('/')}/`);
  });
  return labels;
}

function overlaps(a: DrawnRegion['box'], b: DrawnRegion['box']): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
