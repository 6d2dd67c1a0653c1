import type { Language, Node, Parser, Tree, TreeCursor } from 'web-tree-sitter';
import { codeUnitsOf, countLines, countTextLines, lineStartsOf } from './line-counts.js';
import type { ImportReference, SourceAnalyzer, SourceFileFacts, SymbolFacts } from './source-analyzer.js';
import {
  type CompiledComplexityRules,
  type ComplexityRules,
  compileComplexityRules,
  type FunctionFigures,
  measureFunctions,
} from './tree-sitter-complexity.js';
import { type GrammarSource, loadGrammar } from './tree-sitter-grammars.js';
import { firstSyntaxError } from './tree-sitter-syntax-error.js';

/**
 * A parse that takes longer than this is given up (tree-sitter parses here
 * at 1.3 to 3 MB/s, so a file under the 2 MiB default `index.maxFileBytes`
 * takes a second or two; error recovery on hostile input is bounded too, but
 * no input may hold a reading thread for long). The walk of the tree has the
 * same bound.
 */
export const PARSE_TIME_LIMIT_MS = 10_000;

/** What a language reads from a parsed file. */
export interface TreeFacts {
  imports: ImportReference[];
  symbols: SymbolFacts[];
  /** The comments, as offsets into the text: their lines are not lines of code. */
  comments: ReadonlyArray<{ start: number; end: number }>;
  /** False when the walk stopped at the time limit (what was found so far is kept). */
  complete: boolean;
}

/** How a language reads a tree: from its cursor (at the root), with what `describe` gave, stopping when `overTime` says so (`text`: the file's text). */
export type TreeReader<Described> = (tree: Tree, cursor: TreeCursor, described: Described, overTime: () => boolean, text: string) => TreeFacts;

/**
 * One tree-sitter grammar on a reading thread, as the `SourceAnalyzer` of
 * its language holds it; what every such analyzer does alike. The grammar is
 * loaded once (`describe` reads from it what the language's reader needs,
 * such as the ids of node types); a parse is bounded in time; a parser is
 * made anew after the runtime failed (out of its memory); the tree, which
 * lives in WebAssembly memory that no garbage collector frees, is deleted
 * once read; lines are counted outside the comments; the first syntax error
 * is named (what was found around it is kept). A file it cannot parse is
 * still counted, with the reason in `error`.
 */
export class ThreadGrammar<Described> {
  private parser: Parser | undefined;
  private newParser: (() => Parser) | undefined;
  private described: Described | undefined;
  private loadError: string | undefined;
  private loading: Promise<void> | undefined;
  private complexity: CompiledComplexityRules | undefined;

  constructor(
    /** The language's name in messages (`Python`, `C++`). */
    private readonly language: string,
    private readonly source: GrammarSource,
    private readonly describe: (language: Language) => Described,
    /** How its functions are measured (none: the language's files get no complexity figures). */
    private readonly complexityRules?: ComplexityRules,
  ) {}

  /** Whether it is loaded on this thread (a load that failed counts: its files then say why). */
  get loaded(): boolean {
    return this.parser !== undefined || this.loadError !== undefined;
  }

  /** Loads the grammar on this thread, once; never rejects. */
  load(): Promise<void> {
    this.loading ??= loadGrammar(this.source).then(
      (grammar) => {
        this.newParser = grammar.newParser;
        this.parser = grammar.newParser();
        this.described = this.describe(grammar.language);
        if (this.complexityRules) this.complexity = compileComplexityRules(grammar.language, this.complexityRules);
      },
      (error: Error) => {
        this.loadError = error.message;
      },
    );
    return this.loading;
  }

