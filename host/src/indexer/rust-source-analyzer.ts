import type { ImportReferenceKind } from '@strata/sdk';
import type { Language, Node, TreeCursor } from 'web-tree-sitter';
import type { ImportReference, SymbolFacts } from './source-analyzer.js';
import { namedNodeTypeIds, symbolOf, ThreadGrammar, TreeSitterAnalyzer } from './tree-sitter-analysis.js';
import type { ComplexityRules } from './tree-sitter-complexity.js';
import type { GrammarSource } from './tree-sitter-grammars.js';

const RUST_GRAMMAR: GrammarSource = { packageName: 'tree-sitter-rust', wasmFile: 'tree-sitter-rust.wasm' };

/** Rust sources. */
export const RUST_SOURCE = /\.rs$/;

/**
 * Inline modules nested deeper than this hold no references or symbols that
 * are kept: each would carry the whole path (hostile input nests 100,000
 * deep, real code a few levels).
 */
const MAX_INLINE_MODULE_DEPTH = 64;

/** Use lists nested so deep that their path is longer than this are not followed (each path below would repeat it). */
const MAX_USE_PREFIX = 1_024;

/** Nodes visited between two looks at the clock. */
const CLOCK_STRIDE = 4_096;

/** `#[path = "..."]` on a `mod` declaration; the path is group 1. */
const PATH_ATTRIBUTE = /^#\[\s*path\s*=\s*"([^"\\]*)"\s*\]$/;

