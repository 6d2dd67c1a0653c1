import type { ImportReferenceKind } from '@strata/sdk';

/** A module reference found in a source file. */
export interface ImportReference {
  /**
   * The module as written: a path or package name in JavaScript and
   * TypeScript (`./b.js`, `react/jsx-runtime`); a dotted module name in
   * Python, with its leading dots when relative (`a.b`, `..a`, `.`).
   */
  specifier: string;
  kind: ImportReferenceKind;
  /**
   * The names a `from` import takes from the module (Python's
   * `from a import b, c`), each of which may be a submodule of it; absent
   * when the reference names the module alone (`import a.b`, `from a import *`).
   */
  names?: string[];
  /**
   * The inline modules the reference is written in, outermost first (Rust's
   * `mod a { use super::x; }`): its relative paths count from there; absent at
   * a file's top level.
   */
  scope?: string[];
}

/** A symbol declared at the top level of a file, or a method of such a class. */
export interface SymbolFacts {
  name: string;
  kind: 'function' | 'class' | 'method' | 'interface' | 'type';
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  exported: boolean;
  /** For a method: the name of its class. */
  container?: string;
  /**
   * Complexity figures, for languages whose analyzer measures them (see
   * `tree-sitter-complexity.ts`): a function's or method's own; a class's
   * (or other type's) the sum of the functions inside its lines. `loc`
   * counts the code lines of the symbol's lines.
   */
  complexity?: { cyclomatic: number; cognitive: number; loc: number };
}

/** What reading one file's text tells. */
export interface SourceFileFacts {
  lines: number;
  /** Lines with something other than white space and comments. */
  loc: number;
  imports: ImportReference[];
  symbols: SymbolFacts[];
  /** Why the file was read only in part (the first syntax error: what was found is kept). */
  error?: string;
  /** The sums over every function of the file, for languages whose analyzer measures them (code outside functions does not count). */
  cyclomatic?: number;
  cognitive?: number;
}

/**
 * The parser of one language (or family of languages), run in the reading
 * threads: from a file's text, its imports, symbols and line counts. A
 * language plugs in with one of these (listed in `source-analyzers.ts`) and,
 * for its imports to become edges, a `LanguageImportResolver`.
 */
export interface SourceAnalyzer {
  /** Whether files named `filename` are this analyzer's to parse. */
  reads(filename: string): boolean;
  /**
   * Whether it can analyze on this thread now. One that loads first (a
   * WebAssembly grammar, asynchronously) is loaded by the reading threads
   * before they read its files; a thread where it is not loaded, the
   * calling thread, leaves its files to them. A load that failed counts as
   * loaded: its files are then nodes with the reason in `error`.
   */
  readonly loaded: boolean;
  /** Loads it on this thread (once; never rejects). */
  load(): Promise<void>;
  /**
   * Whether its parser recurses on the native stack once per level of
   * nesting, where an overflow kills the process: such files are given to
   * it only on threads with a stack sized for `MAX_PARSED_NESTING` levels,
   * and only when their naive nesting count is within that.
   */
  readonly recursesPerNestingLevel: boolean;
  /** Reads one file's text (`bytes` as read; `text` decoded from them). Never throws. */
  analyze(filename: string, text: string, bytes: Uint8Array): SourceFileFacts;
}
