/**
 * Per-function metrics of one JavaScript or TypeScript file, parsed with
 * @babel/parser:
 *
 * - cyclomatic complexity as ESLint's `complexity` rule counts it (ESLint
 *   10, classic variant), for every unit that rule evaluates: functions,
 *   class field initializers and class static blocks;
 * - cognitive complexity as eslint-plugin-sonarjs's `cognitive-complexity`
 *   rule (S3776, v4) counts it, per function, and the rule's file figure;
 * - lines of code (lines with something other than white space and comments).
 *
 * Both rules walk an ESTree tree; this walks Babel's, whose shapes differ in
 * a few places (methods are one node, optional chains have their own node
 * types, class properties are split by kind). Each difference is mapped
 * below where it matters. The README lists the definitions.
 */
import { type ParserPlugin, parse } from '@babel/parser';
import { codeLineCounts, codeLinesBetween } from './lines.ts';

/** How a file is parsed. */
export type Dialect = 'typescript' | 'tsx' | 'dts' | 'javascript';

/** What ESLint's `complexity` rule evaluates: a function, or the implicit function of a class field initializer or static block. */
export type UnitKind = 'function' | 'class-field-initializer' | 'class-static-block';

/** One evaluated unit of a file. Lines are 1-based and inclusive; columns are 1-based. */
export interface FunctionMetrics {
  kind: UnitKind;
  /** The name the Strata indexer gives the symbol (`f`, `Class.method`, `Class.get size`, `default`); empty when it has none. */
  name: string;
  startLine: number;
  endLine: number;
  /** Where the body starts (an initializer's value, a static block's `static`): the position that identifies the unit. */
  anchorLine: number;
  anchorColumn: number;
  /** Number of units enclosing this one. */
  depth: number;
  cyclomatic: number;
  /** SonarJS's cognitive complexity of a function; undefined for initializers and static blocks, which it does not evaluate. */
  cognitive: number | undefined;
  loc: number;
}

/** A class of the file, with the figures of the units inside it. */
export interface ClassMetrics {
  name: string;
  startLine: number;
  endLine: number;
  /** Where the class body's `{` is. */
  anchorLine: number;
  anchorColumn: number;
  /** Sum over the units inside the class (methods, initializers, static blocks, functions nested in them). */
  cyclomatic: number;
  /** Sum of the cognitive complexity of the functions inside the class. */
  cognitive: number;
  loc: number;
}

/** The metrics of one file. */
export interface FileMetrics {
  units: FunctionMetrics[];
  classes: ClassMetrics[];
  /** Sum of the cyclomatic complexity of every unit. */
  cyclomatic: number;
  /** SonarJS's file figure (what its rule hands to SonarQube as the file's cognitive complexity). */
  cognitive: number;
  loc: number;
  lines: number;
  /** Syntax errors the parser recovered from. */
  recoveredErrors: number;
  /** Code lines among lines `first..last` (1-based, inclusive). */
  codeLines(first: number, last: number): number;
}

/** The dialect of a file, from its name and its graph language; undefined when it is not JavaScript or TypeScript. */
export function dialectOf(path: string, language: string): Dialect | undefined {
  const name = path.toLowerCase();
  if (/\.d\.[mc]?ts$/.test(name)) return 'dts';
  if (name.endsWith('.tsx')) return 'tsx';
  if (/\.[mc]?ts$/.test(name)) return 'typescript';
  if (/\.[mc]?jsx?$/.test(name)) return 'javascript';
  if (language === 'typescript') return 'typescript';
  if (language === 'tsx') return 'tsx';
  if (language === 'javascript' || language === 'jsx') return 'javascript';
  return undefined;
}

interface Position {
  line: number;
  column: number;
}

/** A Babel node, seen generically. */
interface Node {
  type: string;
  start: number;
  end: number;
  loc: { start: Position; end: Position };
  [key: string]: unknown;
}

/** Keys that never lead to a node either rule looks at (positions, comments, type annotations). */
const SKIPPED_KEYS = new Set([
  'type',
  'start',
  'end',
  'loc',
  'range',
  'extra',
  'leadingComments',
  'trailingComments',
  'innerComments',
  'typeAnnotation',
  'returnType',
  'typeParameters',
  'typeArguments',
  'superTypeParameters',
  'superTypeArguments',
  'implements',
  'predicate',
]);

