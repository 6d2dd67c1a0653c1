/**
 * How good a layout is, measured the same way by the tests and the
 * benchmark, deterministic for a seed:
 *
 * - **normalized stress** on sampled pairs: graph distances by BFS (hops,
 *   edges taken both ways) from `sources` sampled nodes to every node they
 *   reach; layout distances scaled by the factor that fits them best; the
 *   mean of ((scaled layout distance - graph distance) / graph distance)².
 *   0 is perfect; lower is better.
 * - **neighbourhood preservation**: for the same sampled nodes, the share of
 *   a node's graph neighbours that are among its k nearest nodes in the
 *   layout (k = its degree, at most `k`). 1 is perfect; higher is better.
 */
export interface QualityOptions {
  /** Nodes sampled as BFS sources and for neighbourhoods (default 64). */
  sources?: number;
  /** Largest neighbourhood compared (default 10). */
  k?: number;
  /** Seed of the sample (default 1). */
  seed?: number;
}

export interface LayoutQuality {
  stress: number;
  neighbourhood: number;
}

export function layoutQuality(
  nodeCount: number,
  edgeSource: Int32Array,
  edgeTarget: Int32Array,
  positions: ArrayLike<number>,
  options: QualityOptions = {},
): LayoutQuality {
  const n = nodeCount;
  if (n < 2) return { stress: 0, neighbourhood: 1 };
  // Undirected adjacency as compressed rows.
  const degree = new Int32Array(n);
  for (let e = 0; e < edgeSource.length; e++) {
    degree[edgeSource[e]!]!++;
    degree[edgeTarget[e]!]!++;
  }
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i]! + degree[i]!;
  const fill = offsets.slice(0, n);
  const neighbours = new Int32Array(offsets[n]!);
  for (let e = 0; e < edgeSource.length; e++) {
    neighbours[fill[edgeSource[e]!]!++] = edgeTarget[e]!;
    neighbours[fill[edgeTarget[e]!]!++] = edgeSource[e]!;
  }
  let state = ((options.seed ?? 1) * 2654435761) >>> 0 || 1;
  const random = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const sampleCount = Math.min(n, options.sources ?? 64);
  const sample: number[] = [];
  const chosen = new Set<number>();
  while (sample.length < sampleCount) {
    const node = Math.floor(random() * n);
    if (!chosen.has(node)) {
      chosen.add(node);
      sample.push(node);
    }
  }
  const x = (i: number): number => positions[2 * i]!;
  const y = (i: number): number => positions[2 * i + 1]!;

  // Stress: collect (graph distance, layout distance) pairs.
  const graphDistances: number[] = [];
  const layoutDistances: number[] = [];
  const hops = new Int32Array(n);
  const queue = new Int32Array(n);
  for (const source of sample) {
    hops.fill(-1);
    hops[source] = 0;
    let head = 0;
    let tail = 0;
    queue[tail++] = source;
    while (head < tail) {
      const node = queue[head++]!;
      for (let k = offsets[node]!; k < offsets[node + 1]!; k++) {
        const next = neighbours[k]!;
        if (hops[next] !== -1) continue;
        hops[next] = hops[node]! + 1;
        queue[tail++] = next;
      }
    }
    for (let k = 1; k < tail; k++) {
      const node = queue[k]!;
      graphDistances.push(hops[node]!);
      layoutDistances.push(Math.hypot(x(node) - x(source), y(node) - y(source)));
    }
  }
  let numerator = 0;
  let denominator = 0;
  for (let p = 0; p < graphDistances.length; p++) {
    numerator += layoutDistances[p]! / graphDistances[p]!;
    denominator += (layoutDistances[p]! * layoutDistances[p]!) / (graphDistances[p]! * graphDistances[p]!);
  }
  const scale = denominator > 0 ? numerator / denominator : 0;
  let stress = 0;
  for (let p = 0; p < graphDistances.length; p++) {
    const relative = (scale * layoutDistances[p]! - graphDistances[p]!) / graphDistances[p]!;
    stress += relative * relative;
  }
  stress = graphDistances.length > 0 ? stress / graphDistances.length : 0;

  // Neighbourhood preservation.
  const kMax = options.k ?? 10;
  let overlapSum = 0;
  let counted = 0;
  const distances = new Float64Array(n);
  for (const node of sample) {
    const own = new Set<number>();
    for (let k = offsets[node]!; k < offsets[node + 1]!; k++) if (neighbours[k] !== node) own.add(neighbours[k]!);
    if (own.size === 0) continue;
    const k = Math.min(kMax, own.size);
    for (let other = 0; other < n; other++) distances[other] = other === node ? Infinity : (x(other) - x(node)) ** 2 + (y(other) - y(node)) ** 2;
    // The k nearest by partial selection.
    const nearest: number[] = [];
    for (let other = 0; other < n; other++) {
      if (other === node) continue;
      if (nearest.length < k) {
        nearest.push(other);
        nearest.sort((a, b) => distances[a]! - distances[b]!);
      } else if (distances[other]! < distances[nearest[k - 1]!]!) {
        nearest[k - 1] = other;
        nearest.sort((a, b) => distances[a]! - distances[b]!);
      }
    }
    let overlap = 0;
    for (const other of nearest) if (own.has(other)) overlap++;
    overlapSum += overlap / k;
    counted++;
  }
  return { stress, neighbourhood: counted > 0 ? overlapSum / counted : 1 };
}

