/**
 * Readable regions: two steps after the force layout, before the overlap
 * removal (overlap.ts), given the containment tree. The force layout leaves
 * a directory's files in a tight clump around it, clumps pressed into each
 * other, and a share of each directory's files nearer a sibling directory's
 * middle than their own (region purity 0.816 on eslint's graph, ForceAtlas2
 * 0.935; prettier's 17,311 nodes with 387,350 pairs of overlapping discs,
 * ForceAtlas2 71,274; test/bench/README.md).
 *
 * 1. `separateRegions`, bottom-up over the tree: each directory's region is
 *    a disc as large as its nodes' discs need (their area at half density);
 *    inside each directory its items (its own node, its files, the discs of
 *    its subdirectories) are pushed apart until no two discs overlap, the
 *    lighter item moving more, a subdirectory with its whole subtree
 *    (translation only: its inside is kept), and the items' centroid kept in
 *    place. Directories holding more than 30 % of the nodes are left as they
 *    are: parting a repository's root folders moved halves of the picture
 *    apart from what they import (prettier's stress 0.204 to 0.232).
 * 2. `purifyRegions`: each node that lies on a sibling directory's side of
 *    the bisector between its directory's centroid and that sibling's is
 *    moved onto its own side (the least move that does it, and a margin of
 *    three disc widths); four rounds, the centroids measured again each.
 *
 * Linear in the nodes times the depth of the tree and the number of sibling
 * directories, plus each directory's pairs of items (a sweep over their x); plain
 * JavaScript on the positions, the same whatever backend computed them.
 */
import { type DrawnSize, percentileBox, UI_DRAWN_SIZE } from './quality.js';

/** Share of a region's disc its nodes' discs fill. */
const DENSITY = 0.5;
/** Directories holding more than this share of the nodes are not parted. */
const MAX_SHARE = 0.3;
/** Passes of pairwise parting inside one directory (each stops early once nothing moved). */
const PASSES = 50;
/** Directories with at most this many items take their pairs in index order; larger ones regions first (`pairKey`). */
const ALL_PAIRS = 48;
/** Rounds of purifying, and how far inside its own side a node is put, in disc radii. */
const PURIFY_ROUNDS = 4;
const PURIFY_MARGIN = 6;
/** Walks up the tree stop at this depth (a malformed tree with a cycle). */
const MAX_DEPTH = 256;

/**
 * The radius of a node's disc in the layout's units: the drawn one where the picture can hold the discs (as
 * the web UI draws them, `size`), smaller where the discs would cover more than a fifth of the picture: there
 * the regions are sized for the room there is (prettier: half the drawn radius).
 */
export function regionUnit(positions: ArrayLike<number>, size: DrawnSize = UI_DRAWN_SIZE): number {
  const n = positions.length / 2;
  const box = percentileBox(positions);
  const drawn = (size.radiusPixels * Math.max(box.width, box.height)) / size.fitPixels;
  const covered = (n * Math.PI * size.radiusPixels ** 2) / size.fitPixels ** 2;
  return drawn * Math.min(1, 0.45 / Math.sqrt(covered));
}

/** The tree's children as compressed rows, and its nodes parents first (`pre`). */
function treeOf(parent: Int32Array): { offsets: Int32Array; children: Int32Array; pre: Int32Array } {
  const n = parent.length;
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) offsets[parent[i]! + 1]!++;
  for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i]! + offsets[i + 1]!;
  const fill = offsets.slice(0, n);
  const children = new Int32Array(offsets[n]!);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) children[fill[parent[i]!]!++] = i;
  const pre = new Int32Array(n);
  const seen = new Uint8Array(n);
  const stack: number[] = [];
  let k = 0;
  for (let i = 0; i < n; i++) if (parent[i]! < 0) stack.push(i);
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (seen[v]) continue;
    seen[v] = 1;
    pre[k++] = v;
    for (let c = offsets[v]!; c < offsets[v + 1]!; c++) stack.push(children[c]!);
  }
  // Nodes on a cycle (no root above them) are left where they are.
  return { offsets, children, pre: pre.subarray(0, k) };
}

