import type { GraphNode } from '@strata/sdk';
import type { ExportGraph } from './export-graph.js';

/** The node figures a CodeCharta file carries, when the node has them. */
const FILE_ATTRIBUTES = ['lines', 'loc', 'bytes', 'cyclomatic', 'cognitive'] as const;

interface CodeChartaNode {
  name: string;
  type: 'Folder' | 'File';
  attributes: Record<string, number>;
  children?: CodeChartaNode[];
}

/**
 * The files as CodeCharta's cc.json (API version 1.3, which its
 * visualization opens): a tree of `Folder`s from `root` down to each `File`,
 * whose attributes are its lines, loc, bytes and complexity and the value of
 * each overlay applied to it (`<plugin>/<overlay>`); the imports between
 * files as `edges` from path to path (`/root/src/a.ts`), with the attribute
 * `imports`, how many they sum. Every attribute is `absolute`.
 */
export function* codeChartaText(graph: ExportGraph, projectName: string): Generator<string> {
  const root: CodeChartaNode = { name: 'root', type: 'Folder', attributes: {}, children: [] };
  const folders = new Map<string, CodeChartaNode>([['', root]]);
  const folderOf = (directory: string): CodeChartaNode => {
    let folder = folders.get(directory);
    if (folder) return folder;
    const slash = directory.lastIndexOf('/');
    const parent = folderOf(slash < 0 ? '' : directory.slice(0, slash));
    folder = { name: directory.slice(slash + 1), type: 'Folder', attributes: {}, children: [] };
    parent.children!.push(folder);
    folders.set(directory, folder);
    return folder;
  };
  const nodeAttributes = new Set<string>();
  const files = new Set<string>();
  for (const node of graph.nodes) {
    if (node.kind !== 'file') continue;
    files.add(node.id);
    const slash = node.path.lastIndexOf('/');
    folderOf(slash < 0 ? '' : node.path.slice(0, slash)).children!.push({
      name: node.name,
      type: 'File',
      attributes: attributesOf(node, graph, nodeAttributes),
    });
  }
  const edges = graph.edges
    .filter((edge) => edge.kind === 'imports' && files.has(edge.source) && files.has(edge.target))
    .map((edge) => ({
      fromNodeName: `/root/${edge.source.slice('file:'.length)}`,
      toNodeName: `/root/${edge.target.slice('file:'.length)}`,
      attributes: { imports: edge.count },
    }));
  const absolute = (names: Iterable<string>) => Object.fromEntries([...names].map((name) => [name, 'absolute']));
  yield JSON.stringify({
    projectName,
    apiVersion: '1.3',
    nodes: [root],
    edges,
    attributeTypes: { nodes: absolute(nodeAttributes), edges: absolute(edges.length > 0 ? ['imports'] : []) },
  });
}

function attributesOf(node: GraphNode, graph: ExportGraph, names: Set<string>): Record<string, number> {
  const attributes: Record<string, number> = {};
  for (const key of FILE_ATTRIBUTES) {
    const value = node[key];
    if (value !== undefined) attributes[key] = value;
  }
  Object.assign(attributes, graph.overlayValues(node.id));
  for (const name of Object.keys(attributes)) names.add(name);
  return attributes;
}