/** Declarations of types only. */
const SKIPPED_TYPES = new Set(['TSInterfaceDeclaration', 'TSTypeAliasDeclaration', 'TSIndexSignature']);

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
const METHODS = new Set(['ClassMethod', 'ClassPrivateMethod', 'ObjectMethod']);
const LOGICAL_ASSIGNMENTS = new Set(['&&=', '||=', '??=']);

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** The children of a node, in source order (the order ESLint visits them in). */
function childrenOf(node: Node): Node[] {
  const children: Node[] = [];
  let sorted = true;
  let last = -1;
  const add = (child: Node): void => {
    if (child.start < last) sorted = false;
    last = child.start;
    children.push(child);
  };
  for (const key in node) {
    if (SKIPPED_KEYS.has(key)) continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) add(item);
    } else if (isNode(value)) {
      add(value);
    }
  }
  if (!sorted) children.sort((a, b) => a.start - b.start);
  return children;
}

/** The name of a class member or object property key, as the indexer gives it. */
function keyName(key: unknown): string {
  if (!isNode(key)) return '';
  switch (key.type) {
    case 'Identifier':
      return key.name as string;
    case 'PrivateName':
      return `#${(key.id as Node).name as string}`;
    case 'StringLiteral':
    case 'NumericLiteral':
      return String(key.value);
    default:
      return '';
  }
}

function accessorPrefix(member: Node): string {
  return member.kind === 'get' || member.kind === 'set' ? `${member.kind as string} ` : '';
}

/** Is `name`'s first character its own upper case (SonarJS's test for a React component's name). */
function startsWithCapital(name: string): boolean {
  const first = name[0]!;
  return first === first.toUpperCase();
}

/** State of the cognitive complexity walk: a transcription of S3776's, with ESTree's enter and exit order. */
interface SonarFunction {
  /** Own complexity points of this function (without nesting from enclosing functions). */
  own: number;
  /** Control-flow nesting inside this function. */
  controlFlowNesting: number;
}

interface SecondLevelFunction {
  complexityIfNested: number;
  complexityIfThisSecondaryIsTopLevel: number;
}

class FileWalker {
  readonly units: FunctionMetrics[] = [];
  readonly classes: Array<{ metrics: ClassMetrics; firstUnit: number; lastUnit: number }> = [];
  /** Cyclomatic complexity: the stack of code paths (units) being walked; empty at the top level. */
  private readonly paths: FunctionMetrics[] = [];
  /** Names of the classes being walked, innermost last. */
  private readonly classNames: string[] = [];

  // Cognitive complexity (S3776), global state as the rule keeps it.
  fileComplexity = 0;
  private nesting = 0;
  private readonly nestingNodes = new Set<Node>();
  private readonly enclosingFunctions: Node[] = [];
  private readonly sonarFunctions: SonarFunction[] = [];
  private topLevelHasStructuralComplexity = false;
  private topLevelOwnComplexity = 0;
  private secondLevelFunctions: SecondLevelFunction[] = [];
  private complexityIfNested = 0;
  private complexityIfNotNested = 0;
  private reactNameStartsWithCapital = false;
  private reactReturnsJsx = false;
  private readonly consideredLogicalExpressions = new Set<Node>();

  visit(node: Node, parent: Node | undefined): void {
    if (SKIPPED_TYPES.has(node.type)) return;
    // S3776's '*' listener runs first on every node.
    if (this.nestingNodes.has(node)) {
      this.nesting++;
      if (this.sonarFunctions.length > 0) this.sonarFunctions[this.sonarFunctions.length - 1]!.controlFlowNesting++;
    }
    if (FUNCTIONS.has(node.type)) {
      this.visitFunction(node, parent, node);
      return;
    }
    if (METHODS.has(node.type)) {
      // ESTree: a MethodDefinition or Property (decorators, key) holding a FunctionExpression (params, body).
      for (const decorator of (node.decorators as Node[] | undefined) ?? []) this.visit(decorator, node);
      this.visit(node.key as Node, node);
      this.visitFunction(node, parent, node);
      this.leaveNestingNode(node);
      return;
    }
    switch (node.type) {
      case 'ClassProperty':
      case 'ClassPrivateProperty':
        // ESTree PropertyDefinition: its value is a code path of its own ("class-field-initializer").
        for (const decorator of (node.decorators as Node[] | undefined) ?? []) this.visit(decorator, node);
        this.visit(node.key as Node, node);
        if (isNode(node.value)) this.visitUnit('class-field-initializer', node.value, node, node.value, () => this.visit(node.value as Node, node));
        this.leaveNestingNode(node);
        return;
      case 'StaticBlock':
        this.visitUnit('class-static-block', node, parent, node, () => this.visitChildren(node));
        this.leaveNestingNode(node);
        return;
      case 'ClassDeclaration':
      case 'ClassExpression':
        this.visitClass(node, parent);
        this.leaveNestingNode(node);
        return;
      default:
        break;
    }
    this.countCyclomatic(node);
    this.enterCognitive(node, parent);
    this.visitChildren(node);
    this.leaveNestingNode(node);
  }

