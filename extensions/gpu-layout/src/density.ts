/**
 * The picture's density made even, where the drawn discs would cover more of
 * it than a clumped layout can hold apart. The force layout leaves a
 * directory's files in a tight clump and gaps between regions; where the
 * discs cover more than half the picture (prettier's 17,323 nodes: 76 %;
 * 100,000 nodes: four times it) the overlap removal cannot part them without
 * pushing nodes across regions, and the clumps overlap (prettier 72,564
 * pairs, ForceAtlas2 66,473; 100,000 nodes 1,390,274, ForceAtlas2 972,439;
 * test/bench/README.md). Two steps, after the regions' (separation.ts):
 *
 * 1. `spreadLeaves`: the leaves of each node (a directory's files without
 *    symbols, a file's symbols) are spread over a disc as large as they take
 *    at the picture's mean density, about their centroid: each keeps its
 *    angle, its radius is set by its rank, R √((rank + ½) / count), so the
 *    disc is evenly filled; a leaf already further out stays where it is.
 * 2. `spreadDensity`: the nodes move as a smooth flow that carries the
 *    picture's density toward an even one (the diffusion cartogram of
 *    Gastner and Newman, 2004): the density counted on a grid over the
 *    square around the picture, diffused by the heat equation (in the cosine
 *    basis of the square: nothing flows out), and each node moved along
 *    -∇ρ/ρ as the density evens out, for as long as it takes to even it
 *    over about an eighth of the picture. A flow keeps neighbours together
 *    and moves no region across another (a region grows where it was dense,
 *    into the gaps beside it); evened over the whole picture instead, the
 *    shape of the picture is lost and a change moves the old nodes more
 *    (prettier: 4.05 % of the diagonal after a 1 % change, 1.93 % so, on cached positions). Two
 *    passes, each counting the nodes where the last left them, also part
 *    what one cell held.
 *
 * The flow leaves a share of the files on a sibling directory's side of the
 * bisector where a small region borders a large one; the engine purifies
 * the regions again after it (separation.ts).
 *
 * Linear in n but for a sort per node's leaves and the grid's transforms
 * (O(G² log G) a step, G the grid's side, 256 at most). Deterministic, plain
 * JavaScript on the positions.
 */
import { type DrawnSize, percentileBox, UI_DRAWN_SIZE } from './quality.js';

/** The discs must cover more than this share of the picture for the step to run (below, overlap.ts parts them). */
export const SPREAD_MIN_COVERED = 0.5;
/** Passes of the flow, each from a new count of the nodes on the grid. */
const PASSES = 2;
/** Steps of one pass's flow (time steps growing geometrically, the fine scales first). */
const STEPS = 16;
/**
 * How far the density is evened, as a share of the square's side: the diffusion's length √(2t) at the last step.
 * A whole picture evened (a quarter of the side squared for t, the slowest cosine decayed to a twelfth) moved the
 * old nodes 4.0 % of the diagonal after a 1 % change on prettier's graph; an eighth, 1.9 %.
 */
const REACH = 1 / 8;
/** The longest move of one node in one step, in grid cells. */
const STEP_CAP = 4;
/** The square the picture is spread over, as a multiple of the larger side of its percentile box. */
const MARGIN = 1.04;
/** Nodes per grid cell about which the grid's size is chosen (a power of two, 16 to 256 cells a side). */
const NODES_PER_CELL = 2;

/** Whether `spreadDensity` runs for a picture of `n` nodes drawn at `size`. */
export function spreads(n: number, size: DrawnSize = UI_DRAWN_SIZE): boolean {
  return (n * Math.PI * size.radiusPixels ** 2) / size.fitPixels ** 2 > SPREAD_MIN_COVERED;
}

/**
 * Spreads each node's leaves (its children without children of their own) over a disc as large as they take at
 * the picture's mean density (step 1 above); `parent` is the containment tree, -1 for a root.
 */
