import type { ExportGraph } from './export-graph.js';
import { escapeXml } from './xml-escape.js';

/** The node data keys: GraphML key id -> the node field it holds and its GraphML type. */
const NODE_KEYS = [
  ['id', 'string'],
  ['kind', 'string'],
  ['name', 'string'],
  ['path', 'string'],
  ['language', 'string'],
  ['lines', 'int'],
  ['loc', 'int'],
  ['files', 'int'],
] as const;

/**
 * The graph as GraphML (graphml.graphdrawing.org), for yEd, Gephi, Cytoscape
 * and networkx: nodes `n0`, `n1`... with the node's id, kind, name, path,
 * language, lines, loc and files as data; edges with their kind, count
 * (imports summed) and reference kinds.
 */
export function* graphmlText(graph: ExportGraph): Generator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n';
  for (const [key, type] of NODE_KEYS) yield `  <key id="${key}" for="node" attr.name="${key}" attr.type="${type}"/>\n`;
  yield '  <key id="edgeKind" for="edge" attr.name="kind" attr.type="string"/>\n';
  yield '  <key id="count" for="edge" attr.name="count" attr.type="int"/>\n';
  yield '  <key id="references" for="edge" attr.name="references" attr.type="string"/>\n';
  yield `  <graph id="${graph.level === 'directory' ? 'directories' : 'files'}" edgedefault="directed">\n`;
  const index = new Map<string, number>();
  for (const [i, node] of graph.nodes.entries()) {
    index.set(node.id, i);
    let data = '';
    for (const [key] of NODE_KEYS) {
      const value = node[key];
      if (value !== undefined) data += `<data key="${key}">${escapeXml(String(value))}</data>`;
    }
    yield `    <node id="n${i}">${data}</node>\n`;
  }
  for (const [i, edge] of graph.edges.entries()) {
    const references = Object.keys(edge.references).join(',');
    yield `    <edge id="e${i}" source="n${index.get(edge.source)}" target="n${index.get(edge.target)}"><data key="edgeKind">${edge.kind}</data><data key="count">${edge.count}</data>${references && `<data key="references">${references}</data>`}</edge>\n`;
  }
  yield '  </graph>\n</graphml>\n';
}
