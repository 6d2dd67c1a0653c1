import type { Language, Node } from 'web-tree-sitter';
import { CSHARP_SOURCE } from './csharp-namespaces.js';
import type { SymbolFacts } from './source-analyzer.js';
import { importsAndComments, MergedSymbols, namedNodeTypeIds, ThreadGrammar, TreeSitterAnalyzer } from './tree-sitter-analysis.js';
import type { ComplexityRules } from './tree-sitter-complexity.js';
import type { GrammarSource } from './tree-sitter-grammars.js';

const CSHARP_GRAMMAR: GrammarSource = { packageName: 'tree-sitter-c-sharp', wasmFile: 'tree-sitter-c_sharp.wasm' };

/** Nesting of types and namespaces read for symbols; deeper ones are left out. */
const MAX_TYPE_DEPTH = 256;
const QUALIFIED_NAME = /^[\p{L}_][\p{L}\p{Nd}_]*(?:\.[\p{L}_][\p{L}\p{Nd}_]*)*$/u;

const TYPE_DECLARATIONS: Readonly<Record<string, SymbolFacts['kind']>> = {
  class_declaration: 'class',
  struct_declaration: 'class',
  record_declaration: 'class',
  record_struct_declaration: 'class',
  enum_declaration: 'class',
  interface_declaration: 'interface',
};
const METHOD_DECLARATIONS = new Set(['method_declaration', 'constructor_declaration']);
const NAMESPACES = new Set(['namespace_declaration', 'file_scoped_namespace_declaration']);

/** What counts toward the complexity of C# functions (`tree-sitter-complexity.ts` has the definitions). */
const CSHARP_COMPLEXITY: ComplexityRules = {
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
  ifs: ['if_statement'],
  branches: ['for_statement', 'foreach_statement', 'while_statement', 'do_statement', 'catch_clause', 'conditional_expression'],
  structures: ['switch_statement', 'switch_expression'],
  cases: ['switch_section', 'switch_expression_arm'],
  // A case's `when` filter tests one more condition.
  decisions: ['when_clause'],
  logical: { types: ['binary_expression'], operators: ['&&', '||', '??'] },
  logicalAssignments: { types: ['assignment_expression'], operators: ['??='] },
  preprocessorConditions: ['preproc_if', 'preproc_elif'],
  jumps: ['goto_statement'],
};

/**
 * C#, read with tree-sitter's C# grammar (`tree-sitter-c-sharp`). Imports:
 * every `using` directive (`global using` too), its specifier the namespace
 * (`A.B`), `static A.B.C`, or `X = A.B.C` for an alias; `static`; one written
 * inside namespaces has them as its `scope` (outermost first, as written),
 * unless its name starts with `global::`. Symbols:
 * classes, structs, records and enums (`class`), interfaces, their methods
 * and constructors (`method`; a constructor by its type's name, overloads
 * merge), nested types under their type; namespaces are not symbols.
 * Exported: declared `public` (`internal` is the assembly's only), or a
 * member of a public interface not declared otherwise.
 */
export class CSharpSourceAnalyzer extends TreeSitterAnalyzer<NodeTypes> {
  constructor() {
    super(CSHARP_SOURCE, new ThreadGrammar('C#', CSHARP_GRAMMAR, nodeTypesOf, CSHARP_COMPLEXITY), (tree, cursor, types, overTime) => {
      let fileScoped: { start: number; name: string } | null | undefined;
      // Each using with the namespaces it is written in (none for a `global::` name: looked up from the top).
      const specifierOf = (directive: Node): { specifier: string; scope?: string[] } | undefined => {
        const using = usingSpecifier(directive);
        if (!using || using.global) return using && { specifier: using.specifier };
        fileScoped ??= fileScopedNamespace(tree.rootNode);
        return { specifier: using.specifier, scope: enclosingNamespaces(directive, fileScoped) };
      };
      const { imports, comments, complete } = importsAndComments(cursor, types.usingDirective, types.comment, specifierOf, overTime);
      return { imports, comments, complete, symbols: declaredSymbols(tree.rootNode) };
    });
  }
}

interface NodeTypes {
  usingDirective: ReadonlySet<number>;
  comment: ReadonlySet<number>;
}

function nodeTypesOf(language: Language): NodeTypes {
  const ids = (...names: string[]): Set<number> => namedNodeTypeIds(language, ...names);
  return { usingDirective: ids('using_directive'), comment: ids('comment') };
}

/**
 * `A.B`, `static A.B.C` or `X = A.B.C`, and whether the name starts with
 * `global::` (it is then looked up from the top, not in the enclosing
 * namespaces); undefined when the directive names nothing readable.
 */