export function spreadLeaves(positions: Float32Array, parent: Int32Array, size: DrawnSize = UI_DRAWN_SIZE): void {
  const n = parent.length;
  if (n < 3 || positions.length !== 2 * n || !spreads(n, size)) return;
  const box = percentileBox(positions);
  // The area a node takes at the picture's mean density: the percentile box's square shared by all.
  const share = Math.max(box.width, box.height) ** 2 / n;
  if (!(share > 0) || !Number.isFinite(share)) return;
  const hasChildren = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0) hasChildren[parent[i]!] = 1;
  // Each node's leaves as compressed rows.
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0 && !hasChildren[i]) offsets[parent[i]! + 1]!++;
  for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i]! + offsets[i + 1]!;
  const fill = offsets.slice(0, n);
  const leaves = new Int32Array(offsets[n]!);
  for (let i = 0; i < n; i++) if (parent[i]! >= 0 && !hasChildren[i]) leaves[fill[parent[i]!]!++] = i;
  const distance = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    const count = offsets[v + 1]! - offsets[v]!;
    if (count < 3) continue;
    const own = leaves.subarray(offsets[v]!, offsets[v + 1]!);
    let mx = 0;
    let my = 0;
    for (const leaf of own) {
      mx += positions[2 * leaf]!;
      my += positions[2 * leaf + 1]!;
    }
    mx /= count;
    my /= count;
    for (const leaf of own) distance[leaf] = Math.hypot(positions[2 * leaf]! - mx, positions[2 * leaf + 1]! - my);
    // Nearest first (ties by index, so the order is the same every run).
    const order = Array.from(own).sort((a, b) => distance[a]! - distance[b]! || a - b);
    const radius = Math.sqrt((count * share) / Math.PI);
    for (let rank = 0; rank < count; rank++) {
      const leaf = order[rank]!;
      const from = distance[leaf]!;
      const to = radius * Math.sqrt((rank + 0.5) / count);
      if (to <= from) continue;
      // On the centroid itself: a direction of its own.
      const angle = ((leaf * 7919) % 360) * (Math.PI / 180);
      const ux = from > 0 ? (positions[2 * leaf]! - mx) / from : Math.cos(angle);
      const uy = from > 0 ? (positions[2 * leaf + 1]! - my) / from : Math.sin(angle);
      positions[2 * leaf] = mx + ux * to;
      positions[2 * leaf + 1] = my + uy * to;
    }
  }
}

/** Moves the nodes of `positions` (x, y pairs) toward an even density over the square around them (step 2 above). */
export function spreadDensity(positions: Float32Array, size: DrawnSize = UI_DRAWN_SIZE): void {
  const n = positions.length / 2;
  if (n < 2 || !spreads(n, size)) return;
  // The square: the larger side of the percentile box (quality.ts), about the box's middle.
  const xs = Float64Array.from({ length: n }, (_, i) => positions[2 * i]!).sort();
  const ys = Float64Array.from({ length: n }, (_, i) => positions[2 * i + 1]!).sort();
  const at = (sorted: Float64Array, q: number): number => sorted[Math.min(n - 1, Math.floor(q * n))]!;
  const side = MARGIN * Math.max(at(xs, 0.99) - at(xs, 0.01), at(ys, 0.99) - at(ys, 0.01));
  if (!(side > 0) || !Number.isFinite(side)) return;
  let grid = 16;
  while (grid < 256 && grid * grid * NODES_PER_CELL < n) grid *= 2;
  const cell = side / grid;
  const left = (at(xs, 0.01) + at(xs, 0.99)) / 2 - side / 2;
  const bottom = (at(ys, 0.01) + at(ys, 0.99)) / 2 - side / 2;
  // Positions in cells; a node outside the square is put on its edge (within half a cell, where the flow moves it).
  const gx = new Float64Array(n);
  const gy = new Float64Array(n);
  const inside = (v: number): number => Math.min(grid - 0.5, Math.max(0.5, v));
  for (let i = 0; i < n; i++) {
    gx[i] = inside((positions[2 * i]! - left) / cell);
    gy[i] = inside((positions[2 * i + 1]! - bottom) / cell);
  }
  const flow = new Flow(grid);
  for (let pass = 0; pass < PASSES; pass++) flow.run(gx, gy);
  for (let i = 0; i < n; i++) {
    positions[2 * i] = left + gx[i]! * cell;
    positions[2 * i + 1] = bottom + gy[i]! * cell;
  }
}