/** Parts sibling regions (step 1 above); `parent` is the containment tree, -1 for a root. */
export function separateRegions(positions: Float32Array, parent: Int32Array, size: DrawnSize = UI_DRAWN_SIZE): void {
  const n = parent.length;
  if (n < 3 || positions.length !== 2 * n) return;
  const unit = regionUnit(positions, size);
  if (!(unit > 0) || !Number.isFinite(unit)) return;
  const { offsets, children, pre } = treeOf(parent);
  // Each subtree's region in its own frame (before its ancestors' moves), its node count, and its move.
  const cx = new Float64Array(n);
  const cy = new Float64Array(n);
  const radius = new Float64Array(n);
  const mass = new Float64Array(n);
  const shiftX = new Float64Array(n);
  const shiftY = new Float64Array(n);
  const items = new Items();
  // Children before their parent.
  for (let k = pre.length - 1; k >= 0; k--) {
    const v = pre[k]!;
    const childCount = offsets[v + 1]! - offsets[v]!;
    if (childCount === 0) {
      cx[v] = positions[2 * v]!;
      cy[v] = positions[2 * v + 1]!;
      radius[v] = unit;
      mass[v] = 1;
      continue;
    }
    // Item 0: the directory's own node; then its children (a leaf as its disc, a subdirectory as its region's).
    const count = childCount + 1;
    items.reserve(count);
    items.set(0, positions[2 * v]!, positions[2 * v + 1]!, unit, 1);
    for (let c = 0; c < childCount; c++) {
      const child = children[offsets[v]! + c]!;
      items.set(c + 1, cx[child]!, cy[child]!, radius[child]!, mass[child]!);
    }
    let total = 0;
    let mx = 0;
    let my = 0;
    let area = 0;
    for (let i = 0; i < count; i++) {
      total += items.m[i]!;
      mx += items.m[i]! * items.x[i]!;
      my += items.m[i]! * items.y[i]!;
      area += items.r[i]! ** 2;
    }
    mx /= total;
    my /= total;
    if (total <= MAX_SHARE * n) {
      items.part(count, unit);
      // The items' centroid kept in place.
      let nx = 0;
      let ny = 0;
      for (let i = 0; i < count; i++) {
        nx += items.m[i]! * items.x[i]!;
        ny += items.m[i]! * items.y[i]!;
      }
      const ox = mx - nx / total;
      const oy = my - ny / total;
      // The directory's node and its leaves move themselves; a subdirectory moves as a shift of its subtree.
      positions[2 * v] = items.x[0]! + ox;
      positions[2 * v + 1] = items.y[0]! + oy;
      for (let c = 0; c < childCount; c++) {
        const child = children[offsets[v]! + c]!;
        if (offsets[child + 1] === offsets[child]) {
          positions[2 * child] = items.x[c + 1]! + ox;
          positions[2 * child + 1] = items.y[c + 1]! + oy;
        } else {
          shiftX[child] = items.x[c + 1]! + ox - cx[child]!;
          shiftY[child] = items.y[c + 1]! + oy - cy[child]!;
        }
      }
    }
    cx[v] = mx;
    cy[v] = my;
    mass[v] = total;
    radius[v] = Math.sqrt(area / DENSITY);
  }
  // Shifts applied parents first: a node moves with its own subtree's shift and every ancestor's.
  const totalX = new Float64Array(n);
  const totalY = new Float64Array(n);
  for (const v of pre) {
    const p = parent[v]!;
    totalX[v] = shiftX[v]! + (p >= 0 ? totalX[p]! : 0);
    totalY[v] = shiftY[v]! + (p >= 0 ? totalY[p]! : 0);
    positions[2 * v] = positions[2 * v]! + totalX[v]!;
    positions[2 * v + 1] = positions[2 * v + 1]! + totalY[v]!;
  }
}

/** The discs of one directory's items (x, y, radius, mass), and the pairwise parting of them. */
class Items {
  x = new Float64Array(16);
  y = new Float64Array(16);
  r = new Float64Array(16);
  m = new Float64Array(16);
  private dx = new Float64Array(16);
  private dy = new Float64Array(16);
  private big = new Uint8Array(16);
  private order = new Int32Array(16);
  private keys = new Float64Array(64);

  reserve(count: number): void {
    if (this.x.length >= count) return;
    const size = 2 * count;
    this.x = new Float64Array(size);
    this.y = new Float64Array(size);
    this.r = new Float64Array(size);
    this.m = new Float64Array(size);
    this.dx = new Float64Array(size);
    this.dy = new Float64Array(size);
    this.big = new Uint8Array(size);
    this.order = new Int32Array(size);
  }

  set(i: number, x: number, y: number, r: number, m: number): void {
    this.x[i] = x;
    this.y[i] = y;
    this.r[i] = r;
    this.m[i] = m;
  }

