// The page's first script, under a kilobyte: starts the graph worker and asks
// it for the graph before the browser runs the page's main bundle (sigma,
// graphology, the panels: 250 to 500 ms at start on two cores). main.ts takes
// the worker and its answer over. The worker fetches: a fetch made by the page
// reads its body on the page's thread, which is busy with that bundle (the
// 100k-file map took 2 to 4 s to arrive that way, 1 s in the worker).
import { TOKEN_KEY } from './api-client.js';
import type { GraphWorkerRequest, GraphWorkerResponse, GraphWorkerStarted } from './graph-worker.js';

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
  /** Settles once the worker has taken the request (from then on the page's thread does not hold it up). */
  taken: Promise<void>;
}

const worker = new Worker(STRATA_GRAPH_WORKER_URL, { type: 'module' });
const askedAt = performance.now();
const request: GraphWorkerRequest = { id: 0, baseUrl: location.origin, token: sessionStorage.getItem(TOKEN_KEY) ?? undefined };
let markTaken!: () => void;
const taken = new Promise<void>((resolve) => (markTaken = resolve));
const answer = new Promise<GraphWorkerResponse>((resolve) => {
  const onMessage = (event: MessageEvent<GraphWorkerResponse | GraphWorkerStarted>): void => {
    if (event.data.id !== request.id) return;
    if ('started' in event.data) return markTaken();
    worker.removeEventListener('message', onMessage);
    resolve(event.data);
  };
  worker.addEventListener('message', onMessage);
});
worker.postMessage(request);
const early: EarlyGraphLoad = { worker, requestId: request.id, askedAt, answer, taken };
Object.defineProperty(window, 'strataBoot', { value: early });
