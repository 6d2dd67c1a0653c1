/**
 * Change coupling as Code Maat's `coupling` and `soc` analyses define it
 * (src/code_maat/analysis/coupling_algos.clj, logical_coupling.clj,
 * sum_of_coupling.clj):
 *
 * - a commit is the set of files it touched; a commit touching more than
 *   `maxChangesetSize` files is left out of every figure;
 * - revisions(f): the commits left that touch f;
 * - shared(a, b): the commits left that touch both;
 * - degree(a, b) = shared / ((revisions(a) + revisions(b)) / 2), in percent;
 * - a pair is reported when the average revisions are at least
 *   `minRevisions`, shared at least `minSharedRevisions`, the degree at least
 *   `minCoupling` and, rounded down, at most `maxCoupling`;
 * - sum of coupling(f): over the commits left that touch f, the other files
 *   each touched (the shared revisions of all f's pairs, before any threshold).
 *
 * Unlike Code Maat, which reads `git log --no-renames`, a file's commits
 * under an earlier name count for it (renames followed).
 */
import { forEachChange } from '@strata/extension-git-activity/src/history.ts';
import type { GitCommit } from '@strata/sdk';

/** The thresholds of the analysis, with Code Maat's defaults. */
export interface CouplingOptions {
  minRevisions: number;
  minSharedRevisions: number;
  minCoupling: number;
  maxCoupling: number;
  maxChangesetSize: number;
}

/** Code Maat's defaults (its README and `default-opts`). */
export const CODE_MAAT_DEFAULTS: CouplingOptions = { minRevisions: 5, minSharedRevisions: 5, minCoupling: 30, maxCoupling: 100, maxChangesetSize: 30 };

/** Two files that change together, `a` before `b` in code-unit order. */
export interface CoupledPair {
  a: string;
  b: string;
  /** Commits touching both. */
  shared: number;
  /** The mean of the two files' commits. */
  averageRevisions: number;
  /** shared / averageRevisions, in percent, unrounded. */
  degree: number;
}

/** What the analysis found. */
export interface Coupling {
  /** The pairs within the thresholds, strongest first (degree, then shared commits, then names). */
  pairs: CoupledPair[];
  /** Commits of each file (those left in). */
  revisions: Map<string, number>;
  /** Sum of coupling of each file that changed with another. */
  sumOfCoupling: Map<string, number>;
  /** Commits that touched a file (a merge lists none), and those left out for touching more than `maxChangesetSize` files. */
  commits: number;
  leftOut: number;
}

/** Each commit's files by their current paths (renames followed), once each. */
export function changeSets(commits: GitCommit[]): string[][] {
  const sets = new Map<GitCommit, Set<string>>();
  forEachChange(commits, (commit, _file, current) => {
    let set = sets.get(commit);
    if (!set) sets.set(commit, (set = new Set()));
    set.add(current);
  });
  return [...sets.values()].map((set) => [...set].sort(compare));
}

/** The coupling of the files of `sets` (each commit's files, as `changeSets` gives them). */
export function coupling(sets: string[][], options: CouplingOptions): Coupling {
  const revisions = new Map<string, number>();
  const sumOfCoupling = new Map<string, number>();
  const shared = new Map<string, Map<string, number>>();
  let leftOut = 0;
  for (const files of sets) {
    if (files.length > options.maxChangesetSize) {
      leftOut++;
      continue;
    }
    for (const file of files) revisions.set(file, (revisions.get(file) ?? 0) + 1);
    if (files.length < 2) continue;
    for (let i = 0; i < files.length; i++) {
      const a = files[i]!;
      sumOfCoupling.set(a, (sumOfCoupling.get(a) ?? 0) + files.length - 1);
      let row = shared.get(a);
      if (!row) shared.set(a, (row = new Map()));
      for (let j = i + 1; j < files.length; j++) row.set(files[j]!, (row.get(files[j]!) ?? 0) + 1);
    }
  }
  const pairs: CoupledPair[] = [];
  for (const [a, row] of shared) {
    for (const [b, count] of row) {
      const averageRevisions = (revisions.get(a)! + revisions.get(b)!) / 2;
      const degree = (count / averageRevisions) * 100;
      if (averageRevisions < options.minRevisions || count < options.minSharedRevisions) continue;
      if (degree < options.minCoupling || Math.floor(degree) > options.maxCoupling) continue;
      pairs.push({ a, b, shared: count, averageRevisions, degree });
    }
  }
  pairs.sort((x, y) => y.degree - x.degree || y.shared - x.shared || compare(x.a, y.a) || compare(x.b, y.b));
  return { pairs, revisions, sumOfCoupling, commits: sets.length, leftOut };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