/** What the references of a Rust file look like, for the resolver: `mod name`, `#[path = "p"] mod name`, `extern crate name`, else a `use` path. */
export const MOD_DECLARATION = /^(?:#\[path = "([^"]*)"\] )?mod (\S+)$/;
export const EXTERN_CRATE = /^extern crate (\S+)$/;

/** What counts toward the complexity of Rust functions (`tree-sitter-complexity.ts` has the definitions). */
const RUST_COMPLEXITY: ComplexityRules = {
  functions: ['function_item'],
  closures: ['closure_expression'],
  ifs: ['if_expression'],
  elses: ['else_clause'],
  branches: ['for_expression', 'while_expression'],
  // `loop` tests nothing: its exits are the conditionals around its `break`s.
  structures: ['match_expression', 'loop_expression'],
  cases: ['match_arm'],
  logical: { types: ['binary_expression'], operators: ['&&', '||'] },
  labelledJumps: { types: ['break_expression', 'continue_expression'], labels: ['label'] },
};

/**
 * Rust, read with tree-sitter's Rust grammar (web-tree-sitter and the
 * WebAssembly build that the `tree-sitter-rust` package ships), loaded once
 * per reading thread on its first Rust file. References: each `mod name;`
 * declaration (`mod name`, with its `#[path = "..."]` as written before it),
 * each path a `use` declaration names (`use a::{b, c::D}` is `a::b` and
 * `a::c::D`; `pub use` a `re-export`), and `extern crate name`; those inside
 * inline modules carry the modules as their `scope`. Symbols: functions,
 * structs and unions (`class`), enums and type aliases (`type`), traits
 * (`interface`) and the methods of `impl` blocks and traits (in the impl's
 * type when the file declares it, else named `Type.method` under the file);
 * items of inline modules are named with the module's path (`tests::it`).
 * Exported: declared `pub` in any form (`pub(crate)` too); a trait's methods
 * as the trait. Comments are not lines of code. A syntax error keeps what
 * was found around it; nesting is on tree-sitter's heap.
 */
export class RustSourceAnalyzer extends TreeSitterAnalyzer<NodeTypes> {
  constructor() {
    super(RUST_SOURCE, new ThreadGrammar('Rust', RUST_GRAMMAR, nodeTypesOf, RUST_COMPLEXITY), (tree, cursor, types, overTime) => {
      const { imports, comments, complete } = walkTree(cursor, types, overTime);
      const { symbols, local } = declaredSymbols(tree.rootNode);
      return { imports: imports.filter((reference) => !namesLocalItem(reference, local)), symbols, comments, complete };
    });
  }
}

interface NodeTypes {
  comment: ReadonlySet<number>;
  use: ReadonlySet<number>;
  externCrate: ReadonlySet<number>;
  mod: ReadonlySet<number>;
}

function nodeTypesOf(language: Language): NodeTypes {
  const ids = (...names: string[]): Set<number> => namedNodeTypeIds(language, ...names);
  return {
    comment: ids('line_comment', 'block_comment'),
    use: ids('use_declaration'),
    externCrate: ids('extern_crate_declaration'),
    mod: ids('mod_item'),
  };
}

/**
 * One walk of the whole tree with a cursor: `use`, `extern crate` and `mod`
 * declarations anywhere (in functions and inline modules too), with the
 * inline modules around them, and the spans of comments.
 */
function walkTree(
  cursor: TreeCursor,
  types: NodeTypes,
  overTime: () => boolean,
): { imports: ImportReference[]; comments: Array<{ start: number; end: number }>; complete: boolean } {
  const imports: ImportReference[] = [];
  const comments: Array<{ start: number; end: number }> = [];
  /** Per ancestor: the inline module it is (undefined for any other node). */
  const ancestors: Array<string | undefined> = [];
  // One stack, pushed and popped (a copy per level was quadratic in the nesting); a reference takes a copy of it.
  const scope: string[] = [];
  for (let visited = 1; ; visited++) {
    if (visited % CLOCK_STRIDE === 0 && overTime()) return { imports, comments, complete: false };
    const type = cursor.nodeTypeId;
    let descend = true;
    let module: string | undefined;
    if (types.comment.has(type)) {
      comments.push({ start: cursor.startIndex, end: cursor.endIndex });
      descend = false;
    } else if (scope.length > MAX_INLINE_MODULE_DEPTH && (types.use.has(type) || types.externCrate.has(type) || types.mod.has(type))) {
      descend = !types.use.has(type);
    } else if (types.use.has(type)) {
      useReferences(cursor.currentNode, scope, imports);
      descend = false;
    } else if (types.externCrate.has(type)) {
      const name = cursor.currentNode.childForFieldName('name')?.text;
      if (name) imports.push(withScope({ specifier: `extern crate ${name}`, kind: 'static' }, scope));
      descend = false;
    } else if (types.mod.has(type)) {
      const node = cursor.currentNode;
      const name = node.childForFieldName('name')?.text;
      if (name && !node.childForFieldName('body')) {
        const path = pathAttribute(node);
        imports.push(withScope({ specifier: path === undefined ? `mod ${name}` : `#[path = "${path}"] mod ${name}`, kind: 'static' }, scope));
        descend = false;
      } else {
        module = name ?? '_';
      }
    }
    if (descend && cursor.gotoFirstChild()) {
      ancestors.push(module);
      if (module !== undefined) scope.push(module);
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return { imports, comments, complete: true };
      if (ancestors.pop() !== undefined) scope.pop();
    }
  }
}

function withScope(reference: ImportReference, scope: readonly string[]): ImportReference {
  return scope.length > 0 ? { ...reference, scope: [...scope] } : reference;
}

/** The `#[path = "..."]` among the attributes right before a `mod` declaration. */
function pathAttribute(mod: Node): string | undefined {
  for (let sibling = mod.previousNamedSibling; sibling?.type === 'attribute_item'; sibling = sibling.previousNamedSibling) {
    const path = PATH_ATTRIBUTE.exec(sibling.text.replace(/\s+/g, ' '))?.[1];
    if (path !== undefined) return path;
  }
  return undefined;
}

/** The paths a `use` declaration names, flattened (`a::{b, c::{d, self}}` gives `a::b`, `a::c::d`, `a::c`), with an explicit stack. */
function useReferences(declaration: Node, scope: readonly string[], found: ImportReference[]): void {
  const kind: ImportReferenceKind = declaration.namedChildren.some((child) => child?.type === 'visibility_modifier') ? 're-export' : 'static';
  const argument = declaration.childForFieldName('argument');
  if (!argument) return;
  const pending: Array<{ node: Node; prefix: string }> = [{ node: argument, prefix: '' }];
  const join = (prefix: string, path: string): string => (prefix === '' ? path : path === '' ? prefix : `${prefix}::${path}`);
  for (let item = pending.pop(); item; item = pending.pop()) {
    const { node, prefix } = item;
    switch (node.type) {
      case 'use_as_clause': {
        const path = node.childForFieldName('path');
        if (path) pending.push({ node: path, prefix });
        break;
      }
      case 'use_wildcard': {
        // `a::*`: the module a itself.
        const path = node.namedChild(0);
        if (path) pending.push({ node: path, prefix });
        else if (prefix !== '') found.push(withScope({ specifier: prefix, kind }, scope));
        break;
      }
      case 'scoped_use_list': {
        const path = node.childForFieldName('path');
        const list = node.childForFieldName('list');
        const next = path ? join(prefix, path.text.replace(/\s+/g, '')) : prefix;
        if (next.length > MAX_USE_PREFIX) break;
        // Pushed last first: the paths come out in the order they are written.
        if (list) for (const child of list.namedChildren.reverse()) if (child) pending.push({ node: child, prefix: next });
        break;
      }
      case 'use_list':
        for (const child of node.namedChildren.reverse()) if (child) pending.push({ node: child, prefix });
        break;
      case 'self':
        // `a::{self}`: the module a.
        if (prefix !== '') found.push(withScope({ specifier: prefix, kind }, scope));
        break;
      case 'identifier':
      case 'scoped_identifier':
      case 'crate':
      case 'super':
        found.push(withScope({ specifier: join(prefix, node.text.replace(/\s+/g, '')), kind }, scope));
        break;
    }
  }
}

/** What a declaration list holds, for symbols. */
interface ItemScope {
  list: Node;
  /** The inline modules around it, as a path prefix (`a::b::`). */
  prefix: string;
  /** How many inline modules are around it. */
  depth: number;
}

/**
 * The items of the file and of its inline modules (named with the
 * module's path), and the methods of its `impl` blocks and traits.
 */
function declaredSymbols(root: Node): { symbols: SymbolFacts[]; local: Set<string> } {
  const types = new Map<string, SymbolFacts>();
  /** Inline modules and types, by path in the file (`inner`, `inner::Kind`): names a `use` path may start with. */
  const local = new Set<string>();
  const others: SymbolFacts[] = [];
  const methods: Array<SymbolFacts & { owner: string }> = [];
  const pending: ItemScope[] = [{ list: root, prefix: '', depth: 0 }];
  for (let scope = pending.pop(); scope; scope = pending.pop()) {
    for (const item of scope.list.namedChildren) {
      if (!item) continue;
      const name = item.childForFieldName('name')?.text;
      const exported = isPub(item);
      switch (item.type) {
        case 'function_item':
          if (name) others.push(symbolOf(scope.prefix + name, 'function', item, exported));
          break;
        case 'struct_item':
        case 'union_item':
        case 'enum_item':
        case 'type_item':
        case 'trait_item': {
          if (!name) break;
          const kind = item.type === 'trait_item' ? 'interface' : item.type === 'struct_item' || item.type === 'union_item' ? 'class' : 'type';
          const key = scope.prefix + name;
          local.add(key);
          if (!types.has(key)) types.set(key, symbolOf(key, kind, item, exported));
          if (item.type === 'trait_item')
            for (const method of functionsOf(item)) methods.push({ ...symbolOf(method.name, 'method', method.node, exported), owner: key });
          break;
        }
        case 'impl_item': {
          const owner = implType(item.childForFieldName('type'));
          if (owner)
            for (const method of functionsOf(item))
              methods.push({ ...symbolOf(method.name, 'method', method.node, isPub(method.node)), owner: scope.prefix + owner });
          break;
        }
        case 'mod_item': {
          const body = item.childForFieldName('body');
          if (name && body && scope.depth < MAX_INLINE_MODULE_DEPTH) {
            local.add(scope.prefix + name);
            pending.push({ list: body, prefix: `${scope.prefix}${name}::`, depth: scope.depth + 1 });
          }
          break;
        }
        case 'ERROR':
          pending.push({ list: item, prefix: scope.prefix, depth: scope.depth });
          break;
      }
    }
  }
  const symbols: SymbolFacts[] = [...types.values(), ...others];
  for (const { owner, ...method } of methods) {
    symbols.push(types.has(owner) ? { ...method, container: owner } : { ...method, name: `${owner}.${method.name}` });
  }
  return { symbols: symbols.sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine), local };
}

