/**
 * The history git-activity reads, as functions of their own: the range of
 * an apply (`since`, `until`) and the commits of each file in it, renames
 * followed. The hotspots extension reads its change frequency the same way
 * and imports this module (`@strata/extension-git-activity/src/history.ts`).
 */
import { type GitCapability, type GitCommit, InvalidInputError } from '@strata/sdk';

/** The range parameters (the manifest's `strata.parameters`). */
export interface RangeParams {
  since?: string;
  until?: string;
}

/** The default range: this many months before `until`. */
export const DEFAULT_MONTHS = 6;

/** An ISO date or date-time as milliseconds; a date alone is midnight UTC (git reads it the same way with TZ=UTC). */
function parseDate(value: string, name: string): number {
  const ms = Date.parse(value);
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  const calendar = new Date(Date.UTC(year!, month! - 1, day!));
  // Date.parse accepts 2026-02-30 as March 2nd: the calendar date must exist as written.
  if (Number.isNaN(ms) || calendar.getUTCFullYear() !== year || calendar.getUTCMonth() !== month! - 1 || calendar.getUTCDate() !== day) {
    throw new InvalidInputError(`${name}: ${JSON.stringify(value)} is not a valid date`);
  }
  return ms;
}

/** `until` (default now) and `since` (default six months before `until`); throws `InvalidInputError` for a date that does not exist or a range that runs backwards. */
export function range(params: RangeParams): { since: string; until: string } {
  const untilMs = params.until !== undefined ? parseDate(params.until, 'until') : Date.now();
  const sinceMs =
    params.since !== undefined
      ? parseDate(params.since, 'since')
      : (() => {
          const start = new Date(untilMs);
          start.setUTCMonth(start.getUTCMonth() - DEFAULT_MONTHS);
          return start.getTime();
        })();
  if (sinceMs > untilMs) throw new InvalidInputError(`since (${params.since}) is after until (${params.until ?? 'now'})`);
  return { since: params.since ?? new Date(sinceMs).toISOString(), until: params.until ?? new Date(untilMs).toISOString() };
}

/** What a file went through in the range. */
export interface FileActivity {
  /** Hashes of the commits that touched it. */
  commits: Set<string>;
  /** Lines added and deleted. */
  lines: number;
  /** Author e-mails, lower case. */
  authors: Set<string>;
}

/**
 * Attributes each commit's file changes to the file's current path,
 * following renames: `git log` lists commits newest first, so when a commit
 * renames Q to P, older changes to Q belong to whatever P is called now.
 */
export function activityByPath(commits: GitCommit[]): Map<string, FileActivity> {
  const activity = new Map<string, FileActivity>();
  forEachChange(commits, (commit, file, current) => {
    let entry = activity.get(current);
    if (!entry) activity.set(current, (entry = { commits: new Set(), lines: 0, authors: new Set() }));
    entry.commits.add(commit.hash);
    entry.lines += file.added + file.deleted;
    entry.authors.add(commit.authorEmail.toLowerCase());
  });
  return activity;
}

/**
 * Calls `visit` for each file change of each commit (newest first, as
 * `git log` lists them) with the file's current path: when a commit renames
 * Q to P, older changes to Q are visited under whatever P is called now.
 */
export function forEachChange(commits: GitCommit[], visit: (commit: GitCommit, file: GitCommit['files'][number], currentPath: string) => void): void {
  const currentName = new Map<string, string>();
  for (const commit of commits) {
    for (const file of commit.files) {
      const current = currentName.get(file.path) ?? file.path;
      if (file.previousPath !== undefined && file.previousPath !== file.path) currentName.set(file.previousPath, current);
      visit(commit, file, current);
    }
  }
}

/** Why a range has no commits, for `summary.message`: none in the range, or no history at all. */
export async function noCommitsMessage(git: GitCapability): Promise<string> {
  const any = await git.log({ maxCommits: 1 });
  return any.length === 0 ? 'no commits at all: the repository has none yet, or is not a git repository' : 'no commits in the range: nothing to show';
}
