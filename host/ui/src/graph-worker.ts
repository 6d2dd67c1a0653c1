// The graph worker: downloads GET /api/graph, parses it and places the nodes
// off the page's thread, so that a graph of 100,000 files never freezes the page.
import { placeNodes, type ApiEdge, type ApiNode, type LoadedGraph } from './graph-data.js';

/**
 * What the page keeps of a node: what the map, search and hover card use. The
 * node panel asks the API for the whole record. Copying a field costs time at
 * 100,000 nodes, when the page receives the graph.
 */
function slim(node: ApiNode): ApiNode {
  const kept: ApiNode = { id: node.id, kind: node.kind, name: node.name, path: node.path };
  if (node.parent !== undefined) kept.parent = node.parent;
  if (node.language !== undefined) kept.language = node.language;
  if (node.lines !== undefined) kept.lines = node.lines;
  if (node.files !== undefined) kept.files = node.files;
  if (node.position !== undefined) kept.position = node.position;
  if (node.overlays !== undefined) kept.overlays = node.overlays;
  return kept;
}

/** A file's or a class's edge to its symbols: the page draws those from `parent`, it needs no record of them. */
function isSymbolEdge(edge: ApiEdge): boolean {
  return edge.kind === 'contains' && edge.target.startsWith('sym:');
}

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
  postMessage(message: GraphWorkerResponse): void;
}
const scope = self as unknown as WorkerScope;

scope.onmessage = (event) => {
  void load(event.data).then((response) => scope.postMessage(response));
};

async function load(request: GraphWorkerRequest): Promise<GraphWorkerResponse> {
  const started = performance.now();
  let response: Response;
  try {
    response = await fetch(`${request.baseUrl}/api/graph`, { headers: request.token ? { authorization: `Bearer ${request.token}` } : {} });
  } catch (error) {
    return { id: request.id, ok: false, status: 0, code: 'UNREACHABLE', message: `the server did not answer (${(error as Error).message})` };
  }
  const text = await response.text();
  const fetched = performance.now();
  let body: { data?: { nodes: ApiNode[]; edges: ApiEdge[] }; meta?: { revision: number; repository: string; repositoryPath?: string }; error?: { code: string; message: string } };
  try {
    body = JSON.parse(text);
  } catch {
    return { id: request.id, ok: false, status: response.status, code: 'INVALID_RESPONSE', message: `the server answered ${response.status} with a body that is not JSON` };
  }
  if (!response.ok || !body.data || !body.meta) {
    return { id: request.id, ok: false, status: response.status, code: body.error?.code ?? 'INVALID_RESPONSE', message: body.error?.message ?? `the server answered ${response.status}` };
  }
  const parsed = performance.now();
  const nodes = placeNodes(body.data.nodes.map(slim));
  const placed = performance.now();
  const graph: LoadedGraph = {
    revision: body.meta.revision,
    repository: body.meta.repository,
    repositoryPath: body.meta.repositoryPath,
    nodes,
    edges: body.data.edges.filter((edge) => !isSymbolEdge(edge)),
    savedPositions: nodes.filter((node) => node.saved).length,
  };
  const timings = { fetchMs: fetched - started, parseMs: parsed - fetched, placeMs: placed - parsed };
  return { id: request.id, ok: true, graph, timings, sentAt: performance.timeOrigin + performance.now() };
}
