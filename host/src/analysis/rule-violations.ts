import { RE2JS } from 're2js';
import type { DependencyRule, DependencyType, Severity } from './dependency-rules.js';
import { fileLinks, stronglyConnected } from './import-cycles.js';
import { type ImportGraph, REFERENCE_KINDS, UnitKind } from './import-graph.js';

/** An import (or, for an orphan rule, a file) that breaks a rule. */
export interface RuleViolation {
  rule: string;
  severity: Exclude<Severity, 'ignore'>;
  comment?: string;
  /** The importing file (the orphan). */
  from: string;
  /** What it imports; null for an orphan. */
  to: string | null;
  /** The import edge; null for an orphan. */
  edge: string | null;
  /** The imports the file reads its target by (`GraphEdge.specifiers`), for finding the line. */
  specifiers?: string[];
  /** For a circular rule: a shortest way back from `to` to `from`, the files in order (from `to` to `from`). Absent when the search's budget ran out. */
  cycle?: string[];
}

/** Most edge visits spent finding cycles for the violations of circular rules, in all. */
const CYCLE_SEARCH_BUDGET = 20_000_000;

/** What dependency-cruiser calls each of Strata's reference kinds. */
const TYPES_OF_REFERENCE: Record<(typeof REFERENCE_KINDS)[number], DependencyType[]> = {
  static: ['import'],
  dynamic: ['dynamic-import'],
  require: ['require'],
  're-export': ['export'],
  'type-only': ['type-only', 'type-import', 'pre-compilation-only'],
};

/**
 * The violations of the rules in the graph, rule by rule in the rules'
 * order, then by importing file. `specifiersOf` gives an import edge's
 * specifiers (for finding its line).
 */
export function ruleViolations(
  graph: ImportGraph,
  rules: readonly DependencyRule[],
  specifiersOf: (sourceId: string, edgeId: string) => string[] | undefined,
): RuleViolation[] {
  const violations: RuleViolation[] = [];
  let componentOf: Int32Array | undefined;
  let budget = CYCLE_SEARCH_BUDGET;
  for (const rule of rules) {
    if (rule.severity === 'ignore') continue;
    const base = { rule: rule.name, severity: rule.severity, ...(rule.comment !== undefined && { comment: rule.comment }) };
    const from = rule.from.path === undefined ? undefined : pathPattern(rule.from.path);
    const fromNot = rule.from.pathNot === undefined ? undefined : pathPattern(rule.from.pathNot);
    /** The groups of the "from" match (none without a "from.path"), or null when the rule is not about this path. */
    const fromMatches = (path: string): string[] | null => {
      if (fromNot?.test(path)) return null;
      if (!from) return [];
      return from.groups(path);
    };
    if (rule.from.orphan === true) {
      for (let u = 0; u < graph.ids.length; u++) {
        if (!graph.parsed[u] || graph.outStart[u] !== graph.outStart[u + 1] || graph.inStart[u] !== graph.inStart[u + 1]) continue;
        if (fromMatches(graph.paths[u]!) === null) continue;
        violations.push({ ...base, from: graph.ids[u]!, to: null, edge: null });
      }
      continue;
    }
    if (rule.to.circular === true) componentOf ??= fileComponents(graph);
    /** The "to" patterns for each set of "from" groups, with what they answered for each target (a target is tested once). */
    const toPatterns = new Map<string, { path: PathPattern | undefined; pathNot: PathPattern | undefined; answers: Map<number, boolean> }>();
    const seenEdges = new Set<string>();
    for (let s = 0; s < graph.ids.length; s++) {
      if (graph.kind[s] !== UnitKind.File) continue;
      const matched = fromMatches(graph.paths[s]!);
      if (matched === null) continue;
      // `$1` in a "to" pattern is the "from" path's first group.
      const groups = matched;
      const key = groups.join('\u0000');
      let to = toPatterns.get(key);
      if (!to) {
        const fill = (pattern: string | undefined) =>
          pattern === undefined ? undefined : pathPattern(pattern.replace(/\$(\d)/g, (_, n: string) => RE2JS.quote(groups[Number(n) - 1] ?? '')));
        to = { path: fill(rule.to.path), pathNot: fill(rule.to.pathNot), answers: new Map() };
        toPatterns.set(key, to);
      }
      for (let k = graph.outStart[s]!; k < graph.outStart[s + 1]!; k++) {
        const e = graph.outImports[k]!;
        const t = graph.importTarget[e]!;
        const edgeId = graph.importEdgeId[e]!;
        // An import of a directory stands for an import of each file in it: the first that breaks the rule reports the edge.
        if (seenEdges.has(edgeId)) continue;
        let matches = to.answers.get(t);
        if (matches === undefined) {
          const targetPath = graph.paths[t]!;
          matches = (!to.path || to.path.test(targetPath)) && !to.pathNot?.test(targetPath);
          to.answers.set(t, matches);
        }
        if (!matches) continue;
        if (rule.to.circular !== undefined) {
          const circular = componentOf![s]! >= 0 && componentOf![s] === componentOf![t];
          if (circular !== rule.to.circular) continue;
        }
        if (rule.to.dependencyTypes || rule.to.dependencyTypesNot) {
          const types = dependencyTypes(graph, e, t);
          if (rule.to.dependencyTypes && !rule.to.dependencyTypes.some((type) => types.has(type))) continue;
          if (rule.to.dependencyTypesNot?.some((type) => types.has(type))) continue;
        }
        seenEdges.add(edgeId);
        const violation: RuleViolation = { ...base, from: graph.ids[s]!, to: edgeId.slice(`imports:${graph.ids[s]!}->`.length), edge: edgeId };
        const specifiers = specifiersOf(graph.ids[s]!, edgeId);
        if (specifiers) violation.specifiers = specifiers;
        if (rule.to.circular === true && budget > 0) {
          const way = wayBack(graph, t, s, componentOf!);
          budget -= way.spent;
          if (way.files) violation.cycle = way.files;
        }
        violations.push(violation);
      }
    }
  }
  return violations;
}

