/**
 * Placing nodes next to their parent: how the host starts a layout for the
 * nodes without a saved position, and how the engine starts afresh or
 * places again a node thrown far out (start.ts). Nothing of TensorFlow.js
 * here: the host imports this module (`@strata/extension-gpu-layout/placement`).
 */

/** Numbers in [-1, 1), the same sequence for a seed (xorshift32). */
export function seededRandom(seed: number): () => number {
  let state = (seed * 2654435761) >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) / 4294967296) * 2 - 1;
  };
}

/**
 * Gives every node not yet `placed` a position within a unit of its
 * parent's in each coordinate, the parent placed first; a node without a
 * parent (or at the end of a chain 256 deep) where `root()` says. Marks each
 * placed. `initial` holds x, y pairs.
 */
export function placeNearParents(
  initial: Float32Array,
  placed: Uint8Array,
  parent: ArrayLike<number> | undefined,
  random: () => number,
  root: () => [number, number],
): void {
  const place = (i: number, depth = 0): void => {
    if (placed[i]) return;
    const p = parent?.[i] ?? -1;
    if (p >= 0 && p !== i && depth < 256) {
      place(p, depth + 1);
      initial[2 * i] = initial[2 * p]! + random();
      initial[2 * i + 1] = initial[2 * p + 1]! + random();
    } else {
      const [x, y] = root();
      initial[2 * i] = x;
      initial[2 * i + 1] = y;
    }
    placed[i] = 1;
  };
  for (let i = 0; i < placed.length; i++) place(i);
}

/** What `placeLocally` reads of the graph around the nodes it places. */
export interface LocalGraph {
  /** The node's position: saved, or given by this placement. */
  position(id: string): { x: number; y: number } | undefined;
  /** The containing node's id. */
  parent(id: string): string | undefined;
  /** The nodes linked to this one by an edge either way, with the edge's weight (contains 1, imports 0.25). */
  neighbours(id: string): ReadonlyArray<{ id: string; weight: number }>;
  /** The nodes this one contains. */
  children(id: string): readonly string[];
}

/** Iterations of the local refinement. */
const LOCAL_ITERATIONS = 40;
/** Nodes around a placed node that push it away: its neighbours, and at most this many of its siblings. */
const LOCAL_CONTEXT = 64;
/**
 * Pushes computed in one placement, at most (25 to 50 ms of the server's thread): a branch switch that adds
 * thousands of files at once gets fewer siblings each, and none past 3,125 new nodes (under 4 each: they are then
 * only put next to their parent). Unbounded, 8,272 new nodes took 3.5 s (bench:live).
 */
const LOCAL_WORK = 500_000;

/**
 * Places nodes the graph gained into a saved layout without a new
 * computation: each starts next to its parent (placed first when it is new
 * too; with no parent placed, at the mean of its placed neighbours), then a
 * short refinement of the same forces as the engine's (springs along edges,
 * a push from nearby nodes: siblings, new ones included, and neighbours)
 * moves the new nodes alone: every saved position stays where it is. The
 * unit is the layout's own: the median distance from a placed file or
 * directory to its parent, around the new nodes.
 */
