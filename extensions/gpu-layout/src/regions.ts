/**
 * Directories as regions, measured as the web UI draws them: each
 * directory's region is the convex hull of its own node and every file and
 * directory below it (symbols left out: they sit on their file), the same
 * hull the map outlines (host/ui/src/directory-regions.ts).
 *
 * Two figures, at the first two levels of the tree (the directories in the
 * repository's root, and theirs):
 *
 * - **containment**: the share of files that lie in no sibling's region at
 *   either level: not in the region of another directory of the root than
 *   their own, and not in the region of another subdirectory of their
 *   top-level directory than their own (a file directly in a top-level
 *   directory: in none of its subdirectories' regions). A file always lies
 *   in its own region (a hull holds its points); 1 is perfect.
 * - **overlap**: the share of the picture's area (the union of the regions of
 *   both levels) where two sibling regions overlap, counted on a grid of
 *   512 cells along the picture's longer side; 0 is perfect.
 *
 * Hulls and containment by d3-polygon; the area by filling each convex
 * polygon row by row on the grid.
 */
import { polygonContains, polygonHull } from 'd3-polygon';

export interface RegionMeasure {
  /** Share of files in no sibling directory's region at the first two levels (1 is perfect). */
  containment: number;
  /** Share of the regions' area covered by two sibling regions or more (0 is perfect). */
  overlap: number;
  /** Files counted by `containment`, regions measured. */
  files: number;
  regions: number;
}

/** Cells along the longer side of the grid the overlap is counted on. */
const GRID = 512;

type Point = [number, number];

/**
 * The measure above. `parent` is the containment tree (-1 for a root; the
 * repository's directory is the root with the most nodes below it), `isFile`
 * says which nodes are files.
 */
export function directoryRegions(parent: Int32Array, isFile: Uint8Array, positions: ArrayLike<number>): RegionMeasure {
  const n = parent.length;
  // Depth of each node below its root, and whether it is a symbol (below a file).
  const depth = new Int32Array(n).fill(-1);
  const symbol = new Uint8Array(n);
  const top = new Int32Array(n).fill(-1);
  const second = new Int32Array(n).fill(-1);
  const depthOf = (i: number): number => {
    const chain: number[] = [];
    let at = i;
    while (at >= 0 && depth[at] === -1 && chain.length < 512) {
      chain.push(at);
      at = parent[at]!;
    }
    let d = at >= 0 ? depth[at]! : -1;
    for (let k = chain.length - 1; k >= 0; k--) {
      const node = chain[k]!;
      const up = parent[node]!;
      depth[node] = ++d;
      symbol[node] = up >= 0 && (isFile[up] || symbol[up]) ? 1 : 0;
      top[node] = d === 1 ? node : d > 1 ? top[up]! : -1;
      second[node] = d === 2 ? node : d > 2 ? second[up]! : -1;
    }
    return depth[i]!;
  };
  for (let i = 0; i < n; i++) depthOf(i);
  // The points of each region of the first two levels.
  const points = new Map<number, Point[]>();
  for (let i = 0; i < n; i++) {
    if (symbol[i] || depth[i]! < 1) continue;
    const at: Point = [positions[2 * i]!, positions[2 * i + 1]!];
    if (!Number.isFinite(at[0]) || !Number.isFinite(at[1])) continue;
    for (const region of [top[i]!, second[i]!]) {
      if (region < 0 || isFile[region]) continue;
      let list = points.get(region);
      if (!list) points.set(region, (list = []));
      list.push(at);
    }
  }
  const hulls = new Map<number, Point[]>();
  for (const [region, list] of points) {
    const hull = polygonHull(list);
    if (hull) hulls.set(region, hull);
  }
  // Sibling groups: the regions of one parent.
  const groups = new Map<number, number[]>();
  for (const region of hulls.keys()) {
    const group = groups.get(parent[region]!) ?? [];
    group.push(region);
    groups.set(parent[region]!, group);
  }
  let files = 0;
  let contained = 0;
  for (let f = 0; f < n; f++) {
    if (!isFile[f] || symbol[f] || depth[f]! < 2) continue;
    const at: Point = [positions[2 * f]!, positions[2 * f + 1]!];
    const own = [top[f]!, second[f]!];
    // Level 1: the directories of the root; level 2: the subdirectories of the file's top-level directory.
    const siblings = [...(groups.get(parent[top[f]!]!) ?? []), ...(groups.get(top[f]!) ?? [])];
    files++;
    if (siblings.every((region) => own.includes(region) || !polygonContains(hulls.get(region)!, at))) contained++;
  }
  return { containment: files === 0 ? 1 : contained / files, overlap: overlapShare(hulls, groups), files, regions: hulls.size };
}

/** The share of the union of the hulls covered by two hulls of one group or more. */
function overlapShare(hulls: Map<number, Point[]>, groups: Map<number, number[]>): number {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const hull of hulls.values()) {
    for (const [x, y] of hull) {
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  if (!(maxX > minX) || !(maxY > minY)) return 0;
  const cell = Math.max(maxX - minX, maxY - minY) / GRID;
  const columns = Math.ceil((maxX - minX) / cell) + 1;
  const rows = Math.ceil((maxY - minY) / cell) + 1;
  const covered = new Uint8Array(columns * rows);
  const twice = new Uint8Array(columns * rows);
  const count = new Uint8Array(columns * rows);
  for (const group of groups.values()) {
    count.fill(0);
    for (const region of group) {
      fillConvex(hulls.get(region)!, minX, minY, cell, columns, rows, (index) => {
        covered[index] = 1;
        if (++count[index]! === 2) twice[index] = 1;
        if (count[index] === 255) count[index] = 2;
      });
    }
  }
  let union = 0;
  let overlapping = 0;
  for (let i = 0; i < covered.length; i++) {
    union += covered[i]!;
    overlapping += twice[i]!;
  }
  return union === 0 ? 0 : overlapping / union;
}

/** Calls `visit` with each grid cell whose center lies in the convex polygon. */
function fillConvex(polygon: Point[], minX: number, minY: number, cell: number, columns: number, rows: number, visit: (index: number) => void): void {
  let low = Infinity;
  let high = -Infinity;
  for (const [, y] of polygon) {
    low = Math.min(low, y);
    high = Math.max(high, y);
  }
  const firstRow = Math.max(0, Math.ceil((low - minY) / cell - 0.5));
  const lastRow = Math.min(rows - 1, Math.floor((high - minY) / cell - 0.5));
  for (let row = firstRow; row <= lastRow; row++) {
    const y = minY + (row + 0.5) * cell;
    let left = Infinity;
    let right = -Infinity;
    for (let k = 0; k < polygon.length; k++) {
      const [x1, y1] = polygon[k]!;
      const [x2, y2] = polygon[(k + 1) % polygon.length]!;
      if ((y1 <= y && y <= y2) || (y2 <= y && y <= y1)) {
        const x = y1 === y2 ? Math.min(x1, x2) : x1 + ((y - y1) / (y2 - y1)) * (x2 - x1);
        const x3 = y1 === y2 ? Math.max(x1, x2) : x;
        left = Math.min(left, x, x3);
        right = Math.max(right, x, x3);
      }
    }
    if (!(right >= left)) continue;
    const firstColumn = Math.max(0, Math.ceil((left - minX) / cell - 0.5));
    const lastColumn = Math.min(columns - 1, Math.floor((right - minX) / cell - 0.5));
    for (let column = firstColumn; column <= lastColumn; column++) visit(row * columns + column);
  }
}
