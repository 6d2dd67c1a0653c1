import type { GraphNode } from '@strata/sdk';
import { replaceControlCharacters } from './control-characters.js';
import type { ExportGraph } from './export-graph.js';

const LINE_BREAK: ReadonlySet<string> = new Set(['\n']);

/** Up to this many nodes, a file-level picture draws each directory as a cluster around its files; above, dot's cluster layout takes too long. */
export const DOT_CLUSTER_MAX_NODES = 2000;

/**
 * A DOT quoted string of `text`: `"` and `\` escaped (a backslash would
 * otherwise start a label escape such as `\N`, or eat the closing quote),
 * line breaks as `\n`, other control characters as U+FFFD.
 */
export function dotString(text: string): string {
  const lines = replaceControlCharacters(text.replace(/\r\n|\r/g, '\n'), LINE_BREAK);
  return `"${lines.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}"`;
}

/** What a node is called in a picture: a file by its name inside its directory's cluster, else by its path (a package by its name). */
function labelOf(node: GraphNode, clustered: boolean): string {
  return clustered && node.kind !== 'directory' && node.kind !== 'package' ? node.name : node.path;
}

/** The directory a clustered node is drawn in ('' for none). */
function clusterOf(node: GraphNode): string {
  if (node.kind === 'directory' || node.kind === 'package') return '';
  const slash = node.path.lastIndexOf('/');
  return slash < 0 ? '.' : node.path.slice(0, slash);
}

/**
 * The graph in Graphviz's DOT (`dot -Tsvg`): a `digraph`, nodes `n0`, `n1`...
 * labeled by name or path, with the node id as tooltip; at file level with at
 * most `DOT_CLUSTER_MAX_NODES` nodes each directory a cluster of its files;
 * edges labeled with their count when they sum several imports, `contains`
 * edges dashed.
 */
export function* dotText(graph: ExportGraph): Generator<string> {
  yield `digraph ${dotString(graph.level === 'directory' ? 'directories' : 'files')} {\n`;
  yield '  rankdir=LR;\n  node [shape=box, fontname="Helvetica", fontsize=10];\n  edge [fontname="Helvetica", fontsize=9];\n';
  const clustered = graph.level === 'file' && graph.nodes.length <= DOT_CLUSTER_MAX_NODES;
  const index = new Map<string, number>();
  const clusters = new Map<string, number[]>();
  for (const [i, node] of graph.nodes.entries()) {
    index.set(node.id, i);
    const cluster = clustered ? clusterOf(node) : '';
    let members = clusters.get(cluster);
    if (!members) clusters.set(cluster, (members = []));
    members.push(i);
  }
  let c = 0;
  for (const [cluster, members] of clusters) {
    const indent = cluster === '' ? '  ' : '    ';
    if (cluster !== '') yield `  subgraph cluster_${c++} {\n    label=${dotString(cluster)};\n`;
    for (const i of members) {
      const node = graph.nodes[i]!;
      const shape = node.kind === 'package' ? ', shape=ellipse' : node.kind === 'directory' ? ', shape=folder' : '';
      yield `${indent}n${i} [label=${dotString(labelOf(node, clustered))}, tooltip=${dotString(node.id)}${shape}];\n`;
    }
    if (cluster !== '') yield '  }\n';
  }
  for (const edge of graph.edges) {
    const attributes = edge.kind === 'contains' ? ' [style=dashed, arrowhead=none]' : edge.count > 1 ? ` [label="${edge.count}"]` : '';
    yield `  n${index.get(edge.source)} -> n${index.get(edge.target)}${attributes};\n`;
  }
  yield '}\n';
}
