import type { ImportReferenceKind } from '@strata/sdk';
import type { Language, Node, TreeCursor } from 'web-tree-sitter';
import type { ImportReference, SymbolFacts } from './source-analyzer.js';
import { namedNodeTypeIds, ThreadGrammar, TreeSitterAnalyzer } from './tree-sitter-analysis.js';
import type { ComplexityRules } from './tree-sitter-complexity.js';
import type { GrammarSource } from './tree-sitter-grammars.js';

const PYTHON_GRAMMAR: GrammarSource = { packageName: 'tree-sitter-python', wasmFile: 'tree-sitter-python.wasm' };

/** Python sources: modules (`.py`), stubs (`.pyi`) and Windows scripts (`.pyw`). */
export const PYTHON_SOURCE = /\.py[iw]?$/;

/** Nodes visited between two looks at the clock. */
const CLOCK_STRIDE = 4_096;

/** A dotted module name as Python reads it, leading dots (relative) included; `.` alone too. */
const MODULE_NAME = /^(?:\.+|\.*[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*(?:\.[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*)*)$/u;
/** A plain string literal holding a module name (or a name of `__all__`): no prefix, no escapes. */
const NAME_LITERAL = /^(['"])([\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}.]*)\1$/u;
/** What a file that imports by calling names. */
const IMPORT_CALL = /\b(?:__import__|import_module)\b/;
/** The test of an `if` whose body runs only under a type checker. */
const TYPE_CHECKING_TEST = /^(?:[\w]+\.)*TYPE_CHECKING$/;
/** Statements whose blocks are still the enclosing scope: definitions inside them count as the module's (or the class's). */
const SCOPE_BLOCKS = new Set([
  'if_statement',
  'elif_clause',
  'else_clause',
  'try_statement',
  'except_clause',
  'except_group_clause',
  'finally_clause',
  'with_statement',
  'block',
]);

/** What counts toward the complexity of Python functions (`tree-sitter-complexity.ts` has the definitions). */
const PYTHON_COMPLEXITY: ComplexityRules = {
  functions: ['function_definition'],
  closures: ['lambda'],
  ifs: ['if_statement'],
  elseIfs: ['elif_clause'],
  elses: ['else_clause'],
  branches: ['for_statement', 'while_statement', 'except_clause', 'conditional_expression'],
  // A comprehension's `for` and `if` clauses loop and test as statements do.
  decisions: ['for_in_clause', 'if_clause'],
  structures: ['match_statement'],
  cases: ['case_clause'],
  logical: { types: ['boolean_operator'], operators: ['and', 'or'] },
};

/**
 * Python, read with tree-sitter's Python grammar (web-tree-sitter and the
 * WebAssembly build that the `tree-sitter-python` package ships). The
 * grammar loads once per reading thread, on its first Python file. Imports:
 * `import a.b` and `from a import b, c` (`names`), relative ones with their
 * dots; `static` at module level (in `try`/`except ImportError` and other
 * conditions too), `dynamic` inside a function and for `__import__` or
 * `importlib.import_module` with a literal, `type-only` under
 * `if TYPE_CHECKING:`. `from __future__ import` is a compiler directive, not
 * a dependency. Symbols: functions (async too) and classes declared in the
 * module's scope (in `if`/`try`/`with` blocks too), and the methods of those
 * classes, decorated or not (their lines start at the first decorator);
 * exported as Python defines it, for `import *` and documentation: the names
 * listed in `__all__` when the module gives it as literals, else the names
 * not starting with `_`; a method as its class. Docstrings count as comments
 * in `loc`. Tree-sitter keeps its parse stack on the heap, so nesting does
 * not endanger the thread; a syntax error keeps what was found around it.
 */
export class PythonSourceAnalyzer extends TreeSitterAnalyzer<NodeTypes> {
  constructor() {
    super(PYTHON_SOURCE, new ThreadGrammar('Python', PYTHON_GRAMMAR, nodeTypesOf, PYTHON_COMPLEXITY), (tree, cursor, types, overTime, text) => {
      const { imports, comments, complete } = walkTree(cursor, types, IMPORT_CALL.test(text), overTime);
      return { imports, comments, complete, symbols: declaredSymbols(tree.rootNode) };
    });
  }
}

/** The ids of the node types the walk looks for (a type can have several ids: aliases). */
interface NodeTypes {
  imports: ReadonlySet<number>;
  comment: ReadonlySet<number>;
  expressionStatement: ReadonlySet<number>;
  call: ReadonlySet<number>;
  string: ReadonlySet<number>;
  functionDefinition: ReadonlySet<number>;
  ifStatement: ReadonlySet<number>;
}

function nodeTypesOf(language: Language): NodeTypes {
  const ids = (...names: string[]): Set<number> => namedNodeTypeIds(language, ...names);
  return {
    imports: ids('import_statement', 'import_from_statement'),
    comment: ids('comment'),
    expressionStatement: ids('expression_statement'),
    call: ids('call'),
    string: ids('string'),
    functionDefinition: ids('function_definition'),
    ifStatement: ids('if_statement'),
  };
}

/** What an ancestor of the cursor's node makes of its descendants. */
interface Scope {
  /** Inside a function's body: an import there runs when the function does. */
  inFunction: boolean;
  /** Inside the body of `if TYPE_CHECKING:`. */
  typeOnly: boolean;
  /** The node is a function definition. */
  isFunction: boolean;
  /** The node is `if TYPE_CHECKING:`: its `consequence` is type-only. */
  isTypeCheckingIf: boolean;
}

/**
 * One walk of the whole tree with a cursor: import statements anywhere (in
 * functions, `try`, `if`), `__import__('x')` and `importlib.import_module('x')`
 * with a literal, and the spans of comments and of string statements
 * (docstrings), which are not lines of code. A cursor, not a query: a query
 * takes time quadratic in a node's count of anonymous children (30,000
 * unclosed brackets took 1.5 s, 300,000 over 20 s), a walk linear time.
 * Calls are looked at only in a file whose text names `__import__` or
 * `import_module`. Gives up, with `complete` false, past the time limit.
 */
function walkTree(
  cursor: TreeCursor,
  types: NodeTypes,
  importCalls: boolean,
  overTime: () => boolean,
): { imports: ImportReference[]; comments: Array<{ start: number; end: number }>; complete: boolean } {
  const imports: ImportReference[] = [];
  const comments: Array<{ start: number; end: number }> = [];
  const ancestors: Scope[] = [];
  for (let visited = 1; ; visited++) {
    if (visited % CLOCK_STRIDE === 0 && overTime()) return { imports, comments, complete: false };
    const type = cursor.nodeTypeId;
    const parent = ancestors.at(-1);
    const inFunction = parent !== undefined && (parent.inFunction || parent.isFunction);
    const typeOnly = parent !== undefined && (parent.typeOnly || (parent.isTypeCheckingIf && cursor.currentFieldName === 'consequence'));
    let descend = true;
    if (types.imports.has(type)) {
      importsOf(cursor.currentNode, typeOnly ? 'type-only' : inFunction ? 'dynamic' : 'static', imports);
      descend = false;
    } else if (types.comment.has(type)) {
      comments.push({ start: cursor.startIndex, end: cursor.endIndex });
      descend = false;
    } else if (types.expressionStatement.has(type)) {
      // A statement that is a string alone (a docstring): looked at with the cursor, which makes no node objects.
      const start = cursor.startIndex;
      const end = cursor.endIndex;
      if (cursor.gotoFirstChild()) {
        const onlyString = types.string.has(cursor.nodeTypeId) && !cursor.gotoNextSibling();
        cursor.gotoParent();
        if (onlyString) {
          comments.push({ start, end });
          descend = false;
        }
      }
    } else if (importCalls && types.call.has(type)) {
      const specifier = importCall(cursor.currentNode);
      if (specifier !== undefined) imports.push({ specifier, kind: typeOnly ? 'type-only' : 'dynamic' });
    }
    if (descend && cursor.gotoFirstChild()) {
      ancestors.push({
        inFunction,
        typeOnly,
        isFunction: types.functionDefinition.has(type),
        isTypeCheckingIf: types.ifStatement.has(type) && isTypeCheckingIf(cursor),
      });
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return { imports, comments, complete: true };
      ancestors.pop();
    }
  }
}

/** Whether the `if` above the cursor (which has just gone to its first child) tests `TYPE_CHECKING`. */
function isTypeCheckingIf(cursor: TreeCursor): boolean {
  const test = cursor.currentNode.parent?.childForFieldName('condition');
  return test !== null && test !== undefined && TYPE_CHECKING_TEST.test(test.text.replace(/\s+/g, ''));
}

/** The module a call of `__import__`, `import_module` or `importlib.import_module` names with a string literal. */
function importCall(call: Node): string | undefined {
  const callee = call.childForFieldName('function');
  const name = callee?.type === 'identifier' ? callee.text : callee?.type === 'attribute' ? callee.childForFieldName('attribute')?.text : undefined;
  if (name !== 'import_module' && !(name === '__import__' && callee?.type === 'identifier')) return undefined;
  const first = call.childForFieldName('arguments')?.namedChild(0);
  const literal = first?.type === 'string' ? NAME_LITERAL.exec(first.text)?.[2] : undefined;
  return literal !== undefined && MODULE_NAME.test(literal) ? literal : undefined;
}

/** The references of one `import` or `from ... import` statement. */
function importsOf(statement: Node, kind: ImportReferenceKind, found: ImportReference[]): void {
  if (statement.type === 'import_statement') {
    for (const name of statement.childrenForFieldName('name')) {
      const dotted = name.type === 'aliased_import' ? name.childForFieldName('name') : name;
      const specifier = dotted && moduleName(dotted.text);
      if (specifier) found.push({ specifier, kind });
    }
    return;
  }
  const module = statement.childForFieldName('module_name');
  const specifier = module && moduleName(module.text);
  if (!specifier) return;
  const names: string[] = [];
  for (const name of statement.childrenForFieldName('name')) {
    const dotted = name.type === 'aliased_import' ? name.childForFieldName('name') : name;
    const imported = dotted && moduleName(dotted.text);
    if (imported && !imported.startsWith('.')) names.push(imported);
  }
  // `from a import *` names nothing: the module itself.
  found.push(names.length > 0 ? { specifier, kind, names } : { specifier, kind });
}

/** A module name as written, without the white space and line continuations Python allows in it; undefined when it is none. */
function moduleName(written: string): string | undefined {
  const name = written.replace(/[\s\\]+/g, '');
  return MODULE_NAME.test(name) ? name : undefined;
}

/**
 * The functions and classes of the module's scope and the methods of those
 * classes (not nested functions, nor classes in classes), with their lines;
 * definitions of one name in one scope merge (a property's getter and
 * setter, `@overload`s, the branches of a condition).
 */
function declaredSymbols(root: Node): SymbolFacts[] {
  /** The definitions found, before it is known whether `__all__` exports them. */
  const byKey = new Map<string, Omit<SymbolFacts, 'exported'>>();
  const add = (symbol: Omit<SymbolFacts, 'exported' | 'startLine' | 'endLine'>, outer: Node, definition: Node): void => {
    const startLine = outer.startPosition.row + 1;
    const end = definition.endPosition;
    // A node that ends at a line's start ends on the line before.
    const endLine = Math.max(startLine, end.column === 0 ? end.row : end.row + 1);
    const key = `${symbol.container ?? ''}.${symbol.name}`;
    const existing = byKey.get(key);
    if (existing) {
      existing.startLine = Math.min(existing.startLine, startLine);
      existing.endLine = Math.max(existing.endLine, endLine);
    } else {
      byKey.set(key, { ...symbol, startLine, endLine });
    }
  };
  const all = new DunderAll();
  /** Scopes to read: the module's (no class) and each top-level class's body. */
  const pending: Array<{ scope: Node; className: string | undefined }> = [{ scope: root, className: undefined }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { scope, className } = item;
    for (const statement of scope.namedChildren) {
      if (!statement) continue;
      if (SCOPE_BLOCKS.has(statement.type)) {
        pending.push({ scope: statement, className });
        continue;
      }
      if (className === undefined && statement.type === 'expression_statement') {
        all.read(statement);
        continue;
      }
      const definition = statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
      const name = definition?.childForFieldName('name')?.text;
      if (!definition || !name) continue;
      if (definition.type === 'function_definition') {
        add(className === undefined ? { name, kind: 'function' } : { name, kind: 'method', container: className }, statement, definition);
      } else if (definition.type === 'class_definition' && className === undefined) {
        add({ name, kind: 'class' }, statement, definition);
        const body = definition.childForFieldName('body');
        if (body) pending.push({ scope: body, className: name });
      }
    }
  }
  const exported = (name: string): boolean => all.exports(name) ?? !name.startsWith('_');
  const symbols: SymbolFacts[] = [];
  for (const symbol of byKey.values()) symbols.push({ ...symbol, exported: exported(symbol.container ?? symbol.name) });
  return symbols.sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
}

/**
 * A module's `__all__`, from its assignments (`=`, `+=`, annotated),
 * `__all__.extend([...])` and `__all__.append('x')` in the module's scope.
 * Read only when every part of it is a string literal (or `__all__` itself):
 * one built otherwise (`mod.__all__ + [...]`, a comprehension) is unknown.
 */
class DunderAll {
  private readonly names = new Set<string>();
  private declared = false;
  private computed = false;

  /** Whether `name` is exported by `__all__`; undefined when the module has none that can be read. */
  exports(name: string): boolean | undefined {
    return this.declared && !this.computed ? this.names.has(name) : undefined;
  }

  read(statement: Node): void {
    const expression = statement.namedChild(0);
    if (!expression) return;
    if (expression.type === 'assignment' || expression.type === 'augmented_assignment') {
      if (expression.childForFieldName('left')?.text !== '__all__') return;
      const value = expression.childForFieldName('right');
      if (!value) return;
      this.declared = true;
      if (expression.type === 'augmented_assignment' && expression.childForFieldName('operator')?.text !== '+=') this.computed = true;
      else this.addSequence(value);
    } else if (expression.type === 'call') {
      const callee = expression.childForFieldName('function');
      if (callee?.type !== 'attribute' || callee.childForFieldName('object')?.text !== '__all__') return;
      const method = callee.childForFieldName('attribute')?.text;
      const argument = expression.childForFieldName('arguments')?.namedChild(0);
      if (!argument || (method !== 'extend' && method !== 'append')) return;
      this.declared = true;
      if (method === 'append') this.addString(argument);
      else this.addSequence(argument);
    }
  }

  private addSequence(node: Node): void {
    switch (node.type) {
      case 'list':
      case 'tuple':
      case 'expression_list':
        for (const element of node.namedChildren) if (element && element.type !== 'comment') this.addString(element);
        break;
      case 'parenthesized_expression': {
        const inner = node.namedChild(0);
        if (inner) this.addSequence(inner);
        else this.computed = true;
        break;
      }
      case 'binary_operator':
        if (node.childForFieldName('operator')?.text !== '+') this.computed = true;
        for (const side of [node.childForFieldName('left'), node.childForFieldName('right')]) if (side) this.addSequence(side);
        break;
      case 'identifier':
        if (node.text !== '__all__') this.computed = true;
        break;
      default:
        this.computed = true;
    }
  }

  private addString(node: Node): void {
    const name = node.type === 'string' ? NAME_LITERAL.exec(node.text)?.[2] : undefined;
    if (name === undefined) this.computed = true;
    else this.names.add(name);
  }
}