function usingSpecifier(directive: Node): { specifier: string; global: boolean } | undefined {
  let isStatic = false;
  let alias: string | undefined;
  let name: string | undefined;
  let global = false;
  for (const child of directive.children) {
    if (!child) continue;
    if (child.type === 'static' && !child.isNamed) isStatic = true;
    else if (child.type === 'identifier' && directive.childForFieldName('name')?.id === child.id) alias = child.text;
    else if (child.type === 'qualified_name' || child.type === 'identifier' || child.type === 'alias_qualified_name') {
      const written = cleanName(child.text);
      global = written.startsWith('global::');
      name = written.replace(/^global::/, '');
    }
  }
  if (name === undefined || !QUALIFIED_NAME.test(name)) return undefined;
  if (isStatic) return { specifier: `static ${name}`, global };
  return { specifier: alias !== undefined ? `${alias} = ${name}` : name, global };
}

/** A name as written, without white space, comments and verbatim `@`s. */
function cleanName(text: string): string {
  return text.replace(/\s+|\/\*.*?\*\/|@/gs, '');
}

/** The file-scoped namespace of a file (`namespace A.B;`: what follows it is in it), or null. */
function fileScopedNamespace(root: Node): { start: number; name: string } | null {
  for (const item of root.namedChildren) {
    if (item?.type !== 'file_scoped_namespace_declaration') continue;
    const name = item.childForFieldName('name')?.text;
    return name === undefined ? null : { start: item.startIndex, name: cleanName(name) };
  }
  return null;
}

/**
 * The namespaces a using directive is written in, outermost first, as
 * written (`namespace A { namespace B.C { using X; } }`: `A`, `B.C`); undefined
 * at the top level of a file. The compiler looks its name up there first.
 */
function enclosingNamespaces(directive: Node, fileScoped: { start: number; name: string } | null): string[] | undefined {
  const names: string[] = [];
  for (let parent = directive.parent; parent; parent = parent.parent) {
    if (parent.type !== 'namespace_declaration') continue;
    const name = parent.childForFieldName('name')?.text;
    if (name !== undefined) names.unshift(cleanName(name));
  }
  if (fileScoped && directive.startIndex > fileScoped.start) names.unshift(fileScoped.name);
  return names.length > 0 ? names : undefined;
}

interface TypeScope {
  body: Node;
  name: string;
  implicitlyPublic: boolean;
  exported: boolean;
  depth: number;
}

function declaredSymbols(root: Node): SymbolFacts[] {
  const symbols = new MergedSymbols();
  const add = (symbol: Omit<SymbolFacts, 'startLine' | 'endLine'>, node: Node): void => symbols.add(symbol, node);
  const pending: TypeScope[] = [];
  const addType = (declaration: Node, container: TypeScope | undefined): void => {
    const kind = TYPE_DECLARATIONS[declaration.type];
    const name = declaration.childForFieldName('name')?.text;
    if (!kind || !name) return;
    const exported = modifierOf(declaration, 'public') && (container?.exported ?? true);
    add(container ? { name, kind, exported, container: container.name } : { name, kind, exported }, declaration);
    const body = declaration.childForFieldName('body');
    const depth = (container?.depth ?? 0) + 1;
    if (body && depth <= MAX_TYPE_DEPTH)
      pending.push({ body, name: container ? `${container.name}.${name}` : name, implicitlyPublic: kind === 'interface', exported, depth });
  };
  // Types at the top level and in namespaces (file-scoped ones hold what follows them as siblings).
  const levels: Array<{ node: Node; depth: number }> = [{ node: root, depth: 0 }];
  for (let level = levels.pop(); level; level = levels.pop()) {
    for (const item of level.node.namedChildren) {
      if (!item) continue;
      if (NAMESPACES.has(item.type)) {
        const body = item.childForFieldName('body');
        if (body && level.depth < MAX_TYPE_DEPTH) levels.push({ node: body, depth: level.depth + 1 });
      } else addType(item, undefined);
    }
  }
  for (let scope = pending.pop(); scope; scope = pending.pop()) {
    const typeName = scope.name.slice(scope.name.lastIndexOf('.') + 1);
    for (const member of scope.body.namedChildren) {
      if (!member) continue;
      if (TYPE_DECLARATIONS[member.type]) addType(member, scope);
      else if (METHOD_DECLARATIONS.has(member.type)) {
        const name = member.type === 'constructor_declaration' ? typeName : member.childForFieldName('name')?.text;
        if (!name) continue;
        const declared = modifierOf(member, 'public');
        const implicit = scope.implicitlyPublic && !['private', 'protected', 'internal'].some((modifier) => modifierOf(member, modifier));
        add({ name, kind: 'method', exported: scope.exported && (declared || implicit), container: scope.name }, member);
      }
    }
  }
  return symbols.list();
}

function modifierOf(declaration: Node, modifier: string): boolean {
  for (const child of declaration.namedChildren) if (child?.type === 'modifier' && child.text === modifier) return true;
  return false;
}
