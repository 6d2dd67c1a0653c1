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
