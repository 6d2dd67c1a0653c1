import { noCommitsMessage, type RangeParams, range } from '@strata/extension-git-activity/src/history.ts';
import { colorScale, definePlugin, MAX_OVERLAY_EDGES, scaleLegend } from '@strata/sdk';
import { CODE_MAAT_DEFAULTS, type CouplingOptions, changeSets, coupling } from './coupling.js';

type Params = RangeParams & Partial<CouplingOptions>;

/** Weak to strong coupling. */
const EDGE_LEGEND = { '30 %': '#fdd49e', '60 %': '#fc8d59', '90 %': '#d7301f' };
/** Low to high sum of coupling. */
const SOC_STOPS = ['#f2f0f7', '#9e9ac8', '#54278f'];

export default definePlugin<Params>({
  overlays: [
    {
      id: 'coupling',
      name: 'Change Coupling',
      type: 'edge',
      description:
        "Files changed in the same commits: an edge per pair within the thresholds (Code Maat's coupling), weight the degree of coupling (shared commits / the two files' average commits), value the shared commits.",
      legend: EDGE_LEGEND,
    },
    {
      id: 'sum-of-coupling',
      name: 'Sum of Coupling',
      type: 'color',
      description: "Color: how often the file changed together with other files (Code Maat's soc: over its commits, the other files each touched).",
      legend: { low: SOC_STOPS[0]!, high: SOC_STOPS[2]! },
    },
  ],
  async apply(ctx) {
    const { since, until } = range(ctx.params);
    const options: CouplingOptions = {
      minRevisions: ctx.params.minRevisions ?? CODE_MAAT_DEFAULTS.minRevisions,
      minSharedRevisions: ctx.params.minSharedRevisions ?? CODE_MAAT_DEFAULTS.minSharedRevisions,
      minCoupling: ctx.params.minCoupling ?? CODE_MAAT_DEFAULTS.minCoupling,
      maxCoupling: ctx.params.maxCoupling ?? CODE_MAAT_DEFAULTS.maxCoupling,
      maxChangesetSize: ctx.params.maxChangesetSize ?? CODE_MAAT_DEFAULTS.maxChangesetSize,
    };
    ctx.progress(0, undefined, 'reading the history');
    const commits = await ctx.git.log({ since, until });
    ctx.progress(commits.length, commits.length, 'commits read');
    if (commits.length === 0) return { summary: { since, until, commits: 0, pairs: 0, message: await noCommitsMessage(ctx.git) } };

    const found = coupling(changeSets(commits), options);
    const graph = ctx.graph;
    const fileOf = (path: string): number => graph.indexOf(`file:${path}`);
    const edges = ctx.overlay('coupling');
    let shown = 0;
    let gone = 0;
    for (const pair of found.pairs) {
      const a = fileOf(pair.a);
      const b = fileOf(pair.b);
      // A pair with a file deleted since, or not in the graph (ignored), has no node to join.
      if (a < 0 || b < 0) {
        gone++;
        continue;
      }
      if (shown === MAX_OVERLAY_EDGES) break;
      edges.setEdge(a, b, { weight: pair.degree / 100, value: pair.shared, label: `${Math.floor(pair.degree)} %` });
      shown++;
    }
    let highest = 0;
    for (const [path, soc] of found.sumOfCoupling) if (fileOf(path) >= 0) highest = Math.max(highest, soc);
    const color = colorScale(SOC_STOPS, [0, Math.max(1, highest)]);
    const sum = ctx.overlay('sum-of-coupling');
    for (const [path, soc] of found.sumOfCoupling) {
      const node = fileOf(path);
      if (node >= 0) sum.set(node, { color: color(soc), value: soc });
    }
    sum.setLegend(scaleLegend(color, [0, Math.max(1, highest)], Math.min(5, highest + 1), (value) => `${Math.round(value)} co-changes`));
    const strongest = found.pairs.find((pair) => fileOf(pair.a) >= 0 && fileOf(pair.b) >= 0);
    const summary: Record<string, number | string> = {
      since,
      until,
      commits: commits.length,
      commitsWithFiles: found.commits,
      commitsLeftOut: found.leftOut,
      maxChangesetSize: options.maxChangesetSize,
      pairs: shown,
      pairsOfFilesGone: gone,
      thresholds: `min revisions ${options.minRevisions}, min shared ${options.minSharedRevisions}, coupling ${options.minCoupling} to ${options.maxCoupling} %`,
    };
    if (found.pairs.length - gone > shown) summary.pairsNotShown = found.pairs.length - gone - shown;
    if (strongest) summary.strongest = `${strongest.a} <-> ${strongest.b}: ${Math.floor(strongest.degree)} % (${strongest.shared} shared commits)`;
    return { summary };
  },
});
