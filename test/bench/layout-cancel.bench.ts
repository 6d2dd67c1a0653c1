/**
 * How soon a layout cancel takes effect, through HTTP, against the 200 ms
 * of issue 6: `strata serve` on a generated repository, a computation
 * started with many iterations, and `POST /api/graph/layout/compute/cancel`
 * sent at different moments (while the worker still loads its backend, after
 * the first iterations, deep into the run). The cancel answers once the
 * computation has stopped, so its round trip is the latency.
 *
 *   npm run bench:layout-cancel                 (10k and 100k graph nodes)
 *   npm run bench:layout-cancel -- 20000        (other sizes)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateRepo } from './generate-repo.ts';
import { startServeProcess } from './serve-process.ts';

const FLOOR_MS = 200;
const sizes = process.argv
  .slice(2)
  .filter((arg) => /^\d+$/.test(arg))
  .map(Number);
/** Iterations reached before the cancel is sent: 0 is as soon as the start has answered. */
const MOMENTS = [0, 0, 0, 3, 3, 3, 50, 50, 50];

interface Status {
  state: string;
  iteration: number;
  backend: string | null;
}

async function api(url: string, method = 'GET', body?: unknown): Promise<{ status: number; data: Status }> {
  const response = await fetch(url, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  const json = (await response.json()) as { data: Status };
  return { status: response.status, data: json.data };
}

console.log('| graph nodes | cancel sent at iteration | iteration reached | state | cancel round trip ms | floor ms | round trip / floor |');
console.log('|---|---|---|---|---|---|---|');
const summary: string[] = [];
for (const nodes of sizes.length > 0 ? sizes : [10_000, 100_000]) {
  const repo = mkdtempSync(path.join(tmpdir(), 'strata-cancel-'));
  const server = await startServeProcess((generateRepo(repo, Math.round(nodes / 2)), repo), 'warn', 'inherit');
  try {
    const graphNodes = ((await (await fetch(`${server.url}/api/graph`)).json()) as { data: { nodes: unknown[] } }).data.nodes.length;
    const latencies: number[] = [];
    for (const moment of MOMENTS) {
      const started = await api(`${server.url}/api/graph/layout/compute`, 'POST', { iterations: 10_000 });
      if (started.status !== 202 && started.status !== 200) throw new Error(`start answered ${started.status}`);
      let status = started.data;
      while (moment > 0 && status.iteration < moment && status.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 5));
        status = (await api(`${server.url}/api/graph/layout/compute/status`)).data;
      }
      const sent = performance.now();
      const cancelled = await api(`${server.url}/api/graph/layout/compute/cancel`, 'POST');
      const ms = performance.now() - sent;
      latencies.push(ms);
      console.log(
        `| ${graphNodes} | ${moment} | ${cancelled.data.iteration} | ${cancelled.data.state} | ${ms.toFixed(1)} | ${FLOOR_MS} | ${(ms / FLOOR_MS).toFixed(2)} |`,
      );
      if (cancelled.data.state !== 'cancelled') throw new Error(`the cancel left the computation ${cancelled.data.state}`);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    summary.push(
      `${graphNodes} nodes: cancel round trip median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms (floor ${FLOOR_MS} ms: max / floor ${(sorted.at(-1)! / FLOOR_MS).toFixed(2)})`,
    );
  } finally {
    await server.stop();
    rmSync(repo, { recursive: true, force: true });
  }
}
console.log('');
for (const line of summary) console.log(line);
