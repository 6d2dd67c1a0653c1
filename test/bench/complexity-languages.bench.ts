/**
 * The cyclomatic figures of the tree-sitter languages' functions (Python,
 * Go, Rust, Java, Kotlin, C#, Ruby, PHP, C, C++) against lizard's, on real
 * repositories fetched for the purpose (never committed), in the same run.
 * Lizard (terryyin/lizard) is pure Python and token-based; it runs from a
 * checkout of it (never committed either) through `lizard-reference.py`,
 * which reports with each function's figure what raised it.
 *
 *   npm run bench:complexity -- --lizard <lizard checkout> <repository> [<repository> ...]
 *
 * For each repository: Strata's graph (a fresh data directory), then lizard
 * on the graph's files of those languages that lizard reads (by its
 * extensions: a `.hh`, a `Rakefile` are left out). Functions are matched by
 * file and lines: a symbol node (function or method) to the function that
 * Strata's complexity walk measured (ending on the symbol's last line,
 * starting on or after its first: decorators and attributes are in the
 * symbol), and that to lizard's function ending on the same line and
 * starting inside it (the outermost such). Java's overloads share a symbol
 * id, so only the first is a node: the others, and what lizard reports that
 * is no node (local functions, methods of classes inside functions), are
 * counted apart.
 *
 * Each difference is taken apart by classes: for each language a class pairs
 * the tokens lizard counts (`if`, `&&`, `?`) with the node types Strata's
 * rule table counts for the same thing (`if_statement`,
 * `conditional_expression`); the bench measures each class's node types
 * alone with Strata's engine on the same tree, so a function's difference is
 * exactly the sum of its classes' differences, plus what one tool makes a
 * function of its own and the other counts in the function around it
 * (Kotlin's lambdas with an arrow are functions to lizard). The classes'
 * node types together are the language's rule table: a function whose sum
 * differs from its graph figure is reported (the copy here is stale).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { indexRepository } from '@strata/host';
import type { GraphNode } from '@strata/sdk';
import type { Language, Parser } from 'web-tree-sitter';
import { type ComplexityRules, compileComplexityRules, measureFunctions } from '../../host/dist/indexer/tree-sitter-complexity.js';
import { loadGrammar } from '../../host/dist/indexer/tree-sitter-grammars.js';

const REFERENCE = fileURLToPath(new URL('./lizard-reference.py', import.meta.url));
const SAMPLES = 4;

/** Rule table parts that count toward the cyclomatic figure. */
type CountingRules = Pick<ComplexityRules, 'ifs' | 'elseIfs' | 'elses' | 'branches' | 'decisions' | 'cases' | 'logical' | 'logicalAssignments'>;

/** One class of a language: what lizard counts for it and what Strata counts. */
interface DifferenceClass {
  name: string;
  /** Lizard's counted keys: condition tokens, or `<rule>:` keys of its readers' own additions. */
  lizard: readonly string[];
  /** The node types Strata counts for it (a part of the language's rule table). */
  strata: Partial<CountingRules>;
}

interface LanguageSpec {
  label: string;
  grammar: { packageName: string; wasmFile: string };
  functions: readonly string[];
  closures: readonly string[];
  /** The table's `preprocessorConditions` (C, C++, C#). */
  preprocessorConditions?: readonly string[];
  classes: readonly DifferenceClass[];
}

const IFS = (ifs: string[], elseIfs: string[] = [], elses: string[] = []): Partial<CountingRules> => ({ ifs, elseIfs, elses });
const BRANCHES = (...branches: string[]): Partial<CountingRules> => ({ branches });
const LOGICAL = (types: string[], operators: string[]): Partial<CountingRules> => ({ logical: { types, operators } });

/**
 * The classes of each language. Their `strata` parts together are the
 * language's `*_COMPLEXITY` table (host/src/indexer/<language>-source-analyzer.ts);
 * their `lizard` keys, lizard's condition set for the language
 * (lizard_languages/<language>.py) and its readers' own additions.
 */
