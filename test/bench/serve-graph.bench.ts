/**
 * How long `GET /api/graph` takes, and how much memory the server needs, for
 * generated graphs of 10k and 100k nodes, against the floor of
 * `JSON.stringify` of the same payload, measured in the same run.
 *
 *   npm run bench:serve              (both sizes)
 *   npm run bench:serve -- 10000     (one size)
 */
import { get } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateRepo } from './generate-repo.ts';
import { startServeProcess } from './serve-process.ts';

const WARM_RUNS = 7;

const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
const rows: string[][] = [];
for (const size of sizes.length > 0 ? sizes : [10_000, 100_000]) rows.push(await measure(size));
printTable(['nodes', 'edges', 'MB', 'index s', 'first GET ms', 'warm GET ms (median)', 'JSON.stringify ms (median)', 'warm / stringify', 'first / stringify', 'server peak RSS MB'], rows);

async function measure(nodeCount: number): Promise<string[]> {
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
      return [
        String(payload.data.nodes.length), String(payload.data.edges.length), (Buffer.byteLength(text) / 1e6).toFixed(1), indexSeconds.toFixed(1),
        first.ms.toFixed(1), median(warm).toFixed(1), floor.toFixed(1), (median(warm) / floor).toFixed(2), (first.ms / floor).toFixed(2), (peakKb / 1024).toFixed(0),
      ];
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

/** Time from sending the request to the last byte of the answer, with a client that only collects bytes. */
function timedGet(url: string): Promise<{ ms: number; text: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    get(`${url}/api/graph`, { agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const ms = performance.now() - t0;
        if (response.statusCode !== 200) reject(new Error(`GET /api/graph answered ${response.statusCode}`));
        else resolve({ ms, text: Buffer.concat(chunks).toString('utf8') });
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
