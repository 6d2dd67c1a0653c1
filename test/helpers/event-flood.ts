// A progress flood against a running host, with clients of GET /api/events that never read: what the host's memory
// does meanwhile, and what each client got. The host is a `strata serve` process (so that its memory is the host's
// alone) serving FLOOD_PLUGIN; test/events/event-flood.test.ts runs it small, and a benchmark may run it larger.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import type { FixturePlugin } from './fixture-plugins.ts';

/**
 * Reports `ctx.progress(i, i)` (done equal to total) as fast as it can for
 * `seconds`, then says how many reports it made (`summary.reports`).
 */
export const FLOOD_PLUGIN: FixturePlugin = {
  id: 'flood',
  code: `export default { strataPlugin: 1, sdkVersion: '0.1.0', overlays: [{ id: 'main', name: 'Main', type: 'badge' }], async apply(ctx) {
  const end = Date.now() + ctx.params.seconds * 1000;
  let reports = 0;
  while (Date.now() < end) { reports++; ctx.progress(reports, reports); }
  return { summary: { reports } };
} };
`,
  parameters: { type: 'object', properties: { seconds: { type: 'number', minimum: 0, maximum: 600, default: 3 } }, additionalProperties: false },
};

export interface EventFloodOptions {
  /** The host's base URL (`http://127.0.0.1:PORT`). */
  url: string;
  /** The host's process id: its resident memory (VmRSS in /proc/PID/status) is sampled. */
  pid: number;
  /** A plugin that floods as FLOOD_PLUGIN does (its id). */
  pluginId?: string;
  /** How long the plugin floods (FLOOD_PLUGIN's `seconds`). */
  seconds?: number;
  /** Clients of GET /api/events that never read during the flood (default 5). */
  quietClients?: number;
  /**
   * When the host's memory passes its idle figure by this much, the flood is
   * stopped (the overlay removed, which ends the apply) and the quiet
   * clients are closed: a host without bounds would take the machine
   * (default 1 GiB).
   */
  abortAboveBytes?: number;
  /** How often the memory is sampled (default 50 ms). */
  sampleEveryMs?: number;
}

/** One event as a client read it. */
export interface ReadEvent {
  /** Its `id` line, when it has one. */
  id?: number;
  type: string;
  data: any;
}

export interface EventFloodFigures {
  /** The host's resident memory with every client connected, before the apply. */
  idleRssBytes: number;
  /** The most it reached from then until the apply answered and the quiet clients were read. */
  peakRssBytes: number;
  /** Whether the flood was stopped for passing `abortAboveBytes`. */
  aborted: boolean;
  /** The apply's answer. */
  apply: { status: number; body: any; ms: number };
  /** What a client that reads all along received, in order. */
  reading: ReadEvent[];
  /**
   * Each quiet client, read once the apply has answered: `kept up` when its
   * stream reached the apply's `overlay.applied`, `dropped` when it ended
   * with `stream.dropped` (then `dropped` is its data), `cut off` when it
   * ended otherwise, `aborted` when the flood was stopped.
   */
  quiet: Array<{ bytes: number; ended: 'kept up' | 'dropped' | 'cut off' | 'aborted'; dropped?: any }>;
}

