/**
 * Architecture rules in dependency-cruiser's `forbidden` shape, read as data
 * (never by running a configuration's JavaScript), and checked against the
 * import graph. Their paths are regular expressions run on RE2 (RE2JS), as
 * a plugin's schema patterns are: the rules come from the repository, which
 * is not trusted, and a pattern such as `(a+)+$` must not stall the server.
 */
import { RE2JS } from 're2js';

/** How bad breaking a rule is; `ignore` turns a rule off. */
export const SEVERITIES = ['error', 'warn', 'info', 'ignore'] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * dependency-cruiser's dependency types that Strata's graph tells: what the
 * target is (`local`: a file; `core`: a package of the platform; `npm`: any
 * other package) and how it is imported.
 */
export const DEPENDENCY_TYPES = [
  'local',
  'core',
  'npm',
  'import',
  'require',
  'dynamic-import',
  'export',
  'type-only',
  'type-import',
  'pre-compilation-only',
] as const;
export type DependencyType = (typeof DEPENDENCY_TYPES)[number];

/** One side of a rule: which modules it is about. */
export interface RuleSide {
  path?: string;
  pathNot?: string;
}

/** A rule, checked and compiled. */
export interface DependencyRule {
  name: string;
  severity: Severity;
  comment?: string;
  from: RuleSide & { orphan?: boolean };
  to: RuleSide & { circular?: boolean; dependencyTypes?: DependencyType[]; dependencyTypesNot?: DependencyType[] };
}

/** Rules read from one source. */
export interface RuleSet {
  /** Where they came from: a file's path, or `strata.config.json`. */
  source: string;
  rules: DependencyRule[];
  /** What was read but is not checked (an `extends`, `allowed` rules), said to the user. */
  notes: string[];
}

/** A rules file with mistakes: each one names its rule and field. */
export class RulesError extends Error {
  override readonly name = 'RulesError';
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`${source}: ${problems.length === 1 ? problems[0] : `${problems.length} problems:\n  ${problems.join('\n  ')}`}`);
  }
}

const FROM_FIELDS = ['path', 'pathNot', 'orphan'];
const TO_FIELDS = ['path', 'pathNot', 'circular', 'dependencyTypes', 'dependencyTypesNot'];
const RULE_FIELDS = ['name', 'severity', 'comment', 'from', 'to', 'scope'];
/**
 * Most rules one set may hold: each is checked against every import, and the
 * rules come with the (untrusted) repository, so their number bounds the work
 * of a check (dependency-cruiser's own recommended set has 14).
 */
export const MAX_RULES = 200;
/** Longest regular expression a rule may give (a longer one is refused, as an ignore file's patterns are). */
const MAX_PATTERN_LENGTH = 4096;

/**
 * Reads a rule set: `{"forbidden": [...]}` as dependency-cruiser's
 * configuration and `strata.config.json`'s `rules` hold it. Every mistake is
 * collected, named by the rule's index and name and the field.
 */