const LANGUAGES: Record<string, LanguageSpec> = {
  python: {
    label: 'Python',
    grammar: { packageName: 'tree-sitter-python', wasmFile: 'tree-sitter-python.wasm' },
    functions: ['function_definition'],
    closures: ['lambda'],
    classes: [
      {
        name: '`if` (statement, conditional expression, comprehension)',
        lizard: ['if'],
        strata: { ...IFS(['if_statement'], [], ['else_clause']), branches: ['conditional_expression'], decisions: ['if_clause'] },
      },
      { name: '`elif`', lizard: ['elif'], strata: { elseIfs: ['elif_clause'] } },
      { name: '`for` (statement, comprehension)', lizard: ['for'], strata: { branches: ['for_statement'], decisions: ['for_in_clause'] } },
      { name: '`while`', lizard: ['while'], strata: BRANCHES('while_statement') },
      { name: '`except`', lizard: ['except'], strata: BRANCHES('except_clause') },
      { name: '`finally`', lizard: ['finally'], strata: {} },
      { name: '`and`, `or`', lizard: ['and', 'or'], strata: LOGICAL(['boolean_operator'], ['and', 'or']) },
      { name: '`case`', lizard: ['process_token'], strata: { cases: ['case_clause'] } },
    ],
  },
  go: {
    label: 'Go',
    grammar: { packageName: 'tree-sitter-go', wasmFile: 'tree-sitter-go.wasm' },
    functions: ['function_declaration', 'method_declaration'],
    closures: ['func_literal'],
    classes: [
      { name: '`if`', lizard: ['if'], strata: IFS(['if_statement']) },
      { name: '`for`', lizard: ['for'], strata: BRANCHES('for_statement') },
      { name: '`case`', lizard: ['case'], strata: { cases: ['expression_case', 'type_case', 'communication_case'] } },
      { name: '`&&`, `||`', lizard: ['&&', '||'], strata: LOGICAL(['binary_expression'], ['&&', '||']) },
    ],
  },
  rust: {
    label: 'Rust',
    grammar: { packageName: 'tree-sitter-rust', wasmFile: 'tree-sitter-rust.wasm' },
    functions: ['function_item'],
    closures: ['closure_expression'],
    classes: [
      { name: '`if`', lizard: ['if'], strata: IFS(['if_expression'], [], ['else_clause']) },
      { name: '`for`', lizard: ['for'], strata: BRANCHES('for_expression') },
      { name: '`while`', lizard: ['while'], strata: BRANCHES('while_expression') },
      { name: '`match` (lizard: 1 a match; Strata: 1 an arm but `_`)', lizard: ['match'], strata: { cases: ['match_arm'] } },
      { name: '`&&`, `||`', lizard: ['&&', '||'], strata: LOGICAL(['binary_expression'], ['&&', '||']) },
      { name: '`?` (error propagation)', lizard: ['?'], strata: {} },
      { name: '`where`', lizard: ['where'], strata: {} },
    ],
  },
  java: {
    label: 'Java',
    grammar: { packageName: 'tree-sitter-java', wasmFile: 'tree-sitter-java.wasm' },
    functions: ['method_declaration', 'constructor_declaration', 'compact_constructor_declaration'],
    closures: ['lambda_expression'],
    classes: [
      { name: '`if`', lizard: ['if'], strata: IFS(['if_statement']) },
      { name: '`for`', lizard: ['for'], strata: BRANCHES('for_statement', 'enhanced_for_statement') },
      { name: '`while` (and `do` … `while`)', lizard: ['while'], strata: BRANCHES('while_statement', 'do_statement') },
      { name: '`catch`', lizard: ['catch'], strata: BRANCHES('catch_clause') },
      { name: '`case`', lizard: ['case'], strata: { cases: ['switch_label'] } },
      { name: "`when` (a pattern case's guard)", lizard: [], strata: { decisions: ['guard'] } },
      { name: '`?` (conditional expression)', lizard: ['?'], strata: BRANCHES('ternary_expression') },
      { name: '`&&`, `||`', lizard: ['&&', '||'], strata: LOGICAL(['binary_expression'], ['&&', '||']) },
    ],
  },
  kotlin: {
    label: 'Kotlin',
    grammar: { packageName: '@tree-sitter-grammars/tree-sitter-kotlin', wasmFile: 'tree-sitter-kotlin.wasm' },
    functions: ['function_declaration', 'secondary_constructor', 'getter', 'setter'],
    closures: ['lambda_literal', 'anonymous_function'],
    classes: [
      { name: '`if`', lizard: ['if'], strata: IFS(['if_expression']) },
      { name: '`for`', lizard: ['for'], strata: BRANCHES('for_statement') },
      { name: '`while` (and `do` … `while`)', lizard: ['while'], strata: BRANCHES('while_statement', 'do_while_statement') },
      { name: '`catch`', lizard: ['catch'], strata: BRANCHES('catch_block') },
      { name: '`when` arms (lizard: each `->` but one)', lizard: ['_state_global', 'callback'], strata: { cases: ['when_entry'] } },
      // The grammar's elvis is a `binary_expression` (`elvis_expression` in others).
      { name: '`?:` (elvis)', lizard: ['?:'], strata: LOGICAL(['binary_expression', 'elvis_expression'], ['?:']) },
      { name: '`&&`, `||`', lizard: ['&&', '||'], strata: LOGICAL(['binary_expression', 'conjunction_expression', 'disjunction_expression'], ['&&', '||']) },
    ],
  },
  csharp: {
    label: 'C#',
    grammar: { packageName: 'tree-sitter-c-sharp', wasmFile: 'tree-sitter-c_sharp.wasm' },
    functions: [
      'method_declaration',
      'constructor_declaration',
      'destructor_declaration',
      'operator_declaration',
      'conversion_operator_declaration',
      'accessor_declaration',
      'local_function_statement',
    ],
    closures: ['lambda_expression', 'anonymous_method_expression'],
    preprocessorConditions: ['preproc_if', 'preproc_elif'],
    classes: [
      { name: '`if`', lizard: ['if'], strata: IFS(['if_statement']) },
      { name: '`for`', lizard: ['for'], strata: BRANCHES('for_statement') },
      { name: '`foreach`', lizard: [], strata: BRANCHES('foreach_statement') },
      { name: '`while` (and `do` … `while`)', lizard: ['while'], strata: BRANCHES('while_statement', 'do_statement') },
      { name: '`catch`', lizard: ['catch'], strata: BRANCHES('catch_clause') },
      { name: '`case` (each label of a switch section)', lizard: ['case'], strata: { cases: ['switch_section'] } },
      { name: '`when` (a case filter)', lizard: [], strata: { decisions: ['when_clause'] } },
      { name: 'switch expression arms', lizard: [], strata: { cases: ['switch_expression_arm'] } },
      { name: '`?` (conditional expression)', lizard: ['?'], strata: BRANCHES('conditional_expression') },
      {
        name: '`??`, `??=`',
        lizard: ['??'],
        strata: { ...LOGICAL(['binary_expression'], ['??']), logicalAssignments: { types: ['assignment_expression'], operators: ['??='] } },
      },
      { name: '`&&`, `||`', lizard: ['&&', '||'], strata: LOGICAL(['binary_expression'], ['&&', '||']) },
    ],
  },
  ruby: {
    label: 'Ruby',
    grammar: { packageName: 'tree-sitter-ruby', wasmFile: 'tree-sitter-ruby.wasm' },
    functions: ['method', 'singleton_method'],
    closures: ['block', 'do_block', 'lambda'],
    classes: [
      { name: '`if`', lizard: ['if'], strata: IFS(['if', 'if_modifier'], [], ['else']) },
      { name: '`unless`', lizard: [], strata: IFS(['unless', 'unless_modifier'], [], ['else']) },
      { name: '`elsif`', lizard: ['elsif', 'elseif'], strata: { elseIfs: ['elsif'] } },
      { name: '`while`', lizard: ['while'], strata: BRANCHES('while', 'while_modifier') },
      { name: '`until`', lizard: ['until'], strata: BRANCHES('until', 'until_modifier') },
      { name: '`for`', lizard: ['for'], strata: BRANCHES('for') },
      { name: '`rescue`', lizard: ['rescue'], strata: BRANCHES('rescue', 'rescue_modifier') },
      { name: '`ensure`', lizard: ['ensure'], strata: {} },
      { name: '`when`', lizard: ['when'], strata: { cases: ['when'] } },
      { name: '`in` (pattern matching)', lizard: [], strata: { cases: ['in_clause'] } },
      { name: '`?` (conditional expression)', lizard: ['?'], strata: BRANCHES('conditional') },
      {
        name: '`&&`, `||`, `and`, `or` (and `||=`, `&&=`)',
        lizard: ['&&', '||', 'and', 'or'],
        strata: { ...LOGICAL(['binary'], ['&&', '||', 'and', 'or']), logicalAssignments: { types: ['operator_assignment'], operators: ['||=', '&&='] } },
      },
    ],
  },
  php: {
    label: 'PHP',
    grammar: { packageName: 'tree-sitter-php', wasmFile: 'tree-sitter-php.wasm' },
    functions: ['function_definition', 'method_declaration'],
    closures: ['anonymous_function', 'arrow_function'],
    classes: [
      { name: '`if` (and `else if`)', lizard: ['if'], strata: IFS(['if_statement'], [], ['else_clause']) },
      { name: '`elseif`', lizard: ['elseif'], strata: { elseIfs: ['else_if_clause'] } },
      { name: '`for`', lizard: ['for'], strata: BRANCHES('for_statement') },
      { name: '`foreach`', lizard: ['foreach'], strata: BRANCHES('foreach_statement') },
      { name: '`while` (and `do` … `while`)', lizard: ['while'], strata: BRANCHES('while_statement', 'do_statement') },
      { name: '`catch`', lizard: ['catch'], strata: BRANCHES('catch_clause') },
      { name: '`case`', lizard: ['case'], strata: { cases: ['case_statement'] } },
      { name: '`match` (lizard: 1 a match; Strata: 1 an arm but `default`)', lizard: ['match'], strata: { cases: ['match_conditional_expression'] } },
      { name: '`?` (conditional expression; lizard: not `?:`)', lizard: ['?'], strata: BRANCHES('conditional_expression') },
      { name: '`&&`, `||`', lizard: ['&&', '||'], strata: LOGICAL(['binary_expression'], ['&&', '||']) },
      { name: '`and`, `or`', lizard: [], strata: LOGICAL(['binary_expression'], ['and', 'or']) },
      { name: '`??`', lizard: [], strata: LOGICAL(['binary_expression'], ['??']) },
      { name: '`??=`', lizard: [], strata: { logicalAssignments: { types: ['augmented_assignment_expression'], operators: ['??='] } } },
    ],
  },
  c: cFamily('C', { packageName: 'tree-sitter-c', wasmFile: 'tree-sitter-c.wasm' }),
  cpp: cFamily('C++', { packageName: 'tree-sitter-cpp', wasmFile: 'tree-sitter-cpp.wasm' }),
};

