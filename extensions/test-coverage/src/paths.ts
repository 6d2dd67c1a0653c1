/**
 * Mapping the file names of a Cobertura report onto the graph's files.
 *
 * A `<class filename>` is relative to one of the report's `<sources>`, which
 * are usually absolute paths on the machine that ran the tests. Neither has
 * to exist here: a report path matches a graph file when one of the two is a
 * trailing run of path segments of the other (`/ci/repo/src/a.ts` and
 * `src/a.ts`), the longest shared run winning.
 */

/** Path segments of a path, `\` taken as `/`, without empty and `.` segments, `..` applied where it can be. */
export function segmentsOf(path: string): string[] {
  const segments: string[] = [];
  for (const segment of path.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
    else segments.push(segment);
  }
  return segments;
}

/** Whether a report path is absolute: `/x`, `\\server\x`, `C:\x` or `C:/x`. */
export function isAbsolutePath(path: string): boolean {
  return /^([/\\]|[A-Za-z]:[/\\])/.test(path);
}

/**
 * The paths a class file name may stand for, in order of preference: the
 * file name under each source in the report's order, then the file name
 * alone. An absolute file name stands for itself only.
 */
export function candidatePaths(filename: string, sources: readonly string[]): string[][] {
  const own = segmentsOf(filename);
  if (isAbsolutePath(filename)) return [own];
  const candidates = sources.map((source) => segmentsOf(`${source}/${filename}`));
  candidates.push(own);
  return candidates;
}

/** What a report path was mapped to: a graph node index, or why not. */
export type MatchOutcome = { node: number } | { node: -1; ambiguous: boolean };

/** The graph's files, indexed by file name, for suffix matching. */
export class FileIndex {
  private readonly byName = new Map<string, Array<{ node: number; segments: string[] }>>();

  /** `files`: node index and repository-relative path of every file node. */
  constructor(files: Iterable<{ node: number; path: string }>) {
    for (const { node, path } of files) {
      const segments = segmentsOf(path);
      const name = segments[segments.length - 1];
      if (name === undefined) continue;
      let list = this.byName.get(name);
      if (!list) this.byName.set(name, (list = []));
      list.push({ node, segments });
    }
  }

  /**
   * The graph file one candidate path stands for, with the number of
   * trailing segments they share (`score`):
   * - a graph file whose whole path ends the candidate (the repository root
   *   is a folder of the candidate) shares its whole path;
   * - a graph file whose path ends with the whole candidate (the candidate
   *   is relative and shorter) shares the whole candidate; more than one such
   *   file is ambiguous, unless one of them is the candidate exactly;
   * - files that share some trailing segments and then differ do not match.
   */
  matchOne(candidate: readonly string[]): { node: number; score: number; ambiguous: boolean } | undefined {
    const name = candidate[candidate.length - 1];
    const list = name === undefined ? undefined : this.byName.get(name);
    if (!list) return undefined;
    let contained: { node: number; score: number } | undefined;
    let extending = -1;
    let extendingCount = 0;
    for (const file of list) {
      const common = sharedTail(candidate, file.segments);
      if (common === file.segments.length) {
        if (!contained || common > contained.score) contained = { node: file.node, score: common };
      } else if (common === candidate.length) {
        extending = file.node;
        extendingCount++;
      }
    }
    if (contained && contained.score === candidate.length) return { node: contained.node, score: contained.score, ambiguous: false };
    if (extendingCount === 1) return { node: extending, score: candidate.length, ambiguous: false };
    if (extendingCount > 1) return { node: -1, score: candidate.length, ambiguous: true };
    return contained && { node: contained.node, score: contained.score, ambiguous: false };
  }

  /**
   * The graph file a class file name stands for: over every candidate path
   * (see `candidatePaths`), the match sharing the most trailing segments;
   * between equal matches, the first candidate (the first source, as
   * Cobertura readers take the first source under which the file exists).
   */
  match(filename: string, sources: readonly string[]): MatchOutcome {
    let best: { node: number; score: number; ambiguous: boolean } | undefined;
    for (const candidate of candidatePaths(filename, sources)) {
      const found = this.matchOne(candidate);
      if (found && (!best || found.score > best.score)) best = found;
    }
    if (!best) return { node: -1, ambiguous: false };
    return best.ambiguous ? { node: -1, ambiguous: true } : { node: best.node };
  }
}

function sharedTail(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}
