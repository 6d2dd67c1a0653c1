/**
 * Strata's indexer against dependency-cruiser and madge on real repositories:
 * wall time, peak memory, files per second, the ratio of each peer's time to
 * Strata's, and the agreement of file -> file import edges.
 *
 *   npm run bench:index -- <repository> [<repository>...] [--runs N] [--details DIR] [--peer-exclude REGEX]
 *
 * Each tool runs in a process of its own (test/bench/index-tool-run.ts), one
 * after the other and taking turns when there are several runs, after the
 * repository's files were read once so that every tool finds them in the
 * page cache. "wall" is from starting the process to
 * the tool's call returning (Node's start and loading the tool included);
 * "call" is the call alone; "peak" is the process's VmHWM when the call
 * returned. With --runs N each tool runs N times: median times, highest peak.
 * --details DIR writes every edge difference, per repository, as JSON.
 * --peer-exclude REGEX adds paths to what dependency-cruiser and madge exclude
 * (for files that crash them); Strata has no such setting and reads them all.
 *
 * "strata serve, warm restart" is the `strata` executable itself, restarted on
 * the data directory an earlier `strata serve` of the same repository left
 * (built-in plugins loaded, the repository watched, as a user runs it): "call"
 * is from its start to the URL printed, "wall" to `GET /api/graph` answered
 * in full, "peak" the server's VmHWM then.
 */
import { fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_DIRECTORY_VARIABLE, type DoneMessage, strataToolOutput, TOOL_LABELS, TOOL_NAMES, type ToolName, type ToolOutput } from './index-common.ts';
import { categoryCounts, compareEdges, type EdgeComparison, type EdgeDifference, sampleAcrossCategories } from './index-compare.ts';
import { printedUrl, STRATA_BIN } from './serve-process.ts';

const RUNNER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'index-tool-run.ts');
const SAMPLE = 10;

interface Measured {
  tool: ToolName;
  wallMs: number;
  callMs: number;
  peakKb: number;
  output: ToolOutput;
}

const { repositories, runs, details, peerExclude } = parseArguments(process.argv.slice(2));
if (repositories.length === 0) {
  process.stdout.write('index-repos: no repository given, nothing to do (npm run bench:index -- <repository> [...])\n');
  process.exit(0);
}

