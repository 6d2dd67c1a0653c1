/**
 * Directories as nested regions: the step after the force layout that makes
 * every directory a disc holding its files and its subdirectories' discs,
 * with no two sibling discs overlapping, at every level of the tree (the
 * "regions packed per directory" scheme of CodeCharta's and Git Truck's
 * maps, arranged by the force layout instead of by size).
 *
 * Bottom-up over the containment tree, each directory's items (its own node,
 * its files, each with its symbols, and the discs of its subdirectories) are
 * packed where the force layout put them: their positions are drawn in
 * toward their centroid until they take about the area their discs need,
 * then a collision simulation (d3-force's `forceCollide`, with a pull to
 * those positions) parts them, and a last exact parting leaves no two
 * touching. The directory's disc is the smallest circle enclosing its items
 * (d3-hierarchy's `packEnclose`). Top-down, each subtree is then moved with
 * its disc. Within a directory the force layout's arrangement is kept (its
 * neighbours stay neighbours, a subdirectory stays on the side of what it
 * imports); between directories, only their discs' sides.
 *
 * Linear in the nodes times the simulation's ticks (a quadtree per
 * directory), plain JavaScript on the positions, deterministic (d3-force's
 * own seeded random source).
 */
import { forceCollide, forceSimulation, forceX, forceY, type SimulationNodeDatum } from 'd3-force';
import { packEnclose } from 'd3-hierarchy';

/** Share of a directory's disc its items' discs fill, the target of the first squeeze. */
const DENSITY = 0.7;
/** How strongly each item is pulled back to its squeezed place while the collisions part them (d3-force's strength). */
const PULL = 0.08;
/** Ticks of the collision simulation per directory. */
const TICKS = 60;
/** Passes of the exact parting after the simulation. */
const PART_PASSES = 30;
/** A gap left between sibling discs, in units (the radius of a file's disc). */
const GAP = 0.4;
/** Walks up the tree stop at this depth (a malformed tree with a cycle). */
const MAX_DEPTH = 256;

interface Item extends SimulationNodeDatum {
  x: number;
  y: number;
  r: number;
  tx: number;
  ty: number;
  /** The node this item stands for (a leaf, or a subtree's root). */
  node: number;
}

/**
 * Packs every directory's items into a disc of its own (see above). `parent` is the containment tree (-1 for a
 * root); `unit` the radius of a file's disc in the layout's units. Returns each node's region: the center and
 * radius of the disc of its subtree (a leaf's own disc).
 */
export function nestRegions(positions: Float32Array, parent: Int32Array, unit: number): { cx: Float64Array; cy: Float64Array; r: Float64Array } {
  const n = parent.length;
  const cx = new Float64Array(n);
  const cy = new Float64Array(n);
  const radius = new Float64Array(n);
  if (n === 0 || positions.length !== 2 * n || !(unit > 0)) return { cx, cy, r: radius };
  const { offsets, children, pre } = treeOf(parent);
  // Each node's offset from its subtree's disc center (a leaf: from its parent's), and each subtree's disc center
  // from its parent's, found bottom-up and used top-down.
  const discX = new Float64Array(n);
  const discY = new Float64Array(n);
  const offsetX = new Float64Array(n);
  const offsetY = new Float64Array(n);
  const hasChildren = (v: number): boolean => offsets[v + 1]! > offsets[v]!;
  for (let k = pre.length - 1; k >= 0; k--) {
    const v = pre[k]!;
    if (!hasChildren(v)) {
      cx[v] = positions[2 * v]!;
      cy[v] = positions[2 * v + 1]!;
      radius[v] = unit;
      continue;
    }
    // Items: the node itself, then its children (a leaf as its disc, a subtree as its disc).
    const items: Item[] = [{ x: positions[2 * v]!, y: positions[2 * v + 1]!, r: unit, tx: 0, ty: 0, node: -1 }];
    for (let c = offsets[v]!; c < offsets[v + 1]!; c++) {
      const child = children[c]!;
      items.push({ x: cx[child]!, y: cy[child]!, r: radius[child]!, tx: 0, ty: 0, node: child });
    }
    pack(items);
    const circle = packEnclose(items.map((item) => ({ x: item.x, y: item.y, r: item.r + GAP * unit })));
    const ox = circle?.x ?? items[0]!.x;
    const oy = circle?.y ?? items[0]!.y;
    cx[v] = ox;
    cy[v] = oy;
    radius[v] = circle?.r ?? unit;
    offsetX[v] = items[0]!.x - ox;
    offsetY[v] = items[0]!.y - oy;
    for (let i = 1; i < items.length; i++) {
      const child = items[i]!.node;
      // A child's offset: where its disc center goes, relative to this disc's center.
      const item = items[i]!;
      if (hasChildren(child)) {
        discX[child] = item.x - ox;
        discY[child] = item.y - oy;
      } else {
        offsetX[child] = item.x - ox;
        offsetY[child] = item.y - oy;
      }
    }
  }
  // Top-down: each subtree's disc placed by its parent's, its own node and leaves by their offsets.
  for (const v of pre) {
    const p = parent[v]!;
    if (p >= 0 && hasChildren(v)) {
      cx[v] = cx[p]! + discX[v]!;
      cy[v] = cy[p]! + discY[v]!;
    }
    if (hasChildren(v)) {
      positions[2 * v] = cx[v]! + offsetX[v]!;
      positions[2 * v + 1] = cy[v]! + offsetY[v]!;
    } else if (p >= 0) {
      positions[2 * v] = cx[p]! + offsetX[v]!;
      positions[2 * v + 1] = cy[p]! + offsetY[v]!;
      cx[v] = positions[2 * v]!;
      cy[v] = positions[2 * v + 1]!;
    }
  }
  return { cx, cy, r: radius };
}