  private visitChildren(node: Node): void {
    for (const child of childrenOf(node)) this.visit(child, node);
  }

  /** S3776's '*:exit' listener (a function deeper than the second level became a nesting node when entered). */
  private leaveNestingNode(node: Node): void {
    if (!this.nestingNodes.has(node)) return;
    this.nesting--;
    this.nestingNodes.delete(node);
    if (this.sonarFunctions.length > 0) this.sonarFunctions[this.sonarFunctions.length - 1]!.controlFlowNesting--;
  }

  private visitUnit(kind: UnitKind, node: Node, parent: Node | undefined, anchor: Node, walk: (metrics: FunctionMetrics) => void): void {
    const metrics: FunctionMetrics = {
      kind,
      name: kind === 'function' ? functionName(node, parent, this.classNames[this.classNames.length - 1] ?? '') : '',
      startLine: node.loc.start.line,
      endLine: node.loc.end.line,
      anchorLine: anchor.loc.start.line,
      anchorColumn: anchor.loc.start.column + 1,
      depth: this.paths.length,
      cyclomatic: 1,
      cognitive: undefined,
      loc: 0,
    };
    this.units.push(metrics);
    this.paths.push(metrics);
    walk(metrics);
    this.paths.pop();
  }

  /** A function (for a method, `node` is the whole member: its params and body are the function's). */
  private visitFunction(node: Node, parent: Node | undefined, fn: Node): void {
    const body = fn.body as Node;
    this.visitUnit('function', node, parent, body, (metrics) => {
      // S3776: '*' (already run) before ':function' on enter; '*:exit' before ':function:exit' on exit (same specificity, '*' sorts first).
      this.onEnterFunction(node, parent);
      for (const param of fn.params as Node[]) this.visit(param, fn);
      this.visit(body, fn);
      this.leaveNestingNode(node);
      metrics.cognitive = this.onLeaveFunction();
    });
  }

  private visitClass(node: Node, parent: Node | undefined): void {
    const body = node.body as Node;
    const firstUnit = this.units.length;
    const metrics: ClassMetrics = {
      name: className(node, parent),
      startLine: node.loc.start.line,
      endLine: node.loc.end.line,
      anchorLine: body.loc.start.line,
      anchorColumn: body.loc.start.column + 1,
      cyclomatic: 0,
      cognitive: 0,
      loc: 0,
    };
    const entry = { metrics, firstUnit, lastUnit: firstUnit };
    this.classes.push(entry);
    this.classNames.push(metrics.name);
    this.visitChildren(node);
    this.classNames.pop();
    entry.lastUnit = this.units.length;
  }

  // ---- cyclomatic complexity: ESLint's `complexity` rule ----

  private countCyclomatic(node: Node): void {
    const path = this.paths[this.paths.length - 1];
    if (!path) return; // the program's own code path is not reported
    switch (node.type) {
      case 'CatchClause':
      case 'ConditionalExpression':
      case 'LogicalExpression':
      case 'ForStatement':
      case 'ForInStatement':
      case 'ForOfStatement':
      case 'IfStatement':
      case 'WhileStatement':
      case 'DoWhileStatement':
      case 'AssignmentPattern':
        path.cyclomatic++;
        break;
      case 'SwitchCase':
        if (node.test) path.cyclomatic++;
        break;
      case 'AssignmentExpression':
        if (LOGICAL_ASSIGNMENTS.has(node.operator as string)) path.cyclomatic++;
        break;
      case 'MemberExpression':
      case 'OptionalMemberExpression':
      case 'CallExpression':
      case 'OptionalCallExpression':
        if (node.optional === true) path.cyclomatic++;
        break;
      default:
        break;
    }
  }

