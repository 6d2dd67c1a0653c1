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
  /** The token it was asked with. */
  token: string | undefined;
  /** The worker's answer to it. */
  answer: Promise<GraphWorkerResponse>;
  /** Settles once the worker has taken the request (from then on the page's thread does not hold it up). */
  taken: Promise<void>;
  /** The panels' first GETs, asked here too, by path; taken once by the API client. */
  gets: Map<string, Promise<EarlyAnswer>>;
}

/** An early GET's answer: its status and body, or the error of a fetch that failed. */
export type EarlyAnswer = { ok: true; status: number; text: string } | { ok: false; error: Error };

/** The GETs the page makes first (the overlays and layout panels): asked before the page's main bundle runs. */
const EARLY_GETS = ['/api/overlays', '/api/graph/layout/compute/status'];

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
// Asked now, their answers are read while the page's thread is free: asked by the panels later, they waited up to
// half a second behind the renderer's start and the graph's arrival, which hold that thread.
const gets = new Map<string, Promise<EarlyAnswer>>();
for (const path of EARLY_GETS) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.token) headers.authorization = `Bearer ${request.token}`;
  gets.set(
    path,
    fetch(location.origin + path, { headers }).then(
      async (response): Promise<EarlyAnswer> => ({ ok: true, status: response.status, text: await response.text() }),
      (error: unknown): EarlyAnswer => ({ ok: false, error: error as Error }),
    ),
  );
}
const early: EarlyGraphLoad = { worker, requestId: request.id, askedAt, token: request.token, answer, taken, gets };
Object.defineProperty(window, 'strataBoot', { value: early });
