import { Command } from 'commander';
import { applyOverlay, type CommonOptions, rangeOf, serverOptions } from './overlay-command.js';
import { UsageError } from './usage-error.js';
import { writeLine } from './write-line.js';

const PLUGIN = 'hotspots';
/** Most files the hotspots plugin ranks (`top`'s maximum in its manifest): its summary holds at most 50 entries. */
const MAX_TOP = 30;

interface HotspotsOptions extends CommonOptions {
  top: string;
  since?: string;
  until?: string;
  json?: boolean;
}

/** One ranked file, as the plugin's summary lists it (`hotspot<rank>`, a JSON object). */
interface Hotspot {
  rank: number;
  score: number;
  commits: number;
  complexity: number;
  path: string;
  truncated?: boolean;
}

/** `--top` as the plugin takes it, checked before anything is asked. */
function topOf(value: string): number {
  if (!/^[0-9]{1,9}$/.test(value) || Number(value) < 1 || Number(value) > MAX_TOP)
    throw new UsageError(`--top: must be a whole number from 1 to ${MAX_TOP}, not ${JSON.stringify(value)}`);
  return Number(value);
}

/** The ranked files of an apply's summary, in rank order. */
function hotspotsOf(summary: Record<string, unknown>, top: number): Hotspot[] {
  const hotspots: Hotspot[] = [];
  for (let rank = 1; rank <= top; rank++) {
    const entry = summary[`hotspot${rank}`];
    if (typeof entry !== 'string') break;
    hotspots.push(JSON.parse(entry) as Hotspot);
  }
  return hotspots;
}

/** `strata hotspots`: applies the hotspots overlay (on a server or, when none answers, on the repository) and prints its ranking. */
export function hotspotsCommand(): Command {
  return serverOptions(
    new Command('hotspots')
      .description(
        'rank files by change frequency times complexity (CodeScene hotspots): applies the hotspots overlay, on a running server or, when none answers, on the repository directly',
      )
      .option('--top <n>', `how many files to rank, 1 to ${MAX_TOP}`, '20')
      .option('--since <date>', 'start of the range whose commits count (ISO date; default six months before --until)')
      .option('--until <date>', 'end of the range (ISO date; default now)')
      .option('--json', 'print the ranking as JSON'),
  )
    .addHelpText(
      'after',
      `
score = (commits / the most commits of a file) x (complexity / the highest
complexity of a file), from 0 to 1: commits in the range (renames followed),
complexity as the complexity overlay's cyclomatic figure of the file.

Examples:
  $ strata hotspots --top 20
  $ strata hotspots --since 2026-01-01 --until 2026-06-30 --json`,
    )
    .action(async (options: HotspotsOptions) => {
      const top = topOf(options.top);
      const status = await applyOverlay(PLUGIN, options, { ...rangeOf(options), top });
      const summary = status.summary ?? {};
      const hotspots = hotspotsOf(summary, top);
      const figures = {
        since: summary.since,
        until: summary.until,
        commits: summary.commits,
        filesScored: summary.filesScored,
        maxCommits: summary.maxCommits,
        maxComplexity: summary.maxComplexity,
        ...(summary.message !== undefined && { message: summary.message }),
      };
      if (options.json) return writeLine(process.stdout, JSON.stringify({ ...figures, hotspots }, null, 2), { keepLineBreaks: true });
      const range = `${summary.since} to ${summary.until}`;
      if (hotspots.length === 0) return writeLine(process.stdout, `No hotspots from ${range}: ${summary.message ?? 'no file scored'}.`);
      writeLine(
        process.stdout,
        `Hotspots from ${range}: ${summary.commits} commits, ${summary.filesScored} files scored (most commits ${summary.maxCommits}, highest complexity ${summary.maxComplexity}); the top ${hotspots.length}:`,
      );
      writeLine(process.stdout, `${'rank'.padStart(4)}  ${'score'.padStart(5)}  ${'commits'.padStart(7)}  ${'complexity'.padStart(10)}  path`);
      for (const hotspot of hotspots) {
        writeLine(
          process.stdout,
          `${String(hotspot.rank).padStart(4)}  ${hotspot.score.toFixed(3).padStart(5)}  ${String(hotspot.commits).padStart(7)}  ${String(hotspot.complexity).padStart(10)}  ${hotspot.path}`,
        );
      }
    });
}
