import type { Language, TreeCursor } from 'web-tree-sitter';

/**
 * How a language's syntax counts toward the complexity figures: the names of
 * its grammar's node types in each role. One walk of the tree measures
 * every function of a file:
 *
 * - cyclomatic complexity, McCabe's: 1 for the function, plus 1 for each
 *   conditional, else-if, loop that tests a condition, catch clause,
 *   conditional expression, case other than the default one, and logical
 *   operator (`&&`, `||`, `and`, `or`, `??`, `?:`);
 * - cognitive complexity, as SonarSource's definition (G. Ann Campbell,
 *   "Cognitive Complexity", 2018) counts it: 1 plus the nesting level for
 *   each conditional, loop, switch, catch clause and conditional expression;
 *   1 for each else-if and else; 1 for each sequence of like logical
 *   operators; 1 for each goto and each break or continue to a label. The
 *   nesting level grows inside those structures and inside closures.
 *   Recursion is not counted.
 *
 * A function nested in another is a function of its own; a closure
 * (lambda, block) counts toward the function around it.
 */
export interface ComplexityRules {
  /** Declarations that are functions of their own: functions, methods, constructors, accessors. */
  functions: readonly string[];
  /** Function expressions that belong to the function around them (lambdas, closures, blocks): what they hold is nested one level deeper. */
  closures?: readonly string[];
  /**
   * Conditionals. One that is the else branch of another (after its `else`
   * token, or the only named child of an `elses` node) is an else-if.
   */
  ifs: readonly string[];
  /** Else-if branches that are nodes of their own (Python's `elif_clause`, Ruby's `elsif`). */
  elseIfs?: readonly string[];
  /** Else branches that are nodes of their own (`else_clause`); they count only under a conditional. */
  elses?: readonly string[];
  /** Loops, catch clauses and conditional expressions. */
  branches: readonly string[];
  /** Tests that count for cyclomatic complexity only (the `for` and `if` clauses of Python's comprehensions, which SonarSource does not count). */
  decisions?: readonly string[];
  /** Structures that count for cognitive complexity only (switch, match, an unconditional loop): their cases count for cyclomatic. */
  structures?: readonly string[];
  /**
   * The arms of a switch or match: each but the default one (first token
   * `default` or `else`, or the pattern `_`), once per `case` label it has
   * (C#'s `case 1: case 2:` is one section), and once more for a guard
   * written as an `if` token in its pattern (Rust's `Some(x) if x > 0 =>`).
   */
  cases?: readonly string[];
  /** Binary expressions, with the operator tokens among their children that count (`&&`, `||`, `and`, `or`, `??`). */
  logical?: { types: readonly string[]; operators: readonly string[] };
  /** Assignments that branch (`a ||= b`, `a ??= b`): the node types and their operator tokens; cyclomatic only, as ESLint counts them. */
  logicalAssignments?: { types: readonly string[]; operators: readonly string[] };
  /** Preprocessor conditionals (`#if`, `#elif`): their `condition` is not code of the function, and is not counted. */
  preprocessorConditions?: readonly string[];
  /** Jumps that always count for cognitive complexity (`goto`). */
  jumps?: readonly string[];
  /** Jumps that count for cognitive complexity when they name a label (`break outer`): the jump types and the label's node types. */
  labelledJumps?: { types: readonly string[]; labels: readonly string[] };
}

/** The figures of one function. */
export interface FunctionFigures {
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  cyclomatic: number;
  cognitive: number;
}

const ROLE_NONE = 0;
const ROLE_FUNCTION = 1;
const ROLE_CLOSURE = 2;
const ROLE_IF = 3;
const ROLE_ELSE_IF = 4;
const ROLE_ELSE = 5;
const ROLE_BRANCH = 6;
const ROLE_STRUCTURE = 7;
const ROLE_CASE = 8;
const ROLE_LOGICAL = 9;
const ROLE_JUMP = 10;
const ROLE_LABELLED_JUMP = 11;
const ROLE_DECISION = 12;
const ROLE_LOGICAL_ASSIGNMENT = 13;
const ROLE_PREPROCESSOR = 14;