/** The diffusion on a grid of `size` cells a side: the density's cosine coefficients, diffused and read back. */
class Flow {
  private readonly coefficients: Float64Array;
  private readonly density: Float64Array;
  private readonly decay: Float64Array;
  private readonly transform: Cosine;

  constructor(private readonly size: number) {
    this.coefficients = new Float64Array(size * size);
    this.density = new Float64Array(size * size);
    // Each cosine's rate of decay along one axis: (π k / size)², in cells.
    this.decay = Float64Array.from({ length: size }, (_, k) => ((Math.PI * k) / size) ** 2);
    this.transform = new Cosine(size);
  }

  /** One pass: the nodes counted on the grid, then moved along the flow from time 0.1 to (REACH size)² / 2 (cells²). */
  run(gx: Float64Array, gy: Float64Array): void {
    const { size, coefficients, density, decay, transform } = this;
    const n = gx.length;
    const counts = new Float64Array(size * size);
    for (let i = 0; i < n; i++) counts[Math.floor(gy[i]!) * size + Math.floor(gx[i]!)]!++;
    for (let row = 0; row < size; row++) transform.forward(counts, row * size, 1);
    for (let column = 0; column < size; column++) transform.forward(counts, column, size);
    for (let v = 0; v < size; v++)
      for (let u = 0; u < size; u++) coefficients[v * size + u] = (counts[v * size + u]! * (u === 0 ? 1 : 2) * (v === 0 ? 1 : 2)) / (size * size);
    const floor = (1e-3 * n) / (size * size);
    const end = (REACH * size) ** 2 / 2;
    let time = 0.1;
    const ratio = (end / time) ** (1 / STEPS);
    const along = new Float64Array(size);
    for (let step = 0; step < STEPS; step++) {
      const next = time * ratio;
      const dt = next - time;
      // The density at `time` at the cells' middles: each coefficient decayed, then the inverse transform.
      for (let k = 0; k < size; k++) along[k] = Math.exp(-decay[k]! * time);
      for (let v = 0; v < size; v++) for (let u = 0; u < size; u++) density[v * size + u] = coefficients[v * size + u]! * along[u]! * along[v]!;
      for (let row = 0; row < size; row++) transform.inverse(density, row * size, 1);
      for (let column = 0; column < size; column++) transform.inverse(density, column, size);
      // Each node along -∇ρ/ρ, ρ bilinear between the cells' middles.
      for (let i = 0; i < n; i++) {
        const fx = gx[i]! - 0.5;
        const fy = gy[i]! - 0.5;
        const cx = Math.min(size - 2, Math.floor(fx));
        const cy = Math.min(size - 2, Math.floor(fy));
        const tx = fx - cx;
        const ty = fy - cy;
        const at = cy * size + cx;
        const d00 = density[at]!;
        const d10 = density[at + 1]!;
        const d01 = density[at + size]!;
        const d11 = density[at + size + 1]!;
        const rho = Math.max(floor, (d00 * (1 - tx) + d10 * tx) * (1 - ty) + (d01 * (1 - tx) + d11 * tx) * ty);
        let mx = (-((d10 - d00) * (1 - ty) + (d11 - d01) * ty) / rho) * dt;
        let my = (-((d01 - d00) * (1 - tx) + (d11 - d10) * tx) / rho) * dt;
        const length = Math.hypot(mx, my);
        if (length > STEP_CAP) {
          mx *= STEP_CAP / length;
          my *= STEP_CAP / length;
        }
        gx[i] = Math.min(size - 0.5, Math.max(0.5, gx[i]! + mx));
        gy[i] = Math.min(size - 0.5, Math.max(0.5, gy[i]! + my));
      }
      time = next;
    }
  }
}