function cFamily(label: string, grammar: LanguageSpec['grammar']): LanguageSpec {
  return {
    label,
    grammar,
    functions: ['function_definition'],
    closures: ['lambda_expression'],
    preprocessorConditions: ['preproc_if', 'preproc_elif'],
    classes: [
      { name: '`if`', lizard: ['if'], strata: IFS(['if_statement'], [], ['else_clause']) },
      { name: '`for`', lizard: ['for'], strata: BRANCHES('for_statement', 'for_range_loop') },
      { name: '`while` (and `do` … `while`)', lizard: ['while'], strata: BRANCHES('while_statement', 'do_statement') },
      { name: '`catch`, `__except`', lizard: ['catch'], strata: BRANCHES('catch_clause', 'seh_except_clause') },
      { name: '`case`', lizard: ['case'], strata: { cases: ['case_statement'] } },
      { name: '`?` (conditional expression)', lizard: ['?'], strata: BRANCHES('conditional_expression') },
      { name: '`&&`, `||`', lizard: ['&&', '||'], strata: LOGICAL(['binary_expression'], ['&&', '||', 'and', 'or']) },
      { name: '`#if`, `#ifdef`, `#elif` in the function', lizard: ['preprocess'], strata: {} },
      { name: '`&&` of an rvalue reference, a typedef (lizard takes it back)', lizard: ['_r_value_ref', '_typedef'], strata: {} },
    ],
  };
}

