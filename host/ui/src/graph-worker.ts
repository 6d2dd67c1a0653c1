// The graph worker: downloads GET /api/graph/map, parses it and places the
// nodes off the page's thread, so that a graph of 100,000 files never freezes
// the page. The page gets columns: typed arrays are moved to it, not copied
// (copying 200,000 node objects from a worker took 3.5 s).
import { type GraphMapData, type LoadedGraph, placeColumns } from './graph-data.js';

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

/** Sent as soon as a request is taken: the page's thread may then do work of its own without holding the worker up. */
export interface GraphWorkerStarted {
  id: number;
  started: true;
}

interface WorkerScope {
  onmessage: ((event: MessageEvent<GraphWorkerRequest>) => void) | null;
  postMessage(message: GraphWorkerResponse | GraphWorkerStarted, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;
/** When this worker's script started, as a time since the epoch (the page puts it on its own clock). */
const scriptStartedAt = performance.timeOrigin + performance.now();

scope.onmessage = (event) => {
  scope.postMessage({ id: event.data.id, started: true });
  void load(event.data).then((response) => {
    const transfer: Transferable[] = [];
    if (response.ok) {
      const graph = response.graph;
      for (const column of [
        graph.kind,
        graph.parent,
        graph.language,
        graph.lines,
        graph.files,
        graph.x,
        graph.y,
        graph.saved,
        graph.importSource,
        graph.importTarget,
      ])
        transfer.push(column.buffer);
    }
    scope.postMessage(response, transfer);
  });
};

/** GET /api/graph/map's answer as fetched (times since the epoch). */
interface FetchedGraph {
  /** 0 when the server did not answer. */
  status: number;
  body?: ArrayBuffer;
  /** Why it did not answer. */
  message?: string;
  startedAt: number;
  fetchedAt: number;
}

/** Fetches GET /api/graph/map: its status and its body's bytes, or why the server did not answer. */
async function fetchGraphMap(baseUrl: string, token: string | undefined): Promise<FetchedGraph> {
  const startedAt = performance.timeOrigin + performance.now();
  try {
    const response = await fetch(`${baseUrl}/api/graph/map`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const body = await response.arrayBuffer();
    return { status: response.status, body, startedAt, fetchedAt: performance.timeOrigin + performance.now() };
  } catch (error) {
    return { status: 0, message: (error as Error).message, startedAt, fetchedAt: performance.timeOrigin + performance.now() };
  }
}

async function load(request: GraphWorkerRequest): Promise<GraphWorkerResponse> {
  const receivedAt = performance.timeOrigin + performance.now();
  const fetched = await fetchGraphMap(request.baseUrl, request.token);
  if (fetched.body === undefined)
    return { id: request.id, ok: false, status: 0, code: 'UNREACHABLE', message: `the server did not answer (${fetched.message})` };
  const status = fetched.status;
  const decodeStarted = performance.now();
  let body: { data?: GraphMapData; meta?: { revision: number; repository: string; repositoryPath?: string }; error?: { code: string; message: string } };
  try {
    body = JSON.parse(new TextDecoder().decode(fetched.body));
  } catch {
    return { id: request.id, ok: false, status, code: 'INVALID_RESPONSE', message: `the server answered ${status} with a body that is not JSON` };
  }
  if (status < 200 || status > 299 || !body.data || !body.meta) {
    return { id: request.id, ok: false, status, code: body.error?.code ?? 'INVALID_RESPONSE', message: body.error?.message ?? `the server answered ${status}` };
  }
  const parsed = performance.now();
  const graph = columnsOf(body.data, body.meta);
  const placed = performance.now();
  const timings = {
    workerStartedAt: scriptStartedAt,
    receivedAt,
    fetchStartedAt: fetched.startedAt,
    fetchMs: fetched.fetchedAt - fetched.startedAt,
    parseMs: parsed - decodeStarted,
    placeMs: placed - parsed,
  };
  return { id: request.id, ok: true, graph, timings, sentAt: performance.timeOrigin + performance.now() };
}

/** The map's columns as typed arrays, every node placed (saved position, next to its parent, or the radial tree). */
function columnsOf(data: GraphMapData, meta: { revision: number; repository: string; repositoryPath?: string }): LoadedGraph {
  const { nodes: columns, kinds, languages } = data;
  const n = columns.id.length;
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
    const x = columns.x[i];
    const y = columns.y[i];
    if (x == null || y == null) continue;
    graph.x[i] = x;
    graph.y[i] = y;
    graph.saved[i] = 1;
    graph.savedPositions += 1;
  }
  placeColumns(graph);
  return graph;
}