/**
 * **Region purity**: the share of files that lie closer to the centroid of
 * their own directory (the mean position of the files below it, at any
 * depth) than to the centroid of any sibling directory (another child of
 * the same parent). Files of a directory without sibling directories are
 * not counted; 1 when none is. 1 is perfect: each directory reads as a
 * region of its own.
 *
 * `parent` is the containment tree (-1 for a root); `isFile` says which
 * nodes are files (the others with children are directories).
 */
export function regionPurity(parent: Int32Array, isFile: Uint8Array, positions: ArrayLike<number>): number {
  const n = parent.length;
  const sumX = new Float64Array(n);
  const sumY = new Float64Array(n);
  const count = new Float64Array(n);
  for (let f = 0; f < n; f++) {
    if (!isFile[f]) continue;
    for (let d = parent[f]!, depth = 0; d >= 0 && depth < 256; d = parent[d]!, depth++) {
      sumX[d]! += positions[2 * f]!;
      sumY[d]! += positions[2 * f + 1]!;
      count[d]!++;
    }
  }
  // Each directory's sibling directories: the children with files of the same parent.
  const children = new Map<number, number[]>();
  for (let d = 0; d < n; d++) {
    if (isFile[d] || count[d] === 0 || parent[d]! < 0) continue;
    const siblings = children.get(parent[d]!) ?? [];
    siblings.push(d);
    children.set(parent[d]!, siblings);
  }
  let counted = 0;
  let pure = 0;
  for (let f = 0; f < n; f++) {
    const own = parent[f]!;
    if (!isFile[f] || own < 0 || parent[own]! < 0) continue;
    const siblings = children.get(parent[own]!);
    if (!siblings || siblings.length < 2) continue;
    const x = positions[2 * f]!;
    const y = positions[2 * f + 1]!;
    const distance = (d: number): number => Math.hypot(x - sumX[d]! / count[d]!, y - sumY[d]! / count[d]!);
    const mine = distance(own);
    counted++;
    if (siblings.every((d) => d === own || distance(d) > mine)) pure++;
  }
  return counted === 0 ? 1 : pure / counted;
}

/** How a layout is drawn for `nodeOverlap`: fitted into a square of `fitPixels`, each node a disc of `radiusPixels`. */
export interface DrawnSize {
  fitPixels: number;
  radiusPixels: number;
}

/** The web UI's map at 1280x800: about 800 pixels for the picture, files drawn 2.5 to 7 pixels wide; 3 for all. */
export const UI_DRAWN_SIZE: DrawnSize = { fitPixels: 800, radiusPixels: 3 };

