import type { GraphEdge, GraphNode } from '@strata/sdk';
import type { GraphPayload } from './isolate-runtime.js';

/** The graph as the columns a sandbox keeps resident: one entry per node (and per edge) in the order given. */
export function graphPayloadOf(nodes: readonly GraphNode[], edges: readonly GraphEdge[], revision: number): GraphPayload {
  const steps = payloadSteps(nodes, edges, revision);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * `graphPayloadOf` made a slice at a time, awaiting `turn` between slices
 * (of `SLICE` entries): at 300,000 nodes the whole took 0.7 to 1.4 s of the
 * server's thread, which then answered nothing, file changes included.
 */
export async function graphPayloadInSlices(
  nodes: readonly GraphNode[],
  edges: readonly GraphEdge[],
  revision: number,
  turn: () => Promise<void>,
): Promise<GraphPayload> {
  const steps = payloadSteps(nodes, edges, revision);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await turn();
  }
}

/** Entries a slice of `payloadSteps` handles. */
const SLICE = 20_000;

function* payloadSteps(nodes: readonly GraphNode[], edges: readonly GraphEdge[], revision: number): Generator<void, GraphPayload, void> {
  const n = nodes.length;
  const indexOf = new Map<string, number>();
  const kindNames: string[] = [];
  const kindCode = new Map<string, number>();
  const languageNames: string[] = [''];
  const languageCode = new Map<string, number>([['', 0]]);
  const columns: GraphPayload['nodes'] = {
    id: new Array(n),
    kind: new Uint8Array(n),
    kindNames,
    name: new Array(n),
    path: new Array(n),
    parent: new Int32Array(n),
    language: new Uint16Array(n),
    languageNames,
    loc: new Float64Array(n),
    lines: new Float64Array(n),
    bytes: new Float64Array(n),
    startLine: new Int32Array(n),
    endLine: new Int32Array(n),
    cyclomatic: new Float64Array(n),
    cognitive: new Float64Array(n),
  };
  const code = (map: Map<string, number>, names: string[], value: string): number => {
    let found = map.get(value);
    if (found === undefined) {
      found = names.length;
      names.push(value);
      map.set(value, found);
    }
    return found;
  };
  for (let i = 0; i < n; i++) {
    indexOf.set(nodes[i]!.id, i);
    if (i % SLICE === SLICE - 1) yield;
  }
  for (let i = 0; i < n; i++) {
    if (i % SLICE === SLICE - 1) yield;
    const node = nodes[i]!;
    columns.id[i] = node.id;
    columns.kind[i] = code(kindCode, kindNames, node.kind);
    columns.name[i] = node.name;
    columns.path[i] = node.path;
    columns.parent[i] = node.parent === undefined ? -1 : (indexOf.get(node.parent) ?? -1);
    columns.language[i] = node.language === undefined ? 0 : code(languageCode, languageNames, node.language);
    columns.loc[i] = node.loc ?? NaN;
    columns.lines[i] = node.lines ?? NaN;
    columns.bytes[i] = node.bytes ?? NaN;
    columns.startLine[i] = node.startLine ?? 0;
    columns.endLine[i] = node.endLine ?? 0;
    columns.cyclomatic[i] = node.cyclomatic ?? NaN;
    columns.cognitive[i] = node.cognitive ?? NaN;
  }
  const m = edges.length;
  const edgeKindNames: string[] = [];
  const edgeKindCode = new Map<string, number>();
  const edgeColumns: GraphPayload['edges'] = { source: new Int32Array(m), target: new Int32Array(m), kind: new Uint8Array(m), kindNames: edgeKindNames };
  for (let i = 0; i < m; i++) {
    if (i % SLICE === SLICE - 1) yield;
    const edge = edges[i]!;
    edgeColumns.source[i] = indexOf.get(edge.source) ?? -1;
    edgeColumns.target[i] = indexOf.get(edge.target) ?? -1;
    edgeColumns.kind[i] = code(edgeKindCode, edgeKindNames, edge.kind);
  }
  return { revision, nodes: columns, edges: edgeColumns };
}
