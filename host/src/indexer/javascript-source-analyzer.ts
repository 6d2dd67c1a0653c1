import * as oxc from 'oxc-parser';
import { type ParserOptions, parseSync, Visitor } from 'oxc-parser';
import { codeUnitsOf, countLines, lineAt, lineStartsOf } from './line-counts.js';
import type { ImportReference, SourceAnalyzer, SourceFileFacts, SymbolFacts } from './source-analyzer.js';

const PARSER_LANG: Record<string, ParserOptions['lang']> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
  '.js': 'jsx',
  '.mjs': 'jsx',
  '.cjs': 'jsx',
  '.jsx': 'jsx',
};

const REQUIRE_CALL = /\brequire\s*\(/g;
const IMPORT_CALL = /\bimport\s*\(/g;
const TYPE_IMPORT_WITHOUT_NAMES = /^import\s+type\s*\{/;
const TRIPLE_SLASH_PATH = /^\/\s*<reference\s+path\s*=\s*["']([^"']+)["']/;

/**
 * JavaScript and TypeScript, read with oxc's parser (see `analyzeSource`).
 * Always loaded: oxc is a native module, ready on any thread. It recurses
 * once per level of nesting on the native stack.
 */
export const JAVASCRIPT_SOURCE_ANALYZER: SourceAnalyzer = {
  reads: (filename) => parserLang(filename) !== undefined,
  loaded: true,
  load: async () => {},
  recursesPerNestingLevel: true,
  analyze: analyzeSource,
};

function parserLang(filename: string): ParserOptions['lang'] | undefined {
  if (/\.d\.[mc]?ts$/.test(filename)) return 'dts';
  const dot = filename.lastIndexOf('.');
  return dot === -1 ? undefined : PARSER_LANG[filename.slice(dot)];
}

/** What only a walk of the whole tree finds: `require()`, `import x = require()`, `import()` types. */
function deepImportHandlers(found: ImportReference[]): Record<string, (node: LazyNode) => void> {
  return {
    CallExpression(node) {
      const callee = node.callee;
      if (!IDENTIFIER.has(callee.type) || callee.name !== 'require') return;
      const args = node.arguments;
      if (args.length !== 1) return;
      const argument = args[0];
      if (LITERAL.has(argument.type) && typeof argument.value === 'string') found.push({ specifier: argument.value, kind: 'require' });
      else if (argument.type === 'TemplateLiteral' && argument.expressions.length === 0 && argument.quasis[0]?.value.cooked != null) {
        found.push({ specifier: argument.quasis[0].value.cooked, kind: 'require' });
      }
    },
    TSImportEqualsDeclaration(node) {
      if (node.moduleReference.type === 'TSExternalModuleReference') {
        found.push({ specifier: node.moduleReference.expression.value, kind: node.importKind === 'type' ? 'type-only' : 'require' });
      }
    },
    TSImportType(node) {
      found.push({ specifier: node.source.value, kind: 'type-only' });
    },
  };
}

/** `import('x')` in a JSDoc type expression; the specifier is group 2. */
const JSDOC_IMPORT_TYPE = /\bimport\s*\(\s*(['"`])([^'"`\n]+)\1\s*\)/g;
/** TypeScript's JSDoc `@import` tag: `@import { T } from './x'`, `@import * as x from './x'`. */
const JSDOC_IMPORT_TAG = /@import\s[^@]*?\bfrom\s*(['"])([^'"\n]+)\1/g;

/**
 * The modules a JSDoc comment's types name: `import('x')` inside a type
 * expression (between braces, so that prose and `@example` code do not
 * count) and `@import` tags. Both are type-only references.
 */
function jsdocImports(comment: string, found: ImportReference[]): void {
  if (comment.includes('import(') || /import\s+\(/.test(comment)) {
    // The brace depth is carried from one match to the next: one pass over the comment, however many matches.
    let depth = 0;
    let scanned = 0;
    for (const match of comment.matchAll(JSDOC_IMPORT_TYPE)) {
      for (; scanned < match.index; scanned++) {
        const code = comment.charCodeAt(scanned);
        if (code === 0x7b) depth++;
        else if (code === 0x7d && depth > 0) depth--;
      }
      if (depth > 0) found.push({ specifier: match[2]!, kind: 'type-only' });
    }
  }
  if (comment.includes('@import')) for (const match of comment.matchAll(JSDOC_IMPORT_TAG)) found.push({ specifier: match[2]!, kind: 'type-only' });
}

/**
 * The imports and re-exports inside `declare module 'name' { ... }` blocks
 * (ambient module declarations and module augmentations), which the module
 * record leaves out: they are the declaring file's dependencies all the same.
 */
function ambientModuleImports(program: LazyNode, found: ImportReference[]): void {
  for (const statement of program.body) {
    if (statement.type !== 'TSExternalModuleDeclaration') continue;
    for (const inner of statement.body?.body ?? []) {
      switch (inner.type) {
        case 'ImportDeclaration': {
          let typeOnly = inner.importKind === 'type';
          if (!typeOnly && inner.specifiers.length > 0) {
            typeOnly = true;
            for (const specifier of inner.specifiers) if (specifier.importKind !== 'type') typeOnly = false;
          }
          found.push({ specifier: inner.source.value, kind: typeOnly ? 'type-only' : 'static' });
          break;
        }
        case 'ExportAllDeclaration':
        case 'ExportFromDeclaration':
        case 'ExportNamedDeclaration':
          if (inner.source) found.push({ specifier: inner.source.value, kind: inner.exportKind === 'type' ? 'type-only' : 're-export' });
          break;
        case 'TSImportEqualsDeclaration':
          if (inner.moduleReference.type === 'TSExternalModuleReference') {
            found.push({ specifier: inner.moduleReference.expression.value, kind: inner.importKind === 'type' ? 'type-only' : 'require' });
          }
          break;
        default:
          break;
      }
    }
  }
}

/** A node of oxc's tree, eager (ESTree) or lazily deserialized: the lazy kind has no published types. */
// biome-ignore lint/suspicious/noExplicitAny: oxc's AST is walked by field names that the walker checks at run time.
type LazyNode = any;

/**
 * Reads a JavaScript or TypeScript file with oxc's parser: its static and
 * dynamic imports, re-exports, `require()` calls with a literal, TypeScript
 * `import x = require()` and `import()` types (in JavaScript, those of JSDoc
 * comments), and its line counts.
 *
 * `bytes` is the file as read (the UTF-8 encoding of `text`). Only what is
 * needed of the tree becomes JavaScript objects (oxc's lazy deserialization:
 * the module record, the top-level statements, the comments' spans).
 */
export function analyzeSource(filename: string, text: string, bytes: Uint8Array): SourceFileFacts {
  const lang = parserLang(filename);
  // oxc's offsets count UTF-16 code units: for ASCII text they are byte offsets.
  const units = text.length === bytes.length ? bytes : codeUnitsOf(text);
  const lineStarts = lineStartsOf(units);
  if (!lang) return { ...countLines(units, lineStarts, []), imports: [], symbols: [] };
  const result = parseSync(filename, text, { lang, sourceType: 'unambiguous', experimentalLazy: true } as ParserOptions) as unknown as LazyParseResult;
  try {
    const imports: ImportReference[] = [];
    const module = result.module;
    // The parser recovers from a missing or non-string source (`import x from ;`) with an empty one that spans
    // nothing: no import was written. A written `''` is kept (it is reported as unresolved).
    for (const statement of module.staticImports) {
      if (statement.moduleRequest.end === statement.moduleRequest.start) continue;
      const entries = statement.entries;
      // `import type {} from 'x'` names nothing, and is a type-only import all the same.
      let typeOnly = entries.length > 0 || TYPE_IMPORT_WITHOUT_NAMES.test(text.slice(statement.start, statement.moduleRequest.start));
      for (const entry of entries) if (!entry.isType) typeOnly = false;
      imports.push({ specifier: statement.moduleRequest.value, kind: typeOnly ? 'type-only' : 'static' });
    }
    for (const statement of module.staticExports) {
      for (const entry of statement.entries) {
        const request = entry.moduleRequest;
        if (request && request.end !== request.start) imports.push({ specifier: request.value, kind: entry.isType ? 'type-only' : 're-export' });
      }
    }
    /** Where each `import(` expression starts. */
    const dynamicStarts = new Set<number>();
    for (const dynamic of module.dynamicImports) {
      dynamicStarts.add(dynamic.start);
      const request = dynamic.moduleRequest;
      const literal = stringLiteral(text.slice(request.start, request.end));
      if (literal !== undefined) imports.push({ specifier: literal, kind: 'dynamic' });
    }
    const comments: Array<{ start: number; end: number }> = [];
    // A hashbang line is not code.
    const hashbangAt = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (text.startsWith('#!', hashbangAt)) {
      const end = text.indexOf('\n');
      comments.push({ start: hashbangAt, end: end === -1 ? text.length : end });
    }
    for (const comment of result.comments) {
      const start = comment.start;
      const end = comment.end;
      comments.push({ start, end });
      // JSDoc types of JavaScript files, which TypeScript reads (`checkJs`): `{import('./x').T}`, `@import { T } from './x'`.
      if (lang === 'jsx' && comment.type === 'Block' && text.charCodeAt(start + 2) === 0x2a) jsdocImports(text.slice(start, end), imports);
      // Triple-slash references: `/// <reference path="./types.d.ts" />`, always relative to the file.
      if (text.charCodeAt(start + 2) === 0x2f && comment.type === 'Line') {
        const reference = TRIPLE_SLASH_PATH.exec(text.slice(start + 2, end));
        if (reference) imports.push({ specifier: /^\.{0,2}\//.test(reference[1]!) ? reference[1]! : `./${reference[1]}`, kind: 'type-only' });
      }
    }
    // `require()`, `import x = require()` and `import()` types are not in the module record: finding them takes a
    // walk of the tree, done only where the text shows one may be. An `import(` that is neither a dynamic import
    // nor in a comment may be an `import()` type, which only a walk of the whole tree finds (oxc's lazy walker
    // passes over type annotations); for `require(` the lazy walk does, several times cheaper.
    const inComment = (offset: number): boolean => comments.some((comment) => comment.start <= offset && offset < comment.end);
    const unexplained = (pattern: RegExp, explained: ReadonlySet<number>): boolean => {
      for (const match of text.matchAll(pattern)) if (!explained.has(match.index) && !inComment(match.index)) return true;
      return false;
    };
    if (lang !== 'jsx' && unexplained(IMPORT_CALL, dynamicStarts)) {
      const whole = parseSync(filename, text, { lang, sourceType: 'unambiguous', experimentalRawTransfer: true } as ParserOptions) as unknown as {
        program: LazyNode;
      };
      new Visitor(deepImportHandlers(imports)).visit(whole.program);
    } else if (unexplained(REQUIRE_CALL, NONE)) {
      result.visit(lazyVisitor(deepImportHandlers(imports)));
    }
    if (lang !== 'jsx') ambientModuleImports(result.program, imports);
    let firstError: string | undefined;
    for (const error of result.errors) {
      if (error.severity === 'Error') {
        firstError = error.message;
        break;
      }
    }
    const counts = countLines(units, lineStarts, comments);
    const symbols = declaredSymbols(result.program, (offset) => lineAt(lineStarts, offset));
    return firstError !== undefined ? { ...counts, imports, symbols, error: `syntax error: ${firstError}` } : { ...counts, imports, symbols };
  } finally {
    result.dispose();
  }
}

/** What oxc's parser returns for a lazy parse. */
interface LazyParseResult {
  program: LazyNode;
  module: LazyNode;
  comments: Iterable<{ start: number; end: number; type: string }>;
  errors: Iterable<{ severity: string; message: string }>;
  /** Walks the tree in place, with a visitor made by `lazyVisitor`. */
  visit(visitor: unknown): void;
  dispose(): void;
}

/** oxc's walker of a lazily deserialized tree (not in its published types); loaded with the lazy parser. */
function lazyVisitor(handlers: Record<string, (node: LazyNode) => void>): unknown {
  const LazyVisitor = (
    oxc as unknown as { experimentalGetLazyVisitor(): new (handlers: Record<string, (node: LazyNode) => void>) => unknown }
  ).experimentalGetLazyVisitor();
  return new LazyVisitor(handlers);
}

const NONE: ReadonlySet<number> = new Set();

/** Identifier node types: ESTree's, and the names oxc's lazy nodes carry. */
const IDENTIFIER = new Set(['Identifier', 'IdentifierName', 'IdentifierReference', 'BindingIdentifier']);
const LITERAL = new Set(['Literal', 'StringLiteral', 'NumericLiteral']);
const FUNCTION_VALUE = new Set(['ArrowFunctionExpression', 'FunctionExpression']);
/** `export const x`, `export function f` (oxc's lazy nodes call it `ExportDeclaration`). */
const EXPORT_NAMED = new Set(['ExportNamedDeclaration', 'ExportDeclaration']);

/**
 * The symbols a file declares: top-level functions, classes (and their
 * methods), interfaces and type aliases, and exported constants holding
 * functions. Overload signatures merge with their implementation. Reads
 * only the top-level statements and class bodies of the lazily
 * deserialized tree.
 */
function declaredSymbols(program: LazyNode, line: (offset: number) => number): SymbolFacts[] {
  const byKey = new Map<string, SymbolFacts>();
  const add = (symbol: Omit<SymbolFacts, 'startLine' | 'endLine'>, start: number, end: number): void => {
    const key = `${symbol.container ?? ''}.${symbol.name}`;
    const startLine = line(start);
    const endLine = line(Math.max(start, end - 1));
    const existing = byKey.get(key);
    if (existing) {
      existing.startLine = Math.min(existing.startLine, startLine);
      existing.endLine = Math.max(existing.endLine, endLine);
      existing.exported ||= symbol.exported;
    } else {
      byKey.set(key, { ...symbol, startLine, endLine });
    }
  };
  const declaration = (node: LazyNode, exported: boolean, start: number, end: number, defaultName?: string): void => {
    if (!node) return;
    switch (node.type) {
      case 'FunctionDeclaration':
      case 'TSDeclareFunction': {
        const name = node.id?.name ?? defaultName;
        if (name) add({ name, kind: 'function', exported }, start, end);
        break;
      }
      case 'ClassDeclaration': {
        const name = node.id?.name ?? defaultName;
        if (!name) break;
        add({ name, kind: 'class', exported }, start, end);
        for (const member of node.body.body) {
          const isMethod = member.type === 'MethodDefinition' || (member.type === 'PropertyDefinition' && FUNCTION_VALUE.has(member.value?.type));
          if (!isMethod) continue;
          const key = member.key;
          const memberName =
            key?.type === 'PrivateIdentifier' ? `#${key.name}` : IDENTIFIER.has(key?.type) ? key.name : LITERAL.has(key?.type) ? String(key.value) : undefined;
          if (memberName === undefined) continue;
          const accessor = member.type === 'MethodDefinition' && (member.kind === 'get' || member.kind === 'set') ? `${member.kind} ` : '';
          add({ name: `${accessor}${memberName}`, kind: 'method', exported, container: name }, member.start, member.end);
        }
        break;
      }
      case 'TSInterfaceDeclaration':
        add({ name: node.id.name, kind: 'interface', exported }, start, end);
        break;
      case 'TSTypeAliasDeclaration':
        add({ name: node.id.name, kind: 'type', exported }, start, end);
        break;
      case 'VariableDeclaration': {
        if (!exported) break;
        const declarations = node.declarations;
        const single = declarations.length === 1;
        for (const declarator of declarations) {
          if (IDENTIFIER.has(declarator.id.type) && FUNCTION_VALUE.has(declarator.init?.type)) {
            add({ name: declarator.id.name, kind: 'function', exported }, single ? start : declarator.start, single ? end : declarator.end);
          }
        }
        break;
      }
      default:
        break;
    }
  };
  for (const statement of program.body) {
    const type = statement.type;
    if (EXPORT_NAMED.has(type)) declaration(statement.declaration, true, statement.start, statement.end);
    else if (type === 'ExportDefaultDeclaration') declaration(statement.declaration, true, statement.start, statement.end, 'default');
    else declaration(statement, false, statement.start, statement.end);
  }
  return [...byKey.values()];
}

/** The value of a string literal or a template literal without substitutions. */
function stringLiteral(source: string): string | undefined {
  const trimmed = source.trim();
  const quote = trimmed[0];
  if ((quote === '"' || quote === "'") && trimmed.endsWith(quote) && trimmed.length >= 2) {
    try {
      return quote === '"' ? (JSON.parse(trimmed) as string) : (JSON.parse(`"${trimmed.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"')}"`) as string);
    } catch {
      return undefined;
    }
  }
  if (quote === '`' && trimmed.endsWith('`') && !trimmed.includes('${')) return trimmed.slice(1, -1);
  return undefined;
}