/**
 * **Node overlap**: the share of pairs of nodes whose discs overlap when the
 * layout is drawn at `size` (its bounding box, from the 1st to the 99th
 * percentile of each coordinate, fitted into the square). 0 is perfect.
 * Counted on a grid of cells one diameter wide, so linear in n.
 */
export function nodeOverlap(positions: ArrayLike<number>, size: DrawnSize = UI_DRAWN_SIZE): { share: number; pairs: number } {
  const n = positions.length / 2;
  if (n < 2) return { share: 0, pairs: 0 };
  const box = percentileBox(positions);
  const extent = Math.max(box.width, box.height, 1e-12);
  const diameter = (2 * size.radiusPixels * extent) / size.fitPixels;
  const cells = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const key = `${Math.floor(positions[2 * i]! / diameter)},${Math.floor(positions[2 * i + 1]! / diameter)}`;
    const cell = cells.get(key);
    if (cell) cell.push(i);
    else cells.set(key, [i]);
  }
  let pairs = 0;
  for (let i = 0; i < n; i++) {
    const cx = Math.floor(positions[2 * i]! / diameter);
    const cy = Math.floor(positions[2 * i + 1]! / diameter);
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++)
        for (const j of cells.get(`${cx + dx},${cy + dy}`) ?? []) {
          if (j > i && Math.hypot(positions[2 * i]! - positions[2 * j]!, positions[2 * i + 1]! - positions[2 * j + 1]!) < diameter) pairs++;
        }
  }
  return { share: pairs / ((n * (n - 1)) / 2), pairs };
}

/**
 * **Stability**: the mean displacement of `nodes` from `before` to `after`,
 * as a share of the diagonal of `before`'s bounding box (1st to 99th
 * percentile). 0 is perfect: nothing the change did not touch moved.
 */
export function meanDisplacement(before: ArrayLike<number>, after: ArrayLike<number>, nodes: ArrayLike<number>): number {
  const box = percentileBox(before);
  const diagonal = Math.max(Math.hypot(box.width, box.height), 1e-12);
  let total = 0;
  for (let k = 0; k < nodes.length; k++) {
    const i = nodes[k]!;
    total += Math.hypot(after[2 * i]! - before[2 * i]!, after[2 * i + 1]! - before[2 * i + 1]!);
  }
  return nodes.length === 0 ? 0 : total / nodes.length / diagonal;
}

/**
 * The size of a picture, its far outliers left out: the box from the 1st to
 * the 99th percentile of each coordinate (what the measures above and the
 * overlap removal fit into the drawn picture), and its lower corner (`left`,
 * `bottom`).
 */
export function percentileBox(positions: ArrayLike<number>): { width: number; height: number; left: number; bottom: number } {
  const n = positions.length / 2;
  const values = new Float64Array(n);
  const low = Math.min(n - 1, Math.floor(0.01 * n));
  const high = Math.min(n - 1, Math.floor(0.99 * n));
  // The 1st and 99th percentiles of a column.
  const percentiles = (column: number): [number, number] => {
    let nan = false;
    for (let i = 0; i < n; i++) {
      values[i] = positions[2 * i + column]!;
      if (Number.isNaN(values[i]!)) nan = true;
    }
    // The two order statistics found in linear time (the overlap removal asks for them every pass); a sort where
    // there is a NaN, which sorts last.
    if (nan || n === 0) values.sort();
    else {
      select(values, high, 0, n);
      select(values, low, 0, high);
    }
    return [values[low]!, values[high]!];
  };
  const [left, right] = percentiles(0);
  const [bottom, top] = percentiles(1);
  return { width: right - left, height: top - bottom, left, bottom };
}

/** Puts the k-th smallest of `values[from, to)` at `k`, the smaller ones before it and the larger after (Hoare). */
function select(values: Float64Array, k: number, from: number, to: number): void {
  let low = from;
  let high = to - 1;
  while (high > low) {
    const a = values[low]!;
    const b = values[(low + high) >>> 1]!;
    const c = values[high]!;
    const pivot = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c)); // the median of three
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i++] = values[j]!;
        values[j--] = swap;
      }
    }
    if (k <= j) high = j;
    else if (k >= i) low = i;
    else return;
  }
}