/**
 * Whether a `use` path starts with an inline module or a type the file
 * declares in the same scope (`mod imp { ... } pub use imp::*;`, `use Kind::*`):
 * it leads to the file itself, not to a crate.
 */
function namesLocalItem(reference: ImportReference, local: ReadonlySet<string>): boolean {
  if (MOD_DECLARATION.test(reference.specifier) || EXTERN_CRATE.test(reference.specifier)) return false;
  const first = reference.specifier.split('::', 1)[0]!;
  if (first === '' || first === 'crate' || first === 'self' || first === 'super') return false;
  return local.has(reference.scope ? `${reference.scope.join('::')}::${first}` : first);
}

/** The functions (with bodies or not) of an `impl` block's or a trait's body. */
function functionsOf(item: Node): Array<{ name: string; node: Node }> {
  const functions: Array<{ name: string; node: Node }> = [];
  for (const child of item.childForFieldName('body')?.namedChildren ?? []) {
    if (child?.type !== 'function_item' && child?.type !== 'function_signature_item') continue;
    const name = child.childForFieldName('name')?.text;
    if (name) functions.push({ name, node: child });
  }
  return functions;
}

/** The name of the type an `impl` is for: `S` of `S`, `S<T>`, `&S`, `&mut S<T>`, `a::S`. */
function implType(type: Node | null): string | undefined {
  let node = type;
  while (node && (node.type === 'reference_type' || node.type === 'generic_type' || node.type === 'pointer_type')) node = node.childForFieldName('type');
  if (node?.type === 'scoped_type_identifier') node = node.childForFieldName('name');
  return node?.type === 'type_identifier' ? node.text : undefined;
}

function isPub(item: Node): boolean {
  return item.namedChildren.some((child) => child?.type === 'visibility_modifier');
}
