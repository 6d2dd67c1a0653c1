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
