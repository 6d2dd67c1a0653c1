/**
 * The start of a layout, brought to the engine's units whatever it came in.
 * A saved layout may have been posted by a client in its own units (any
 * scale, anywhere), have a few nodes thrown far out, or have every node at
 * one point; the forces' steps are sized for the engine's own pictures, so
 * such a start was used as it was and the result could be worse than the
 * start (issue 22: a start ten times too large ended at stress 0.448 where
 * the start itself had 0.229).
 *
 * - When its size (the median distance of a node from the median of each
 *   coordinate) is more than 4 times larger or 16 times smaller than the
 *   engine's own results (`START_RADIUS_PER_ROOT_N` times the square root
 *   of n), the start is moved to the origin and scaled to that size; when it
 *   lies far from the origin, where gravity pulls, it is moved there. A
 *   start of the engine's own (a saved result, the host's fresh start) is
 *   left as it is: the engine's paths are tuned on those.
 *   Stress and neighbourhood do not depend on scale, so a good layout stays
 *   as good. The result is moved and scaled back (`restore`): a refined
 *   layout stays in its own units, where its nodes were.
 * - A node further out than `OUTLIER_FACTOR` times the distance within
 *   which nine nodes in ten lie is an outlier: it is placed again next to
 *   its parent (or at the origin) and counts as not placed.
 * - A start with fewer than two distinct positions, or whose nodes lie
 *   within a rounding error of each other, is degenerate: the engine starts
 *   afresh, each node next to its parent as the host places nodes.
 * - Every start gets a jitter far below a unit, so that no two nodes
 *   coincide: the push between coincident nodes has no direction, and they
 *   would never part.
 */
import type { LayoutInput } from './layout-engine.js';
import { placeNearParents, seededRandom } from './placement.js';

/** The median distance from the center of a start, per square root of n (a fresh result at 1,000 nodes: about 0.34). */
const START_RADIUS_PER_ROOT_N = 0.35;
/** Outliers: further out than this many times the distance within which nine nodes in ten lie. */
const OUTLIER_FACTOR = 5;
/** A start up to this many times larger than the engine's size (or its square smaller) keeps its scale. */
const MAX_SIZE_RATIO = 4;
/** The jitter that parts coincident nodes, in units (neighbours end about a unit apart). */
const JITTER = 1e-3;

/** What `normalizedStart` gives the engine. */
export interface NormalizedStart {
  initial: Float32Array;
  /** 1 for a node whose start was kept; undefined when the start was given up (degenerate). */
  placed: Uint8Array | undefined;
  /**
   * The engine's result back in the start's own units and place (the inverse of the move and scale), so that
   * a refined layout stays where its nodes were; a start given up has no units to go back to.
   */
  restore(positions: Float32Array): Float32Array;
}

const AS_IS = (positions: Float32Array): Float32Array => positions;

/** The start of `input` in the engine's units (see the module's comment). */
export function normalizedStart(input: LayoutInput): NormalizedStart {
  const n = input.nodeCount;
  // Another sequence than the host's own start for the same seed.
  const random = seededRandom(input.seed + 0x9e3779b9);
  if (n === 0) return { initial: new Float32Array(0), placed: input.placed, restore: AS_IS };
  // Which nodes' positions say something: the placed ones when the host says which, every finite one otherwise.
  // (Fewer than two placed: a fresh start the host made, whose every position says something.)
  const counts = new Uint8Array(n);
  let placedCount = 0;
  for (let i = 0; i < n; i++) placedCount += input.placed?.[i] === 1 && isFinitePosition(input, i) ? 1 : 0;
  for (let i = 0; i < n; i++) counts[i] = isFinitePosition(input, i) && (placedCount < 2 || input.placed?.[i] === 1) ? 1 : 0;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!counts[i]) continue;
    xs.push(input.initial[2 * i]!);
    ys.push(input.initial[2 * i + 1]!);
  }
  const mx = quantile(xs, 0.5);
  const my = quantile(ys, 0.5);
  const distances = xs.map((x, k) => Math.hypot(x - mx, ys[k]! - my));
  const radius = quantile(distances, 0.5);
  const ninetieth = quantile(distances, 0.9);
  // Float32 positions near 1e6 are 0.06 apart at best: a spread under a millionth of the center's size is noise.
  const noise = 1e-6 * Math.max(1, Math.abs(mx), Math.abs(my));
  // Fewer than two nodes with a position, or all of them at one point: there is nothing to keep.
  if (xs.length < 2 || ninetieth <= noise) return freshStart(input, random);

  // Scaled only when the start is far from the engine's size: the host's own fresh start (each node next to
  // its parent) is smaller than a result by design, and the engine's fresh path is tuned on it.
  const target = START_RADIUS_PER_ROOT_N * Math.sqrt(n);
  const size = Math.max(radius, ninetieth / 4);
  const scale = size > target * MAX_SIZE_RATIO || size < target / MAX_SIZE_RATIO ** 2 ? target / size : 1;
  // Moved to the origin (where gravity pulls) only when it is far from it, for the same reason.
  const far = Math.hypot(mx, my) > MAX_SIZE_RATIO * Math.max(size, target);
  const cx = far || scale !== 1 ? mx : 0;
  const cy = far || scale !== 1 ? my : 0;
  const initial = new Float32Array(2 * n);
  const placed = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const x = input.initial[2 * i]!;
    const y = input.initial[2 * i + 1]!;
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (Math.hypot(x - mx, y - my) > OUTLIER_FACTOR * ninetieth) continue;
    initial[2 * i] = (x - cx) * scale + JITTER * random();
    initial[2 * i + 1] = (y - cy) * scale + JITTER * random();
    // Kept where it is, moved and scaled; placed (1) when the host said so, else (2) only not to be placed again.
    placed[i] = input.placed?.[i] === 1 ? 1 : 2;
  }
  // Outliers and nodes without a finite position go next to their parent (a root: the middle of the picture).
  const done = Uint8Array.from(placed, (flag) => (flag ? 1 : 0));
  placeNearParents(initial, done, input.parent, random, () => [(mx - cx) * scale + random(), (my - cy) * scale + random()]);
  for (let i = 0; i < n; i++) placed[i] = placed[i] === 1 ? 1 : 0;
  return {
    initial,
    placed: input.placed ? placed : undefined,
    restore: (positions) => {
      const restored = new Float32Array(positions.length);
      for (let i = 0; i < positions.length; i += 2) {
        restored[i] = positions[i]! / scale + cx;
        restored[i + 1] = positions[i + 1]! / scale + cy;
      }
      return restored;
    },
  };
}

/** Every node next to its parent, a root at random within the square root of n: the host's placement. */
function freshStart(input: LayoutInput, random: () => number): NormalizedStart {
  const n = input.nodeCount;
  const initial = new Float32Array(2 * n);
  const spread = Math.sqrt(n);
  placeNearParents(initial, new Uint8Array(n), input.parent, random, () => [random() * spread, random() * spread]);
  return { initial, placed: undefined, restore: AS_IS };
}

function isFinitePosition(input: LayoutInput, i: number): boolean {
  return Number.isFinite(input.initial[2 * i]!) && Number.isFinite(input.initial[2 * i + 1]!);
}

/** The q-quantile of `values` (0.5: the median); 0 for none. */
function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
