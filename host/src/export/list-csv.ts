import { stringify } from 'csv-stringify/sync';
import type { CyclesAnswer, ReachAnswer, ViolationsAnswer } from '../analysis/graph-analysis.js';

/** The lists exported as CSV. */
export const CSV_LISTS = ['cycles', 'dependents', 'dependencies', 'violations'] as const;

/** One of `CSV_LISTS`. */
export type CsvList = (typeof CSV_LISTS)[number];

/**
 * Rows as CSV by RFC 4180 (csv-stringify): a header line, CRLF line ends,
 * a field quoted when it holds a quote, comma or line break; and a cell
 * that a spreadsheet would run as a formula (starting with `=`, `+`, `-`,
 * `@`, a tab or CR: file names are untrusted) prefixed with `'`.
 */
export function csvText(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return stringify([header, ...rows], { record_delimiter: 'windows', escape_formulas: true, quoted_match: /[\r\n]/ });
}

/** A node id as a person reads it in a list: a file's or directory's path; a package's or symbol's id as it is. */
function pathOf(id: string): string {
  return id.startsWith('file:') || id.startsWith('dir:') ? id.slice(id.indexOf(':') + 1) : id;
}

/** Import cycles: one row per member of each component (the component's number from 1, largest first), with the component's size and its shortest cycle. */
export function cyclesCsv(answer: CyclesAnswer): string {
  const rows: Array<Array<string | number>> = [];
  for (const [i, component] of answer.components.entries()) {
    const cycle = [...component.cycle, component.cycle[0]!].map(pathOf).join(' -> ');
    for (const member of component.members) rows.push([answer.offset + i + 1, component.members.length, pathOf(member), cycle]);
  }
  return csvText(['component', 'size', answer.level === 'file' ? 'file' : 'directory', 'shortest_cycle'], rows);
}

/** Dependents or dependencies of a node: one row per node reached, nearest first, with its depth and the node it was reached from. */
export function reachCsv(answer: ReachAnswer): string {
  return csvText(
    ['node', 'depth', 'via', 'edge'],
    answer.nodes.map((node) => [pathOf(node.id), node.depth, pathOf(node.from), node.edge]),
  );
}

/** Violations of the architecture rules: rule, severity, from, to (empty for an orphan). */
export function violationsCsv(answer: ViolationsAnswer): string {
  return csvText(
    ['rule', 'severity', 'from', 'to'],
    answer.violations.map((violation) => [violation.rule, violation.severity, pathOf(violation.from), violation.to === null ? '' : pathOf(violation.to)]),
  );
}
