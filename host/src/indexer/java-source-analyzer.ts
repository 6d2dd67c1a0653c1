import type { Language, Node } from 'web-tree-sitter';
import type { SymbolFacts } from './source-analyzer.js';
import { importsAndComments, MergedSymbols, namedNodeTypeIds, ThreadGrammar, TreeSitterAnalyzer } from './tree-sitter-analysis.js';
import type { ComplexityRules } from './tree-sitter-complexity.js';
import type { GrammarSource } from './tree-sitter-grammars.js';

const JAVA_GRAMMAR: GrammarSource = { packageName: 'tree-sitter-java', wasmFile: 'tree-sitter-java.wasm' };

/** Java sources. */
export const JAVA_SOURCE = /\.java$/;

/** Nesting of types read for symbols; deeper ones are left out. */
const MAX_TYPE_DEPTH = 256;
/** A qualified name as an import writes it, white space and comments taken out. */
const QUALIFIED_NAME = /^[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*(?:\.[\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$]*)*$/u;

const TYPE_DECLARATIONS: Readonly<Record<string, SymbolFacts['kind']>> = {
  class_declaration: 'class',
  record_declaration: 'class',
  enum_declaration: 'class',
  interface_declaration: 'interface',
  annotation_type_declaration: 'interface',
};
const METHOD_DECLARATIONS = new Set([
  'method_declaration',
  'constructor_declaration',
  'compact_constructor_declaration',
  'annotation_type_element_declaration',
]);
/** Bodies whose declarations are members of the type (an enum's members follow its constants). */
const MEMBER_LISTS = new Set(['class_body', 'interface_body', 'enum_body', 'enum_body_declarations', 'annotation_type_body']);

/** What counts toward the complexity of Java functions (`tree-sitter-complexity.ts` has the definitions). */
const JAVA_COMPLEXITY: ComplexityRules = {
  functions: ['method_declaration', 'constructor_declaration', 'compact_constructor_declaration'],
  closures: ['lambda_expression'],
  ifs: ['if_statement'],
  branches: ['for_statement', 'enhanced_for_statement', 'while_statement', 'do_statement', 'catch_clause', 'ternary_expression'],
  // A switch statement is a `switch_expression` in this grammar too.
  structures: ['switch_expression', 'switch_statement'],
  cases: ['switch_label'],
  // A pattern case's `when` guard (Java 21).
  decisions: ['guard'],
  logical: { types: ['binary_expression'], operators: ['&&', '||'] },
  labelledJumps: { types: ['break_statement', 'continue_statement'], labels: ['identifier'] },
};

/**
 * Java, read with tree-sitter's Java grammar (the WebAssembly build that
 * `tree-sitter-java` ships, loaded once per reading thread on its first Java
 * file). Imports: every `import` declaration, its specifier as written
 * after `import` (`a.b.C`, `a.b.*`, `static a.b.C.m`, `static a.b.C.*`),
 * `static`. Symbols: classes, records, enums (`class`), interfaces and
 * annotation types (`interface`), their methods and constructors (a
 * constructor by its type's name; overloads merge), and nested types under
 * their type. Exported: declared `public`, or a member of a public interface
 * or annotation type (public without saying so, unless `private`).
 */
export class JavaSourceAnalyzer extends TreeSitterAnalyzer<NodeTypes> {
  constructor() {
    super(JAVA_SOURCE, new ThreadGrammar('Java', JAVA_GRAMMAR, nodeTypesOf, JAVA_COMPLEXITY), (tree, cursor, types, overTime) => {
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
  return { importDeclaration: ids('import_declaration'), comment: ids('line_comment', 'block_comment') };
}

/** `a.b.C`, `a.b.*`, `static a.b.C.m` or `static a.b.C.*`; undefined when the declaration names nothing readable. */
function importSpecifier(declaration: Node): string | undefined {
  let name: string | undefined;
  let isStatic = false;
  let onDemand = false;
  for (const child of declaration.children) {
    if (!child) continue;
    if (child.type === 'static' && !child.isNamed) isStatic = true;
    else if (child.type === 'asterisk') onDemand = true;
    else if (child.type === 'scoped_identifier' || child.type === 'identifier') name = child.text.replace(/\s+|\/\*.*?\*\//gs, '');
  }
  if (name === undefined || !QUALIFIED_NAME.test(name)) return undefined;
  return `${isStatic ? 'static ' : ''}${name}${onDemand ? '.*' : ''}`;
}

/** A type being read for members: its body, its dotted name (`Outer.Inner`), whether its members are public without saying so. */
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
  /** A type declaration in `container` (undefined: the file). */
  const addType = (declaration: Node, container: TypeScope | undefined): void => {
    const kind = TYPE_DECLARATIONS[declaration.type];
    const name = declaration.childForFieldName('name')?.text;
    if (!kind || !name) return;
    const exported = isPublic(declaration) || (container?.implicitlyPublic === true && container.exported);
    add(container ? { name, kind, exported, container: container.name } : { name, kind, exported }, declaration);
    const body = declaration.childForFieldName('body');
    const depth = (container?.depth ?? 0) + 1;
    if (body && depth <= MAX_TYPE_DEPTH) {
      const implicitlyPublic = kind === 'interface';
      pending.push({ body, name: container ? `${container.name}.${name}` : name, implicitlyPublic, exported, depth });
    }
  };
  for (const item of root.namedChildren) if (item) addType(item, undefined);
  for (let scope = pending.pop(); scope; scope = pending.pop()) {
    const members: Node[] = [];
    for (const member of scope.body.namedChildren) {
      if (!member) continue;
      if (MEMBER_LISTS.has(member.type)) members.push(...member.namedChildren.filter((inner): inner is Node => inner !== null));
      else members.push(member);
    }
    const typeName = scope.name.slice(scope.name.lastIndexOf('.') + 1);
    for (const member of members) {
      if (TYPE_DECLARATIONS[member.type]) {
        addType(member, scope);
      } else if (METHOD_DECLARATIONS.has(member.type)) {
        const name = member.type.endsWith('constructor_declaration') ? typeName : member.childForFieldName('name')?.text;
        if (!name) continue;
        // An interface's methods are public unless declared private (Java 9).
        const exported = isPublic(member) || (scope.implicitlyPublic && scope.exported && !modifierOf(member, 'private'));
        add({ name, kind: 'method', exported, container: scope.name }, member);
      }
    }
  }
  return symbols.list();
}

function isPublic(declaration: Node): boolean {
  return modifierOf(declaration, 'public');
}

/** Whether the declaration's modifiers include `modifier` (`public`, `private`). */
function modifierOf(declaration: Node, modifier: string): boolean {
  for (const child of declaration.namedChildren) {
    if (child?.type !== 'modifiers') continue;
    for (const written of child.children) if (written?.type === modifier) return true;
  }
  return false;
}