  // ---- cognitive complexity: eslint-plugin-sonarjs's S3776 ----

  private onEnterFunction(node: Node, parent: Node | undefined): void {
    const depth = this.enclosingFunctions.length;
    if (depth === 0) {
      this.topLevelHasStructuralComplexity = false;
      this.reactNameStartsWithCapital = nameStartsWithCapital(node, parent);
      this.reactReturnsJsx = false;
      this.topLevelOwnComplexity = 0;
      this.secondLevelFunctions = [];
    } else if (depth === 1) {
      this.complexityIfNotNested = 0;
      this.complexityIfNested = 0;
    } else {
      this.nesting++;
      this.nestingNodes.add(node);
    }
    this.enclosingFunctions.push(node);
    this.sonarFunctions.push({ own: 0, controlFlowNesting: 0 });
  }

  /** Returns the function's own complexity (what the rule reports for it). */
  private onLeaveFunction(): number {
    const own = this.sonarFunctions.pop()!.own;
    this.enclosingFunctions.pop();
    const depth = this.enclosingFunctions.length;
    if (depth === 0) {
      if (this.topLevelHasStructuralComplexity && !(this.reactNameStartsWithCapital && this.reactReturnsJsx)) {
        let total = this.topLevelOwnComplexity;
        for (const second of this.secondLevelFunctions) total += second.complexityIfNested;
        this.fileComplexity += total;
      } else {
        this.fileComplexity += this.topLevelOwnComplexity;
        for (const second of this.secondLevelFunctions) this.fileComplexity += second.complexityIfThisSecondaryIsTopLevel;
      }
    } else if (depth === 1) {
      this.secondLevelFunctions.push({ complexityIfNested: this.complexityIfNested, complexityIfThisSecondaryIsTopLevel: this.complexityIfNotNested });
    }
    // Deeper functions were added to the nesting nodes on enter; '*:exit' (already run) took them out.
    return own;
  }

  private addStructuralComplexity(): void {
    const added = this.nesting + 1;
    const depth = this.enclosingFunctions.length;
    if (depth === 0) {
      this.fileComplexity += added;
    } else if (depth === 1) {
      this.topLevelHasStructuralComplexity = true;
      this.topLevelOwnComplexity += added;
    } else {
      this.complexityIfNested += added + 1;
      this.complexityIfNotNested += added;
    }
    const current = this.sonarFunctions[this.sonarFunctions.length - 1];
    if (current) current.own += current.controlFlowNesting + 1;
  }

  private addComplexity(): void {
    const current = this.sonarFunctions[this.sonarFunctions.length - 1];
    if (current) current.own += 1;
    const depth = this.enclosingFunctions.length;
    if (depth === 0) {
      this.fileComplexity += 1;
    } else if (depth === 1) {
      this.topLevelOwnComplexity += 1;
    } else {
      this.complexityIfNested += 1;
      this.complexityIfNotNested += 1;
    }
  }

  private enterCognitive(node: Node, parent: Node | undefined): void {
    switch (node.type) {
      case 'IfStatement': {
        if (parent?.type === 'IfStatement' && parent.alternate === node) this.addComplexity();
        else this.addStructuralComplexity();
        this.nestingNodes.add(node.consequent as Node);
        const alternate = node.alternate as Node | null;
        if (alternate && alternate.type !== 'IfStatement') {
          this.nestingNodes.add(alternate);
          this.addComplexity();
        }
        break;
      }
      case 'ForStatement':
      case 'ForInStatement':
      case 'ForOfStatement':
      case 'WhileStatement':
      case 'DoWhileStatement':
        this.addStructuralComplexity();
        this.nestingNodes.add(node.body as Node);
        break;
      case 'SwitchStatement':
        this.addStructuralComplexity();
        for (const switchCase of node.cases as Node[]) this.nestingNodes.add(switchCase);
        break;
      case 'ContinueStatement':
      case 'BreakStatement':
        if (node.label) this.addComplexity();
        break;
      case 'CatchClause':
        this.addStructuralComplexity();
        this.nestingNodes.add(node.body as Node);
        break;
      case 'ConditionalExpression':
        this.addStructuralComplexity();
        this.nestingNodes.add(node.consequent as Node);
        this.nestingNodes.add(node.alternate as Node);
        break;
      case 'LogicalExpression':
        this.visitLogicalExpression(node, parent);
        break;
      case 'ReturnStatement': {
        const argument = node.argument as Node | null;
        if (this.enclosingFunctions.length === 1 && argument && (argument.type === 'JSXElement' || argument.type === 'JSXFragment')) {
          this.reactReturnsJsx = true;
        }
        break;
      }
      default:
        break;
    }
  }

