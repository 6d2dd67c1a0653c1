import { parseSync, Visitor, type ParserOptions } from 'oxc-parser';
import type { Program } from '@oxc-project/types';
import type { ImportReferenceKind } from '@strata/sdk';

/** A module reference found in a source file. */
export interface ImportReference {
  specifier: string;
  kind: ImportReferenceKind;
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
}

/** What reading one file's text tells. */
export interface SourceFileFacts {
  lines: number;
  /** Lines with something other than white space and comments. */
  loc: number;
  imports: ImportReference[];
  symbols: SymbolFacts[];
  /** The first syntax error, when the file does not parse; imports found before it are kept. */
  error?: string;
}

const PARSER_LANG: Record<string, ParserOptions['lang']> = {
  '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx',
  '.js': 'jsx', '.mjs': 'jsx', '.cjs': 'jsx', '.jsx': 'jsx',
};

const REQUIRE_CALL = /\brequire\s*\(/;
const IMPORT_TYPE = /\bimport\s*\(/;
const TRIPLE_SLASH_PATH = /^\/\s*<reference\s+path\s*=\s*["']([^"']+)["']/;

/** Whether files with this name are parsed for imports. */
export function isParsedSource(filename: string): boolean {
  return parserLang(filename) !== undefined;
}

function parserLang(filename: string): ParserOptions['lang'] | undefined {
  if (/\.d\.[mc]?ts$/.test(filename)) return 'dts';
  const dot = filename.lastIndexOf('.');
  return dot === -1 ? undefined : PARSER_LANG[filename.slice(dot)];
}

/**
 * Reads a JavaScript or TypeScript file with oxc's parser: its static and
 * dynamic imports, re-exports, `require()` calls with a literal, TypeScript
 * `import x = require()` and `import()` types, and its line counts.
 */
export function analyzeSource(filename: string, text: string): SourceFileFacts {
  const lang = parserLang(filename);
  if (!lang) return { ...countLines(text, []), imports: [], symbols: [] };
  // Raw transfer hands the tree over as one buffer: faster than the default even with the whole tree read.
  const result = parseSync(filename, text, { lang, sourceType: 'unambiguous', experimentalRawTransfer: true } as ParserOptions);
  const imports: ImportReference[] = [];
  const module = result.module;
  for (const statement of module.staticImports) {
    const typeOnly = statement.entries.length > 0 && statement.entries.every((entry) => entry.isType);
    imports.push({ specifier: statement.moduleRequest.value, kind: typeOnly ? 'type-only' : 'static' });
  }
  for (const statement of module.staticExports) {
    for (const entry of statement.entries) {
      if (entry.moduleRequest) imports.push({ specifier: entry.moduleRequest.value, kind: entry.isType ? 'type-only' : 're-export' });
    }
  }
  for (const dynamic of module.dynamicImports) {
    const literal = stringLiteral(text.slice(dynamic.moduleRequest.start, dynamic.moduleRequest.end));
    if (literal !== undefined) imports.push({ specifier: literal, kind: 'dynamic' });
  }
  // Walking the tree costs more than parsing; only do it when it can find something.
  if (REQUIRE_CALL.test(text) || (lang !== 'jsx' && IMPORT_TYPE.test(text))) {
    new Visitor({
      CallExpression(node) {
        const argument = node.arguments[0];
        if (node.callee.type !== 'Identifier' || node.callee.name !== 'require' || node.arguments.length !== 1) return;
        if (argument?.type === 'Literal' && typeof argument.value === 'string') imports.push({ specifier: argument.value, kind: 'require' });
        else if (argument?.type === 'TemplateLiteral' && argument.expressions.length === 0 && argument.quasis[0]?.value.cooked != null) {
          imports.push({ specifier: argument.quasis[0].value.cooked, kind: 'require' });
        }
      },
      TSImportEqualsDeclaration(node) {
        if (node.moduleReference.type === 'TSExternalModuleReference') {
          imports.push({ specifier: node.moduleReference.expression.value, kind: node.importKind === 'type' ? 'type-only' : 'require' });
        }
      },
      TSImportType(node) {
        imports.push({ specifier: node.source.value, kind: 'type-only' });
      },
    }).visit(result.program);
  }
  // Triple-slash references: `/// <reference path="./types.d.ts" />`, always relative to the file.
  for (const comment of result.comments) {
    if (comment.type !== 'Line' || !comment.value.startsWith('/')) continue;
    const reference = TRIPLE_SLASH_PATH.exec(comment.value);
    if (reference) imports.push({ specifier: /^\.{0,2}\//.test(reference[1]!) ? reference[1]! : `./${reference[1]}`, kind: 'type-only' });
  }
  const firstError = result.errors.find((error) => error.severity === 'Error');
  const counts = countLines(text, result.comments);
  const symbols = declaredSymbols(result.program, lineOf(text));
  return firstError ? { ...counts, imports, symbols, error: `syntax error: ${firstError.message}` } : { ...counts, imports, symbols };
}

type Statement = Program['body'][number];

/**
 * The symbols a file declares: top-level functions, classes (and their
 * methods), interfaces and type aliases, and exported constants holding
 * functions. Overload signatures merge with their implementation.
 */
function declaredSymbols(program: Program, line: (offset: number) => number): SymbolFacts[] {
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
  const declaration = (node: Statement | null | undefined, exported: boolean, span: { start: number; end: number }, defaultName?: string): void => {
    if (!node) return;
    switch (node.type) {
      case 'FunctionDeclaration':
      case 'TSDeclareFunction': {
        const name = node.id?.name ?? defaultName;
        if (name) add({ name, kind: 'function', exported }, span.start, span.end);
        break;
      }
      case 'ClassDeclaration': {
        const name = node.id?.name ?? defaultName;
        if (!name) break;
        add({ name, kind: 'class', exported }, span.start, span.end);
        for (const member of node.body.body) {
          const key = 'key' in member ? member.key : undefined;
          const memberName = key?.type === 'Identifier' || key?.type === 'PrivateIdentifier' ? (key.type === 'PrivateIdentifier' ? `#${key.name}` : key.name)
            : key?.type === 'Literal' ? String(key.value) : undefined;
          if (!memberName) continue;
          const isMethod = member.type === 'MethodDefinition'
            || (member.type === 'PropertyDefinition' && (member.value?.type === 'ArrowFunctionExpression' || member.value?.type === 'FunctionExpression'));
          if (!isMethod) continue;
          const accessor = member.type === 'MethodDefinition' && (member.kind === 'get' || member.kind === 'set') ? `${member.kind} ` : '';
          add({ name: `${accessor}${memberName}`, kind: 'method', exported, container: name }, member.start, member.end);
        }
        break;
      }
      case 'TSInterfaceDeclaration':
        add({ name: node.id.name, kind: 'interface', exported }, span.start, span.end);
        break;
      case 'TSTypeAliasDeclaration':
        add({ name: node.id.name, kind: 'type', exported }, span.start, span.end);
        break;
      case 'VariableDeclaration':
        if (!exported) break;
        for (const declarator of node.declarations) {
          const init = declarator.init;
          if (declarator.id.type === 'Identifier' && (init?.type === 'ArrowFunctionExpression' || init?.type === 'FunctionExpression')) {
            add({ name: declarator.id.name, kind: 'function', exported }, node.declarations.length === 1 ? span.start : declarator.start, node.declarations.length === 1 ? span.end : declarator.end);
          }
        }
        break;
      default:
        break;
    }
  };
  for (const statement of program.body) {
    if (statement.type === 'ExportNamedDeclaration') declaration(statement.declaration as Statement | null, true, statement);
    else if (statement.type === 'ExportDefaultDeclaration') declaration(statement.declaration as Statement, true, statement, 'default');
    else declaration(statement, false, statement);
  }
  return [...byKey.values()];
}

/** Maps a UTF-16 offset to its 1-based line. */
function lineOf(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
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

const NOT_BLANK = /[^ \t\r\ufeff]/;

/** Counts lines, and lines holding code outside the given comment spans. */
export function countLines(text: string, comments: ReadonlyArray<{ start: number; end: number }>): { lines: number; loc: number } {
  if (text.length === 0) return { lines: 0, loc: 0 };
  if (comments.length === 0) {
    // No comments: a line is code when it is not blank. Jumping from line end to line end is much faster than a loop over characters.
    let lines = 0;
    let loc = 0;
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      lines++;
      if (NOT_BLANK.test(text.slice(start, end))) loc++;
      start = end + 1;
    }
    return { lines, loc };
  }
  let lines = 0;
  let loc = 0;
  let lineHasCode = false;
  let commentIndex = 0;
  let nextComment = comments[0];
  for (let i = 0; i < text.length; i++) {
    if (nextComment && i === nextComment.start) {
      // Skip the comment, counting the line ends inside it.
      for (; i < nextComment.end; i++) {
        if (text.charCodeAt(i) === 10) {
          lines++;
          if (lineHasCode) loc++;
          lineHasCode = false;
        }
      }
      nextComment = comments[++commentIndex];
      i--;
      continue;
    }
    const code = text.charCodeAt(i);
    if (code === 10) {
      lines++;
      if (lineHasCode) loc++;
      lineHasCode = false;
    } else if (code !== 32 && code !== 9 && code !== 13 && code !== 0xfeff) {
      lineHasCode = true;
    }
  }
  if (text.charCodeAt(text.length - 1) !== 10) {
    lines++;
    if (lineHasCode) loc++;
  }
  return { lines, loc };
}