  /**
   * Passes over the pairs of discs that overlap, all of a pass's moves at once (as overlap.ts does): each of a
   * pair moves by the other's share of their mass, so a file gives way to a subdirectory's region. The pairs are
   * found by sweeping the discs in order of their left edges (sorted again each pass, by insertion: they move
   * little), so a pass costs the items times the discs beside each in x; comparing each subdirectory's region with
   * every item took 100 to 160 ms of eslint's 4,070 nodes in one directory of 295 items, 100 of them regions. The
   * pushes are then added up in the order the comparisons used to make them (`pairKey`), so the result is the
   * same to the bit.
   */
  part(count: number, unit: number): void {
    const { x, y, r, dx, dy, big, order } = this;
    for (let i = 0; i < count; i++) {
      big[i] = r[i]! > unit * 1.0001 ? 1 : 0;
      order[i] = i;
    }
    for (let pass = 0; pass < PASSES; pass++) {
      dx.fill(0, 0, count);
      dy.fill(0, 0, count);
      for (let a = 1; a < count; a++) {
        const item = order[a]!;
        const left = x[item]! - r[item]!;
        let b = a - 1;
        for (; b >= 0 && x[order[b]!]! - r[order[b]!]! > left; b--) order[b + 1] = order[b]!;
        order[b + 1] = item;
      }
      let pairs = 0;
      for (let a = 0; a < count; a++) {
        const first = order[a]!;
        const right = x[first]! + r[first]!;
        for (let b = a + 1; b < count; b++) {
          const second = order[b]!;
          if (x[second]! - r[second]! >= right) break;
          const wanted = r[first]! + r[second]!;
          if (Math.abs(y[second]! - y[first]!) >= wanted || Math.hypot(x[second]! - x[first]!, y[second]! - y[first]!) >= wanted) continue;
          if (pairs === this.keys.length) {
            const keys = new Float64Array(2 * pairs);
            keys.set(this.keys);
            this.keys = keys;
          }
          this.keys[pairs++] = this.pairKey(first, second, count, unit);
        }
      }
      if (pairs === 0) return;
      const keys = this.keys.subarray(0, pairs).sort();
      for (let k = 0; k < pairs; k++) {
        const key = keys[k]!;
        if (key < count * count) this.push(Math.floor(key / count), key % count);
        else {
          const rest = key - count * count;
          this.push(Math.floor(Math.floor(rest / count) / 9), rest % count);
        }
      }
      for (let i = 0; i < count; i++) {
        x[i] = x[i]! + dx[i]!;
        y[i] = y[i]! + dy[i]!;
      }
    }
  }

  /**
   * Where the pair of items `i` and `j` comes in a pass (a key to sort by; it says which of them pushes, too): up
   * to `ALL_PAIRS` items, every pair in order (the lower index first); in a larger directory the regions first (a
   * region against every item, a region against a higher one), then the leaves' pairs by the lower leaf, by where
   * the other's cell lies around its own on a grid of cells one pair wide, and by the other leaf.
   */
  private pairKey(i: number, j: number, count: number, unit: number): number {
    const { x, y, big } = this;
    const low = Math.min(i, j);
    const high = Math.max(i, j);
    if (count <= ALL_PAIRS) return low * count + high;
    if (big[i] || big[j]) {
      const region = big[i] && big[j] ? low : big[i] ? i : j;
      return region * count + (region === i ? j : i);
    }
    const cell = 2 * unit;
    const around = (Math.floor(x[high]! / cell) - Math.floor(x[low]! / cell) + 1) * 3 + (Math.floor(y[high]! / cell) - Math.floor(y[low]! / cell) + 1);
    return count * count + (low * 9 + around) * count + high;
  }

  /** Pushes discs i and j apart, by the other's share of their mass each, if they overlap; whether they did. */
  private push(i: number, j: number): boolean {
    const { x, y, r, m, dx, dy } = this;
    const ex = x[j]! - x[i]!;
    const ey = y[j]! - y[i]!;
    const distance = Math.hypot(ex, ey);
    const wanted = r[i]! + r[j]!;
    if (distance >= wanted) return false;
    // Along the line between them; on top of each other, along a direction of their own.
    const angle = ((i * 7919 + j * 104729) % 360) * (Math.PI / 180);
    const apart = distance > 1e-9 * wanted;
    const ux = apart ? ex / distance : Math.cos(angle);
    const uy = apart ? ey / distance : Math.sin(angle);
    const missing = wanted * 1.02 - distance;
    const mi = m[j]! / (m[i]! + m[j]!);
    const mj = m[i]! / (m[i]! + m[j]!);
    dx[i] = dx[i]! - ux * missing * mi;
    dy[i] = dy[i]! - uy * missing * mi;
    dx[j] = dx[j]! + ux * missing * mj;
    dy[j] = dy[j]! + uy * missing * mj;
    return true;
  }
}