/** Lizard's extensions (lizard_languages/*.py) for these languages, and the language each is measured as here. */
function languageOf(file: string, text: () => string): string | undefined {
  const extension = path.extname(file).slice(1).toLowerCase();
  switch (extension) {
    case 'py':
      return 'python';
    case 'go':
      return 'go';
    case 'rs':
      return 'rust';
    case 'java':
      return 'java';
    case 'kt':
    case 'kts':
      return 'kotlin';
    case 'cs':
      return 'csharp';
    case 'rb':
      return 'ruby';
    case 'php':
      return 'php';
    case 'c':
      return 'c';
    case 'h':
      return CPP_MARKERS.test(text()) ? 'cpp' : 'c';
    case 'cpp':
    case 'cc':
    case 'cxx':
    case 'hpp':
      return 'cpp';
    default:
      return undefined;
  }
}

/** host/src/indexer/c-family-source-analyzer.ts's test of a `.h` (C++ or C), copied. */
const CPP_MARKERS =
  /^[ \t]*(?:namespace\b|template[ \t]*<|(?:public|private|protected)[ \t]*:|(?:class|struct)[ \t]+(?:[A-Z][A-Z0-9_]{2,}[ \t]+)?\w+(?:[ \t]+final)?[ \t]*(?::[ \t]*(?:public|private|protected)?[ \t]*\w|\{|$))|\bextern[ \t]+"C\+\+"|\bstd::|^[ \t]*using[ \t]+namespace\b/m;

interface LizardFunction {
  name: string;
  start: number;
  end: number;
  cyclomatic: number;
  counted: Record<string, number>;
}

/** A function as Strata's engine measured it: its figure and each class's count (1 + what the class's node types add). */
interface StrataFunction {
  start: number;
  end: number;
  cyclomatic: number;
  classes: number[];
}

interface Difference {
  where: string;
  lizard: number;
  strata: number;
  /** Each class's difference (lizard's count less Strata's), then the functions' attribution. */
  deltas: number[];
  /** Lizard's keys that no class names. */
  other: Record<string, number>;
}

interface LanguageTally {
  repositories: Set<string>;
  files: number;
  symbols: number;
  matched: number;
  earlierEnds: number;
  /** Symbols whose function lizard reads with other lines (not compared). */
  elsewhere: string[];
  equal: number;
  absoluteDifference: number;
  lizardTotal: number;
  strataTotal: number;
  /** Symbols whose engine figure differs from the graph's (the rule table copied here is stale). */
  stale: number;
  /** Symbols without a function of lizard's. */
  noLizard: string[];
  /** Lizard's functions that are no symbol node: [overloads and other functions Strata measures without a node, functions Strata does not have]. */
  lizardNotNode: number;
  lizardNoFunction: string[];
  differences: Difference[];
}

const grammars = new Map<string, Promise<{ language: Language; parser: Parser }>>();

function grammarOf(language: string): Promise<{ language: Language; parser: Parser }> {
  let found = grammars.get(language);
  if (!found) {
    found = loadGrammar(LANGUAGES[language]!.grammar).then((grammar) => ({ language: grammar.language, parser: grammar.newParser() }));
    grammars.set(language, found);
  }
  return found;
}

const compiled = new Map<string, ReturnType<typeof compileComplexityRules>[]>();

/** The rule tables of a language's classes (and the whole table last), compiled. */
function classRules(key: string, language: Language): ReturnType<typeof compileComplexityRules>[] {
  let found = compiled.get(key);
  if (found) return found;
  const spec = LANGUAGES[key]!;
  const table = (parts: Partial<CountingRules>[]): ComplexityRules => {
    const names = (pick: (part: Partial<CountingRules>) => readonly string[] | undefined): string[] => [...new Set(parts.flatMap((part) => pick(part) ?? []))];
    return {
      functions: spec.functions,
      closures: spec.closures,
      ...(spec.preprocessorConditions && { preprocessorConditions: spec.preprocessorConditions }),
      ifs: names((part) => part.ifs),
      elseIfs: names((part) => part.elseIfs),
      elses: names((part) => part.elses),
      branches: names((part) => part.branches),
      decisions: names((part) => part.decisions),
      cases: names((part) => part.cases),
      logical: { types: names((part) => part.logical?.types), operators: names((part) => part.logical?.operators) },
      logicalAssignments: {
        types: names((part) => part.logicalAssignments?.types),
        operators: names((part) => part.logicalAssignments?.operators),
      },
    };
  };
  found = [...spec.classes.map((cls) => table([cls.strata])), table(spec.classes.map((cls) => cls.strata))].map((rules) =>
    compileComplexityRules(language, rules),
  );
  compiled.set(key, found);
  return found;
}

/** Every function of the file as Strata's engine measures it, with each class's count. */
async function strataFunctions(key: string, text: string): Promise<StrataFunction[]> {
  const { language, parser } = await grammarOf(key);
  const tree = parser.parse(text);
  if (!tree) throw new Error('no tree');
  try {
    const rules = classRules(key, language);
    const runs = rules.map((compiledRules) => {
      const cursor = tree.walk();
      try {
        return measureFunctions(cursor, compiledRules, () => false).functions;
      } finally {
        cursor.delete();
      }
    });
    const whole = runs[runs.length - 1]!;
    return whole.map((figures, index) => ({
      start: figures.startLine,
      end: figures.endLine,
      cyclomatic: figures.cyclomatic,
      classes: runs.slice(0, -1).map((run) => run[index]!.cyclomatic - 1),
    }));
  } finally {
    tree.delete();
  }
}

function runLizard(lizard: string, files: string[]): Map<string, LizardFunction[]> {
  const list = path.join(mkdtempSync(path.join(tmpdir(), 'strata-lizard-')), 'files.txt');
  writeFileSync(list, `${files.join('\n')}\n`);
  const output = execFileSync('python3', [REFERENCE, lizard, list, '2'], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  rmSync(path.dirname(list), { recursive: true, force: true });
  const byFile = new Map<string, LizardFunction[]>();
  for (const line of output.split('\n')) {
    if (!line) continue;
    const { file, functions } = JSON.parse(line) as { file: string; functions: Array<[string, number, number, number, Record<string, number>]> };
    byFile.set(
      file,
      functions.map(([name, start, end, cyclomatic, counted]) => ({ name, start, end, cyclomatic, counted })),
    );
  }
  return byFile;
}

/** Lines that end a function without holding anything of it: blank, a comment, a closing `end` or brace. */
const TRIVIAL_LINE = /^\s*(?:$|#|\/\/|\/\*|\*|end\b\s*$|[)};\]]+\s*$)/;

/**
 * Pairs Strata's functions with lizard's, in three passes: the same last line
 * and lizard's first inside Strata's range, the outermost first; then one
 * ending earlier with only blank lines, comments and closing `end`s or braces
 * after it (lizard's Ruby ends a `def` that closes a `case` on the `case`'s
 * `end`; tree-sitter's Python ends a function on the comments after it),
 * starting on the first 3 lines of Strata's (a closure inside is no match);
 * then, as a function whose lines lizard reads otherwise, one starting on
 * the first 3 lines of Strata's (lizard's Ruby reader loses count of `end`s
 * after some modifiers). Lizard's first line is never in a function nested
 * in Strata's.
 */
function pairFunctions(strata: StrataFunction[], lizard: LizardFunction[], lines: string[]): Map<StrataFunction, { fn: LizardFunction; elsewhere: boolean }> {
  const pairs = new Map<StrataFunction, { fn: LizardFunction; elsewhere: boolean }>();
  const used = new Set<LizardFunction>();
  const byStart = [...strata].sort((a, b) => a.start - b.start || b.end - a.end);
  const trailing = (from: number, to: number): boolean => {
    for (let line = from; line <= to; line++) if (!TRIVIAL_LINE.test(lines[line - 1] ?? '')) return false;
    return true;
  };
  const passes: Array<(fn: StrataFunction, candidate: LizardFunction) => boolean> = [
    (fn, candidate) => candidate.end === fn.end,
    (fn, candidate) => candidate.start <= fn.start + 2 && candidate.end < fn.end && trailing(candidate.end + 1, fn.end),
    (fn, candidate) => candidate.start <= fn.start + 2,
  ];
  passes.forEach((fits, pass) => {
    for (const fn of byStart) {
      if (pairs.has(fn)) continue;
      const nested = strata.filter((other) => inside(other, fn));
      let best: LizardFunction | undefined;
      for (const candidate of lizard) {
        if (used.has(candidate) || candidate.start < fn.start || candidate.start > fn.end || !fits(fn, candidate)) continue;
        if (nested.some((other) => candidate.start >= other.start && candidate.start <= other.end)) continue;
        if (!best || candidate.start < best.start) best = candidate;
      }
      if (best) {
        pairs.set(fn, { fn: best, elsewhere: pass === 2 });
        used.add(best);
      }
    }
  });
  return pairs;
}

function inside(inner: { start: number; end: number }, outer: { start: number; end: number }): boolean {
  return inner !== outer && inner.start >= outer.start && inner.end <= outer.end;
}

/** The innermost of `candidates` that holds `range`. */
function innermost<T extends { start: number; end: number }>(range: { start: number; end: number }, candidates: Iterable<T>): T | undefined {
  let best: T | undefined;
  for (const candidate of candidates) {
    if (!inside(range, candidate)) continue;
    if (!best || inside(candidate, best)) best = candidate;
  }
  return best;
}

function newTally(): LanguageTally {
  return {
    repositories: new Set(),
    files: 0,
    symbols: 0,
    matched: 0,
    earlierEnds: 0,
    elsewhere: [],
    equal: 0,
    absoluteDifference: 0,
    lizardTotal: 0,
    strataTotal: 0,
    stale: 0,
    noLizard: [],
    lizardNotNode: 0,
    lizardNoFunction: [],
    differences: [],
  };
}

const tallies = new Map<string, LanguageTally>();

async function benchRepository(repository: string, lizard: string): Promise<void> {
  const name = path.basename(repository);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'strata-complexity-'));
  const started = performance.now();
  const graph = await indexRepository({ repository, env: { STRATA_DATA_DIR: dataDir } });
  const indexMs = performance.now() - started;
  rmSync(dataDir, { recursive: true, force: true });
  const symbolsOf = new Map<string, GraphNode[]>();
  for (const node of graph.nodes) {
    if ((node.kind !== 'function' && node.kind !== 'method') || node.startLine === undefined || node.endLine === undefined) continue;
    const list = symbolsOf.get(node.path) ?? [];
    list.push(node);
    symbolsOf.set(node.path, list);
  }
  const files: Array<{ file: string; key: string; text: string }> = [];
  for (const node of graph.nodes) {
    if (node.kind !== 'file' || node.binary) continue;
    let text: string | undefined;
    const read = (): string => {
      text ??= readFileSync(path.join(repository, node.path), 'utf8');
      return text;
    };
    const key = languageOf(node.path, read);
    if (key) files.push({ file: node.path, key, text: read() });
  }
  const lizardStarted = performance.now();
  const lizardOf = runLizard(
    lizard,
    files.map(({ file }) => path.join(repository, file)),
  );
  const lizardMs = performance.now() - lizardStarted;
  console.log(`${name}: ${files.length} files; Strata's index ${indexMs.toFixed(0)} ms, lizard ${lizardMs.toFixed(0)} ms`);
  for (const { file, key, text } of files) {
    const tally = tallies.get(key) ?? newTally();
    tallies.set(key, tally);
    tally.repositories.add(name);
    tally.files++;
    const spec = LANGUAGES[key]!;
    const lizardFunctions = lizardOf.get(path.join(repository, file)) ?? [];
    const strata = await strataFunctions(key, text);
    const pairs = pairFunctions(strata, lizardFunctions, text.split('\n'));
    const pairedLizard = new Set([...pairs.values()].map((pair) => pair.fn));
    const pairedStrata = [...pairs.keys()];
    const pairedLizardList = [...pairedLizard];
    // Functions of one tool that the other counts in the function around them.
    const lizardNested = new Map<LizardFunction, LizardFunction[]>();
    for (const fn of lizardFunctions) {
      if (pairedLizard.has(fn)) continue;
      const outer = innermost(fn, pairedLizardList);
      if (outer) lizardNested.set(outer, [...(lizardNested.get(outer) ?? []), fn]);
    }
    const strataNested = new Map<StrataFunction, StrataFunction[]>();
    for (const fn of strata) {
      if (pairs.has(fn)) continue;
      const outer = innermost(fn, pairedStrata);
      if (outer) strataNested.set(outer, [...(strataNested.get(outer) ?? []), fn]);
    }
    const symbols = symbolsOf.get(file) ?? [];
    const nodeFunctions = new Set<StrataFunction>();
    for (const symbol of symbols) {
      tally.symbols++;
      let fn: StrataFunction | undefined;
      for (const candidate of strata) {
        if (candidate.end !== symbol.endLine || candidate.start < symbol.startLine!) continue;
        if (!fn || candidate.start < fn.start) fn = candidate;
      }
      if (!fn) {
        tally.noLizard.push(`${file}:${symbol.startLine} (no function measured)`);
        continue;
      }
      nodeFunctions.add(fn);
      if (fn.cyclomatic !== symbol.cyclomatic || fn.classes.reduce((sum, count) => sum + count, 1) !== fn.cyclomatic) tally.stale++;
      const pair = pairs.get(fn);
      if (!pair) {
        tally.noLizard.push(`${file}:${symbol.startLine}`);
        continue;
      }
      const other = pair.fn;
      if (pair.elsewhere) {
        tally.elsewhere.push(`${name}/${file}:${fn.start}-${fn.end} (lizard ${other.start}-${other.end})`);
        continue;
      }
      tally.matched++;
      if (other.end !== fn.end) tally.earlierEnds++;
      const strataFigure = symbol.cyclomatic ?? fn.cyclomatic;
      tally.lizardTotal += other.cyclomatic;
      tally.strataTotal += strataFigure;
      const difference = other.cyclomatic - strataFigure;
      if (difference === 0) tally.equal++;
      tally.absoluteDifference += Math.abs(difference);
      const counted: Record<string, number> = { ...other.counted };
      let attribution = 0;
      for (const nested of lizardNested.get(other) ?? []) {
        attribution -= nested.cyclomatic - 1;
        for (const [token, count] of Object.entries(nested.counted)) counted[token] = (counted[token] ?? 0) + count;
      }
      const classes = [...fn.classes];
      for (const nested of strataNested.get(fn) ?? []) {
        attribution += nested.cyclomatic - 1;
        nested.classes.forEach((count, index) => {
          classes[index]! += count;
        });
      }
      const named = new Set(spec.classes.flatMap((cls) => cls.lizard));
      const deltas = spec.classes.map((cls, index) => cls.lizard.reduce((sum, token) => sum + (counted[token] ?? 0), 0) - classes[index]!);
      const rest: Record<string, number> = {};
      for (const [token, count] of Object.entries(counted)) if (!named.has(token) && count !== 0) rest[token] = count;
      deltas.push(
        Object.values(rest).reduce((sum, count) => sum + count, 0),
        attribution,
      );
      if (difference !== 0 || deltas.some((delta) => delta !== 0)) {
        tally.differences.push({ where: `${name}/${file}:${other.start}`, lizard: other.cyclomatic, strata: strataFigure, deltas, other: rest });
      }
    }
    for (const fn of pairs.keys()) if (!nodeFunctions.has(fn)) tally.lizardNotNode++;
    for (const fn of lizardFunctions) {
      if (pairedLizard.has(fn) || innermost(fn, pairedLizardList)) continue;
      tally.lizardNoFunction.push(`${name}/${file}:${fn.start} ${fn.name}`);
    }
  }
}

function report(): void {
  const rows: string[] = [];
  console.log('\n| language | repositories | files | symbols | matched | equal | mean abs. difference | lizard, sum | Strata, sum |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [key, tally] of tallies) {
    const spec = LANGUAGES[key]!;
    const share = tally.matched === 0 ? 0 : (100 * tally.equal) / tally.matched;
    const mean = tally.matched === 0 ? 0 : tally.absoluteDifference / tally.matched;
    rows.push(
      `| ${spec.label} | ${[...tally.repositories].join(', ')} | ${tally.files} | ${tally.symbols} | ${tally.matched} | ${share.toFixed(1)}% | ${mean.toFixed(3)} | ${tally.lizardTotal} | ${tally.strataTotal} |`,
    );
  }
  for (const row of rows) console.log(row);
  for (const [key, tally] of tallies) {
    const spec = LANGUAGES[key]!;
    console.log(
      `\n${spec.label}: ${tally.matched} of ${tally.symbols} symbols matched (${tally.earlierEnds} where lizard's function ends earlier), ${tally.equal} equal`,
    );
    if (tally.stale > 0)
      console.log(`  ${tally.stale} symbols whose figure differs from this bench's copy of the rule table, or its classes' sum (the copy is stale)`);
    console.log(`  symbols without a function of lizard's: ${tally.noLizard.length}${sample(tally.noLizard)}`);
    console.log(`  symbols whose function lizard reads with other lines (not compared): ${tally.elsewhere.length}${sample(tally.elsewhere)}`);
    console.log(`  lizard's functions measured by Strata but no symbol node (overloads, nested classes' methods, ...): ${tally.lizardNotNode}`);
    console.log(`  lizard's functions Strata does not measure at all: ${tally.lizardNoFunction.length}${sample(tally.lizardNoFunction)}`);
    const names = [
      ...spec.classes.map((cls) => cls.name),
      'tokens lizard counts that no class names',
      'a function of its own to one tool, in the function around it to the other',
    ];
    const classes = names
      .map((name, index) => {
        const hit = tally.differences.filter((difference) => difference.deltas[index] !== 0);
        return { name, index, hit, sum: hit.reduce((sum, difference) => sum + difference.deltas[index]!, 0) };
      })
      .filter((cls) => cls.hit.length > 0)
      .sort((a, b) => b.hit.length - a.hit.length);
    for (const cls of classes) {
      const samples = [...cls.hit]
        .sort((a, b) => Math.abs(b.deltas[cls.index]!) - Math.abs(a.deltas[cls.index]!) || a.where.localeCompare(b.where))
        .slice(0, SAMPLES)
        .map((difference) => {
          const extra = cls.index === spec.classes.length ? ` ${JSON.stringify(difference.other)}` : '';
          return `${difference.where} (${difference.lizard} vs ${difference.strata}, ${signed(difference.deltas[cls.index]!)}${extra})`;
        });
      console.log(`  ${cls.name}: ${cls.hit.length} functions, lizard ${signed(cls.sum)} in all; e.g. ${samples.join('; ')}`);
    }
  }
}

function signed(value: number): string {
  return value > 0 ? `+${value}` : `${value}`;
}

function sample(list: string[]): string {
  return list.length === 0 ? '' : ` (e.g. ${list.slice(0, SAMPLES).join('; ')})`;
}

const args = process.argv.slice(2);
const lizardAt = args.indexOf('--lizard');
if (lizardAt === -1 || !args[lizardAt + 1]) {
  console.error('usage: npm run bench:complexity -- --lizard <lizard checkout> <repository> [<repository> ...]');
  process.exit(2);
}
const lizardDir = path.resolve(args[lizardAt + 1]!);
const repositories = args.filter((_, index) => index !== lizardAt && index !== lizardAt + 1).map((repository) => path.resolve(repository));
const version = execFileSync('python3', [path.join(lizardDir, 'lizard.py'), '--version'], { encoding: 'utf8' }).trim();
console.log(`lizard ${version} (${lizardDir}); Strata's figures from the graph (host/dist)`);
for (const repository of repositories) await benchRepository(repository, lizardDir);
report();
