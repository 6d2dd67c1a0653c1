import type { Language, Node, TreeCursor } from 'web-tree-sitter';
import type { ImportReference, SymbolFacts } from './source-analyzer.js';
import { inLineOrder, namedNodeTypeIds, symbolOf, ThreadGrammar, TreeSitterAnalyzer } from './tree-sitter-analysis.js';
import type { ComplexityRules } from './tree-sitter-complexity.js';
import type { GrammarSource } from './tree-sitter-grammars.js';

const RUBY_GRAMMAR: GrammarSource = { packageName: 'tree-sitter-ruby', wasmFile: 'tree-sitter-ruby.wasm' };

/** Ruby sources: `.rb`, `.rake`, `.gemspec`, and the `Rakefile` and `Gemfile` of Bundler and Rake. */
export const RUBY_SOURCE = /(?:\.rb|\.rake|\.gemspec|(?:^|\/)Rakefile|(?:^|\/)Gemfile)$/;

/** Nodes visited between two looks at the clock. */
const CLOCK_STRIDE = 4_096;

/** A feature name as `require` takes one: no whitespace, quotes or NUL. */
const FEATURE = /^[^\s"'`\0]+$/u;

/** What counts toward the complexity of Ruby functions (`tree-sitter-complexity.ts` has the definitions). */
const RUBY_COMPLEXITY: ComplexityRules = {
  functions: ['method', 'singleton_method'],
  closures: ['block', 'do_block', 'lambda'],
  ifs: ['if', 'unless', 'if_modifier', 'unless_modifier'],
  elseIfs: ['elsif'],
  elses: ['else'],
  branches: ['while', 'until', 'for', 'while_modifier', 'until_modifier', 'rescue', 'rescue_modifier', 'conditional'],
  structures: ['case', 'case_match'],
  cases: ['when', 'in_clause'],
  logical: { types: ['binary'], operators: ['&&', '||', 'and', 'or'] },
  logicalAssignments: { types: ['operator_assignment'], operators: ['||=', '&&='] },
};

/**
 * Ruby, read with tree-sitter's Ruby grammar (the WebAssembly build the
 * `tree-sitter-ruby` package ships), loaded once per reading thread.
 * Imports: `require 'x'` (kind `require`, searched along the load path by
 * the resolver), `require_relative 'x'` (written `./x` when it does not
 * start with a dot: relative to the file's directory), `autoload :X,
 * 'x'` (kind `require`: required when `X` is first used) and `load 'x.rb'`
 * (kind `dynamic`), each with a literal string without interpolation,
 * anywhere in the file (Ruby requires at run time, often inside methods).
 * Symbols: classes (`class`), modules (`type`: a namespace and mixin, not
 * instantiable), methods (`def x`, `def self.x`, named `self.x`) in their
 * innermost class or module, and `def` at the top level (`function`);
 * classes and modules nested in another are named by their path (`A::B`).
 * Exported: everything but methods after a bare `private` or `protected`
 * in the same body (until `public`), and `private def x`. Comments are not
 * lines of code; a syntax error keeps what was found around it.
 */
export class RubySourceAnalyzer extends TreeSitterAnalyzer<NodeTypes> {
  constructor() {
    super(RUBY_SOURCE, new ThreadGrammar('Ruby', RUBY_GRAMMAR, nodeTypesOf, RUBY_COMPLEXITY), (tree, cursor, types, overTime) => {
      const { comments, complete } = commentsOf(cursor, types, overTime);
      const facts = declarationsOf(tree.rootNode, overTime);
      return { imports: facts.imports, symbols: facts.symbols, comments, complete: complete && facts.complete };
    });
  }
}

interface NodeTypes {
  comment: ReadonlySet<number>;
}

function nodeTypesOf(language: Language): NodeTypes {
  return { comment: namedNodeTypeIds(language, 'comment') };
}

/** The spans of every comment (and `=begin`/`=end` block), from one walk with a cursor; `complete` false past the time limit. */
function commentsOf(cursor: TreeCursor, types: NodeTypes, overTime: () => boolean): { comments: Array<{ start: number; end: number }>; complete: boolean } {
  const comments: Array<{ start: number; end: number }> = [];
  for (let visited = 1; ; visited++) {
    if (visited % CLOCK_STRIDE === 0 && overTime()) return { comments, complete: false };
    if (types.comment.has(cursor.nodeTypeId)) comments.push({ start: cursor.startIndex, end: cursor.endIndex });
    else if (cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return { comments, complete: true };
  }
}

/** A node whose children are walked, and the class or module (its path) they are in. */
interface Scope {
  node: Node;
  container: string | undefined;
}

function declarationsOf(root: Node, overTime: () => boolean): { imports: ImportReference[]; symbols: SymbolFacts[]; complete: boolean } {
  const imports: ImportReference[] = [];
  const symbols: SymbolFacts[] = [];
  const pending: Scope[] = [{ node: root, container: undefined }];
  let visited = 0;
  for (let scope = pending.pop(); scope; scope = pending.pop()) {
    let hidden = false;
    for (const child of scope.node.namedChildren) {
      if (!child) continue;
      if (++visited % CLOCK_STRIDE === 0 && overTime()) return { imports, symbols: inLineOrder(symbols), complete: false };
      switch (child.type) {
        case 'class':
        case 'module': {
          const name = child.childForFieldName('name')?.text;
          if (!name) break;
          const full = scope.container ? `${scope.container}::${name}` : name;
          symbols.push(symbolOf(full, child.type === 'class' ? 'class' : 'type', child, true));
          const body = child.childForFieldName('body') ?? child.namedChildren.find((node) => node?.type === 'body_statement') ?? null;
          if (body) pending.push({ node: body, container: full });
          continue;
        }
        case 'method':
        case 'singleton_method': {
          addMethod(child, scope.container, !hidden, symbols);
          pending.push({ node: child, container: scope.container });
          continue;
        }
        case 'identifier':
          if (child.text === 'private' || child.text === 'protected') hidden = true;
          else if (child.text === 'public') hidden = false;
          continue;
        case 'call': {
          const method = child.childForFieldName('method')?.text;
          const argument = child.childForFieldName('arguments')?.namedChild(0) ?? null;
          if (!child.childForFieldName('receiver') && argument) {
            if (method === 'require' || method === 'require_relative' || method === 'load') {
              const feature = literal(argument);
              if (feature !== undefined) {
                const relative = method === 'require_relative' && !feature.startsWith('.') && !feature.startsWith('/');
                imports.push({ specifier: relative ? `./${feature}` : feature, kind: method === 'load' ? 'dynamic' : 'require' });
              }
              continue;
            }
            if (method === 'autoload') {
              // `autoload :Name, 'feature'`: the feature is required when Name is first used.
              const path = child.childForFieldName('arguments')?.namedChild(1);
              const feature = path ? literal(path) : undefined;
              if (feature !== undefined) imports.push({ specifier: feature, kind: 'require' });
              continue;
            }
            if (
              (method === 'private' || method === 'protected' || method === 'public') &&
              (argument.type === 'method' || argument.type === 'singleton_method')
            ) {
              addMethod(argument, scope.container, method === 'public', symbols);
              pending.push({ node: argument, container: scope.container });
              continue;
            }
          }
          break;
        }
      }
      // Anything else (blocks, conditionals, begin, ERROR): requires and declarations inside it, in the same container.
      if (child.namedChildCount > 0) pending.push({ node: child, container: scope.container });
    }
  }
  return { imports, symbols: inLineOrder(symbols), complete: true };
}

function addMethod(node: Node, container: string | undefined, exported: boolean, symbols: SymbolFacts[]): void {
  const name = node.childForFieldName('name')?.text;
  if (!name) return;
  const full = node.type === 'singleton_method' ? `self.${name}` : name;
  if (container) symbols.push({ ...symbolOf(full, 'method', node, exported), container });
  else symbols.push(symbolOf(full, 'function', node, exported));
}

/** The text of a plain string literal (`'x'`, `"x"` without interpolation); undefined otherwise. */
function literal(node: Node): string | undefined {
  if (node.type !== 'string') return undefined;
  const parts = node.namedChildren;
  if (parts.length !== 1 || parts[0]?.type !== 'string_content') return undefined;
  const text = parts[0].text;
  return FEATURE.test(text) ? text : undefined;
}