/** The types dependency-cruiser would give import `e`: how it is imported, and what its target is. */
function dependencyTypes(graph: ImportGraph, e: number, target: number): Set<DependencyType> {
  const types = new Set<DependencyType>();
  const bits = graph.referenceBits[e]!;
  for (const [k, kind] of REFERENCE_KINDS.entries()) if (bits & (1 << k)) for (const type of TYPES_OF_REFERENCE[kind]) types.add(type);
  if (graph.kind[target] === UnitKind.Package) types.add(graph.builtin[target] ? 'core' : 'npm');
  else types.add('local');
  return types;
}

/** The component (of import cycles, all kinds counted) of each unit, -1 outside any. */
function fileComponents(graph: ImportGraph): Int32Array {
  const links = fileLinks(graph, 0);
  const componentOf = new Int32Array(graph.ids.length).fill(-1);
  for (const [c, members] of stronglyConnected(links, 2).entries()) for (const local of members) componentOf[links.units[local]!] = c;
  return componentOf;
}

/** A shortest chain of imports from `start` back to `goal` inside their component (breadth-first). */
function wayBack(graph: ImportGraph, start: number, goal: number, componentOf: Int32Array): { files?: string[]; spent: number } {
  const component = componentOf[start]!;
  const previous = new Map<number, number>([[start, -1]]);
  let frontier = [start];
  let spent = 0;
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const u of frontier) {
      for (let k = graph.outStart[u]!; k < graph.outStart[u + 1]!; k++) {
        spent++;
        const v = graph.importTarget[graph.outImports[k]!]!;
        if (componentOf[v] !== component || previous.has(v)) continue;
        previous.set(v, u);
        if (v === goal) {
          const files: string[] = [];
          for (let at = v; at >= 0; at = previous.get(at)!) files.push(graph.ids[at]!);
          return { files: files.reverse(), spent };
        }
        next.push(v);
      }
    }
    frontier = next;
  }
  return { spent };
}

/** A rule's path expression on RE2: a search anywhere in the path, as a JavaScript `test` is, in linear time. */
interface PathPattern {
  test(path: string): boolean;
  /** The groups of the first match, or null for none. */
  groups(path: string): string[] | null;
}

function pathPattern(source: string): PathPattern {
  const compiled = RE2JS.compile(source);
  return {
    test: (path) => compiled.matcher(path).find(),
    groups(path) {
      const matcher = compiled.matcher(path);
      if (!matcher.find()) return null;
      const groups: string[] = [];
      for (let g = 1; g <= matcher.groupCount(); g++) groups.push(matcher.group(g) ?? '');
      return groups;
    },
  };
}