/** The rules as a grammar's node type ids: a role per id, the operator and label ids, the `else` token ids. */
export interface CompiledComplexityRules {
  roles: Uint8Array;
  /** 1 for the ids of named node types (asking the cursor costs a call into the runtime for every node). */
  named: Uint8Array;
  operators: Set<number>;
  assignmentOperators: Set<number>;
  caseTokens: Set<number>;
  guardTokens: Set<number>;
  conditionField: number;
  labels: Set<number>;
  elseTokens: Set<number>;
  ifTypes: Set<number>;
}

/** The rules' type names as ids of `language` (names the grammar does not have are left out: a grammar's versions differ). */
export function compileComplexityRules(language: Language, rules: ComplexityRules): CompiledComplexityRules {
  const roles = new Uint8Array(language.nodeTypeCount + 1);
  const named = new Uint8Array(language.nodeTypeCount + 1);
  for (let id = 0; id < language.nodeTypeCount; id++) named[id] = language.nodeTypeIsNamed(id) ? 1 : 0;
  const ids = (names: readonly string[] | undefined, ofNamedTypes: boolean): Set<number> => {
    const found = new Set<number>();
    if (!names) return found;
    for (let id = 0; id < language.nodeTypeCount; id++) {
      const type = language.nodeTypeForId(id);
      if (type !== null && names.includes(type) && language.nodeTypeIsNamed(id) === ofNamedTypes) found.add(id);
    }
    return found;
  };
  const assign = (names: readonly string[] | undefined, role: number): void => {
    for (const id of ids(names, true)) roles[id] = role;
  };
  assign(rules.functions, ROLE_FUNCTION);
  assign(rules.closures, ROLE_CLOSURE);
  assign(rules.ifs, ROLE_IF);
  assign(rules.elseIfs, ROLE_ELSE_IF);
  assign(rules.elses, ROLE_ELSE);
  assign(rules.branches, ROLE_BRANCH);
  assign(rules.decisions, ROLE_DECISION);
  assign(rules.structures, ROLE_STRUCTURE);
  assign(rules.cases, ROLE_CASE);
  assign(rules.logical?.types, ROLE_LOGICAL);
  assign(rules.logicalAssignments?.types, ROLE_LOGICAL_ASSIGNMENT);
  assign(rules.preprocessorConditions, ROLE_PREPROCESSOR);
  assign(rules.jumps, ROLE_JUMP);
  assign(rules.labelledJumps?.types, ROLE_LABELLED_JUMP);
  return {
    roles,
    named,
    operators: ids(rules.logical?.operators, false),
    assignmentOperators: ids(rules.logicalAssignments?.operators, false),
    caseTokens: ids(['case'], false),
    guardTokens: ids(['if'], false),
    conditionField: language.fields.indexOf('condition'),
    labels: ids(rules.labelledJumps?.labels, true),
    elseTokens: ids(['else'], false),
    ifTypes: ids(rules.ifs, true),
  };
}

/** Nodes visited between two looks at the clock. */
const CLOCK_STRIDE = 4_096;

/**
 * Measures every function of a tree, walking it once from the cursor (at
 * the root). Stops when `overTime` says so, keeping what it measured
 * (`complete` false). Iterative: a deeply nested tree takes no stack.
 */
