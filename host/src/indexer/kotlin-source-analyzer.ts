import type { Language, Node } from 'web-tree-sitter';
import { KOTLIN_SOURCE } from './kotlin-packages.js';
import type { SymbolFacts } from './source-analyzer.js';
import { importsAndComments, MergedSymbols, namedNodeTypeIds, ThreadGrammar, TreeSitterAnalyzer } from './tree-sitter-analysis.js';
import type { ComplexityRules } from './tree-sitter-complexity.js';
import type { GrammarSource } from './tree-sitter-grammars.js';

const KOTLIN_GRAMMAR: GrammarSource = { packageName: '@tree-sitter-grammars/tree-sitter-kotlin', wasmFile: 'tree-sitter-kotlin.wasm' };

/** Nesting of types read for symbols; deeper ones are left out. */
const MAX_TYPE_DEPTH = 256;
/** A qualified name as an import writes it, white space and comments taken out. */
const QUALIFIED_NAME = /^[\p{L}_][\p{L}\p{Nd}_]*(?:\.[\p{L}_][\p{L}\p{Nd}_]*)*$/u;

/** What counts toward the complexity of Kotlin functions (`tree-sitter-complexity.ts` has the definitions). */
const KOTLIN_COMPLEXITY: ComplexityRules = {
  functions: ['function_declaration', 'secondary_constructor', 'getter', 'setter'],
  closures: ['lambda_literal', 'anonymous_function'],
  ifs: ['if_expression'],
  branches: ['for_statement', 'while_statement', 'do_while_statement', 'catch_block'],
  structures: ['when_expression'],
  cases: ['when_entry'],
  // The elvis operator `?:` branches as `??` does.
  logical: { types: ['binary_expression', 'conjunction_expression', 'disjunction_expression', 'elvis_expression'], operators: ['&&', '||', '?:'] },
};

/**
 * Kotlin (`.kt`, `.kts`), read with the tree-sitter Kotlin grammar that
 * `@tree-sitter-grammars/tree-sitter-kotlin` ships. Imports: every `import`,
 * its specifier the qualified name (`a.b.C`, `a.b.foo`, `a.b.*`; an alias,
 * `as D`, is left out), `static`. Symbols: classes (data, enum, sealed,
 * annotation classes), objects and companion objects (`class`), interfaces,
 * top-level functions (`function`), and the functions and secondary
 * constructors of a type (`method`; a constructor by its type's name), nested
 * types under their type; properties are not symbols. Exported: not declared
 * `private` or `internal`, within an exported type.
 */
export class KotlinSourceAnalyzer extends TreeSitterAnalyzer<NodeTypes> {
  constructor() {
    super(KOTLIN_SOURCE, new ThreadGrammar('Kotlin', KOTLIN_GRAMMAR, nodeTypesOf, KOTLIN_COMPLEXITY), (tree, cursor, types, overTime) => {
      const { imports, comments, complete } = importsAndComments(cursor, types.importDeclaration, types.comment, importSpecifier, overTime);
      return { imports, comments, complete, symbols: declaredSymbols(tree.rootNode) };
    });
  }
}

interface NodeTypes {
  importDeclaration: ReadonlySet<number>;
  comment: ReadonlySet<number>;
}

function nodeTypesOf(language: Language): NodeTypes {
  const ids = (...names: string[]): Set<number> => namedNodeTypeIds(language, ...names);
  return { importDeclaration: ids('import'), comment: ids('line_comment', 'block_comment') };
}

/** `a.b.C` or `a.b.*`; undefined when the import names nothing readable. */
function importSpecifier(declaration: Node): string | undefined {
  let name: string | undefined;
  let onDemand = false;
  for (const child of declaration.children) {
    if (!child) continue;
    if (child.type === '*') onDemand = true;
    else if (child.type === 'qualified_identifier' || (child.type === 'identifier' && name === undefined)) name = child.text.replace(/\s+|\/\*.*?\*\/|`/gs, '');
    else if (child.type === 'as') break;
  }
  if (name === undefined || !QUALIFIED_NAME.test(name)) return undefined;
  return `${name}${onDemand ? '.*' : ''}`;
}

/** A type being read for members. */
interface TypeScope {
  body: Node;
  name: string;
  exported: boolean;
  depth: number;
}

const TYPE_DECLARATIONS = new Set(['class_declaration', 'object_declaration', 'companion_object']);
const BODIES = new Set(['class_body', 'enum_class_body']);

function declaredSymbols(root: Node): SymbolFacts[] {
  const symbols = new MergedSymbols();
  const add = (symbol: Omit<SymbolFacts, 'startLine' | 'endLine'>, node: Node): void => symbols.add(symbol, node);
  const pending: TypeScope[] = [];
  const addType = (declaration: Node, container: TypeScope | undefined): void => {
    const name = declaration.type === 'companion_object' ? (nameOf(declaration) ?? 'Companion') : nameOf(declaration);
    if (!name) return;
    const kind = declaration.children.some((child) => child?.type === 'interface') ? 'interface' : 'class';
    const exported = isVisible(declaration) && (container?.exported ?? true);
    add(container ? { name, kind, exported, container: container.name } : { name, kind, exported }, declaration);
    const body = declaration.namedChildren.find((child) => child !== null && BODIES.has(child.type));
    const depth = (container?.depth ?? 0) + 1;
    if (body && depth <= MAX_TYPE_DEPTH) pending.push({ body, name: container ? `${container.name}.${name}` : name, exported, depth });
  };
  for (const item of root.namedChildren) {
    if (!item) continue;
    if (TYPE_DECLARATIONS.has(item.type)) addType(item, undefined);
    else if (item.type === 'function_declaration') {
      const name = nameOf(item);
      if (name) add({ name, kind: 'function', exported: isVisible(item) }, item);
    }
  }
  for (let scope = pending.pop(); scope; scope = pending.pop()) {
    const typeName = scope.name.slice(scope.name.lastIndexOf('.') + 1);
    for (const member of scope.body.namedChildren) {
      if (!member) continue;
      if (TYPE_DECLARATIONS.has(member.type)) addType(member, scope);
      else if (member.type === 'function_declaration' || member.type === 'secondary_constructor') {
        const name = member.type === 'secondary_constructor' ? typeName : nameOf(member);
        if (name) add({ name, kind: 'method', exported: scope.exported && isVisible(member), container: scope.name }, member);
      }
    }
  }
  return symbols.list();
}

/** The declared name (the `name` field, or the first identifier child), backquotes taken out. */
function nameOf(declaration: Node): string | undefined {
  const name = declaration.childForFieldName('name') ?? declaration.namedChildren.find((child) => child?.type === 'identifier');
  return name?.text.replace(/`/g, '') || undefined;
}

/** Not declared `private` or `internal`. */
function isVisible(declaration: Node): boolean {
  for (const child of declaration.namedChildren) {
    if (child?.type !== 'modifiers') continue;
    for (const modifier of child.namedChildren)
      if (modifier?.type === 'visibility_modifier' && (modifier.text === 'private' || modifier.text === 'internal')) return false;
  }
  return true;
}
