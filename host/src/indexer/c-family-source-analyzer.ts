import type { Language, Node } from 'web-tree-sitter';
import type { SourceAnalyzer, SourceFileFacts, SymbolFacts } from './source-analyzer.js';
import { importsAndComments, namedNodeTypeIds, ThreadGrammar } from './tree-sitter-analysis.js';
import type { ComplexityRules } from './tree-sitter-complexity.js';
import type { GrammarSource } from './tree-sitter-grammars.js';

const C_GRAMMAR: GrammarSource = { packageName: 'tree-sitter-c', wasmFile: 'tree-sitter-c.wasm' };
const CPP_GRAMMAR: GrammarSource = { packageName: 'tree-sitter-cpp', wasmFile: 'tree-sitter-cpp.wasm' };

/** C and C++ sources and headers. */
export const C_FAMILY_SOURCE = /\.(?:c|h|cc|cpp|cxx|c\+\+|hpp|hh|hxx|h\+\+|inl|ipp|tcc)$/;
/** Files read with the C grammar; `.h` is C or C++ by its text (`isCppHeader`); the rest are C++. */
const C_SOURCE = /\.c$/;
const AMBIGUOUS_HEADER = /\.h$/;
/**
 * What only C++ writes in a header: a namespace, a template, a class with a
 * body or a base, an access label, `extern "C++"`, `std::`. A `.h` without
 * any of these is read as C, whose grammar takes C++'s keywords (`new`,
 * `class`, `this`) as the names they are in C.
 */