  private visitLogicalExpression(node: Node, parent: Node | undefined): void {
    if (parent?.type === 'JSXExpressionContainer') {
      const shortCircuit = flattenJsxShortCircuit(node, node);
      if (shortCircuit) {
        for (const expression of shortCircuit) this.consideredLogicalExpressions.add(expression);
        return;
      }
    }
    if (this.consideredLogicalExpressions.has(node)) return;
    let previous: Node | undefined;
    for (const current of this.flattenLogicalExpression(node)) {
      const operator = current.operator as string;
      if (operator !== '||' && operator !== '??' && previous?.operator !== operator) this.addComplexity();
      previous = current;
    }
  }

  private flattenLogicalExpression(node: Node): Node[] {
    if (node.type !== 'LogicalExpression') return [];
    this.consideredLogicalExpressions.add(node);
    return [...this.flattenLogicalExpression(node.left as Node), node, ...this.flattenLogicalExpression(node.right as Node)];
  }
}

function flattenJsxShortCircuit(root: Node, node: Node): Node[] | null {
  if (node.type === 'ConditionalExpression' || (node.type === 'LogicalExpression' && node.operator !== root.operator)) return null;
  if (node.type !== 'LogicalExpression') return [];
  const left = flattenJsxShortCircuit(root, node.left as Node);
  const right = flattenJsxShortCircuit(root, node.right as Node);
  return left === null || right === null ? null : [...left, node, ...right];
}

/** S3776's `nameStartsWithCapital`: a function's own name, or the variable it initializes. */
function nameStartsWithCapital(node: Node, parent: Node | undefined): boolean {
  // Methods are FunctionExpressions without an id under a MethodDefinition or Property in ESTree.
  if (METHODS.has(node.type)) return false;
  const id = node.id as Node | null | undefined;
  if (node.type !== 'ArrowFunctionExpression' && id) return startsWithCapital(id.name as string);
  if (parent?.type === 'VariableDeclarator' && (parent.id as Node).type === 'Identifier') return startsWithCapital((parent.id as Node).name as string);
  return false;
}

/** The class's name as the indexer gives it: its own, `default` for an anonymous default export, or the variable it initializes. */
function className(node: Node, parent: Node | undefined): string {
  const id = node.id as Node | null | undefined;
  if (id) return id.name as string;
  if (parent?.type === 'ExportDefaultDeclaration') return 'default';
  if (parent?.type === 'VariableDeclarator' && (parent.id as Node).type === 'Identifier') return (parent.id as Node).name as string;
  return '';
}

/** The name of a function as the indexer names its symbol (`f`, `Class.method`, `Class.get x`, `default`). */
function functionName(node: Node, parent: Node | undefined, currentClass: string): string {
  if (node.type === 'ClassMethod' || node.type === 'ClassPrivateMethod') {
    const member = keyName(node.key);
    return member ? `${currentClass}.${accessorPrefix(node)}${member}` : '';
  }
  if (node.type === 'ObjectMethod') {
    const member = keyName(node.key);
    return member ? `${accessorPrefix(node)}${member}` : '';
  }
  if (parent) {
    switch (parent.type) {
      case 'ClassProperty':
      case 'ClassPrivateProperty':
      case 'ClassAccessorProperty': {
        const member = keyName(parent.key);
        return member ? `${currentClass}.${member}` : '';
      }
      case 'VariableDeclarator':
        if ((parent.id as Node).type === 'Identifier') return (parent.id as Node).name as string;
        break;
      case 'ObjectProperty':
        if (parent.value === node) return keyName(parent.key);
        break;
      case 'AssignmentExpression': {
        const left = parent.left as Node;
        if (left.type === 'Identifier') return left.name as string;
        if (left.type === 'MemberExpression' && !left.computed) return keyName(left.property);
        break;
      }
      case 'ExportDefaultDeclaration':
        return ((node.id as Node | null)?.name as string | undefined) ?? 'default';
      default:
        break;
    }
  }
  return ((node.id as Node | null | undefined)?.name as string | undefined) ?? '';
}

