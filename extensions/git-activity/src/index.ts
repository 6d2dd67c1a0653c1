import { colorScale, definePlugin, directoriesAbove, scaleLegend } from '@strata/sdk';
import { activityByPath, noCommitsMessage, type RangeParams, range } from './history.ts';

/** Low to high change frequency. */
const STOPS = ['#fff5eb', '#fdae6b', '#e6550d', '#7f2704'];

export default definePlugin<RangeParams>({
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
      const message = await noCommitsMessage(ctx.git);
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