export function measureFunctions(
  cursor: TreeCursor,
  rules: CompiledComplexityRules,
  overTime: () => boolean,
): { functions: FunctionFigures[]; complete: boolean } {
  const functions: FunctionFigures[] = [];
  const { roles, named, operators, assignmentOperators, labels, elseTokens, ifTypes, caseTokens, guardTokens, conditionField } = rules;
  // State of the node at each depth of the walk.
  let capacity = 256;
  let nesting = new Int32Array(capacity); // the nesting level of what the node holds
  let chainLevel = new Int32Array(capacity); // for a conditional (or its else branches): the level of the chain's first `if`
  let unit = new Int32Array(capacity); // the function the node's children belong to, -1 outside any
  let operator = new Int32Array(capacity); // a logical expression's operator token id, -1 for other nodes
  let role = new Uint8Array(capacity);
  let elseSeen = new Uint8Array(capacity); // a conditional whose `else` token came among the children visited so far
  unit[0] = -1;
  operator[0] = -1;
  let depth = 0;
  /** Whether the walk goes into the children of the node just visited (not into a preprocessor condition). */
  let descend = true;
  for (let visited = 1; ; visited++) {
    if (visited % CLOCK_STRIDE === 0 && overTime()) return { functions, complete: false };
    // To the next node in document order.
    if (descend && cursor.gotoFirstChild()) {
      depth++;
      if (depth === capacity) {
        capacity *= 2;
        nesting = grown(nesting, capacity);
        chainLevel = grown(chainLevel, capacity);
        unit = grown(unit, capacity);
        operator = grown(operator, capacity);
        role = grown(role, capacity);
        elseSeen = grown(elseSeen, capacity);
      }
    } else {
      while (!cursor.gotoNextSibling()) {
        if (depth === 0 || !cursor.gotoParent()) return { functions, complete: true };
        depth--;
      }
      if (depth === 0) return { functions, complete: true };
    }
    descend = true;
    const parent = depth - 1;
    const parentRole = role[parent]!;
    let outerLevel = nesting[parent]!;
    const owner = unit[parent]!;
    const type = cursor.nodeTypeId;
    nesting[depth] = outerLevel;
    chainLevel[depth] = outerLevel;
    unit[depth] = owner;
    operator[depth] = -1;
    role[depth] = ROLE_NONE;
    elseSeen[depth] = 0;
    if (parentRole === ROLE_PREPROCESSOR && cursor.currentFieldId === conditionField) {
      descend = false;
      continue;
    }
    if (named[type] !== 1) {
      if (elseTokens.has(type) && (parentRole === ROLE_IF || parentRole === ROLE_ELSE_IF)) elseSeen[parent] = 1;
      continue;
    }
    const figures = owner >= 0 ? functions[owner]! : undefined;
    /** Whether this node is the else branch of the conditional above it. */
    const elseBranch = elseSeen[parent] === 1;
    let nodeRole = roles[type]!;
    if (elseBranch && nodeRole !== ROLE_IF) {
      // The else branch itself (Java, Go, C#, Kotlin: a block, or one statement): one level inside the chain.
      if (figures) figures.cognitive++;
      outerLevel = chainLevel[parent]! + 1;
      nesting[depth] = outerLevel;
      chainLevel[depth] = outerLevel;
    }
    switch (nodeRole) {
      case ROLE_FUNCTION:
        functions.push({ startLine: cursor.startPosition.row + 1, endLine: cursor.endPosition.row + 1, cyclomatic: 1, cognitive: 0 });
        unit[depth] = functions.length - 1;
        nesting[depth] = 0;
        break;
      case ROLE_CLOSURE:
        nesting[depth] = outerLevel + 1;
        break;
      case ROLE_IF:
        if (elseBranch || parentRole === ROLE_ELSE) {
          // else-if: counted once, at the level of the chain's first `if`.
          const level = chainLevel[parent]!;
          if (figures) {
            figures.cyclomatic++;
            figures.cognitive++;
          }
          chainLevel[depth] = level;
          nesting[depth] = level + 1;
        } else {
          if (figures) {
            figures.cyclomatic++;
            figures.cognitive += 1 + outerLevel;
          }
          nesting[depth] = outerLevel + 1;
        }
        break;
      case ROLE_ELSE_IF: {
        const level = parentRole === ROLE_IF || parentRole === ROLE_ELSE_IF ? chainLevel[parent]! : outerLevel;
        if (figures) {
          figures.cyclomatic++;
          figures.cognitive++;
        }
        chainLevel[depth] = level;
        nesting[depth] = level + 1;
        break;
      }
      case ROLE_ELSE: {
        if (parentRole !== ROLE_IF && parentRole !== ROLE_ELSE_IF) {
          // An else of a loop, a case or a try: nothing of its own.
          nodeRole = ROLE_NONE;
          break;
        }
        const level = chainLevel[parent]!;
        chainLevel[depth] = level;
        const node = cursor.currentNode;
        const wrapsIf = node.namedChildCount === 1 && ifTypes.has(node.namedChildren[0]!.typeId);
        // An else that holds only an `if` is an else-if: the `if` counts.
        if (!wrapsIf && figures) figures.cognitive++;
        nesting[depth] = wrapsIf ? level : level + 1;
        break;
      }
      case ROLE_BRANCH:
        if (figures) {
          figures.cyclomatic++;
          figures.cognitive += 1 + outerLevel;
        }
        nesting[depth] = outerLevel + 1;
        break;
      case ROLE_DECISION:
        if (figures) figures.cyclomatic++;
        break;
      case ROLE_STRUCTURE:
        if (figures) figures.cognitive += 1 + outerLevel;
        nesting[depth] = outerLevel + 1;
        break;
      case ROLE_CASE:
        if (figures && !isDefaultCase(cursor)) figures.cyclomatic += caseCount(cursor, caseTokens, guardTokens);
        break;
      case ROLE_LOGICAL_ASSIGNMENT:
        if (figures && operatorOf(cursor, assignmentOperators) !== -1) figures.cyclomatic++;
        break;
      case ROLE_LOGICAL: {
        const found = operatorOf(cursor, operators);
        operator[depth] = found;
        if (found !== -1 && figures) {
          figures.cyclomatic++;
          // A sequence of like operators counts once.
          if (operator[parent] !== found) figures.cognitive++;
        }
        break;
      }
      case ROLE_JUMP:
        if (figures) figures.cognitive++;
        break;
      case ROLE_LABELLED_JUMP:
        if (figures && hasLabel(cursor, labels)) figures.cognitive++;
        break;
    }
    role[depth] = nodeRole;
  }
}