const TS_PLUGINS: ParserPlugin[] = ['typescript', 'decorators-legacy', 'decoratorAutoAccessors'];
const JS_PLUGINS: ParserPlugin[] = ['jsx', 'decorators-legacy', 'decoratorAutoAccessors'];

function pluginsOf(dialect: Dialect, modernDecorators: boolean): ParserPlugin[] {
  let plugins = dialect === 'javascript' ? JS_PLUGINS : dialect === 'tsx' ? [...TS_PLUGINS, 'jsx' as ParserPlugin] : TS_PLUGINS;
  if (dialect === 'dts') plugins = plugins.map((plugin) => (plugin === 'typescript' ? (['typescript', { dts: true }] as ParserPlugin) : plugin));
  return modernDecorators ? plugins.map((plugin) => (plugin === 'decorators-legacy' ? 'decorators' : plugin)) : plugins;
}

type ParsedFile = ReturnType<typeof parse>;

/**
 * Parses a file with error recovery: as a module (CommonJS first for
 * `.cjs`/`.cts`), then as CommonJS; with TypeScript's legacy decorators,
 * then standard ones. The first parse without errors wins, else the one
 * with the fewest recovered errors. Throws the first error when no attempt
 * parses at all.
 */
export function parseSource(text: string, dialect: Dialect, path = ''): ParsedFile {
  const commonjs = /\.c[jt]s$/i.test(path);
  let firstError: unknown;
  let best: ParsedFile | undefined;
  for (const sourceType of commonjs ? (['commonjs', 'module'] as const) : (['module', 'commonjs'] as const)) {
    for (const modernDecorators of [false, true]) {
      try {
        const file = parse(text, {
          sourceType,
          errorRecovery: true,
          plugins: pluginsOf(dialect, modernDecorators),
          createParenthesizedExpressions: false,
          attachComment: false,
        });
        if (file.errors.length === 0) return file;
        if (!best || file.errors.length < best.errors.length) best = file;
      } catch (error) {
        firstError ??= error;
      }
    }
  }
  if (best) return best;
  throw firstError;
}

/** Measures a file. Throws when it does not parse. */
export function analyzeSource(text: string, dialect: Dialect, path = ''): FileMetrics {
  const file = parseSource(text, dialect, path);
  const comments = (file.comments ?? []) as Array<{ start: number; end: number }>;
  const program = file.program as unknown as Node;
  // A hashbang line is a comment to ESLint.
  const interpreter = program.interpreter as Node | null | undefined;
  const spans = interpreter ? [{ start: 0, end: interpreter.end }, ...comments] : comments;
  const counts = codeLineCounts(text, spans);
  const walker = new FileWalker();
  walker.visit(program, undefined);
  const units = walker.units;
  for (const unit of units) unit.loc = codeLinesBetween(counts, unit.startLine, unit.endLine);
  const classes = walker.classes.map(({ metrics, firstUnit, lastUnit }) => {
    for (let i = firstUnit; i < lastUnit; i++) {
      metrics.cyclomatic += units[i]!.cyclomatic;
      metrics.cognitive += units[i]!.cognitive ?? 0;
    }
    metrics.loc = codeLinesBetween(counts, metrics.startLine, metrics.endLine);
    return metrics;
  });
  const lastLine = counts.length - 1;
  const lines = text.length === 0 ? 0 : /[\r\n\u2028\u2029]$/.test(text) ? lastLine - 1 : lastLine;
  return {
    units,
    classes,
    cyclomatic: units.reduce((sum, unit) => sum + unit.cyclomatic, 0),
    cognitive: walker.fileComplexity,
    loc: counts[lastLine]!,
    lines,
    recoveredErrors: (file.errors ?? []).length,
    codeLines: (first, last) => codeLinesBetween(counts, first, last),
  };
}
