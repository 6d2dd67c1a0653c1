/**
 * The `hotspots` overlay: files ranked by change frequency times
 * complexity, as CodeScene defines hotspots, both relative to the
 * repository's highest. Change frequency is git-activity's (commits in the
 * range, renames followed); complexity is the complexity extension's file
 * figure (cyclomatic: ESLint's count for TypeScript and JavaScript, the
 * indexer's for the other languages it measures). Both are computed with
 * those extensions' own code. The README has the exact definitions.
 */
import { analyzeSource, dialectOf } from '@strata/extension-complexity/src/analyze.ts';
import { activityByPath, noCommitsMessage, type RangeParams, range } from '@strata/extension-git-activity/src/history.ts';
import { type ApplyContext, colorScale, definePlugin, type HexColor, type Legend, rollUp, STYLE_SIZE_BOUNDS, scaleLegend } from '@strata/sdk';

interface Params extends RangeParams {
  /** Files ranked: badged and listed in the summary (the manifest's default is 20). */
  top?: number;
}

/** Reads in flight at once (the host answers at most 64 waiting calls). */
const CONCURRENT_READS = 16;
/** How many files are ranked when the request does not say. */
const DEFAULT_TOP = 20;
/** Longest summary string the host takes. */
const MAX_SUMMARY_STRING = 500;

/** Low to high score: yellow, orange, red, dark red. */
const STOPS: HexColor[] = ['#ffffb2', '#fecc5c', '#fd8d3c', '#f03b20', '#bd0026'];
const scoreColor = colorScale(STOPS, [0, 1]);

/** The legend: the score sampled from 0 to 1, the top one in the apply's own figures when there are some. */
function legendOf(maxCommits?: number, maxComplexity?: number): Legend {
  return scaleLegend(scoreColor, [0, 1], 5, (score) =>
    score === 1
      ? `score 1.00 = ${maxCommits === undefined ? 'most commits' : `${maxCommits} commit${maxCommits === 1 ? '' : 's'}`} × ${maxComplexity === undefined ? 'highest complexity' : `complexity ${maxComplexity}`}`
      : `score ${score.toFixed(2)}`,
  );
}

/** Size by complexity relative to the highest: 0.5 (none) to 3 (the highest), within the SDK's bounds; directories sum their files, capped. */
function sizeOf(complexity: number, maxComplexity: number): number {
  return Math.min(STYLE_SIZE_BOUNDS.max, Math.max(STYLE_SIZE_BOUNDS.min, 0.5 + 2.5 * Math.sqrt(complexity / maxComplexity)));
}

/** One ranked file, as the summary lists it (a JSON string under `hotspot<rank>`). */
interface Hotspot {
  rank: number;
  score: number;
  commits: number;
  complexity: number;
  path: string;
  /** Set when the path was shortened to keep the entry within the summary's 500 characters (its end is kept). */
  truncated?: true;
}

function summaryEntry(hotspot: Hotspot): string {
  let text = JSON.stringify(hotspot);
  // A path too long for one entry keeps its end, shortened by what is over (escapes may make a character longer).
  for (let kept = hotspot.path.length; text.length > MAX_SUMMARY_STRING; ) {
    kept = Math.max(0, kept - (text.length - MAX_SUMMARY_STRING));
    text = JSON.stringify({ ...hotspot, path: `…${hotspot.path.slice(hotspot.path.length - kept)}`, truncated: true });
  }
  return text;
}

interface Measured {
  /** Complexity per node (files only); NaN where not measured. */
  complexity: Float64Array;
  filesMeasured: number;
  filesNotParsed: number;
  filesNotRead: number;
}

/**
 * Each file's complexity as the complexity extension paints it: the
 * indexer's cyclomatic column where it measured the file (Python, Go, ...),
 * else, for TypeScript and JavaScript, the sum over the file's units of
 * ESLint's count, from the file's text.
 */
async function measureFiles(ctx: ApplyContext<Params>): Promise<Measured> {
  const graph = ctx.graph;
  const { path, language, languageNames, cyclomatic } = graph.nodes;
  const complexity = new Float64Array(graph.nodeCount).fill(Number.NaN);
  const result: Measured = { complexity, filesMeasured: 0, filesNotParsed: 0, filesNotRead: 0 };
  const toRead: number[] = [];
  for (const file of graph.nodesOfKind('file')) {
    if (!Number.isNaN(cyclomatic[file]!)) {
      complexity[file] = cyclomatic[file]!;
      result.filesMeasured++;
    } else if (dialectOf(path[file]!, languageNames[language[file]!]!) !== undefined) {
      toRead.push(file);
    }
  }
  let logged = 0;
  const note = (message: string): void => {
    if (logged++ < 20) ctx.log(message);
  };
  let next = 0;
  let done = 0;
  ctx.progress(0, toRead.length, 'files measured');
  const worker = async (): Promise<void> => {
    while (next < toRead.length) {
      const file = toRead[next++]!;
      const filePath = path[file]!;
      let text: string | undefined;
      try {
        text = await ctx.files.read(filePath);
      } catch (error) {
        result.filesNotRead++;
        note(`${filePath}: not read: ${(error as Error).message}`);
      }
      if (text !== undefined) {
        try {
          complexity[file] = analyzeSource(text, dialectOf(filePath, languageNames[language[file]!]!)!, filePath).cyclomatic;
          result.filesMeasured++;
        } catch (error) {
          result.filesNotParsed++;
          note(`${filePath}: not parsed: ${(error as Error).message}`);
        }
      }
      ctx.progress(++done, toRead.length, 'files measured');
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_READS, toRead.length) }, worker));
  return result;
}

