import { StrataError } from '../errors/strata-error.js';
import { replaceControlCharacters } from './control-characters.js';
import type { ExportGraph } from './export-graph.js';

/** Mermaid's default `maxEdges`: a flowchart with more is refused by Mermaid itself. */
export const MERMAID_MAX_EDGES = 500;
/** Mermaid's default `maxTextSize`, in characters: a longer diagram is refused by Mermaid itself. */
export const MERMAID_MAX_TEXT = 50_000;

/** Characters a quoted Mermaid label shows as they are; any other is written as an entity code (`#34;`). */
const PLAIN = /^[A-Za-z0-9 ._/:,+@~=-]$/u;

/**
 * A quoted Mermaid label: every character outside a plain set as Mermaid's
 * numeric entity code (`"` as `#34;`, `<` as `#60;`), so that no quote,
 * bracket, markdown or HTML in a file name ends the label or runs as
 * markup; control characters as U+FFFD.
 */
export function mermaidLabel(text: string): string {
  let out = '';
  for (const c of replaceControlCharacters(text)) out += PLAIN.test(c) ? c : `#${c.codePointAt(0)};`;
  return `"${out}"`;
}

/** Refuses a graph Mermaid would not draw, saying how to make it smaller. */
export function checkMermaidSize(edges: number, characters: number): void {
  const smaller = 'export level=directory, or focus=<node id> with a small depth, or use format=dot';
  if (edges > MERMAID_MAX_EDGES)
    throw new StrataError(
      'INVALID_PARAMETER',
      `query.format: mermaid draws at most ${MERMAID_MAX_EDGES} edges (Mermaid's maxEdges) and this export has ${edges.toLocaleString('en-US')}: ${smaller}`,
    );
  if (characters > MERMAID_MAX_TEXT)
    throw new StrataError(
      'INVALID_PARAMETER',
      `query.format: mermaid reads at most ${MERMAID_MAX_TEXT.toLocaleString('en-US')} characters (Mermaid's maxTextSize) and this export has ${characters.toLocaleString('en-US')}: ${smaller}`,
    );
}

/** The graph as a Mermaid flowchart (`flowchart LR`): nodes `n0`, `n1`... labeled by path, edges labeled with their count when they sum several imports. */
export function* mermaidText(graph: ExportGraph): Generator<string> {
  checkMermaidSize(graph.edges.length, 0);
  yield 'flowchart LR\n';
  const index = new Map<string, number>();
  for (const [i, node] of graph.nodes.entries()) {
    index.set(node.id, i);
    yield `  n${i}[${mermaidLabel(node.path)}]\n`;
  }
  for (const edge of graph.edges) {
    const arrow = edge.kind === 'contains' ? '-.-' : edge.count > 1 ? `-->|${edge.count}|` : '-->';
    yield `  n${index.get(edge.source)} ${arrow} n${index.get(edge.target)}\n`;
  }
}
