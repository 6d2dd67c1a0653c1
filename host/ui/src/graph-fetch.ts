// Fetching GET /api/graph/map, shared by boot.ts (the first load, in the
// page, before the worker runs) and the graph worker (every later load).

/** GET /api/graph/map's answer as fetched (times since the epoch). */
export interface FetchedGraph {
  /** 0 when the server did not answer. */
  status: number;
  body?: ArrayBuffer;
  /** Why it did not answer. */
  message?: string;
  startedAt: number;
  fetchedAt: number;
}

/** Fetches GET /api/graph/map: its status and its body's bytes, or why the server did not answer. */
export async function fetchGraphMap(baseUrl: string, token: string | undefined): Promise<FetchedGraph> {
  const startedAt = performance.timeOrigin + performance.now();
  try {
    const response = await fetch(`${baseUrl}/api/graph/map`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const body = await response.arrayBuffer();
    return { status: response.status, body, startedAt, fetchedAt: performance.timeOrigin + performance.now() };
  } catch (error) {
    return { status: 0, message: (error as Error).message, startedAt, fetchedAt: performance.timeOrigin + performance.now() };
  }
}

