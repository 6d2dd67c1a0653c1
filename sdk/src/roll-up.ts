/**
 * Rolling figures up the directory tree: what an overlay that paints
 * directories from their files does. Every built-in plugin does it (lines,
 * commits, owners, coverage, complexity of the files below a directory).
 */
import type { GraphView } from './plugin.js';

/**
 * The directories above node `index`, nearest first (its parent directory,
 * then that one's, up to the root). Nodes that are not directories on the
 * way up are passed over.
 *
 * @example
 * ```ts
 * import { definePlugin, directoriesAbove } from '@strata/sdk';
 *
 * // Authors per file and per directory (the union of the authors of the files below it);
 * // package.json's strata.capabilities lists "git:log".
 * export default definePlugin({
 *   overlays: [{ id: 'authors', name: 'Authors', type: 'badge' }],
 *   async apply(ctx) {
 *     const { graph } = ctx;
 *     const authors = new Map<number, Set<string>>();
 *     for (const commit of await ctx.git.log({ maxCommits: 500 })) {
 *       for (const file of commit.files) {
 *         const index = graph.indexOf(`file:${file.path}`);
 *         if (index < 0) continue;
 *         for (const node of [index, ...directoriesAbove(graph, index)]) {
 *           const here = authors.get(node) ?? new Set<string>();
 *           authors.set(node, here.add(commit.authorEmail));
 *         }
 *       }
 *     }
 *     for (const [node, emails] of authors) ctx.overlay('authors').set(node, { badge: emails.size, value: emails.size });
 *   },
 * });
 * ```
 */
export function* directoriesAbove(graph: GraphView, index: number): Generator<number, void, undefined> {
  const { parent, kind, kindNames } = graph.nodes;
  const directory = kindNames.indexOf('directory');
  for (let node = parent[index] ?? -1; node >= 0; node = parent[node] ?? -1) if (kind[node] === directory) yield node;
}

/**
 * How `rollUp` puts the figures of a directory's files together.
 *
 * @example
 * ```ts
 * import { type GraphView, type RollUpCombine, rollUp } from '@strata/sdk';
 *
 * // The most imported file below each directory, rather than the sum of their importers.
 * function hubs(graph: GraphView, importers: Float64Array, combine: RollUpCombine = 'max'): Float64Array {
 *   return rollUp(graph, importers, combine);
 * }
 * ```
 */
export type RollUpCombine = 'sum' | 'max' | 'min';

/**
 * Rolls the figures of files up to every directory above them. `figures`
 * has one entry per node (NaN, or an entry left out, is "no figure"); the
 * answer is a new column of the same length in which each file and each
 * node that is neither a file nor a directory (a symbol, a package) keeps
 * its own figure, and each directory holds the sum (or the largest, or the
 * smallest) of the figures of the files below it at any depth, or NaN when
 * none of them has one. What `figures` holds for a directory is not used.
 *
 * @example
 * ```ts
 * import { colorScale, definePlugin, rollUp } from '@strata/sdk';
 *
 * // Lines of code per file, and per directory the lines of every file below it.
 * const scale = colorScale(['#e8f5e9', '#1b5e20'], [0, 10_000]);
 *
 * export default definePlugin({
 *   overlays: [{ id: 'loc', name: 'Lines of code', type: 'color' }],
 *   apply(ctx) {
 *     const { graph } = ctx;
 *     const totals = rollUp(graph, graph.nodes.loc);
 *     for (const node of [...graph.nodesOfKind('file'), ...graph.nodesOfKind('directory')]) {
 *       if (!Number.isNaN(totals[node]!)) ctx.overlay('loc').set(node, { color: scale(totals[node]!), value: totals[node]! });
 *     }
 *   },
 * });
 * ```
 */
export function rollUp(graph: GraphView, figures: ArrayLike<number>, combine: RollUpCombine = 'sum'): Float64Array {
  const { kind, kindNames } = graph.nodes;
  const directory = kindNames.indexOf('directory');
  const file = kindNames.indexOf('file');
  const totals = new Float64Array(graph.nodeCount);
  for (let node = 0; node < totals.length; node++) totals[node] = kind[node] === directory ? Number.NaN : (figures[node] ?? Number.NaN);
  const put = combine === 'sum' ? (a: number, b: number) => a + b : combine === 'max' ? Math.max : Math.min;
  for (let node = 0; node < totals.length; node++) {
    const figure = totals[node]!;
    if (kind[node] !== file || Number.isNaN(figure)) continue;
    for (const above of directoriesAbove(graph, node)) totals[above] = Number.isNaN(totals[above]!) ? figure : put(totals[above]!, figure);
  }
  return totals;
}