  /**
   * A file's facts: `parsedText` (the text itself unless the language
   * blanks something out first, keeping every offset) parsed, the tree
   * read by `read`, the lines of `text` counted. Never throws.
   */
  analyze(text: string, bytes: Uint8Array, read: TreeReader<Described>, parsedText = text): SourceFileFacts {
    const parser = this.parser;
    const described = this.described;
    if (!parser || described === undefined) return unparsedFacts(bytes, this.loadError ?? `the ${this.language} grammar is not loaded on this thread`);
    const started = performance.now();
    const overTime = (): boolean => performance.now() - started > PARSE_TIME_LIMIT_MS;
    let tree: Tree | null;
    try {
      // A parse that was given up would otherwise be resumed by the next.
      parser.reset();
      tree = parser.parse(parsedText, null, { progressCallback: overTime });
    } catch (error) {
      this.parser = this.newParser?.();
      return unparsedFacts(bytes, `the ${this.language} parser failed (${(error as Error).message})`);
    }
    if (!tree) return unparsedFacts(bytes, `parsing took over ${PARSE_TIME_LIMIT_MS / 1000} s`);
    const cursor = tree.walk();
    try {
      const { imports, symbols, comments, complete } = read(tree, cursor, described, overTime, text);
      let measured: { functions: FunctionFigures[]; complete: boolean } | undefined;
      if (this.complexity) {
        cursor.reset(tree.rootNode);
        measured = measureFunctions(cursor, this.complexity, overTime);
      }
      // tree-sitter's offsets into a JavaScript string count UTF-16 code units: for ASCII text they are byte offsets.
      const units = text.length === bytes.length ? bytes : codeUnitsOf(text);
      const lineStarts = lineStartsOf(units);
      const codeLines = measured ? new Uint8Array(lineStarts.length) : undefined;
      const counts = countLines(units, lineStarts, comments, codeLines);
      const root = tree.rootNode;
      const error =
        !complete || (measured && !measured.complete)
          ? `read in part: its tree took over ${PARSE_TIME_LIMIT_MS / 1000} s to walk`
          : root.hasError
            ? firstSyntaxError(root)
            : undefined;
      const facts: SourceFileFacts = { ...counts, imports, symbols };
      if (measured) Object.assign(facts, complexityOf(symbols, measured.functions, codeLines!));
      if (error !== undefined) facts.error = error;
      return facts;
    } catch (error) {
      // The runtime failed while the tree was read (out of memory): the next file gets a parser of its own.
      this.parser = this.newParser?.();
      return unparsedFacts(bytes, `the ${this.language} parser failed (${(error as Error).message})`);
    } finally {
      cursor.delete();
      tree.delete();
    }
  }
}

/**
 * The `SourceAnalyzer` of a language read with one tree-sitter grammar: the
 * files `source` matches, parsed by `grammar` (on the reading threads, which
 * load it first), their trees read by `read`. tree-sitter does not recurse
 * on the native stack, so any thread can take any file.
 */
export class TreeSitterAnalyzer<Described> implements SourceAnalyzer {
  readonly recursesPerNestingLevel = false;

  constructor(
    private readonly source: RegExp,
    private readonly grammar: ThreadGrammar<Described>,
    private readonly read: TreeReader<Described>,
  ) {}

  reads(filename: string): boolean {
    return this.source.test(filename);
  }

  get loaded(): boolean {
    return this.grammar.loaded;
  }

  load(): Promise<void> {
    return this.grammar.load();
  }

  analyze(_filename: string, text: string, bytes: Uint8Array): SourceFileFacts {
    return this.grammar.analyze(text, bytes, this.read);
  }
}

/**
 * Gives each symbol its figures (a function or method those of the
 * function it was declared by: the outermost one that ends on its last line
 * and starts within its lines, so that decorators and comments a symbol
 * takes in do not matter; a class, interface or type the sums over the
 * functions inside its lines), and returns the file's sums.
 */
function complexityOf(symbols: SymbolFacts[], functions: readonly FunctionFigures[], codeLines: Uint8Array): { cyclomatic: number; cognitive: number } {
  // Code lines before each line: the code lines of lines a..b are before[b] - before[a - 1].
  const before = new Int32Array(codeLines.length + 1);
  for (let line = 0; line < codeLines.length; line++) before[line + 1] = before[line]! + codeLines[line]!;
  const codeLinesOf = (startLine: number, endLine: number): number =>
    before[Math.min(endLine, codeLines.length)]! - before[Math.min(startLine - 1, codeLines.length)]!;
  const byEndLine = new Map<number, FunctionFigures[]>();
  let cyclomatic = 0;
  let cognitive = 0;
  for (const figures of functions) {
    cyclomatic += figures.cyclomatic;
    cognitive += figures.cognitive;
    const list = byEndLine.get(figures.endLine);
    if (list) list.push(figures);
    else byEndLine.set(figures.endLine, [figures]);
  }
  for (const symbol of symbols) {
    const loc = codeLinesOf(symbol.startLine, symbol.endLine);
    if (symbol.kind === 'function' || symbol.kind === 'method') {
      let found: FunctionFigures | undefined;
      for (const candidate of byEndLine.get(symbol.endLine) ?? []) {
        if (candidate.startLine >= symbol.startLine && (!found || candidate.startLine < found.startLine)) found = candidate;
      }
      if (found) symbol.complexity = { cyclomatic: found.cyclomatic, cognitive: found.cognitive, loc };
    } else {
      let inside = 0;
      let insideCognitive = 0;
      for (const figures of functions) {
        if (figures.startLine < symbol.startLine || figures.endLine > symbol.endLine) continue;
        inside += figures.cyclomatic;
        insideCognitive += figures.cognitive;
      }
      symbol.complexity = { cyclomatic: inside, cognitive: insideCognitive, loc };
    }
  }
  return { cyclomatic, cognitive };
}

