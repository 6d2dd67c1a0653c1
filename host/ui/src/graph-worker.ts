// The graph worker: downloads GET /api/graph, parses it and places the nodes
// off the page's thread, so that a graph of 100,000 files never freezes the page.
import { placeNodes, type ApiEdge, type ApiNode, type LoadedGraph } from './graph-data.js';

/** What the page asks for. */
export interface GraphWorkerRequest {
  id: number;
  /** The API's base URL (the page's origin). */
  baseUrl: string;
  token: string | undefined;
}

/** What the worker answers. */
export type GraphWorkerResponse =
  | { id: number; ok: true; graph: LoadedGraph; loadMs: number }
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
  let body: { data?: { nodes: ApiNode[]; edges: ApiEdge[] }; meta?: { revision: number; repository: string }; error?: { code: string; message: string } };
  try {
    body = JSON.parse(text);
  } catch {
    return { id: request.id, ok: false, status: response.status, code: 'INVALID_RESPONSE', message: `the server answered ${response.status} with a body that is not JSON` };
  }
  if (!response.ok || !body.data || !body.meta) {
    return { id: request.id, ok: false, status: response.status, code: body.error?.code ?? 'INVALID_RESPONSE', message: body.error?.message ?? `the server answered ${response.status}` };
  }
  const nodes = placeNodes(body.data.nodes);
  const graph: LoadedGraph = {
    revision: body.meta.revision,
    repository: body.meta.repository,
    nodes,
    edges: body.data.edges,
    savedPositions: nodes.filter((node) => node.saved).length,
  };
  return { id: request.id, ok: true, graph, loadMs: Math.round(performance.now() - started) };
}