export function placeLocally(fresh: readonly string[], given: LocalGraph, seed = 1): Map<string, { x: number; y: number }> {
  const graph = remembered(given);
  const placed = new Map<string, { x: number; y: number }>();
  const at = (id: string): { x: number; y: number } | undefined => placed.get(id) ?? graph.position(id);
  const isFresh = new Set(fresh);
  const random = seededRandom(seed);
  // The layout's unit around the new nodes: from each of their parents' placed children (each parent once).
  const spans: number[] = [];
  const parents = new Set<string>();
  for (const id of fresh) {
    const parent = graph.parent(id);
    if (parent !== undefined) parents.add(parent);
  }
  for (const parent of parents) {
    const parentAt = graph.position(parent);
    if (!parentAt) continue;
    for (const child of graph.children(parent).slice(0, LOCAL_CONTEXT)) {
      const childAt = isFresh.has(child) ? undefined : graph.position(child);
      if (childAt) spans.push(Math.hypot(childAt.x - parentAt.x, childAt.y - parentAt.y));
    }
  }
  spans.sort((a, b) => a - b);
  const unit = spans.length > 0 ? Math.max(spans[Math.floor(spans.length / 2)]!, 1e-6) : 1;
  // Start: next to the parent, parents first.
  const start = (id: string, depth: number): { x: number; y: number } => {
    const known = at(id);
    if (known) return known;
    const parent = graph.parent(id);
    let anchor: { x: number; y: number } | undefined;
    if (parent !== undefined && depth < 256 && (isFresh.has(parent) || graph.position(parent))) anchor = start(parent, depth + 1);
    if (!anchor) {
      const around: Array<{ x: number; y: number }> = [];
      for (const { id: other } of graph.neighbours(id)) {
        const otherAt = isFresh.has(other) ? undefined : graph.position(other);
        if (otherAt) around.push(otherAt);
      }
      anchor = around.length > 0 ? { x: mean(around.map((p) => p.x)), y: mean(around.map((p) => p.y)) } : { x: 0, y: 0 };
    }
    const angle = Math.PI * random();
    const position = { x: anchor.x + unit * Math.cos(angle), y: anchor.y + unit * Math.sin(angle) };
    placed.set(id, position);
    return position;
  };
  for (const id of fresh) start(id, 0);
  // Refinement: the new nodes move, nothing else.
  const siblings = Math.min(LOCAL_CONTEXT, Math.floor(LOCAL_WORK / (fresh.length * LOCAL_ITERATIONS)));
  if (siblings < 4) return placed;
  // What acts on each new node, resolved once to numbers: another new node by its index, a saved one by its
  // position (it does not move). Looked up by id in the loop, 7,158 new nodes took 700 ms.
  const index = new Map(fresh.map((id, k) => [id, k]));
  const xs = Float64Array.from(fresh, (id) => placed.get(id)!.x);
  const ys = Float64Array.from(fresh, (id) => placed.get(id)!.y);
  const resolve = (ids: readonly string[], weights?: readonly number[]): Links => {
    const links: Links = { moving: [], movingWeight: [], fixedX: [], fixedY: [], fixedWeight: [] };
    ids.forEach((other, j) => {
      const k = index.get(other);
      const weight = weights?.[j] ?? 1;
      const otherAt = k === undefined ? graph.position(other) : undefined;
      if (k !== undefined) {
        links.moving.push(k);
        links.movingWeight.push(weight);
      } else if (otherAt) {
        links.fixedX.push(otherAt.x);
        links.fixedY.push(otherAt.y);
        links.fixedWeight.push(weight);
      }
    });
    return links;
  };
  const springs: Links[] = [];
  const pushes: Links[] = [];
  for (const id of fresh) {
    const neighbours = graph.neighbours(id);
    springs.push(
      resolve(
        neighbours.map((n) => n.id),
        neighbours.map((n) => n.weight),
      ),
    );
    const parent = graph.parent(id);
    const around = new Set<string>(neighbours.map((n) => n.id));
    if (parent !== undefined) for (const sibling of graph.children(parent).slice(0, siblings)) around.add(sibling);
    around.delete(id);
    pushes.push(resolve([...around]));
  }
  for (let iteration = 0; iteration < LOCAL_ITERATIONS; iteration++) {
    const step = unit * (0.5 - (0.45 * iteration) / (LOCAL_ITERATIONS - 1));
    for (let k = 0; k < fresh.length; k++) {
      const sx = xs[k]!;
      const sy = ys[k]!;
      let fx = 0;
      let fy = 0;
      const spring = springs[k]!;
      for (let j = 0; j < spring.moving.length; j++) {
        const m = spring.moving[j]!;
        fx += ((xs[m]! - sx) * spring.movingWeight[j]!) / unit;
        fy += ((ys[m]! - sy) * spring.movingWeight[j]!) / unit;
      }
      for (let j = 0; j < spring.fixedX.length; j++) {
        fx += ((spring.fixedX[j]! - sx) * spring.fixedWeight[j]!) / unit;
        fy += ((spring.fixedY[j]! - sy) * spring.fixedWeight[j]!) / unit;
      }
      // The push of the nodes around, averaged: as strong as one spring a unit long wherever the node has landed,
      // so that it settles about a unit from its parent, away from where its siblings crowd.
      const around = pushes[k]!;
      const push = 2 / Math.max(1, around.moving.length + around.fixedX.length);
      const pushFrom = (ox: number, oy: number): void => {
        const dx = (sx - ox) / unit;
        const dy = (sy - oy) / unit;
        const d2 = dx * dx + dy * dy + 0.01;
        fx += (push * dx) / d2;
        fy += (push * dy) / d2;
      };
      for (let j = 0; j < around.moving.length; j++) pushFrom(xs[around.moving[j]!]!, ys[around.moving[j]!]!);
      for (let j = 0; j < around.fixedX.length; j++) pushFrom(around.fixedX[j]!, around.fixedY[j]!);
      const length = Math.hypot(fx, fy);
      if (length === 0) continue;
      const move = step / Math.max(length, 1);
      xs[k] = sx + fx * move;
      ys[k] = sy + fy * move;
    }
  }
  fresh.forEach((id, k) => {
    placed.set(id, { x: xs[k]!, y: ys[k]! });
  });
  return placed;
}

/** The nodes acting on one new node: other new nodes by index, saved ones by position, each with a weight. */
interface Links {
  moving: number[];
  movingWeight: number[];
  fixedX: number[];
  fixedY: number[];
  fixedWeight: number[];
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** The graph with each node's neighbours and children read once: a directory's children are asked for each new file in it. */
function remembered(graph: LocalGraph): LocalGraph {
  const neighbours = new Map<string, ReturnType<LocalGraph['neighbours']>>();
  const children = new Map<string, readonly string[]>();
  return {
    position: (id) => graph.position(id),
    parent: (id) => graph.parent(id),
    neighbours: (id) => neighbours.get(id) ?? neighbours.set(id, graph.neighbours(id)).get(id)!,
    children: (id) => children.get(id) ?? children.set(id, graph.children(id)).get(id)!,
  };
}