export default definePlugin<Params>({
  overlays: [
    {
      id: 'hotspots',
      name: 'Hotspots',
      type: 'color',
      description:
        "Color: hotspot score = (commits ÷ the most commits of a file) × (complexity ÷ the highest complexity of a file), 0 to 1, over the files the complexity overlay measures: commits in the range (renames followed), complexity the file's cyclomatic complexity. Size: complexity. Badge: rank, for the top files. Directories: their hottest file's score; size, their files' complexity summed. Files without commits or complexity are not painted.",
      legend: legendOf(),
    },
  ],
  async apply(ctx) {
    const { since, until } = range(ctx.params);
    const top = ctx.params.top ?? DEFAULT_TOP;
    ctx.progress(0, undefined, 'reading the history');
    const commits = await ctx.git.log({ since, until });
    if (commits.length === 0) return { summary: { since, until, commits: 0, filesScored: 0, message: await noCommitsMessage(ctx.git) } };
    const byPath = activityByPath(commits);
    const measured = await measureFiles(ctx);
    const { complexity } = measured;

    const graph = ctx.graph;
    const { path } = graph.nodes;
    const files = graph.nodesOfKind('file');
    const commitCount = new Float64Array(graph.nodeCount);
    let maxCommits = 0;
    let maxComplexity = 0;
    let filesTouched = 0;
    // Both maxima over the files with a complexity figure (the code the complexity overlay measures): a file that
    // cannot be a hotspot (a README, a lock file) does not lower every other file's change frequency.
    for (const file of files) {
      const count = byPath.get(path[file]!)?.commits.size ?? 0;
      commitCount[file] = count;
      if (count > 0) filesTouched++;
      if (Number.isNaN(complexity[file]!)) continue;
      maxCommits = Math.max(maxCommits, count);
      maxComplexity = Math.max(maxComplexity, complexity[file]!);
    }

    // Both factors relative to the repository's highest; a file without either scores 0 and is not painted.
    const score = new Float64Array(graph.nodeCount).fill(Number.NaN);
    const ranked: number[] = [];
    for (const file of files) {
      const count = commitCount[file]!;
      const figure = complexity[file]!;
      if (!(count > 0 && figure > 0)) continue;
      score[file] = (count / maxCommits) * (figure / maxComplexity);
      ranked.push(file);
    }
    ranked.sort(
      (a, b) =>
        score[b]! - score[a]! ||
        commitCount[b]! - commitCount[a]! ||
        complexity[b]! - complexity[a]! ||
        (path[a]! < path[b]! ? -1 : path[a]! > path[b]! ? 1 : 0),
    );

    const overlay = ctx.overlay('hotspots');
    const rank = new Map(ranked.slice(0, top).map((file, index) => [file, index + 1]));
    for (const file of ranked) {
      overlay.set(file, {
        color: scoreColor(score[file]!),
        size: sizeOf(complexity[file]!, maxComplexity),
        value: score[file]!,
        ...(rank.has(file) && { badge: `#${rank.get(file)}` }),
      });
    }
    // Directories: the score of the hottest file below them; their size, the complexity of every measured file below.
    if (ranked.length > 0) {
      const hottest = rollUp(graph, score, 'max');
      const summed = rollUp(graph, complexity, 'sum');
      for (const directory of graph.nodesOfKind('directory')) {
        if (!(hottest[directory]! > 0)) continue;
        overlay.set(directory, { color: scoreColor(hottest[directory]!), size: sizeOf(summed[directory]!, maxComplexity), value: hottest[directory]! });
      }
      overlay.setLegend(legendOf(maxCommits, maxComplexity));
    }

    const summary: Record<string, number | string> = {
      since,
      until,
      commits: commits.length,
      filesTouched,
      filesMeasured: measured.filesMeasured,
      filesNotParsed: measured.filesNotParsed,
      filesNotRead: measured.filesNotRead,
      filesScored: ranked.length,
      maxCommits,
      maxComplexity,
      ranked: rank.size,
    };
    if (ranked.length === 0) summary.message = 'no file has both commits in the range and a complexity above 0: nothing to show';
    for (const [file, place] of rank) {
      summary[`hotspot${place}`] = summaryEntry({
        rank: place,
        score: score[file]!,
        commits: commitCount[file]!,
        complexity: complexity[file]!,
        path: path[file]!,
      });
    }
    return { summary };
  },
});
