import type { Language, Node, TreeCursor } from 'web-tree-sitter';
import type { ImportReference, SymbolFacts } from './source-analyzer.js';
import { namedNodeTypeIds, symbolOf, ThreadGrammar, TreeSitterAnalyzer } from './tree-sitter-analysis.js';
import type { ComplexityRules } from './tree-sitter-complexity.js';
import type { GrammarSource } from './tree-sitter-grammars.js';

const GO_GRAMMAR: GrammarSource = { packageName: 'tree-sitter-go', wasmFile: 'tree-sitter-go.wasm' };

/** Go sources (tests, `_test.go`, too). */
export const GO_SOURCE = /\.go$/;

/** Nodes visited between two looks at the clock. */
const CLOCK_STRIDE = 4_096;

/** An import path as the go command accepts one: no spaces, quotes or backslashes (the rest is checked by the resolver). */
const IMPORT_PATH = /^[^\s"'`\\]+$/u;

/** A name Go exports: one starting with an upper-case letter (Unicode class Lu). */
const EXPORTED_NAME = /^\p{Lu}/u;

/** What counts toward the complexity of Go functions (`tree-sitter-complexity.ts` has the definitions). */
const GO_COMPLEXITY: ComplexityRules = {
  functions: ['function_declaration', 'method_declaration'],
  closures: ['func_literal'],
  ifs: ['if_statement'],
  branches: ['for_statement'],
  structures: ['expression_switch_statement', 'type_switch_statement', 'select_statement'],
  // `default_case` is a type of its own.
  cases: ['expression_case', 'type_case', 'communication_case'],
  logical: { types: ['binary_expression'], operators: ['&&', '||'] },
  jumps: ['goto_statement'],
  labelledJumps: { types: ['break_statement', 'continue_statement'], labels: ['label_name'] },
};

/**
 * Go, read with tree-sitter's Go grammar (web-tree-sitter and the
 * WebAssembly build that the `tree-sitter-go` package ships), loaded once
 * per reading thread on its first Go file. Imports: every `import` spec
 * (grouped or not, named, blank `_` and dot imports alike), each a package's
 * import path, `static`. Build constraints (`//go:build`, `_linux.go`) are
 * not evaluated: the graph shows every platform's files and their imports.
 * Symbols of the file's top level: functions, methods (in their receiver
 * type when the file declares it, else named `Type.Method` at the top
 * level), structs (`class`), interfaces, and the other type declarations
 * and aliases (`type`); exported when the name starts with an upper-case
 * letter, as Go defines it. Comments are not lines of code. A syntax error
 * keeps what was found around it; nesting is on tree-sitter's heap.
 */
export class GoSourceAnalyzer extends TreeSitterAnalyzer<NodeTypes> {
  constructor() {
    super(GO_SOURCE, new ThreadGrammar('Go', GO_GRAMMAR, nodeTypesOf, GO_COMPLEXITY), (tree, cursor, types, overTime) => {
      const { comments, complete } = commentsOf(cursor, types, overTime);
      return { ...declarationsOf(tree.rootNode), comments, complete };
    });
  }
}

interface NodeTypes {
  comment: ReadonlySet<number>;
}

function nodeTypesOf(language: Language): NodeTypes {
  return { comment: namedNodeTypeIds(language, 'comment') };
}

/** The spans of every comment, from one walk of the tree with a cursor (no node objects); `complete` false past the time limit. */
function commentsOf(cursor: TreeCursor, types: NodeTypes, overTime: () => boolean): { comments: Array<{ start: number; end: number }>; complete: boolean } {
  const comments: Array<{ start: number; end: number }> = [];
  for (let visited = 1; ; visited++) {
    if (visited % CLOCK_STRIDE === 0 && overTime()) return { comments, complete: false };
    if (types.comment.has(cursor.nodeTypeId)) comments.push({ start: cursor.startIndex, end: cursor.endIndex });
    else if (cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return { comments, complete: true };
  }
}

/**
 * The imports and symbols of the file's top level. Go allows imports only
 * there (and declarations of functions, methods and types at the top level
 * are the package's); a part that did not parse is an ERROR node whose
 * declarations are looked into too.
 */
function declarationsOf(root: Node): { imports: ImportReference[]; symbols: SymbolFacts[] } {
  const imports: ImportReference[] = [];
  const types = new Map<string, SymbolFacts>();
  const others: SymbolFacts[] = [];
  const methods: Array<SymbolFacts & { receiver: string }> = [];
  const pending: Node[] = [root];
  for (let scope = pending.pop(); scope; scope = pending.pop()) {
    for (const declaration of scope.namedChildren) {
      if (!declaration) continue;
      switch (declaration.type) {
        case 'import_declaration':
          for (const spec of specsOf(declaration, 'import_spec_list', 'import_spec')) {
            const path = importPath(spec.childForFieldName('path'));
            if (path !== undefined) imports.push({ specifier: path, kind: 'static' });
          }
          break;
        case 'function_declaration': {
          const name = declaration.childForFieldName('name')?.text;
          if (name) others.push(symbol(name, 'function', declaration));
          break;
        }
        case 'method_declaration': {
          const name = declaration.childForFieldName('name')?.text;
          const receiver = receiverType(declaration.childForFieldName('receiver'));
          if (name && receiver) methods.push({ ...symbol(name, 'method', declaration), receiver });
          break;
        }
        case 'type_declaration':
          for (const spec of specsOf(declaration, undefined, 'type_spec', 'type_alias')) {
            const name = spec.childForFieldName('name')?.text;
            if (!name) continue;
            const type = spec.type === 'type_spec' ? spec.childForFieldName('type')?.type : undefined;
            const kind = type === 'struct_type' ? 'class' : type === 'interface_type' ? 'interface' : 'type';
            // A type in a group spans its spec; alone, its declaration (`type` keyword and doc-free).
            if (!types.has(name)) types.set(name, symbol(name, kind, declaration.namedChildCount === 1 ? declaration : spec));
          }
          break;
        case 'ERROR':
          pending.push(declaration);
          break;
      }
    }
  }
  const symbols: SymbolFacts[] = [...types.values(), ...others];
  for (const { receiver, ...method } of methods) {
    // A method whose type is declared in another file of the package: at the top level, named after its type.
    symbols.push(types.has(receiver) ? { ...method, container: receiver } : { ...method, name: `${receiver}.${method.name}` });
  }
  return { imports, symbols: symbols.sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine) };
}

/** The specs of a declaration, alone or in a parenthesized group (a `list` node, or specs as direct children). */
function specsOf(declaration: Node, list: string | undefined, ...kinds: string[]): Node[] {
  const specs: Node[] = [];
  for (const child of declaration.namedChildren) {
    if (!child) continue;
    if (kinds.includes(child.type)) specs.push(child);
    else if (child.type === list) for (const spec of child.namedChildren) if (spec && kinds.includes(spec.type)) specs.push(spec);
  }
  return specs;
}

/** The import path of a string literal (interpreted or raw); undefined when it is none the go command would take. */
function importPath(literal: Node | null): string | undefined {
  if (!literal) return undefined;
  const text = literal.text;
  let path: string | undefined;
  if (literal.type === 'raw_string_literal' && text.length >= 2 && text.endsWith('`')) path = text.slice(1, -1);
  else if (literal.type === 'interpreted_string_literal' && text.length >= 2 && text.endsWith('"')) {
    try {
      path = JSON.parse(text) as string;
    } catch {
      // An escape JSON does not read (`\x41`): no import path has one in practice.
      return undefined;
    }
  }
  return path !== undefined && IMPORT_PATH.test(path) ? path : undefined;
}

/** The name of a method's receiver type: `T` of `(t T)`, `(t *T)`, `(t T[K])`, `(*T)`. */
function receiverType(receiver: Node | null): string | undefined {
  const parameter = receiver?.namedChildren.find((child) => child?.type === 'parameter_declaration');
  let type = parameter?.childForFieldName('type') ?? null;
  while (type && (type.type === 'pointer_type' || type.type === 'generic_type' || type.type === 'parenthesized_type')) {
    type = type.type === 'generic_type' ? type.childForFieldName('type') : type.namedChild(0);
  }
  return type?.type === 'type_identifier' ? type.text : undefined;
}

function symbol(name: string, kind: SymbolFacts['kind'], node: Node): SymbolFacts {
  return symbolOf(name, kind, node, EXPORTED_NAME.test(name));
}
