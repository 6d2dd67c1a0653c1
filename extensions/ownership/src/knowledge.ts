/**
 * Where the knowledge of a file or directory lies, from its lines per
 * author (git blame): how many authors hold most of it, and how many would
 * have to leave before most of it has no active author.
 */

/**
 * The fewest authors, taken from the one with the most lines down, whose
 * lines make at least 80 % of `lines` (the lines per author of one node);
 * 0 when there are no lines.
 */
export function authorsFor80Percent(lines: readonly number[]): number {
  const sorted = [...lines].sort((a, b) => b - a);
  const total = sorted.reduce((sum, n) => sum + n, 0);
  let held = 0;
  for (let count = 0; count < sorted.length; count++) {
    held += sorted[count]!;
    // held / total >= 80 %, in integers.
    if (held * 5 >= total * 4) return count + 1;
  }
  return 0;
}

/**
 * The truck factor of a node: the fewest active authors whose departure
 * leaves more than half of its lines without an active author. Lines of
 * authors already inactive (`inactiveLines`) have none from the start, so a
 * node whose active authors hold at most half its lines has 0. Greedy, as
 * Avelino et al.'s algorithm is: the active author with the most lines
 * leaves first. `activeLines` are the lines of each active author.
 */
export function truckFactor(activeLines: readonly number[], inactiveLines: number): number {
  const sorted = [...activeLines].sort((a, b) => b - a);
  const total = sorted.reduce((sum, n) => sum + n, inactiveLines);
  let orphaned = inactiveLines;
  let gone = 0;
  // More than half without an active author: orphaned / total > 1/2.
  while (orphaned * 2 <= total && gone < sorted.length) orphaned += sorted[gone++]!;
  return gone;
}
