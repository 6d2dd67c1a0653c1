/**
 * The `complexity` overlays: cyclomatic complexity (ESLint's `complexity`
 * rule), cognitive complexity (eslint-plugin-sonarjs's
 * `cognitive-complexity`) and lines of code, per function, class, file and
 * directory. TypeScript and JavaScript are parsed here; the other languages
 * the indexer parses come measured in the graph (`cyclomatic`, `cognitive`
 * columns). The README has the exact definitions.
 */
import { type ApplyContext, colorScale, definePlugin, directoriesAbove, type HexColor, type Legend } from '@strata/sdk';
import { analyzeSource, type ClassMetrics, dialectOf, type FileMetrics, type FunctionMetrics } from './analyze.ts';

/** Reads in flight at once (the host answers at most 64 waiting calls). */
const CONCURRENT_READS = 16;

/** Symbol kinds that stand for functions. */
const FUNCTION_KINDS = new Set(['function', 'method', 'variable']);

/** A symbol id ending in `@<line>:<column>` names the unit whose body starts there. */
const POSITION = /@(\d+):(\d+)$/;

/**
 * Sizes grow with the logarithm of the figure: `log(1 + value) / log(1 + normal)`,
 * so `normal` is drawn at size 1, bounded to 0.1..10.
 */
function logSize(value: number, normal: number): number {
  return Math.min(10, Math.max(0.1, Math.log1p(value) / Math.log1p(normal)));
}

/** Cyclomatic complexity drawn at normal size: a function with a few branches. */
const CYCLOMATIC_NORMAL = 5;
/** Lines of code drawn at normal size. */
const LOC_NORMAL = 30;

/** Low to high: green, yellow, orange, red, dark red; positions on a logarithmic axis. */
const STOPS: HexColor[] = ['#c8e6c9', '#fff176', '#ffb74d', '#e53935', '#7f0000'];

function logScale(top: number): (value: number) => HexColor {
  const scale = colorScale(STOPS, [0, Math.log1p(top)]);
  return (value) => scale(Math.log1p(Math.max(0, value)));
}

/** Cognitive complexity: 15 (SonarJS's threshold for a function) is orange; 500 and more (a large file) dark red. */
const COGNITIVE_TOP = 500;
const cognitiveColor = logScale(COGNITIVE_TOP);
const COGNITIVE_LEGEND: Legend = legendOf(cognitiveColor, [0, 1, 5, 15, 50, 150, COGNITIVE_TOP], (value) =>
  value === COGNITIVE_TOP ? `${value}+` : `${value}`,
);

const CYCLOMATIC_TOP = 1000;
const cyclomaticColor = logScale(CYCLOMATIC_TOP);
const CYCLOMATIC_LEGEND: Legend = legendOf(
  cyclomaticColor,
  [1, 5, 20, 100, 300, CYCLOMATIC_TOP],
  (value) => `${value === CYCLOMATIC_TOP ? `${value}+` : value} (size ${logSize(value, CYCLOMATIC_NORMAL).toFixed(1)})`,
);

const LOC_TOP = 10000;
const locColor = logScale(LOC_TOP);
const LOC_LEGEND: Legend = legendOf(
  locColor,
  [1, 30, 300, 3000, LOC_TOP],
  (value) => `${value === LOC_TOP ? `${value}+` : value} loc (size ${logSize(value, LOC_NORMAL).toFixed(1)})`,
);

function legendOf(scale: (value: number) => HexColor, values: number[], label: (value: number) => string): Legend {
  return Object.fromEntries(values.map((value) => [label(value), scale(value)]));
}

/** Figures of one node. `cognitive` is undefined for units SonarJS does not evaluate. */
interface Figures {
  cyclomatic: number;
  cognitive: number | undefined;
  loc: number;
}

interface Writers {
  cyclomatic: ReturnType<ApplyContext['overlay']>;
  cognitive: ReturnType<ApplyContext['overlay']>;
  loc: ReturnType<ApplyContext['overlay']>;
}

function paint(writers: Writers, node: number, figures: Figures): void {
  writers.cyclomatic.set(node, { size: logSize(figures.cyclomatic, CYCLOMATIC_NORMAL), color: cyclomaticColor(figures.cyclomatic), value: figures.cyclomatic });
  if (figures.cognitive !== undefined) writers.cognitive.set(node, { color: cognitiveColor(figures.cognitive), value: figures.cognitive });
  writers.loc.set(node, { size: logSize(figures.loc, LOC_NORMAL), color: locColor(figures.loc), value: figures.loc });
}

