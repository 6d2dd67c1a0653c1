// The page's first script, under a kilobyte: fetches the graph and starts
// the graph worker before the browser has run the page's main bundle
// (sigma, graphology, the panels), which took 250 to 500 ms at start on two
// cores; a module worker also became ready only 300 ms after it was made.
// The answer's bytes are moved to the worker, which parses and places them;
// main.ts takes the worker and its answer over.
import { TOKEN_KEY } from './api-client.js';
import { fetchGraphMap } from './graph-fetch.js';
import type { GraphWorkerRequest, GraphWorkerResponse } from './graph-worker.js';

/** The graph worker's URL, set by the build (the file's name holds its hash). */
declare const STRATA_GRAPH_WORKER_URL: string;

/** What this script leaves on `window.strataBoot` for main.ts. */
export interface EarlyGraphLoad {
  worker: Worker;
  /** The first request's id. */
  requestId: number;
  /** When it was asked, on the page's clock. */
  askedAt: number;
  /** The worker's answer to it. */
  answer: Promise<GraphWorkerResponse>;
}

const worker = new Worker(STRATA_GRAPH_WORKER_URL, { type: 'module' });
const askedAt = performance.now();
const request: GraphWorkerRequest = { id: 0, baseUrl: location.origin, token: sessionStorage.getItem(TOKEN_KEY) ?? undefined };
const answer = new Promise<GraphWorkerResponse>((resolve) => {
  const onMessage = (event: MessageEvent<GraphWorkerResponse>): void => {
    if (event.data.id !== request.id) return;
    worker.removeEventListener('message', onMessage);
    resolve(event.data);
  };
  worker.addEventListener('message', onMessage);
});
void fetchGraphMap(request.baseUrl, request.token).then((fetched) => {
  worker.postMessage({ ...request, fetched } satisfies GraphWorkerRequest, fetched.body ? [fetched.body] : []);
});
const early: EarlyGraphLoad = { worker, requestId: request.id, askedAt, answer };
Object.defineProperty(window, 'strataBoot', { value: early });