/**
 * The cosine transform of a power-of-two length through a complex FFT of the same length (Makhoul, 1980), in
 * place on a strided row or column: `forward` X[k] = Σ x[j] cos(π k (j + ½) / N), `inverse` x[j] = Σ X[k] cos(π k
 * (j + ½) / N).
 */
class Cosine {
  private readonly re: Float64Array;
  private readonly im: Float64Array;
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  private readonly swap: Int32Array;
  private readonly twiddleRe: Float64Array;
  private readonly twiddleIm: Float64Array;

  constructor(private readonly size: number) {
    this.re = new Float64Array(size);
    this.im = new Float64Array(size);
    this.cos = Float64Array.from({ length: size }, (_, k) => Math.cos((Math.PI * k) / (2 * size)));
    this.sin = Float64Array.from({ length: size }, (_, k) => Math.sin((Math.PI * k) / (2 * size)));
    this.swap = new Int32Array(size);
    for (let i = 1, j = 0; i < size; i++) {
      let bit = size >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      this.swap[i] = j;
    }
    this.twiddleRe = Float64Array.from({ length: size / 2 }, (_, k) => Math.cos((2 * Math.PI * k) / size));
    this.twiddleIm = Float64Array.from({ length: size / 2 }, (_, k) => -Math.sin((2 * Math.PI * k) / size));
  }

  forward(values: Float64Array, offset: number, stride: number): void {
    const { size, re, im, cos, sin } = this;
    for (let k = 0; k < size / 2; k++) {
      re[k] = values[offset + 2 * k * stride]!;
      re[size - 1 - k] = values[offset + (2 * k + 1) * stride]!;
    }
    im.fill(0);
    this.fft(false);
    for (let k = 0; k < size; k++) values[offset + k * stride] = re[k]! * cos[k]! + im[k]! * sin[k]!;
  }

  inverse(values: Float64Array, offset: number, stride: number): void {
    const { size, re, im, cos, sin } = this;
    for (let k = 0; k < size; k++) {
      const value = values[offset + k * stride]!;
      re[k] = value * cos[k]!;
      im[k] = value * sin[k]!;
    }
    this.fft(true);
    for (let k = 0; k < size / 2; k++) {
      values[offset + 2 * k * stride] = re[k]!;
      values[offset + (2 * k + 1) * stride] = re[size - 1 - k]!;
    }
  }

  /** In-place radix-2 FFT of `re`, `im`; `inverse` with the conjugate twiddles (unscaled). */
  private fft(inverse: boolean): void {
    const { size, re, im, swap, twiddleRe, twiddleIm } = this;
    for (let i = 1; i < size; i++) {
      const j = swap[i]!;
      if (i < j) {
        const r = re[i]!;
        re[i] = re[j]!;
        re[j] = r;
        const m = im[i]!;
        im[i] = im[j]!;
        im[j] = m;
      }
    }
    const sign = inverse ? -1 : 1;
    for (let length = 2; length <= size; length <<= 1) {
      const half = length >> 1;
      const stride = size / length;
      for (let start = 0; start < size; start += length) {
        for (let k = 0; k < half; k++) {
          const wr = twiddleRe[k * stride]!;
          const wi = sign * twiddleIm[k * stride]!;
          const a = start + k;
          const b = a + half;
          const br = re[b]! * wr - im[b]! * wi;
          const bi = re[b]! * wi + im[b]! * wr;
          re[b] = re[a]! - br;
          im[b] = im[a]! - bi;
          re[a] = re[a]! + br;
          im[a] = im[a]! + bi;
        }
      }
    }
  }
}
