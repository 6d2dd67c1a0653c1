import { colorScale, definePlugin, directoriesAbove, type GitCommit, InvalidInputError, scaleLegend } from '@strata/sdk';

interface Params {
  since?: string;
  until?: string;
}

/** Low to high change frequency. */
const STOPS = ['#fff5eb', '#fdae6b', '#e6550d', '#7f2704'];
const DEFAULT_MONTHS = 6;

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

/** `until` (default now) and `since` (default six months before `until`). */
function range(params: Params): { since: string; until: string } {
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

interface FileActivity {
  commits: Set<string>;
  lines: number;
  authors: Set<string>;
}

/**
 * Attributes each commit's file changes to the file's current path,
 * following renames: `git log` lists commits newest first, so when a commit
 * renames Q to P, older changes to Q belong to whatever P is called now.
 */
export function activityByPath(commits: GitCommit[]): Map<string, FileActivity> {
  const currentName = new Map<string, string>();
  const activity = new Map<string, FileActivity>();
  for (const commit of commits) {
    for (const file of commit.files) {
      const current = currentName.get(file.path) ?? file.path;
      if (file.previousPath !== undefined && file.previousPath !== file.path) currentName.set(file.previousPath, current);
      let entry = activity.get(current);
      if (!entry) activity.set(current, (entry = { commits: new Set(), lines: 0, authors: new Set() }));
      entry.commits.add(commit.hash);
      entry.lines += file.added + file.deleted;
      entry.authors.add(commit.authorEmail.toLowerCase());
    }
  }
  return activity;
}

export default definePlugin<Params>({
  overlays: [
    {
      id: 'churn',
      name: 'Change Frequency',
      type: 'color',
      description:
        'Color: commits that touched the file in the range (low to high). Size: lines changed (added + deleted). Badge: distinct contributors by e-mail (.mailmap honoured).',
      legend: { low: STOPS[0]!, medium: STOPS[1]!, high: STOPS[2]!, highest: STOPS[3]! },
    },
  ],
  async apply(ctx) {
    const { since, until } = range(ctx.params);
    ctx.progress(0, undefined, 'reading the history');
    const commits = await ctx.git.log({ since, until });
    ctx.progress(commits.length, commits.length, 'commits read');
    if (commits.length === 0) {
      // Nothing to color: every file would be the lowest color of a scale with nothing on it.
      const any = await ctx.git.log({ maxCommits: 1 });
      const message =
        any.length === 0 ? 'no commits at all: the repository has none yet, or is not a git repository' : 'no commits in the range: nothing to show';
      const summary: Record<string, string | number> = { since, until, commits: 0, filesTouched: 0, message };
      return { summary };
    }
    const byPath = activityByPath(commits);
    const graph = ctx.graph;
    const { path, kind, kindNames } = graph.nodes;
    const fileKind = kindNames.indexOf('file');

    // Files, then every directory above them.
    const commitSets: Array<Set<string> | undefined> = new Array(graph.nodeCount);
    const authorSets: Array<Set<string> | undefined> = new Array(graph.nodeCount);
    const lines = new Float64Array(graph.nodeCount);
    let filesTouched = 0;
    for (let i = 0; i < graph.nodeCount; i++) {
      if (kind[i] !== fileKind) continue;
      const entry = byPath.get(path[i]!);
      if (entry) filesTouched++;
      for (const node of [i, ...directoriesAbove(graph, i)]) {
        const commitsHere = (commitSets[node] ??= new Set());
        const authorsHere = (authorSets[node] ??= new Set());
        if (!entry) continue;
        for (const hash of entry.commits) commitsHere.add(hash);
        for (const author of entry.authors) authorsHere.add(author);
        lines[node]! += entry.lines;
      }
    }
    let maxCommits = 1;
    let maxLines = 1;
    for (let i = 0; i < graph.nodeCount; i++) {
      if (kind[i] !== fileKind || !commitSets[i]) continue;
      maxCommits = Math.max(maxCommits, commitSets[i]!.size);
      maxLines = Math.max(maxLines, lines[i]!);
    }
    const color = colorScale(STOPS, [0, maxCommits]);
    const churn = ctx.overlay('churn');
    for (let i = 0; i < graph.nodeCount; i++) {
      const commitsHere = commitSets[i];
      if (!commitsHere) continue;
      const changed = lines[i]!;
      // Files are sized against the busiest file; directories against the same scale, capped.
      churn.set(i, {
        color: color(commitsHere.size),
        value: commitsHere.size,
        size: Math.min(10, 0.5 + 2.5 * Math.sqrt(changed / maxLines)),
        badge: authorSets[i]!.size,
      });
    }
    churn.setLegend(
      scaleLegend(color, [0, maxCommits], Math.min(5, maxCommits + 1), (value) => `${Math.round(value)} commit${Math.round(value) === 1 ? '' : 's'}`),
    );
    return {
      summary: {
        since,
        until,
        commits: commits.length,
        filesTouched,
        symbols: 'not styled: git log --numstat counts lines per file, not per line range, so commits cannot be attributed to a symbol',
      },
    };
  },
});
