import { Writable } from 'node:stream';
import { type RunningStrata, type StartOptions, startStrata } from '@strata/host';

/** A host started in this process on a free port, with its log captured. */
export interface TestServer {
  url: string;
  strata: RunningStrata;
  /** Every log record written so far. */
  logs: Array<Record<string, unknown>>;
  /** Sends a request under `/api` and reads the JSON answer. */
  api(path: string, init?: RequestInit): Promise<ApiResponse>;
  stop(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

/**
 * Starts a host on `repository` (port 0, silent unless a test reads `logs`); stopped when the test ends. Without
 * the built-in plugins unless the test asks for them (`plugins.builtIns`, or `startTestServerWithBuiltIns`): each
 * starts a sandbox process, about 1.3 s of CPU a server that most tests do not use.
 */
export async function startTestServer(t: Teardown, repository: string, options: Partial<StartOptions> = {}): Promise<TestServer> {
  const logs: Array<Record<string, unknown>> = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  const strata = await startStrata({
    repository,
    env: {},
    ...options,
    flags: { port: 0, logLevel: 'info', ...options.flags, plugins: { builtIns: false, ...options.flags?.plugins } },
    logDestination,
  });
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await strata.stop();
  };
  t.teardown(stop);
  return { url: strata.url, strata, logs, api: (path, init) => request(strata.url, path, init), stop };
}

/** Sends a request and parses its JSON body (undefined when there is none). */
export async function request(baseUrl: string, path: string, init?: RequestInit): Promise<ApiResponse> {
  const response = await fetch(baseUrl + path, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

/** `init` for a JSON POST. */
export function postJson(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/** The URL path of a node. */
export function nodePath(id: string): string {
  return `/api/graph/nodes/${encodeURIComponent(id)}`;
}

/** `startTestServer` with the built-in plugins loaded, as `strata serve` loads them. */
export function startTestServerWithBuiltIns(t: Teardown, repository: string, options: Partial<StartOptions> = {}): Promise<TestServer> {
  return startTestServer(t, repository, { ...options, flags: { ...options.flags, plugins: { builtIns: true, ...options.flags?.plugins } } });
}

/** Event types and data from /api/events, as they arrive (the stream is asked for now and connects soon after). */
export function followEvents(t: { teardown(fn: () => unknown): void }, server: TestServer): Array<{ type: string; data: any }> {
  const events: Array<{ type: string; data: any }> = [];
  void readEvents(t, server, events).catch(() => undefined);
  return events;
}

/** Like `followEvents`, once the stream is connected: no event published after it resolves is missed. */
export async function followEventsConnected(t: { teardown(fn: () => unknown): void }, server: TestServer): Promise<Array<{ type: string; data: any }>> {
  const events: Array<{ type: string; data: any }> = [];
  await readEvents(t, server, events);
  return events;
}

/** Connects to /api/events and, in the background, pushes each event onto `events`; resolves once connected. */
async function readEvents(t: { teardown(fn: () => unknown): void }, server: TestServer, events: Array<{ type: string; data: any }>): Promise<void> {
  const controller = new AbortController();
  t.teardown(() => controller.abort());
  const stream = await fetch(`${server.url}/api/events`, { signal: controller.signal });
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    try {
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop()!;
        for (const block of blocks) {
          const type = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (type && data) events.push({ type, data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted
    }
  })();
}

/** Starts a layout computation (`POST /api/graph/layout/compute` with `body`) and waits until it completes; the status its start answered. */
export async function computeLayout(server: TestServer, body: { iterations: number; seed?: number }): Promise<number> {
  const started = await server.api('/api/graph/layout/compute', postJson(body));
  if (started.status !== 200) return started.status;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const { state, error } = (await server.api('/api/graph/layout/compute/status')).body.data;
    if (state === 'completed') return started.status;
    if (state !== 'running') throw new Error(`the layout computation ended ${state}: ${error}`);
  }
  throw new Error('the layout computation did not complete within 60 s');
}
