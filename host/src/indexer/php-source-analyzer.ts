import type { Language, Node, TreeCursor } from 'web-tree-sitter';
import type { ImportReference, SymbolFacts } from './source-analyzer.js';
import { inLineOrder, namedNodeTypeIds, symbolOf, ThreadGrammar, TreeSitterAnalyzer } from './tree-sitter-analysis.js';
import type { ComplexityRules } from './tree-sitter-complexity.js';
import type { GrammarSource } from './tree-sitter-grammars.js';

/** The grammar that reads a whole `.php` file: HTML (`text`) around `<?php ... ?>` blocks (`php_only` reads PHP alone). */
const PHP_GRAMMAR: GrammarSource = { packageName: 'tree-sitter-php', wasmFile: 'tree-sitter-php.wasm' };

/** PHP sources: `.php` (not Laravel's `.blade.php` templates), `.phtml` templates, and the old `.php3`, `.php4`, `.php5`. */
export const PHP_SOURCE = /(?<!\.blade)\.(?:php[345]?|phtml)$/;

/** Nodes visited between two looks at the clock. */
const CLOCK_STRIDE = 4_096;

/** A path as an include takes it from a string: no NUL, line break or quote. */
const PATH = /^[^\0\r\n"'`]+$/u;
/** A namespace-qualified name as `use` writes it, white space taken out, without its leading backslash. */
const QUALIFIED_NAME = /^[\p{L}_\x80-\uffff][\p{L}\p{N}_\x80-\uffff]*(?:\\[\p{L}_\x80-\uffff][\p{L}\p{N}_\x80-\uffff]*)*$/u;
/** A longer path is none (Linux's PATH_MAX). */
const MAX_PATH = 4_096;
/** `dirname(dirname(...))` deeper than this is a computed path. */
const MAX_DIRNAME_NESTING = 16;
/** The longest expression text kept as the specifier of a computed include. */
const MAX_EXPRESSION = 120;

const TYPE_DECLARATIONS: Readonly<Record<string, SymbolFacts['kind']>> = {
  class_declaration: 'class',
  enum_declaration: 'class',
  interface_declaration: 'interface',
  trait_declaration: 'type',
};

/** What counts toward the complexity of PHP functions (`tree-sitter-complexity.ts` has the definitions). */
const PHP_COMPLEXITY: ComplexityRules = {
  functions: ['function_definition', 'method_declaration'],
  closures: ['anonymous_function', 'arrow_function'],
  ifs: ['if_statement'],
  elseIfs: ['else_if_clause'],
  elses: ['else_clause'],
  branches: ['for_statement', 'foreach_statement', 'while_statement', 'do_statement', 'catch_clause', 'conditional_expression'],
  structures: ['switch_statement', 'match_expression'],
  // `default_statement` and `match_default_expression` are types of their own.
  cases: ['case_statement', 'match_conditional_expression'],
  logical: { types: ['binary_expression'], operators: ['&&', '||', 'and', 'or', '??'] },
  logicalAssignments: { types: ['augmented_assignment_expression'], operators: ['??='] },
  jumps: ['goto_statement'],
};

/**
 * PHP, read with tree-sitter's PHP grammar (the WebAssembly build of
 * `tree-sitter-php`'s `php` grammar, which reads the HTML around `<?php
 * ... ?>` blocks too), loaded once per reading thread. Imports, wherever
 * they are in the file: `use` declarations (kind `static`), one reference
 * per name imported, fully qualified without its leading backslash
 * (`App\Models\User`; `function A\f` and `const A\C` for `use function` and
 * `use const`; a group `use A\{B, C}` gives `A\B` and `A\C`; aliases are
 * left out); `require`, `require_once`, `include` and `include_once` (kind
 * `require`) of a string literal (`x.php`, as written), or of `__DIR__`,
 * `dirname(__FILE__)` or `dirname(__DIR__, n)` joined to literals
 * (`DIRECTORY_SEPARATOR` as `/`), written in one form: `__DIR__ . '/x.php'`
 * or `dirname(__DIR__, n) . '/x.php'`; any other expression (a variable, a
 * constant, interpolation) is kept as its text, kind `dynamic`, for the
 * resolver to report. A fully qualified name after `extends`, `implements`
 * or `new` (`new \A\B()`) is a reference as a `use` of it would be (a
 * name relative to the namespace is not followed). Symbols: functions
 * (`function`), classes and enums (`class`), interfaces, traits (`type`: a
 * mixin, never instantiated) by their plain name (not their namespace's,
 * as Java's and C#'s), and the methods of named classes, interfaces,
 * traits and enums (`method`, in their type); declarations inside functions or conditionals count (PHP
 * declares them when that code runs), anonymous classes' methods do not.
 * Exported: every function and type; a method unless `private` or
 * `protected` (no modifier is public). Comments are not lines of code (the
 * HTML around the PHP is); a syntax error keeps what was found around it.
 */
export class PhpSourceAnalyzer extends TreeSitterAnalyzer<NodeTypes> {
  constructor() {
    super(PHP_SOURCE, new ThreadGrammar('PHP', PHP_GRAMMAR, nodeTypesOf, PHP_COMPLEXITY), (_tree, cursor, types, overTime) => walk(cursor, types, overTime));
  }
}

interface NodeTypes {
  comment: ReadonlySet<number>;
  use: ReadonlySet<number>;
  include: ReadonlySet<number>;
  type: ReadonlySet<number>;
  anonymousClass: ReadonlySet<number>;
  method: ReadonlySet<number>;
  function: ReadonlySet<number>;
  /** `extends`, `implements` and `new`, whose fully qualified names are references too. */
  naming: ReadonlySet<number>;
  /** Nodes with nothing declared inside: strings. */
  opaque: ReadonlySet<number>;
}

function nodeTypesOf(language: Language): NodeTypes {
  const ids = (...names: string[]): Set<number> => namedNodeTypeIds(language, ...names);
  return {
    comment: ids('comment'),
    use: ids('namespace_use_declaration'),
    include: ids('require_expression', 'require_once_expression', 'include_expression', 'include_once_expression'),
    type: ids(...Object.keys(TYPE_DECLARATIONS)),
    anonymousClass: ids('anonymous_class'),
    method: ids('method_declaration'),
    function: ids('function_definition'),
    naming: ids('base_clause', 'class_interface_clause', 'object_creation_expression'),
    opaque: ids('string', 'encapsed_string', 'heredoc', 'nowdoc'),
  };
}

/** A type whose body is being walked: where it ends, and its name (undefined: an anonymous class, whose methods are not symbols). */
interface Container {
  end: number;
  name: string | undefined;
  /** An interface's methods are public whatever they say. */
  isInterface: boolean;
}

/** One walk of the tree with a cursor: imports, symbols (each method in the type around it) and comments. */
function walk(
  cursor: TreeCursor,
  types: NodeTypes,
  overTime: () => boolean,
): { imports: ImportReference[]; symbols: SymbolFacts[]; comments: Array<{ start: number; end: number }>; complete: boolean } {
  const imports: ImportReference[] = [];
  const symbols: SymbolFacts[] = [];
  const comments: Array<{ start: number; end: number }> = [];
  const containers: Container[] = [];
  const done = (complete: boolean) => ({ imports, symbols: inLineOrder(symbols), comments, complete });
  for (let visited = 1; ; visited++) {
    if (visited % CLOCK_STRIDE === 0 && overTime()) return done(false);
    const type = cursor.nodeTypeId;
    let descend = true;
    if (types.comment.has(type)) {
      comments.push({ start: cursor.startIndex, end: cursor.endIndex });
      descend = false;
    } else if (types.opaque.has(type)) {
      descend = false;
    } else if (types.use.has(type)) {
      for (const specifier of useSpecifiers(cursor.currentNode)) imports.push({ specifier, kind: 'static' });
      descend = false;
    } else if (types.include.has(type)) {
      const reference = includeReference(cursor.currentNode);
      if (reference) imports.push(reference);
      descend = false;
    } else if (types.naming.has(type)) {
      for (const name of cursor.currentNode.namedChildren) {
        const written = name?.type === 'qualified_name' ? name.text.replace(/\s+/g, '') : '';
        if (written.startsWith('\\') && QUALIFIED_NAME.test(written.slice(1))) imports.push({ specifier: written.slice(1), kind: 'static' });
      }
    } else if (types.type.has(type) || types.anonymousClass.has(type) || types.method.has(type) || types.function.has(type)) {
      const start = cursor.startIndex;
      while (containers.length > 0 && start >= containers.at(-1)!.end) containers.pop();
      const node = cursor.currentNode;
      const name = node.childForFieldName('name')?.text;
      if (types.method.has(type)) {
        const container = containers.at(-1);
        if (name && container?.name !== undefined) {
          const exported = container.isInterface || !hasVisibility(node, 'private', 'protected');
          symbols.push({ ...symbolOf(name, 'method', node, exported), container: container.name });
        }
      } else if (types.function.has(type)) {
        if (name) symbols.push(symbolOf(name, 'function', node, true));
      } else {
        const kind = TYPE_DECLARATIONS[node.type];
        if (kind && name) symbols.push(symbolOf(name, kind, node, true));
        containers.push({ end: cursor.endIndex, name: kind ? name : undefined, isInterface: kind === 'interface' });
      }
    }
    if (descend && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return done(true);
  }
}

/** The names a `use` declaration imports, each as `A\B`, `function A\f` or `const A\C`. */
function useSpecifiers(declaration: Node): string[] {
  const declared = kindOf(declaration);
  const group = declaration.childForFieldName('body');
  const specifiers: string[] = [];
  if (group) {
    const prefix = declaration.namedChildren.find((child) => child?.type === 'namespace_name' || child?.type === 'name');
    if (!prefix) return [];
    for (const clause of group.namedChildren) {
      if (clause?.type !== 'namespace_use_clause') continue;
      const name = importedName(clause);
      if (name !== undefined) specifiers.push(specifierOf(kindOf(clause) ?? declared, `${prefix.text}\\${name}`));
    }
  } else {
    for (const clause of declaration.namedChildren) {
      if (clause?.type !== 'namespace_use_clause') continue;
      const name = importedName(clause);
      if (name !== undefined) specifiers.push(specifierOf(kindOf(clause) ?? declared, name));
    }
  }
  return specifiers.filter((specifier) => QUALIFIED_NAME.test(specifier.slice(specifier.indexOf(' ') + 1)));
}

/** `function` or `const` when the declaration or clause says so. */
function kindOf(node: Node): 'function' | 'const' | undefined {
  const written = node.childForFieldName('type')?.type;
  return written === 'function' || written === 'const' ? written : undefined;
}

/** The name a clause imports (the first name in it: an alias comes after `as`). */
function importedName(clause: Node): string | undefined {
  const name = clause.namedChildren.find((child) => child?.type === 'name' || child?.type === 'qualified_name' || child?.type === 'namespace_name');
  return name?.text;
}

function specifierOf(kind: 'function' | 'const' | undefined, name: string): string {
  const plain = name.replace(/\s+/g, '').replace(/^\\/, '');
  return kind ? `${kind} ${plain}` : plain;
}

/**
 * An include's reference: a literal path as written, `__DIR__ . '/x'` or
 * `dirname(__DIR__, n) . '/x'` for a path from the file's directory, else
 * the expression's text (kind `dynamic`); undefined when it has no argument.
 */
function includeReference(include: Node): ImportReference | undefined {
  let argument = include.namedChildren.find((child) => child !== null && child.type !== 'comment') ?? null;
  while (argument?.type === 'parenthesized_expression') argument = argument.namedChild(0);
  if (!argument) return undefined;
  const parts: Node[] = [];
  const pending: Node[] = [argument];
  // The operands of `.`, left to right (a chain of concatenations nests to the left).
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.type === 'binary_expression' && node.childForFieldName('operator')?.type === '.') {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (!left || !right) return dynamic(argument);
      pending.push(right, left);
    } else if (node.type === 'parenthesized_expression' && node.namedChild(0)) {
      pending.push(node.namedChild(0)!);
    } else parts.push(node);
  }
  const levels = parts.length > 1 ? directoryLevels(parts[0]!) : undefined;
  let path = '';
  for (const part of parts.slice(levels === undefined ? 0 : 1)) {
    const text = part.type === 'name' && part.text === 'DIRECTORY_SEPARATOR' ? '/' : literal(part);
    if (text === undefined) return dynamic(argument);
    path += text;
  }
  if (!PATH.test(path) || path.length > MAX_PATH) return dynamic(argument);
  if (levels === undefined) return { specifier: path, kind: 'require' };
  return { specifier: `${levels === 0 ? '__DIR__' : `dirname(__DIR__, ${levels})`} . '${path}'`, kind: 'require' };
}