/** Runs the flood: connects the clients, applies the plugin, samples the host's memory, and reads what each got. */
export async function runEventFlood(options: EventFloodOptions): Promise<EventFloodFigures> {
  const { url, pid, pluginId = FLOOD_PLUGIN.id, seconds = 3, quietClients = 5, abortAboveBytes = 1024 ** 3, sampleEveryMs = 50 } = options;
  const reading = connectEventStream(url, false);
  const quiet = Array.from({ length: quietClients }, () => connectEventStream(url, true));
  await Promise.all([reading, ...quiet].map((client) => client.connected));
  const idleRssBytes = residentBytes(pid);
  let peakRssBytes = idleRssBytes;
  let aborted = false;
  const sampler = setInterval(() => {
    const rss = residentBytes(pid);
    peakRssBytes = Math.max(peakRssBytes, rss);
    if (!aborted && rss - idleRssBytes > abortAboveBytes) {
      aborted = true;
      for (const client of quiet) client.close();
      void fetch(`${url}/api/overlays/${pluginId}/apply`, { method: 'DELETE' }).catch(() => undefined);
    }
  }, sampleEveryMs);
  try {
    const started = performance.now();
    const answer = await fetch(`${url}/api/overlays/${pluginId}/apply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds }),
    });
    const apply = { status: answer.status, body: await answer.json().catch(() => undefined), ms: Math.round(performance.now() - started) };
    const keptUp = (events: ReadEvent[]): boolean => events.some((event) => event.type === 'overlay.applied' && event.data.pluginId === pluginId);
    const quietFigures = await Promise.all(
      quiet.map(async (client) => {
        if (aborted) return { bytes: client.bytes(), ended: 'aborted' as const };
        const ended = await client.readUntil(keptUp);
        const last = client.events.at(-1);
        if (ended === 'until') return { bytes: client.bytes(), ended: 'kept up' as const };
        if (last?.type === 'stream.dropped') return { bytes: client.bytes(), ended: 'dropped' as const, dropped: last.data };
        return { bytes: client.bytes(), ended: 'cut off' as const };
      }),
    );
    if (!aborted) await reading.readUntil(keptUp);
    return { idleRssBytes, peakRssBytes, aborted, apply, reading: reading.events, quiet: quietFigures };
  } finally {
    clearInterval(sampler);
    for (const client of [reading, ...quiet]) client.close();
  }
}

/** Resident memory of process `pid`, in bytes. */
export function residentBytes(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

export interface EventStreamClient {
  /** Resolves once the answer's headers have come (paused clients are resumed for them, then paused). */
  connected: Promise<void>;
  events: ReadEvent[];
  bytes(): number;
  /** Reads (resuming a paused client) until `until(events)` holds or the stream ends. */
  readUntil(until: (events: ReadEvent[]) => boolean): Promise<'until' | 'ended'>;
  close(): void;
}

/**
 * A client of GET /api/events on a raw socket, so that nothing reads for it
 * when it is paused (`quiet`: from the answer's headers on, until
 * `readUntil`): the host's writes back up as they would for a client that
 * stopped reading. (Node cannot shrink a TCP socket's receive buffer; the
 * kernel's buffers take a few MB on loopback before they do.)
 */
export function connectEventStream(url: string, quiet: boolean): EventStreamClient {
  const { hostname, port } = new URL(url);
  const socket = net.connect({ host: hostname, port: Number(port) });
  const events: ReadEvent[] = [];
  const decoder = new ChunkedBody();
  let head = '';
  let text = '';
  let received = 0;
  let ended = false;
  let onProgress = (): void => undefined;
  let connectedResolve: () => void = () => undefined;
  let connectedReject: (error: Error) => void = () => undefined;
  const connected = new Promise<void>((resolve, reject) => {
    connectedResolve = resolve;
    connectedReject = reject;
  });
  const take = (data: Buffer): void => {
    text += data.toString('utf8');
    const blocks = text.split('\n\n');
    text = blocks.pop()!;
    for (const block of blocks) {
      const id = /^id: (\d+)$/m.exec(block)?.[1];
      const type = /^event: (.+)$/m.exec(block)?.[1];
      const payload = /^data: (.+)$/m.exec(block)?.[1];
      if (type && payload) events.push({ ...(id !== undefined && { id: Number(id) }), type, data: JSON.parse(payload) });
    }
  };
  socket.on('connect', () => socket.write(`GET /api/events HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`));
  socket.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (head !== undefined && !head.includes('\r\n\r\n')) {
      head += chunk.toString('latin1');
      const split = head.indexOf('\r\n\r\n');
      if (split < 0) return;
      if (!/^HTTP\/1\.1 200/.test(head)) connectedReject(new Error(`GET /api/events answered ${head.split('\r\n')[0]}`));
      const rest = chunk.subarray(chunk.length - (head.length - split - 4));
      head = head.slice(0, split + 4);
      if (quiet) socket.pause();
      connectedResolve();
      for (const part of decoder.push(rest)) take(part);
    } else {
      for (const part of decoder.push(chunk)) take(part);
    }
    onProgress();
  });
  const close = (): void => {
    ended = true;
    onProgress();
  };
  socket.on('end', close);
  socket.on('close', close);
  socket.on('error', close);
  return {
    connected,
    events,
    bytes: () => received,
    readUntil: (until) =>
      new Promise((resolve) => {
        onProgress = () => {
          if (until(events)) resolve('until');
          else if (ended || decoder.ended) resolve('ended');
        };
        onProgress();
        socket.resume();
      }),
    close: () => socket.destroy(),
  };
}

/** Decodes an HTTP/1.1 chunked body as it arrives. */
class ChunkedBody {
  ended = false;
  private pending: Buffer = Buffer.alloc(0);
  /** Bytes of the current chunk's data still to come, then its CRLF; -1 while a size line is awaited. */
  private dataLeft = -1;
  private crlfLeft = 0;

  push(data: Buffer): Buffer[] {
    this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    const out: Buffer[] = [];
    for (;;) {
      if (this.dataLeft < 0) {
        const line = this.pending.indexOf('\r\n');
        if (line < 0) break;
        const size = Number.parseInt(this.pending.subarray(0, line).toString('latin1'), 16);
        this.pending = this.pending.subarray(line + 2);
        if (size === 0) {
          this.ended = true;
          break;
        }
        this.dataLeft = size;
        this.crlfLeft = 2;
      } else if (this.dataLeft > 0) {
        if (this.pending.length === 0) break;
        const taken = this.pending.subarray(0, this.dataLeft);
        out.push(taken);
        this.dataLeft -= taken.length;
        this.pending = this.pending.subarray(taken.length);
      } else {
        const skipped = Math.min(this.crlfLeft, this.pending.length);
        this.crlfLeft -= skipped;
        this.pending = this.pending.subarray(skipped);
        if (this.crlfLeft > 0) break;
        this.dataLeft = -1;
      }
    }
    return out;
  }
}