/**
 * The symbol a declaration node stands for: its lines are the node's own (a
 * node that ends at the start of a line ends on the line before).
 */
export function symbolOf(name: string, kind: SymbolFacts['kind'], node: Node, exported: boolean): SymbolFacts {
  const startLine = node.startPosition.row + 1;
  const end = node.endPosition;
  const endLine = Math.max(startLine, end.column === 0 ? end.row : end.row + 1);
  return { name, kind, startLine, endLine, exported };
}

/**
 * Symbols of a language whose declarations of one name merge (Java's, C#'s
 * and Kotlin's overloads): one symbol per container and name, its lines
 * from the first declaration's start to the last one's end, exported when
 * any of them is.
 */
export class MergedSymbols {
  private readonly byKey = new Map<string, SymbolFacts>();

  /** Adds the symbol the declaration `node` stands for. */
  add(symbol: Omit<SymbolFacts, 'startLine' | 'endLine'>, node: Node): void {
    const { startLine, endLine } = symbolOf(symbol.name, symbol.kind, node, symbol.exported);
    const key = `${symbol.container ?? ''}.${symbol.name}`;
    const existing = this.byKey.get(key);
    if (existing) {
      existing.startLine = Math.min(existing.startLine, startLine);
      existing.endLine = Math.max(existing.endLine, endLine);
      existing.exported ||= symbol.exported;
    } else {
      this.byKey.set(key, { ...symbol, startLine, endLine });
    }
  }

  /** The symbols, in the order of their lines. */
  list(): SymbolFacts[] {
    return inLineOrder([...this.byKey.values()]);
  }
}

/** Symbols in the order of their lines (a walk that goes breadth first finds them out of order). */
export function inLineOrder(symbols: SymbolFacts[]): SymbolFacts[] {
  return symbols.sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
}

/** The facts of a file that was not parsed: its lines, and why. */
export function unparsedFacts(bytes: Uint8Array, reason: string): SourceFileFacts {
  return { ...countTextLines(bytes), imports: [], symbols: [], error: `not parsed: ${reason}` };
}

/** The ids of the named node types called `names` in a grammar (a type can have several ids: aliases). */
export function namedNodeTypeIds(language: Language, ...names: string[]): Set<number> {
  const found = new Set<number>();
  for (let id = 0; id < language.nodeTypeCount; id++) {
    const type = language.nodeTypeForId(id);
    if (type !== null && names.includes(type) && language.nodeTypeIsNamed(id)) found.add(id);
  }
  return found;
}

/** Nodes visited between two looks at the clock. */
const CLOCK_STRIDE = 4_096;

/**
 * One cursor walk of the whole tree for a language whose imports are
 * declarations of their own (Java's `import`, C#'s `using`, C's `#include`):
 * the nodes of `importTypes`, wherever error recovery put them, each read by
 * `specifierOf` (undefined: nothing readable; with a `scope` where the
 * language binds it in enclosing declarations) as a `static` reference, and
 * the spans of the nodes of `commentTypes`. Neither is descended into.
 */
export function importsAndComments(
  cursor: TreeCursor,
  importTypes: ReadonlySet<number>,
  commentTypes: ReadonlySet<number>,
  specifierOf: (declaration: Node) => string | { specifier: string; scope?: string[] } | undefined,
  overTime: () => boolean,
): { imports: ImportReference[]; comments: Array<{ start: number; end: number }>; complete: boolean } {
  const imports: ImportReference[] = [];
  const comments: Array<{ start: number; end: number }> = [];
  for (let visited = 1; ; visited++) {
    if (visited % CLOCK_STRIDE === 0 && overTime()) return { imports, comments, complete: false };
    const type = cursor.nodeTypeId;
    let descend = true;
    if (importTypes.has(type)) {
      const read = specifierOf(cursor.currentNode);
      if (typeof read === 'string') imports.push({ specifier: read, kind: 'static' });
      else if (read !== undefined)
        imports.push(read.scope ? { specifier: read.specifier, kind: 'static', scope: read.scope } : { specifier: read.specifier, kind: 'static' });
      descend = false;
    } else if (commentTypes.has(type)) {
      comments.push({ start: cursor.startIndex, end: cursor.endIndex });
      descend = false;
    }
    if (descend && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return { imports, comments, complete: true };
  }
}