/** How many directories above the file's own one `__DIR__`, `dirname(__FILE__)` or `dirname(__DIR__, n)` names (0: its own); undefined for anything else. */
function directoryLevels(node: Node, depth = 0): number | undefined {
  if (node.type === 'name') return node.text === '__DIR__' ? 0 : undefined;
  if (depth > MAX_DIRNAME_NESTING || node.type !== 'function_call_expression' || node.childForFieldName('function')?.text.toLowerCase() !== 'dirname')
    return undefined;
  const args = (node.childForFieldName('arguments')?.namedChildren ?? []).filter((child) => child?.type === 'argument');
  if (args.length < 1 || args.length > 2 || args.some((arg) => arg?.childForFieldName('name'))) return undefined;
  const inner = args[0]!.namedChild(0);
  let up = 1;
  if (args.length === 2) {
    const count = args[1]!.namedChild(0);
    if (count?.type !== 'integer' || !/^[1-9]\d{0,2}$/.test(count.text)) return undefined;
    up = Number(count.text);
  }
  if (inner?.type === 'name' && inner.text === '__FILE__') return up - 1;
  const below = inner ? directoryLevels(inner, depth + 1) : undefined;
  return below === undefined ? undefined : below + up;
}

/** The value of a string literal without interpolation (`'x'`, `"x"`, with their plain escapes); undefined otherwise. */
function literal(node: Node): string | undefined {
  if (node.type !== 'string' && node.type !== 'encapsed_string') return undefined;
  const single = node.type === 'string';
  let value = '';
  for (const part of node.namedChildren) {
    if (part?.type === 'string_content') value += part.text;
    else if (part?.type === 'escape_sequence') {
      const escaped = part.text.slice(1);
      if (escaped === '\\' || escaped === "'" || (!single && (escaped === '"' || escaped === '$'))) value += escaped;
      else if (single) value += part.text;
      else return undefined;
    } else return undefined;
  }
  return value;
}

function dynamic(argument: Node): ImportReference {
  const text = argument.text
    .slice(0, MAX_EXPRESSION * 4)
    .replace(/\s+/g, ' ')
    .trim();
  return { specifier: text.length > MAX_EXPRESSION ? `${text.slice(0, MAX_EXPRESSION)}…` : text, kind: 'dynamic' };
}

/** Whether a method's modifiers include one of `visibilities`. */
function hasVisibility(method: Node, ...visibilities: string[]): boolean {
  for (const child of method.namedChildren) if (child?.type === 'visibility_modifier' && visibilities.includes(child.text.toLowerCase())) return true;
  return false;
}
