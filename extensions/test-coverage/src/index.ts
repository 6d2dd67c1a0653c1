/**
 * test-coverage: line coverage from Cobertura XML reports (spec 2.6).
 *
 * Reports arrive as texts under the input `report`. They are merged by file
 * from their `<line number hits>` elements (a line is covered when any
 * occurrence has hits > 0; a file's valid lines are the union of the line
 * numbers), never from rate attributes. File names are mapped through
 * `<sources>` onto the graph's files by trailing path segments. Directories
 * aggregate covered over valid lines of the files below them; functions,
 * methods and classes get the coverage of their line range.
 */
import { bandLegend, type ColorBand, colorBands, definePlugin, directoriesAbove, InvalidInputError } from '@strata/sdk';
import { readCobertura } from './cobertura.js';
import { candidatePaths, FileIndex, type MatchOutcome } from './paths.js';

interface Params {
  /** Languages whose files count as "without data" when no report covers them (default: see README). */
  languages?: string[];
}

/** The spec's bands: below 30 % red, 30 to below 70 % yellow, 70 to below 90 % light green, 90 to 100 % green. */
export const BANDS: readonly ColorBand[] = [
  { from: 0, color: '#e53935', label: '0%' },
  { from: 30, color: '#fdd835', label: '30%' },
  { from: 70, color: '#9ccc65', label: '70%' },
  { from: 90, color: '#2e7d32', label: '90%' },
  { from: 100, color: '#2e7d32', label: '100%' },
];
/** Files (and directories) with no coverage data: neither red nor green. */
export const NO_DATA_COLOR = '#9e9e9e';

/** Largest report, and largest sum of reports, in characters (UTF-16 code units: bytes for ASCII). */
export const MAX_REPORT_CHARS = 50 * 1024 * 1024;
export const MAX_TOTAL_CHARS = 100 * 1024 * 1024;
/** Most reports in one apply. */
export const MAX_REPORTS = 1000;

const DEFAULT_LANGUAGES = ['typescript', 'tsx', 'javascript'];
const SYMBOL_KINDS = new Set(['function', 'method', 'class']);
const THRESHOLDS = BANDS.map((band) => band.from).filter((from) => from > 0);

const bandColor = colorBands(BANDS);

/** Line states of one file, indexed by line number: 0 not a valid line, 1 valid and not covered, 2 covered. */
const NOT_VALID = 0;
const COVERED = 2;

/**
 * The percentage shown as `value`: rounded to 2 decimals, but never rounded
 * up into the next band (29.996 % is red and shows as 29.99, not 30).
 */
export function displayValue(covered: number, valid: number): number {
  const percent = (100 * covered) / valid;
  let value = Math.round(percent * 100) / 100;
  for (const threshold of THRESHOLDS) if (percent < threshold && value >= threshold) value = threshold - 0.01;
  return value;
}

