// The graph worker: downloads GET /api/graph/map, parses it and places the
// nodes off the page's thread, so that a graph of 100,000 files never freezes
// the page. The page gets columns: typed arrays are moved to it, not copied
// (copying 200,000 node objects from a worker took 3.5 s).
import { pathOfId, placeNodes, type ApiNode, type GraphMapData, type LoadedGraph, type PlacedNode } from './graph-data.js';

/** What the page asks for. */
export interface GraphWorkerRequest {
  id: number;
  /** The API's base URL (the page's origin). */
  baseUrl: string;
  token: string | undefined;
}

/** What the worker answers. */
export type GraphWorkerResponse =
  | { id: number; ok: true; graph: LoadedGraph; timings: Record<string, number>; sentAt: number }
  | { id: number; ok: false; status: number; code: string; message: string };

interface WorkerScope {
  onmessage: ((event: MessageEvent<GraphWorkerRequest>) => void) | null;
  postMessage(message: GraphWorkerResponse, transfer: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;

scope.onmessage = (event) => {
  void load(event.data).then((response) => {
    const transfer: Transferable[] = [];
    if (response.ok) {
      const graph = response.graph;
      for (const column of [graph.kind, graph.parent, graph.language, graph.lines, graph.files, graph.x, graph.y, graph.saved, graph.importSource, graph.importTarget]) transfer.push(column.buffer);
    }
    scope.postMessage(response, transfer);
  });
};

async function load(request: GraphWorkerRequest): Promise<GraphWorkerResponse> {
  const started = performance.now();
  let response: Response;
  try {
    response = await fetch(`${request.baseUrl}/api/graph/map`, { headers: request.token ? { authorization: `Bearer ${request.token}` } : {} });
  } catch (error) {
    return { id: request.id, ok: false, status: 0, code: 'UNREACHABLE', message: `the server did not answer (${(error as Error).message})` };
  }
  const text = await response.text();
  const fetched = performance.now();
  let body: { data?: GraphMapData; meta?: { revision: number; repository: string; repositoryPath?: string }; error?: { code: string; message: string } };
  try {
    body = JSON.parse(text);
  } catch {
    return { id: request.id, ok: false, status: response.status, code: 'INVALID_RESPONSE', message: `the server answered ${response.status} with a body that is not JSON` };
  }
  if (!response.ok || !body.data || !body.meta) {
    return { id: request.id, ok: false, status: response.status, code: body.error?.code ?? 'INVALID_RESPONSE', message: body.error?.message ?? `the server answered ${response.status}` };
  }
  const parsed = performance.now();
  const graph = columnsOf(body.data, body.meta);
  const placed = performance.now();
  const timings = { fetchMs: fetched - started, parseMs: parsed - fetched, placeMs: placed - parsed };
  return { id: request.id, ok: true, graph, timings, sentAt: performance.timeOrigin + performance.now() };
}

/** The map's columns as typed arrays, every node placed (saved position, next to its parent, or the radial tree). */
function columnsOf(data: GraphMapData, meta: { revision: number; repository: string; repositoryPath?: string }): LoadedGraph {
  const { nodes: columns, kinds, languages } = data;
  const n = columns.id.length;
  // The placement works on records: made here, only for it, and dropped.
  const records: ApiNode[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const id = columns.id[i]!;
    const parent = columns.parent[i]!;
    const x = columns.x[i];
    const y = columns.y[i];
    const record: ApiNode = { id, kind: kinds[columns.kind[i]!] as ApiNode['kind'], name: columns.name[i]!, path: pathOfId(id) };
    if (parent >= 0) record.parent = columns.id[parent];
    if (x != null && y != null) record.position = { x, y };
    records[i] = record;
  }
  const placed: PlacedNode[] = placeNodes(records);
  const graph: LoadedGraph = {
    revision: meta.revision,
    repository: meta.repository,
    repositoryPath: meta.repositoryPath,
    ids: columns.id,
    names: columns.name,
    kind: Uint8Array.from(columns.kind),
    kinds,
    parent: Int32Array.from(columns.parent),
    language: Int16Array.from(columns.language),
    languages,
    lines: Float64Array.from(columns.lines, (value) => value ?? NaN),
    files: Float64Array.from(columns.files, (value) => value ?? NaN),
    x: new Float64Array(n),
    y: new Float64Array(n),
    saved: new Uint8Array(n),
    importSource: Int32Array.from(data.imports.source),
    importTarget: Int32Array.from(data.imports.target),
    savedPositions: 0,
  };
  for (let i = 0; i < n; i++) {
    const node = placed[i]!;
    graph.x[i] = node.x;
    graph.y[i] = node.y;
    if (node.saved) {
      graph.saved[i] = 1;
      graph.savedPositions += 1;
    }
  }
  return graph;
}
