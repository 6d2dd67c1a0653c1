/**
 * How long `GET /api/graph` takes, and how much memory the server needs, for
 * generated graphs of 10k and 100k nodes, against the floor of
 * `JSON.stringify` of the same payload, measured in the same run; and the
 * same with `Accept-Encoding: gzip`, against gzipping the payload for each
 * request as a compression middleware does (zlib's default level).
 *
 *   npm run bench:serve              (both sizes)
 *   npm run bench:serve -- 10000     (one size)
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { generateRepo } from './generate-repo.ts';
import { startServeProcess } from './serve-process.ts';

const WARM_RUNS = 7;

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const rows: string[][] = [];
const gzipRows: string[][] = [];
for (const size of sizes.length > 0 ? sizes : [10_000, 100_000]) {
  const measured = await measure(size);
  rows.push(measured.plain);
  gzipRows.push(measured.gzip);
}
printTable(
  [
    'nodes',
    'edges',
    'MB',
    'index s',
    'first GET ms',
    'warm GET ms (median)',
    'JSON.stringify ms (median)',
    'warm / stringify',
    'first / stringify',
    'server peak RSS MB',
  ],
  rows,
);
process.stdout.write('\nWith Accept-Encoding: gzip\n\n');
printTable(
  ['nodes', 'MB', 'gzip MB', 'first gzip GET ms', 'warm gzip GET ms (median)', 'gzip per request ms (median)', 'warm / per request', 'first / per request'],
  gzipRows,
);

async function measure(nodeCount: number): Promise<{ plain: string[]; gzip: string[] }> {
  const repo = mkdtempSync(path.join(tmpdir(), 'strata-bench-'));
  try {
    // Each generated file also declares one function: 41 nodes for every 21 the generator counts.
    const { files, directories } = generateRepo(repo, Math.round((nodeCount * 21) / 41));
    process.stderr.write(`generated ${files} files in ${directories} directories\n`);
    const started = performance.now();
    const server = await startServeProcess(repo, 'warn', 'inherit');
    const url = server.url;
    const indexSeconds = (performance.now() - started) / 1000;
    try {
      const first = await timedGet(url);
      const warm: number[] = [];
      let text = first.text;
      for (let i = 0; i < WARM_RUNS; i++) {
        const run = await timedGet(url);
        warm.push(run.ms);
        text = run.text;
      }
      const payload = JSON.parse(text) as { data: { nodes: unknown[]; edges: unknown[] }; meta: unknown };
      const stringify: number[] = [];
      for (let i = 0; i < WARM_RUNS; i++) {
        const t0 = performance.now();
        JSON.stringify(payload);
        stringify.push(performance.now() - t0);
      }
      const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? 0);
      const floor = median(stringify);
      const plain = [
        String(payload.data.nodes.length),
        String(payload.data.edges.length),
        (Buffer.byteLength(text) / 1e6).toFixed(1),
        indexSeconds.toFixed(1),
        first.ms.toFixed(1),
        median(warm).toFixed(1),
        floor.toFixed(1),
        (median(warm) / floor).toFixed(2),
        (first.ms / floor).toFixed(2),
        (peakKb / 1024).toFixed(0),
      ];

      // The first gzip request of this graph compresses it; the others reuse that.
      const firstGzip = await timedGet(url, { 'accept-encoding': 'gzip' });
      const warmGzip: number[] = [];
      let gzipped = firstGzip.bytes;
      for (let i = 0; i < WARM_RUNS; i++) {
        const run = await timedGet(url, { 'accept-encoding': 'gzip' });
        warmGzip.push(run.ms);
        gzipped = run.bytes;
      }
      if (gunzipSync(gzipped).length !== Buffer.byteLength(text)) throw new Error('the gzipped answer is not the plain one');
      const perRequest: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        gzipSync(text);
        perRequest.push(performance.now() - t0);
      }
      const peer = median(perRequest);
      const gzip = [
        String(payload.data.nodes.length),
        (Buffer.byteLength(text) / 1e6).toFixed(1),
        (gzipped.length / 1e6).toFixed(1),
        firstGzip.ms.toFixed(1),
        median(warmGzip).toFixed(1),
        peer.toFixed(1),
        (median(warmGzip) / peer).toFixed(3),
        (firstGzip.ms / peer).toFixed(2),
      ];
      return { plain, gzip };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

/** Time from sending the request to the last byte of the answer, with a client that only collects bytes. */
function timedGet(url: string, headers: Record<string, string> = {}): Promise<{ ms: number; text: string; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    get(`${url}/api/graph`, { agent: false, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const ms = performance.now() - t0;
        const bytes = Buffer.concat(chunks);
        if (response.statusCode !== 200) reject(new Error(`GET /api/graph answered ${response.statusCode}`));
        else resolve({ ms, bytes, text: bytes.toString('utf8') });
      });
    }).on('error', reject);
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function printTable(header: string[], body: string[][]): void {
  const lines = [header, header.map(() => '---'), ...body].map((row) => `| ${row.join(' | ')} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