/** The unit a function symbol stands for: by position when its id ends in `@line:column`, else by name with its body inside the symbol's lines. */
function unitOf(metrics: FileMetrics, qualifiedName: string, startLine: number, endLine: number): FunctionMetrics | undefined {
  const position = POSITION.exec(qualifiedName);
  if (position) {
    const line = Number(position[1]);
    const column = Number(position[2]);
    return metrics.units.find((unit) => unit.anchorLine === line && unit.anchorColumn === column);
  }
  let best: FunctionMetrics | undefined;
  for (const unit of metrics.units) {
    if (unit.kind !== 'function' || unit.name !== qualifiedName) continue;
    if (startLine > 0 && (unit.anchorLine < startLine || unit.anchorLine > endLine)) continue;
    if (!best || unit.depth < best.depth) best = unit;
  }
  return best;
}

function classOf(metrics: FileMetrics, name: string, startLine: number, endLine: number): ClassMetrics | undefined {
  return metrics.classes.find(
    (candidate) => candidate.name === name && (startLine === 0 || (candidate.anchorLine >= startLine && candidate.anchorLine <= endLine)),
  );
}

export default definePlugin({
  overlays: [
    {
      id: 'cyclomatic',
      name: 'Cyclomatic Complexity',
      type: 'size',
      description:
        "Size by cyclomatic complexity as ESLint's complexity rule counts it (TypeScript, JavaScript) or as the indexer measures it (McCabe's count: Python, Go, Rust, Java, Kotlin, C#, Ruby, PHP, C, C++): per function; files add up their functions, directories their files.",
      legend: CYCLOMATIC_LEGEND,
    },
    {
      id: 'cognitive',
      name: 'Cognitive Complexity',
      type: 'color',
      description:
        "Color by cognitive complexity as SonarJS's cognitive-complexity rule counts it (TypeScript, JavaScript) or as the indexer measures it by SonarSource's definition (the other parsed languages): per function; per file SonarJS's file figure or the sum of the file's functions; directories add up their files.",
      legend: COGNITIVE_LEGEND,
    },
    {
      id: 'loc',
      name: 'Lines of Code',
      type: 'size',
      description: 'Size by lines holding something other than white space and comments, per function, class, file and directory.',
      legend: LOC_LEGEND,
    },
  ],
  async apply(ctx) {
    const graph = ctx.graph;
    const { id, kind, kindNames, name, path, language, languageNames, startLine, endLine, loc, cyclomatic, cognitive } = graph.nodes;
    const writers: Writers = { cyclomatic: ctx.overlay('cyclomatic'), cognitive: ctx.overlay('cognitive'), loc: ctx.overlay('loc') };

    // Symbols by file path, read once.
    const symbolsOf = new Map<string, number[]>();
    for (let node = 0; node < graph.nodeCount; node++) {
      const nodeKind = kindNames[kind[node]!]!;
      if (!FUNCTION_KINDS.has(nodeKind) && nodeKind !== 'class') continue;
      const list = symbolsOf.get(path[node]!);
      if (list) list.push(node);
      else symbolsOf.set(path[node]!, [node]);
    }

    const files = [...graph.nodesOfKind('file')].filter((file) => dialectOf(path[file]!, languageNames[language[file]!]!) !== undefined);
    const totals = new Map<number, Figures>();
    const summary = {
      files: 0,
      filesMeasuredByIndexer: 0,
      symbolsMeasuredByIndexer: 0,
      filesNotParsed: 0,
      filesNotRead: 0,
      filesWithRecoveredErrors: 0,
      functions: 0,
      classFieldInitializers: 0,
      classStaticBlocks: 0,
      symbolsStyled: 0,
      symbolsUnmatched: 0,
      cyclomatic: 0,
      cognitive: 0,
      loc: 0,
      maxCyclomatic: 0,
      maxCyclomaticFunction: '',
      maxCognitive: 0,
      maxCognitiveFunction: '',
    };
    const logged = { count: 0 };
    const note = (message: string): void => {
      if (logged.count++ < 20) ctx.log(message);
    };

    const measure = (file: number, text: string): void => {
      const filePath = path[file]!;
      let metrics: FileMetrics;
      try {
        metrics = analyzeSource(text, dialectOf(filePath, languageNames[language[file]!]!)!, filePath);
      } catch (error) {
        summary.filesNotParsed++;
        note(`${filePath}: not parsed: ${(error as Error).message}`);
        return;
      }
      summary.files++;
      if (metrics.recoveredErrors > 0) summary.filesWithRecoveredErrors++;
      for (const unit of metrics.units) {
        if (unit.kind === 'function') summary.functions++;
        else if (unit.kind === 'class-field-initializer') summary.classFieldInitializers++;
        else summary.classStaticBlocks++;
        const where = `${filePath}#${unit.name || '(anonymous)'}@${unit.anchorLine}:${unit.anchorColumn}`;
        if (unit.cyclomatic > summary.maxCyclomatic) {
          summary.maxCyclomatic = unit.cyclomatic;
          summary.maxCyclomaticFunction = where;
        }
        if ((unit.cognitive ?? 0) > summary.maxCognitive) {
          summary.maxCognitive = unit.cognitive!;
          summary.maxCognitiveFunction = where;
        }
      }
      const fileFigures = { cyclomatic: metrics.cyclomatic, cognitive: metrics.cognitive, loc: metrics.loc };
      paint(writers, file, fileFigures);
      totals.set(file, fileFigures);

      for (const symbol of symbolsOf.get(filePath) ?? []) {
        const symbolId = id[symbol]!;
        const qualified = symbolId.slice(symbolId.indexOf('#') + 1);
        if (kindNames[kind[symbol]!] === 'class') {
          // A class: the units inside it, and the code lines of the symbol's own lines.
          const found = classOf(metrics, name[symbol]!, startLine[symbol]!, endLine[symbol]!);
          if (found) paint(writers, symbol, { ...found, loc: startLine[symbol]! > 0 ? metrics.codeLines(startLine[symbol]!, endLine[symbol]!) : found.loc });
          continue;
        }
        const unit = unitOf(metrics, qualified, startLine[symbol]!, endLine[symbol]!);
        if (unit) {
          paint(writers, symbol, unit);
          summary.symbolsStyled++;
        } else {
          summary.symbolsUnmatched++;
        }
      }
    };

    // Files (and their symbols) of the languages the indexer measures (Python, Go, Java, ...): its figures, no reading.
    for (let node = 0; node < graph.nodeCount; node++) {
      if (Number.isNaN(cyclomatic[node]!)) continue;
      const figures: Figures = { cyclomatic: cyclomatic[node]!, cognitive: cognitive[node]!, loc: Number.isNaN(loc[node]!) ? 0 : loc[node]! };
      paint(writers, node, figures);
      if (kindNames[kind[node]!] === 'file') {
        summary.filesMeasuredByIndexer++;
        totals.set(node, figures);
      } else {
        summary.symbolsMeasuredByIndexer++;
        if (!FUNCTION_KINDS.has(kindNames[kind[node]!]!)) continue;
        const where = `${path[node]}#${name[node]}@${startLine[node]}`;
        if (figures.cyclomatic > summary.maxCyclomatic) {
          summary.maxCyclomatic = figures.cyclomatic;
          summary.maxCyclomaticFunction = where;
        }
        if (figures.cognitive! > summary.maxCognitive) {
          summary.maxCognitive = figures.cognitive!;
          summary.maxCognitiveFunction = where;
        }
      }
    }

    // Read with a bounded number of calls in flight; measure each file as it arrives.
    let next = 0;
    let measured = 0;
    ctx.progress(0, files.length, 'files measured');
    const worker = async (): Promise<void> => {
      while (next < files.length) {
        const file = files[next++]!;
        let text: string | undefined;
        try {
          text = await ctx.files.read(path[file]!);
        } catch (error) {
          summary.filesNotRead++;
          note(`${path[file]}: not read: ${(error as Error).message}`);
        }
        if (text !== undefined) measure(file, text);
        ctx.progress(++measured, files.length, 'files measured');
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENT_READS, files.length) }, worker));

    // Directories add up the files below them.
    const directories = new Map<number, Figures & { cognitive: number }>();
    for (const [file, figures] of totals) {
      summary.cyclomatic += figures.cyclomatic;
      summary.cognitive += figures.cognitive!;
      summary.loc += figures.loc;
      for (const node of directoriesAbove(graph, file)) {
        const sum = directories.get(node) ?? { cyclomatic: 0, cognitive: 0, loc: 0 };
        sum.cyclomatic += figures.cyclomatic;
        sum.cognitive += figures.cognitive!;
        sum.loc += figures.loc;
        directories.set(node, sum);
      }
    }
    for (const [directory, figures] of directories) paint(writers, directory, figures);

    const result: Record<string, number | string> = { ...summary };
    if (!summary.maxCyclomaticFunction) delete result.maxCyclomaticFunction;
    if (!summary.maxCognitiveFunction) delete result.maxCognitiveFunction;
    return { summary: result };
  },
});