const summary: string[][] = [];
for (const repository of repositories) {
  const name = path.basename(repository);
  process.stdout.write(`\n=== ${name} (${repository}) ===\n`);
  const warm = warmUp(repository);
  process.stdout.write(`read ${warm.files} files (${(warm.bytes / 1e6).toFixed(1)} MB) once, outside node_modules and .git, to warm the page cache\n`);
  // The warm variants get a cache directory of their own, filled by one run that is not counted.
  const warmCaches = new Map<ToolName, string>();
  for (const tool of ['strata-warm', 'strata-serve-warm', 'depcruise-warm'] as const) {
    const directory = mkdtempSync(path.join(tmpdir(), `strata-index-bench-${tool}-`));
    warmCaches.set(tool, directory);
    await runOnce(tool, repository, peerExclude, directory);
  }
  // Runs take turns (Strata, dependency-cruiser, madge, Strata, ...) so that whatever else the machine does falls on every tool alike.
  const runsByTool = new Map<ToolName, Measured[]>(TOOL_NAMES.map((tool) => [tool, []]));
  for (let run = 0; run < runs; run++) {
    for (const tool of TOOL_NAMES) {
      // A cold run gets an empty cache directory of its own (Strata writes its cache there, as on a first start).
      const coldCache = warmCaches.has(tool) ? undefined : mkdtempSync(path.join(tmpdir(), `strata-index-bench-${tool}-`));
      const result = await runOnce(tool, repository, peerExclude, warmCaches.get(tool) ?? coldCache!);
      if (coldCache) rmSync(coldCache, { recursive: true, force: true });
      runsByTool.get(tool)!.push(result);
      process.stderr.write(`${name}: ${TOOL_LABELS[tool]} run ${run + 1}: ${seconds(result.wallMs)} s\n`);
    }
  }
  for (const directory of warmCaches.values()) rmSync(directory, { recursive: true, force: true });
  const measured = new Map<ToolName, Measured>(TOOL_NAMES.map((tool) => [tool, summarize(tool, runsByTool.get(tool)!)]));
  const strata = measured.get('strata')!;
  const strataWarm = measured.get('strata-warm')!;
  const sameGraph =
    JSON.stringify(edgeKeys(strataWarm.output)) === JSON.stringify(edgeKeys(strata.output)) &&
    JSON.stringify(strataWarm.output.files) === JSON.stringify(strata.output.files);
  const allCached = runsByTool.get('strata-warm')!.every((run) => run.output.cachedFiles === run.output.files.length);
  const serveWarm = measured.get('strata-serve-warm')!;
  const serveSameGraph =
    JSON.stringify(edgeKeys(serveWarm.output)) === JSON.stringify(edgeKeys(strata.output)) &&
    JSON.stringify(serveWarm.output.files) === JSON.stringify(strata.output.files);
  process.stdout.write(
    `strata serve restarted warm serves ${serveSameGraph ? 'the same files and file -> file edges as' : 'OTHER files or edges than'} Strata cold\n`,
  );
  if (!serveSameGraph) process.exitCode = 1;
  process.stdout.write(
    `Strata with a warm cache ${allCached ? 'took every file from the cache' : 'READ FILES (the cache did not hold them all)'} and gives ${sameGraph ? 'the same files and file -> file edges as' : 'OTHER files or edges than'} Strata cold\n`,
  );
  if (!sameGraph || !allCached) process.exitCode = 1;
  printTable(
    ['tool', 'files', 'JS/TS files', 'wall s', 'call s', 'peak MB', 'JS/TS files/s', 'wall / Strata'],
    TOOL_NAMES.map((tool) => {
      const m = measured.get(tool)!;
      return [
        TOOL_LABELS[tool],
        String(m.output.files.length),
        String(m.output.parsed.length),
        seconds(m.wallMs),
        seconds(m.callMs),
        megabytes(m.peakKb),
        perSecond(m.output.parsed.length, m.wallMs),
        (m.wallMs / strata.wallMs).toFixed(1),
      ];
    }),
  );
  for (const tool of TOOL_NAMES) for (const note of measured.get(tool)!.output.notes) process.stdout.write(`  ${TOOL_LABELS[tool]}: ${note}\n`);

  const comparisons = (['depcruise', 'madge'] as const).map((peer) => compareEdges(strata.output, measured.get(peer)!.output));
  for (const comparison of comparisons) printComparison(comparison);
  if (details) {
    mkdirSync(details, { recursive: true });
    writeFileSync(path.join(details, `${name}.json`), JSON.stringify(comparisons, null, 2));
  }
  const [depcruise, madge] = comparisons as [EdgeComparison, EdgeComparison];
  const COLD: readonly ToolName[] = ['strata', 'depcruise', 'madge'];
  const three = (format: (tool: Measured) => string, tools: readonly ToolName[] = COLD): string => tools.map((tool) => format(measured.get(tool)!)).join(' / ');
  const ratio = (peer: ToolName, of: Measured = strata): string =>
    `${(measured.get(peer)!.wallMs / of.wallMs).toFixed(1)} (${(measured.get(peer)!.callMs / of.callMs).toFixed(1)})`;
  summary.push([
    name,
    three((tool) => String(tool.output.parsed.length)),
    three((tool) => seconds(tool.wallMs)),
    three((tool) => seconds(tool.callMs)),
    ratio('depcruise'),
    ratio('madge'),
    three((tool) => `${seconds(tool.wallMs)} (${seconds(tool.callMs)})`, ['strata-warm', 'depcruise-warm']),
    ratio('depcruise-warm', strataWarm),
    ratio('depcruise', strataWarm),
    `${seconds(serveWarm.wallMs)} (${seconds(serveWarm.callMs)})`,
    `${(measured.get('depcruise-warm')!.wallMs / serveWarm.wallMs).toFixed(1)} (${(measured.get('depcruise-warm')!.wallMs / serveWarm.callMs).toFixed(1)})`,
    `${megabytes(serveWarm.peakKb)} / ${megabytes(measured.get('depcruise-warm')!.peakKb)}`,
    three((tool) => megabytes(tool.peakKb)),
    three((tool) => perSecond(tool.output.parsed.length, tool.wallMs)),
    `${depcruise.both} / ${depcruise.onlyStrata.length} / ${depcruise.onlyPeer.length}`,
    `${madge.both} / ${madge.onlyStrata.length} / ${madge.onlyPeer.length}`,
  ]);
}