function grown<T extends Int32Array | Uint8Array>(array: T, capacity: number): T {
  const larger = new (array.constructor as new (length: number) => T)(capacity);
  larger.set(array);
  return larger;
}

/** The first child token of the node at the cursor that is a counted operator, or -1. The cursor ends where it began. */
function operatorOf(cursor: TreeCursor, operators: ReadonlySet<number>): number {
  if (!cursor.gotoFirstChild()) return -1;
  let found = -1;
  do {
    if (operators.has(cursor.nodeTypeId)) {
      found = cursor.nodeTypeId;
      break;
    }
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  return found;
}

/**
 * What a case that is not the default one adds: one per `case` token among
 * its children (at least one), and one for an `if` token (a guard) among the
 * children of its first named child, the pattern.
 */
function caseCount(cursor: TreeCursor, caseTokens: ReadonlySet<number>, guardTokens: ReadonlySet<number>): number {
  if (!cursor.gotoFirstChild()) return 1;
  let labels = 0;
  let guards = 0;
  let patternSeen = false;
  do {
    if (!cursor.nodeIsNamed) {
      if (caseTokens.has(cursor.nodeTypeId)) labels++;
    } else if (!patternSeen) {
      patternSeen = true;
      if (cursor.gotoFirstChild()) {
        do if (guardTokens.has(cursor.nodeTypeId)) guards++;
        while (cursor.gotoNextSibling());
        cursor.gotoParent();
      }
    }
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  return Math.max(1, labels) + guards;
}

/** Whether the node at the cursor has a named child of a label type. */
function hasLabel(cursor: TreeCursor, labels: ReadonlySet<number>): boolean {
  if (!cursor.gotoFirstChild()) return false;
  let found = false;
  do {
    if (labels.has(cursor.nodeTypeId)) {
      found = true;
      break;
    }
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  return found;
}

/** A case is the default one when its first token is `default` or `else`, or its pattern is `_`. */
function isDefaultCase(cursor: TreeCursor): boolean {
  const node = cursor.currentNode;
  const first = node.firstChild;
  if (!first) return false;
  if (!first.isNamed && (first.type === 'default' || first.type === 'else')) return true;
  const pattern = node.firstNamedChild;
  return pattern !== null && pattern.endIndex - pattern.startIndex === 1 && pattern.text === '_';
}