const CPP_MARKERS =
  /^[ \t]*(?:namespace\b|template[ \t]*<|(?:public|private|protected)[ \t]*:|(?:class|struct)[ \t]+(?:[A-Z][A-Z0-9_]{2,}[ \t]+)?\w+(?:[ \t]+final)?[ \t]*(?::[ \t]*(?:public|private|protected)?[ \t]*\w|\{|$))|\bextern[ \t]+"C\+\+"|\bstd::|^[ \t]*using[ \t]+namespace\b/m;

/** Nesting of scopes (namespaces, classes, `#if` blocks) read for symbols; deeper ones are left out. */
const MAX_SCOPE_DEPTH = 256;

/** Node types whose children are declarations of the enclosing scope (`#if` blocks, `extern "C" {}`, templates). */
const TRANSPARENT = new Set([
  'preproc_if',
  'preproc_ifdef',
  'preproc_else',
  'preproc_elif',
  'preproc_elifdef',
  'linkage_specification',
  'template_declaration',
  'declaration_list',
  'export_declaration',
]);
const TYPE_SPECIFIERS: Readonly<Record<string, SymbolFacts['kind']>> = {
  class_specifier: 'class',
  struct_specifier: 'class',
  union_specifier: 'type',
  enum_specifier: 'type',
};

/** What counts toward the complexity of C and C++ functions (`tree-sitter-complexity.ts` has the definitions). */
const C_FAMILY_COMPLEXITY: ComplexityRules = {
  functions: ['function_definition'],
  closures: ['lambda_expression'],
  ifs: ['if_statement'],
  elses: ['else_clause'],
  branches: ['for_statement', 'for_range_loop', 'while_statement', 'do_statement', 'catch_clause', 'seh_except_clause', 'conditional_expression'],
  structures: ['switch_statement'],
  cases: ['case_statement'],
  // C++ also spells them `and` and `or`.
  logical: { types: ['binary_expression'], operators: ['&&', '||', 'and', 'or'] },
  // `#if A && B` is not code of the function.
  preprocessorConditions: ['preproc_if', 'preproc_elif'],
  jumps: ['goto_statement'],
};

/**
 * C and C++, read with tree-sitter's C and C++ grammars (the WebAssembly
 * builds that `tree-sitter-c` and `tree-sitter-cpp` ship, both loaded once
 * per reading thread on its first such file). `.c` is C; `.cc`, `.cpp`,
 * `.cxx`, `.hpp`, `.hh`, `.hxx`, `.inl` and the like are C++; a `.h` is C++
 * when its text has what only C++ writes (`CPP_MARKERS`: a namespace, a
 * template, a class with a body, an access label, `std::`), else C.
 * Imports: every `#include "..."` (specifier as written: `a/b.h`) and
 * `#include <...>` (with its brackets: `<vector>`), inside `#if`/`#ifdef`
 * blocks too (both branches: nothing is preprocessed); an include of a macro
 * is left out. Symbols, definitions only: functions, structs, classes,
 * unions and enums with a body (an anonymous one by the name a typedef
 * gives it), in namespaces too (by their own name), and
 * methods defined in a class or out of line (`A::f`: container `A` when the
 * file defines `A`, else named `A::f`), nested types with their class as
 * container. Exported: everything but what is `static` at file scope or in
 * an anonymous namespace; a member as its class. An export macro between
 * `class` and the name is blanked out before parsing (`withoutExportMacros`).
 */
export class CFamilySourceAnalyzer implements SourceAnalyzer {
  readonly recursesPerNestingLevel = false;
  private readonly c = new ThreadGrammar('C', C_GRAMMAR, nodeTypesOf, C_FAMILY_COMPLEXITY);
  private readonly cpp = new ThreadGrammar('C++', CPP_GRAMMAR, nodeTypesOf, C_FAMILY_COMPLEXITY);

  reads(filename: string): boolean {
    return C_FAMILY_SOURCE.test(filename);
  }

  get loaded(): boolean {
    return this.c.loaded && this.cpp.loaded;
  }

  async load(): Promise<void> {
    await Promise.all([this.c.load(), this.cpp.load()]);
  }

  analyze(filename: string, text: string, bytes: Uint8Array): SourceFileFacts {
    const isC = C_SOURCE.test(filename) || (AMBIGUOUS_HEADER.test(filename) && !CPP_MARKERS.test(text));
    return (isC ? this.c : this.cpp).analyze(
      text,
      bytes,
      (tree, cursor, types, overTime) => {
        const { imports, comments, complete } = importsAndComments(cursor, types.include, types.comment, includedHeader, overTime);
        return { imports, comments, complete, symbols: declaredSymbols(tree.rootNode) };
      },
      withoutExportMacros(text),
    );
  }
}

/**
 * An export macro between `class` or `struct` and the name
 * (`class LEVELDB_EXPORT Slice {`, `struct Q_CORE_EXPORT QPoint : Base {`):
 * what a preprocessor would expand to an attribute or nothing, and what
 * tree-sitter, which does not preprocess, reads as the class's name (and the
 * class as a function). Upper case, three characters or more, before a
 * name and then a body, a base list or `final`.
 */
const EXPORT_MACRO = /\b(?:class|struct|union)[ \t]+([A-Z][A-Z0-9_]{2,})[ \t]+(?=[A-Za-z_]\w*[ \t]*(?:final\b|[:{]|$))/gm;

/** The text with export macros (`EXPORT_MACRO`) blanked out, each character a space: offsets, lines and columns stay. */
function withoutExportMacros(text: string): string {
  if (!/\b(?:class|struct|union)[ \t]+[A-Z][A-Z0-9_]{2,}[ \t]/.test(text)) return text;
  return text.replace(EXPORT_MACRO, (match, macro: string) => {
    const at = match.lastIndexOf(macro);
    return match.slice(0, at) + ' '.repeat(macro.length) + match.slice(at + macro.length);
  });
}

interface NodeTypes {
  include: ReadonlySet<number>;
  comment: ReadonlySet<number>;
}

function nodeTypesOf(language: Language): NodeTypes {
  return { include: namedNodeTypeIds(language, 'preproc_include'), comment: namedNodeTypeIds(language, 'comment') };
}

/**
 * One cursor walk of the whole tree (linear time, no node objects but for
 * the includes): the `#include`s anywhere, and the spans of comments.
 */

/** The header an `#include` names: `a/b.h` for `"a/b.h"`, `<vector>` with its brackets; undefined for a macro. */
function includedHeader(include: Node): string | undefined {
  const path = include.childForFieldName('path');
  if (!path || path.hasError) return undefined;
  if (path.type === 'system_lib_string') {
    const inner = path.text.slice(1, -1).trim();
    return inner && !/[\s<>]/.test(inner) ? `<${inner}>` : undefined;
  }
  if (path.type === 'string_literal') {
    const raw = path.text;
    const inner = raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1).trim() : '';
    return inner && !/["\n]/.test(inner) ? inner : undefined;
  }
  return undefined;
}

/** A scope being read for symbols: its node, the class it is the body of, whether what it declares is exported. */
interface Scope {
  node: Node;
  className: string | undefined;
  exported: boolean;
  depth: number;
}

/**
 * The definitions of the file's scopes: the translation unit, namespaces,
 * `extern "C"` blocks, `#if` blocks and templates (which are the enclosing
 * scope), class bodies. Definitions of one name in one scope merge
 * (overloads, the branches of an `#if`).
 */
function declaredSymbols(root: Node): SymbolFacts[] {
  const byKey = new Map<string, SymbolFacts>();
  const add = (symbol: Omit<SymbolFacts, 'startLine' | 'endLine'>, node: Node): void => {
    const startLine = node.startPosition.row + 1;
    const end = node.endPosition;
    const endLine = Math.max(startLine, end.column === 0 ? end.row : end.row + 1);
    const key = `${symbol.container ?? ''}.${symbol.name}`;
    const existing = byKey.get(key);
    if (existing) {
      existing.startLine = Math.min(existing.startLine, startLine);
      existing.endLine = Math.max(existing.endLine, endLine);
      existing.exported ||= symbol.exported;
    } else {
      byKey.set(key, { ...symbol, startLine, endLine });
    }
  };
  const pending: Scope[] = [{ node: root, className: undefined, exported: true, depth: 0 }];
  for (let scope = pending.pop(); scope; scope = pending.pop()) {
    const { className, depth } = scope;
    for (const item of scope.node.namedChildren) {
      if (!item) continue;
      if (TRANSPARENT.has(item.type)) {
        if (depth < MAX_SCOPE_DEPTH) pending.push({ ...scope, node: item, depth: depth + 1 });
        continue;
      }
      if (item.type === 'namespace_definition') {
        const body = item.childForFieldName('body');
        const anonymous = item.childForFieldName('name') === null;
        if (body && depth < MAX_SCOPE_DEPTH) pending.push({ node: body, className, exported: scope.exported && !anonymous, depth: depth + 1 });
        continue;
      }
      if (item.type === 'function_definition') {
        const exported = scope.exported && !(className === undefined && isStatic(item));
        const name = functionName(item);
        if (!name) continue;
        if (className !== undefined) add({ name: name.name, kind: 'method', exported, container: className }, item);
        else if (name.scope !== undefined) add({ name: name.name, kind: 'method', exported, container: name.scope }, item);
        else add({ name: name.name, kind: 'function', exported }, item);
        continue;
      }
      // A type with a body: alone (`struct S {...};`), or in a declaration, a typedef or a class member.
      const specifier = TYPE_SPECIFIERS[item.type] ? item : item.childForFieldName('type');
      const kind = specifier ? TYPE_SPECIFIERS[specifier.type] : undefined;
      // An anonymous one that a typedef names (`typedef struct { ... } dict;`) goes by the typedef's name.
      const typeName = specifier?.childForFieldName('name') ?? (item.type === 'type_definition' ? item.childForFieldName('declarator') : null);
      const body = specifier?.childForFieldName('body');
      if (!specifier || !kind || !body || !typeName) continue;
      const name = typeName.text.split('::').at(-1)!.trim();
      if (!/^[\w$~]+$/.test(name)) continue;
      const exported = scope.exported && !(className === undefined && isStatic(item));
      add(className === undefined ? { name, kind, exported } : { name, kind, exported, container: className }, specifier);
      if (kind === 'class' && depth < MAX_SCOPE_DEPTH) {
        pending.push({ node: body, className: className === undefined ? name : `${className}.${name}`, exported, depth: depth + 1 });
      }
    }
  }
  // An out-of-line method of a class the file does not define: named `A::f` under the file.
  const symbols: SymbolFacts[] = [];
  for (const symbol of byKey.values()) {
    if (symbol.container !== undefined && !isDefined(byKey, symbol.container)) {
      const { container, ...rest } = symbol;
      const name = `${container.replaceAll('.', '::')}::${symbol.name}`;
      if (!byKey.has(`.${name}`)) symbols.push({ ...rest, name });
    } else {
      symbols.push(symbol);
    }
  }
  return symbols.sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
}

/** Whether the class named by a dotted container (`A.B`) is among the symbols. */
function isDefined(byKey: ReadonlyMap<string, SymbolFacts>, container: string): boolean {
  const dot = container.lastIndexOf('.');
  return byKey.has(dot === -1 ? `.${container}` : `${container.slice(0, dot)}.${container.slice(dot + 1)}`);
}

function isStatic(declaration: Node): boolean {
  for (const child of declaration.namedChildren) if (child?.type === 'storage_class_specifier' && child.text === 'static') return true;
  return false;
}

/** A function definition's name, and the class of an out-of-line method (`A::f`, `n::A::f`: `A`). */
function functionName(definition: Node): { name: string; scope?: string } | undefined {
  let declarator = definition.childForFieldName('declarator');
  // Through pointers, references and parentheses to the function's declarator.
  for (let hops = 0; declarator && declarator.type !== 'function_declarator' && hops < 64; hops++) declarator = declarator.childForFieldName('declarator');
  const name = declarator?.childForFieldName('declarator');
  if (!name) return undefined;
  const written = name.text.replace(/\s+/g, '');
  if (name.type !== 'qualified_identifier') return /^[\w$~]+$|^operator/.test(written) ? { name: written } : undefined;
  // `n::A::f`, `A<T>::f`: the last part is the name, the one before it the class (a namespace's function has none in the file).
  const parts = written.replace(/<[^<>]*>/g, '').split('::');
  const last = parts.pop()!;
  const scope = parts.pop();
  if (!last || !/^[\w$~]+$|^operator/.test(last)) return undefined;
  return scope ? { name: last, scope } : { name: last };
}