export function parseRuleSet(value: unknown, source: string): RuleSet {
  const problems: string[] = [];
  const notes: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new RulesError(source, ['must be a JSON object with a "forbidden" array of rules']);
  const record = value as Record<string, unknown>;
  if ('extends' in record)
    notes.push('"extends" is not read (the configurations it names are JavaScript, which Strata never runs): only the rules of this file are checked');
  for (const kind of ['allowed', 'required'] as const)
    if (Array.isArray(record[kind]) && record[kind].length > 0) notes.push(`"${kind}" rules are not checked (only "forbidden" ones are)`);
  const forbidden = record.forbidden ?? [];
  if (!Array.isArray(forbidden)) throw new RulesError(source, ['forbidden: must be an array of rules']);
  if (forbidden.length > MAX_RULES) throw new RulesError(source, [`forbidden: at most ${MAX_RULES} rules, not ${forbidden.length}`]);
  const rules: DependencyRule[] = [];
  const names = new Set<string>();
  for (const [i, raw] of forbidden.entries()) {
    const before = problems.length;
    const label =
      typeof raw === 'object' && raw !== null && typeof (raw as { name?: unknown }).name === 'string'
        ? `forbidden[${i}] "${(raw as { name: string }).name}"`
        : `forbidden[${i}]`;
    const problem = (field: string, message: string): void => {
      problems.push(`${label}: ${field}: ${message}`);
    };
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      problems.push(`${label}: must be an object`);
      continue;
    }
    const rule = raw as Record<string, unknown>;
    for (const key of Object.keys(rule)) if (!RULE_FIELDS.includes(key)) problem(key, `not a field of a rule (${RULE_FIELDS.join(', ')})`);
    const name = rule.name === undefined ? `rule-${i + 1}` : rule.name;
    if (typeof name !== 'string' || name.length === 0 || name.length > 200) problem('name', 'must be a non-empty string of at most 200 characters');
    else if (names.has(name)) problem('name', `"${name}" is the name of an earlier rule too`);
    else names.add(name);
    const severity = rule.severity ?? 'warn';
    if (!SEVERITIES.includes(severity as Severity)) problem('severity', `must be one of ${SEVERITIES.join(', ')}, not ${JSON.stringify(severity)}`);
    if (rule.comment !== undefined && typeof rule.comment !== 'string') problem('comment', 'must be a string');
    if (rule.scope !== undefined && rule.scope !== 'module') problem('scope', '"folder" rules are not checked by Strata; only "module" (the default)');
    const from = side(rule.from, 'from', FROM_FIELDS, problem);
    const to = side(rule.to, 'to', TO_FIELDS, problem);
    if (from.orphan !== undefined && typeof from.orphan !== 'boolean') problem('from.orphan', 'must be true or false');
    if (to.circular !== undefined && typeof to.circular !== 'boolean') problem('to.circular', 'must be true or false');
    for (const field of ['dependencyTypes', 'dependencyTypesNot'] as const) {
      const types = to[field];
      if (types === undefined) continue;
      if (!Array.isArray(types) || types.some((type) => typeof type !== 'string')) {
        problem(`to.${field}`, 'must be an array of dependency types');
        continue;
      }
      for (const type of types)
        if (!DEPENDENCY_TYPES.includes(type as DependencyType))
          problem(`to.${field}`, `"${type}" is not a dependency type Strata tells (${DEPENDENCY_TYPES.join(', ')})`);
    }
    if (from.orphan === true && Object.keys(to).length > 0) problem('to', 'an orphan rule has an empty "to" (an orphan imports nothing)');
    if (problems.length > before) continue;
    rules.push({
      name: name as string,
      severity: severity as Severity,
      ...(rule.comment !== undefined && { comment: rule.comment as string }),
      from: from as DependencyRule['from'],
      to: to as DependencyRule['to'],
    });
  }
  if (problems.length > 0) throw new RulesError(source, problems);
  return { source, rules, notes };
}

/** One side of a rule, its fields checked; `path` and `pathNot` may be arrays of expressions (any of them). */
function side(value: unknown, field: 'from' | 'to', known: string[], problem: (field: string, message: string) => void): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problem(field, 'must be an object');
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value)) {
    if (!known.includes(key)) {
      problem(`${field}.${key}`, `not checked by Strata (a "${field}" may give ${known.join(', ')})`);
      continue;
    }
    if (key === 'path' || key === 'pathNot') {
      const patterns = typeof raw === 'string' ? [raw] : Array.isArray(raw) && raw.every((item) => typeof item === 'string') ? (raw as string[]) : undefined;
      if (!patterns || patterns.length === 0) {
        problem(`${field}.${key}`, 'must be a regular expression, or an array of them');
        continue;
      }
      const joined = patterns.length === 1 ? patterns[0]! : patterns.map((pattern) => `(?:${pattern})`).join('|');
      if (joined.length > MAX_PATTERN_LENGTH) {
        problem(`${field}.${key}`, `longer than ${MAX_PATTERN_LENGTH} characters`);
        continue;
      }
      try {
        // `$1` in a "to" pattern stands for a group of the "from" match: checked with it replaced by an empty group.
        RE2JS.compile(field === 'to' ? joined.replace(/\$\d/g, '') : joined);
      } catch (error) {
        problem(
          `${field}.${key}`,
          `not a regular expression Strata runs (${(error as Error).message}); rules run on RE2, in time linear in the path: no lookaround, no backreferences`,
        );
        continue;
      }
      out[key] = joined;
    } else out[key] = raw;
  }
  return out;
}