/**
 * Moves each node onto its directory's side of the bisector with every sibling directory (step 2 above): a
 * directory's centroid is the mean position of every node below it, its siblings are the other children of its
 * parent that have children of their own.
 */
export function purifyRegions(positions: Float32Array, parent: Int32Array, size: DrawnSize = UI_DRAWN_SIZE): void {
  const n = parent.length;
  if (n < 3 || positions.length !== 2 * n) return;
  const margin = PURIFY_MARGIN * regionUnit(positions, size);
  if (!(margin > 0) || !Number.isFinite(margin)) return;
  const hasChildren = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) hasChildren[parent[i]!] = 1;
  // Each node's child directories as compressed rows.
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0 && hasChildren[i]) offsets[parent[i]! + 1]!++;
  for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i]! + offsets[i + 1]!;
  const fill = offsets.slice(0, n);
  const directories = new Int32Array(offsets[n]!);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0 && hasChildren[i]) directories[fill[parent[i]!]!++] = i;
  const { offsets: childOffsets, children } = treeOf(parent);
  let most = 0;
  for (let i = 0; i < n; i++) most = Math.max(most, offsets[i + 1]! - offsets[i]!);
  const side = {
    ex: new Float64Array(most),
    ey: new Float64Array(most),
    gap: new Float64Array(most),
    midX: new Float64Array(most),
    midY: new Float64Array(most),
    inside: new Float64Array(most),
  };
  const cx = new Float64Array(n);
  const cy = new Float64Array(n);
  const count = new Float64Array(n);
  for (let round = 0; round < PURIFY_ROUNDS; round++) {
    cx.fill(0);
    cy.fill(0);
    count.fill(0);
    for (let f = 0; f < n; f++) {
      for (let d = parent[f]!, depth = 0; d >= 0 && depth < MAX_DEPTH; d = parent[d]!, depth++) {
        cx[d] = cx[d]! + positions[2 * f]!;
        cy[d] = cy[d]! + positions[2 * f + 1]!;
        count[d]!++;
      }
    }
    for (let d = 0; d < n; d++) {
      if (count[d]! === 0) continue;
      cx[d] = cx[d]! / count[d]!;
      cy[d] = cy[d]! / count[d]!;
    }
    let moved = 0;
    // By directory: each sibling's bisector measured once for all of the directory's nodes (a node's move depends
    // on its own position and the round's centroids alone, so the order of the nodes changes nothing). Measured for
    // each node, the bisectors took 240 ms a round on prettier's graph (a directory of some 300 subdirectories).
    for (let own = 0; own < n; own++) {
      const above = parent[own]!;
      if (above < 0 || childOffsets[own] === childOffsets[own + 1]) continue;
      let sides = 0;
      for (let k = offsets[above]!; k < offsets[above + 1]!; k++) {
        const other = directories[k]!;
        if (other === own) continue;
        const ex = cx[other]! - cx[own]!;
        const ey = cy[other]! - cy[own]!;
        const gap = Math.hypot(ex, ey);
        if (!(gap > 0)) continue;
        side.ex[sides] = ex;
        side.ey[sides] = ey;
        side.gap[sides] = gap;
        side.midX[sides] = (cx[own]! + cx[other]!) / 2;
        side.midY[sides] = (cy[own]! + cy[other]!) / 2;
        side.inside[sides++] = Math.min(margin, gap / 4);
      }
      if (sides === 0) continue;
      for (let c = childOffsets[own]!; c < childOffsets[own + 1]!; c++) {
        const f = children[c]!;
        let x = positions[2 * f]!;
        let y = positions[2 * f + 1]!;
        for (let k = 0; k < sides; k++) {
          const ex = side.ex[k]!;
          const ey = side.ey[k]!;
          const gap = side.gap[k]!;
          // How far past the bisector the node lies, toward the other directory (negative: on its own side).
          const past = ((x - side.midX[k]!) * ex + (y - side.midY[k]!) * ey) / gap;
          const inside = side.inside[k]!;
          if (past <= -inside) continue;
          x -= ((past + inside) * ex) / gap;
          y -= ((past + inside) * ey) / gap;
          moved++;
        }
        positions[2 * f] = x;
        positions[2 * f + 1] = y;
      }
    }
    if (moved === 0) return;
  }
}