process.stdout.write(`\n=== summary (runs per tool: ${runs}) ===\n\n`);
printTable(
  [
    'repository',
    'JS/TS files S / dc / madge',
    'wall s S / dc / madge',
    'call s S / dc / madge',
    'dc ÷ S wall (call)',
    'madge ÷ S wall (call)',
    'warm wall (call) s S / dc',
    'warm dc ÷ warm S',
    'cold dc ÷ warm S',
    'serve warm s: graph (URL)',
    'warm dc ÷ serve warm: graph (URL)',
    'peak MB serve warm / warm dc',
    'peak MB S / dc / madge',
    'JS/TS files/s S / dc / madge',
    'vs dc: both / only S / only dc',
    'vs madge: both / only S / only madge',
  ],
  summary,
);

function parseArguments(args: string[]): { repositories: string[]; runs: number; details?: string; peerExclude?: string } {
  const repositories: string[] = [];
  let runs = 1;
  let details: string | undefined;
  let peerExclude: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--runs') runs = Math.max(1, Number(args[++i]) || 1);
    else if (arg === '--details') details = path.resolve(args[++i] ?? 'index-details');
    else if (arg === '--peer-exclude') peerExclude = args[++i];
    else if (statSync(arg, { throwIfNoEntry: false })?.isDirectory()) repositories.push(path.resolve(arg));
    else process.stderr.write(`index-repos: ${arg} is not a directory; ignored\n`);
  }
  return { repositories, runs, ...(details ? { details } : {}), ...(peerExclude ? { peerExclude } : {}) };
}

/** Reads every file once, so that no tool pays for a cold cache the others do not. */
function warmUp(root: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === '.git') continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        files++;
        bytes += readFileSync(full).length;
      }
    }
  };
  walk(root);
  return { files, bytes };
}

/** Median times and the highest peak of a tool's runs; the last run's output. */
function summarize(tool: ToolName, runsDone: Measured[]): Measured {
  const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    tool,
    wallMs: median(runsDone.map((run) => run.wallMs)),
    callMs: median(runsDone.map((run) => run.callMs)),
    peakKb: Math.max(...runsDone.map((run) => run.peakKb)),
    output: runsDone.at(-1)!.output,
  };
}

/** File -> file edges as sorted `source -> target` lines, to compare two runs. */
function edgeKeys(output: ToolOutput): string[] {
  return [
    ...new Set(output.references.filter((reference) => reference.status === 'file').map((reference) => `${reference.source} -> ${reference.target}`)),
  ].sort();
}