export default definePlugin<Params>({
  overlays: [
    {
      id: 'coverage',
      name: 'Line Coverage',
      type: 'color',
      description: `Covered over valid lines, from Cobertura reports: below 30% red, below 70% yellow, below 90% light green, then green. Source files no report covers are gray (${NO_DATA_COLOR}).`,
      legend: bandLegend(BANDS),
    },
  ],
  apply(ctx) {
    const texts = ctx.inputs.get('report');
    if (texts.length === 0) {
      const others = ctx.inputs.names().filter((name) => name !== 'report');
      throw new InvalidInputError(
        `no coverage report: send one or more Cobertura XML texts as inputs.report (the CLI: --report <path|glob>)${others.length ? `; got only ${others.map((name) => `inputs.${name}`).join(', ')}` : ''}`,
      );
    }
    if (texts.length > MAX_REPORTS) throw new InvalidInputError(`${texts.length} reports, more than the limit of ${MAX_REPORTS}`);
    const label = (i: number) => `report ${i + 1} (inputs.report[${i}])`;
    let total = 0;
    texts.forEach((text, i) => {
      if (typeof text !== 'string') throw new InvalidInputError(`${label(i)}: not a text`);
      if (text.length > MAX_REPORT_CHARS)
        throw new InvalidInputError(`${label(i)}: ${text.length} characters, more than the limit of ${MAX_REPORT_CHARS} per report`);
      total += text.length;
    });
    if (total > MAX_TOTAL_CHARS)
      throw new InvalidInputError(`the ${texts.length} reports add up to ${total} characters, more than the limit of ${MAX_TOTAL_CHARS}`);

    const graph = ctx.graph;
    const nodes = graph.nodes;
    const fileNodes = graph.nodesOfKind('file');
    const index = new FileIndex(Array.from(fileNodes, (node) => ({ node, path: nodes.path[node]! })));

    // Merge every report's lines into per-file line states.
    const states = new Map<number, Uint8Array>();
    const notInGraph = new Map<string, boolean>(); // report path -> ambiguous
    texts.forEach((text, i) => {
      const report = readCobertura(text, label(i));
      const mapped = new Map<string, MatchOutcome>();
      for (const klass of report.classes) {
        let outcome = mapped.get(klass.filename);
        if (!outcome) mapped.set(klass.filename, (outcome = index.match(klass.filename, report.sources)));
        if (outcome.node < 0) {
          notInGraph.set(candidatePaths(klass.filename, report.sources)[0]!.join('/'), 'ambiguous' in outcome && outcome.ambiguous);
          continue;
        }
        let lines = states.get(outcome.node) ?? new Uint8Array(0);
        let highest = 0;
        for (const number of klass.lines) if (number > highest) highest = number;
        if (highest >= lines.length) {
          const grown = new Uint8Array(Math.max(highest + 1, lines.length * 2));
          grown.set(lines);
          lines = grown;
        }
        states.set(outcome.node, lines);
        for (let k = 0; k < klass.lines.length; k++) {
          const state = klass.covered[k] ? COVERED : 1;
          if (lines[klass.lines[k]!]! < state) lines[klass.lines[k]!] = state;
        }
      }
    });

    // Which files count as "without data" when no report names them.
    const languages = new Set(ctx.params.languages ?? DEFAULT_LANGUAGES);
    if (!ctx.params.languages) for (const node of states.keys()) if (nodes.language[node]) languages.add(nodes.languageNames[nodes.language[node]!]!);
    /** The languages of the source files that no report covers. */
    const languagesWithoutData = new Set<string>();
    const isSource = (node: number): boolean => {
      const path = nodes.path[node]!;
      return languages.has(nodes.languageNames[nodes.language[node]!]!) && !path.endsWith('.d.ts') && nodes.loc[node] !== 0;
    };

    const overlay = ctx.overlay('coverage');
    const valid = new Float64Array(graph.nodeCount);
    const covered = new Float64Array(graph.nodeCount);
    const noDataBelow = new Uint8Array(graph.nodeCount);
    const paint = (node: number) => {
      overlay.set(node, { color: bandColor((100 * covered[node]!) / valid[node]!)!, value: displayValue(covered[node]!, valid[node]!) });
    };
    let filesWithData = 0;
    let filesWithoutData = 0;
    let filesWithoutLines = 0;
    for (const file of fileNodes) {
      const lines = states.get(file);
      if (lines) {
        let v = 0;
        let c = 0;
        for (let line = 1; line < lines.length; line++) {
          if (lines[line] === NOT_VALID) continue;
          v++;
          if (lines[line] === COVERED) c++;
        }
        if (v === 0) {
          filesWithoutLines++;
          continue;
        }
        filesWithData++;
        valid[file] = v;
        covered[file] = c;
        paint(file);
        for (const dir of directoriesAbove(graph, file)) {
          valid[dir]! += v;
          covered[dir]! += c;
        }
      } else if (isSource(file)) {
        filesWithoutData++;
        languagesWithoutData.add(nodes.languageNames[nodes.language[file]!]!);
        overlay.set(file, { color: NO_DATA_COLOR });
        for (const dir of directoriesAbove(graph, file)) noDataBelow[dir] = 1;
      }
    }
    for (const dir of graph.nodesOfKind('directory')) {
      if (valid[dir]! > 0) paint(dir);
      else if (noDataBelow[dir]) overlay.set(dir, { color: NO_DATA_COLOR });
    }

    // Symbols: the coverage of their line range.
    let symbolsWithData = 0;
    if (states.size > 0) {
      const fileByPath = new Map<string, number>();
      for (const file of states.keys()) fileByPath.set(nodes.path[file]!, file);
      for (let node = 0; node < graph.nodeCount; node++) {
        if (!SYMBOL_KINDS.has(nodes.kindNames[nodes.kind[node]!]!)) continue;
        const lines = states.get(fileByPath.get(nodes.path[node]!) ?? -1);
        const [start, end] = [nodes.startLine[node]!, nodes.endLine[node]!];
        if (!lines || start < 1 || end < start) continue;
        let v = 0;
        let c = 0;
        for (let line = start; line <= end && line < lines.length; line++) {
          if (lines[line] === NOT_VALID) continue;
          v++;
          if (lines[line] === COVERED) c++;
        }
        if (v === 0) continue;
        valid[node] = v;
        covered[node] = c;
        paint(node);
        symbolsWithData++;
      }
    }

    let linesValid = 0;
    let linesCovered = 0;
    for (const file of fileNodes) {
      linesValid += valid[file]!;
      linesCovered += covered[file]!;
    }
    const unmatched = [...notInGraph.keys()];
    const summary: Record<string, number | string> = {
      reports: texts.length,
      filesWithData,
      filesWithoutData,
      filesWithoutLines,
      reportFilesNotInGraph: unmatched.length,
      reportFilesAmbiguous: [...notInGraph.values()].filter(Boolean).length,
      symbolsWithData,
      linesValid,
      linesCovered,
      languagesCounted: [...languages].sort().join(', ').slice(0, 500),
    };
    if (languagesWithoutData.size > 0) summary.languagesWithoutData = [...languagesWithoutData].sort().join(', ').slice(0, 500);
    if (linesValid > 0) summary.lineCoverage = displayValue(linesCovered, linesValid);
    if (unmatched.length > 0) summary.reportFilesNotInGraphSample = truncate(unmatched.slice(0, 20).join(', '), 500);
    ctx.log(
      `coverage: ${texts.length} report(s), ${filesWithData} files with data, ${filesWithoutData} without, ${unmatched.length} report files not in the graph`,
    );
    return { summary };
  },
});

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