/**
 * Packs one directory's items where they are: drawn in toward their centroid until their spread matches the
 * area their discs need, parted by a collision simulation pulled to those places, then parted exactly.
 */
function pack(items: Item[]): void {
  const count = items.length;
  if (count < 2) return;
  let mx = 0;
  let my = 0;
  let area = 0;
  for (const item of items) {
    mx += item.x;
    my += item.y;
    area += item.r * item.r;
  }
  mx /= count;
  my /= count;
  // The directory's own node at the middle of its items: a hub, as its contains edges make it.
  items[0]!.x = mx;
  items[0]!.y = my;
  let spread = 0;
  for (const item of items) spread += (item.x - mx) ** 2 + (item.y - my) ** 2;
  spread = Math.sqrt(spread / count);
  // A disc of the area the items need at DENSITY has a root-mean-square radius of R / √2.
  const wanted = Math.sqrt(area / DENSITY) / Math.SQRT2;
  const squeeze = spread > 0 ? Math.min(1, wanted / spread) : 1;
  for (const item of items) {
    item.x = item.tx = mx + (item.x - mx) * squeeze;
    item.y = item.ty = my + (item.y - my) * squeeze;
  }
  if (count > 2) {
    const simulation = forceSimulation(items)
      .force('collide', forceCollide<Item>((item) => item.r * 1.02).iterations(2))
      .force('x', forceX<Item>((item) => item.tx).strength(PULL))
      .force('y', forceY<Item>((item) => item.ty).strength(PULL))
      .stop();
    simulation.tick(TICKS);
    simulation.stop();
  }
  part(items);
}

/** Pushes overlapping items apart, each by half the overlap (the larger moving less), until none overlaps. */
function part(items: Item[]): void {
  const count = items.length;
  const order = items.map((_, i) => i);
  for (let pass = 0; pass < PART_PASSES; pass++) {
    order.sort((a, b) => items[a]!.x - items[a]!.r - (items[b]!.x - items[b]!.r));
    let moved = false;
    for (let a = 0; a < count; a++) {
      const first = items[order[a]!]!;
      for (let b = a + 1; b < count; b++) {
        const second = items[order[b]!]!;
        if (second.x - second.r >= first.x + first.r) break;
        const wanted = first.r + second.r;
        const ex = second.x - first.x;
        const ey = second.y - first.y;
        const distance = Math.hypot(ex, ey);
        if (distance >= wanted) continue;
        const ux = distance > 1e-9 ? ex / distance : Math.cos(a + b);
        const uy = distance > 1e-9 ? ey / distance : Math.sin(a + b);
        const missing = wanted * 1.01 - distance;
        const firstShare = second.r ** 2 / (first.r ** 2 + second.r ** 2);
        first.x -= ux * missing * firstShare;
        first.y -= uy * missing * firstShare;
        second.x += ux * missing * (1 - firstShare);
        second.y += uy * missing * (1 - firstShare);
        moved = true;
      }
    }
    if (!moved) return;
  }
}

/** The tree's children as compressed rows, and its nodes parents first (`pre`); nodes on a cycle are left out. */
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
  while (stack.length > 0 && k < n * MAX_DEPTH) {
    const v = stack.pop()!;
    if (seen[v]) continue;
    seen[v] = 1;
    pre[k++] = v;
    for (let c = offsets[v]!; c < offsets[v + 1]!; c++) stack.push(children[c]!);
  }
  return { offsets, children, pre: pre.subarray(0, k) };
}