function runOnce(tool: ToolName, repository: string, peerExclude: string | undefined, cacheDirectory: string): Promise<Measured> {
  if (tool === 'strata-serve-warm') return serveOnce(repository, cacheDirectory);
  const directory = mkdtempSync(path.join(tmpdir(), 'strata-index-bench-'));
  const outputFile = path.join(directory, `${tool}.json`);
  return new Promise<Measured>((resolve, reject) => {
    const started = performance.now();
    let done: (DoneMessage & { wallMs: number }) | undefined;
    const child = fork(RUNNER, [tool, repository, outputFile, ...(peerExclude && !tool.startsWith('strata') ? [peerExclude] : [])], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, [CACHE_DIRECTORY_VARIABLE]: cacheDirectory },
    });
    child.on('message', (message: DoneMessage) => {
      if (message.kind === 'done') done = { ...message, wallMs: performance.now() - started };
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        if (code !== 0 || !done) throw new Error(`${TOOL_LABELS[tool]} on ${repository} exited with ${code}`);
        const output = JSON.parse(readFileSync(outputFile, 'utf8')) as ToolOutput;
        resolve({ tool, wallMs: done.wallMs, callMs: done.callMs, peakKb: done.peakKb, output });
      } catch (error) {
        reject(error as Error);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    });
  });
}

/** `strata serve` on the repository with `dataDir`, from its start to its graph answered; then stopped (SIGTERM). */
async function serveOnce(repository: string, dataDir: string): Promise<Measured> {
  const started = performance.now();
  const child = spawn(process.execPath, [STRATA_BIN, 'serve', repository, '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const url = await printedUrl(child, 'strata serve');
    const callMs = performance.now() - started;
    const text = await (await fetch(`${url}/api/graph`)).text();
    const wallMs = performance.now() - started;
    const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? Number.NaN);
    const body = JSON.parse(text) as { data: Parameters<typeof strataToolOutput>[1]; meta: Parameters<typeof strataToolOutput>[1]['build'] };
    return { tool: 'strata-serve-warm', wallMs, callMs, peakKb, output: strataToolOutput('strata-serve-warm', { ...body.data, build: body.meta }) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

function printComparison(comparison: EdgeComparison): void {
  const peer = TOOL_LABELS[comparison.peer];
  const total = comparison.both + comparison.onlyStrata.length + comparison.onlyPeer.length;
  process.stdout.write(
    `\nfile -> file import edges, Strata vs ${peer}, from the ${comparison.parsedBoth} JS/TS files both read:\n` +
      `  both ${comparison.both}, only Strata ${comparison.onlyStrata.length}, only ${peer} ${comparison.onlyPeer.length}` +
      ` (agreement ${total === 0 ? '-' : ((100 * comparison.both) / total).toFixed(1)}%)` +
      `; ${peer} edges to files Strata does not list (left out): ${comparison.peerTargetsNotStrataFiles.length}\n`,
  );
  printDifferences(`only Strata`, comparison.onlyStrata, peer);
  printDifferences(`only ${peer}`, comparison.onlyPeer, 'Strata');
  printDifferences(`${peer} edges to files Strata does not list`, comparison.peerTargetsNotStrataFiles, 'Strata');
}

function printDifferences(title: string, differences: readonly EdgeDifference[], other: string): void {
  if (differences.length === 0) return;
  process.stdout.write(`  ${title} (${differences.length}), by what ${other} did with the specifier:\n`);
  for (const [category, count] of categoryCounts(differences)) process.stdout.write(`    ${String(count).padStart(6)}  ${category}\n`);
  process.stdout.write(`  sample:\n`);
  for (const difference of sampleAcrossCategories(differences, SAMPLE)) {
    const specifiers = difference.specifiers.length > 0 ? difference.specifiers.map((specifier) => `'${specifier}'`).join(', ') : '(no specifier recorded)';
    process.stdout.write(`    ${difference.source} -> ${difference.target}  ${specifiers} [${difference.kinds.join(', ')}]  ${other}: ${difference.other}\n`);
  }
}

function printTable(header: string[], rows: string[][]): void {
  const lines = [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(2);
}

function megabytes(kb: number): string {
  return (kb / 1024).toFixed(0);
}

function perSecond(files: number, ms: number): string {
  return ((files * 1000) / ms).toFixed(0);
}
