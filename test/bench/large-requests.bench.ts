// Work per request is bounded (issue 19, point 4): how long a cheap GET waits
// while 32 layout saves of 16 MB (310,000 positions each) are sent at once.
// Strata (`strata serve`, a child process) against a plain node:http server
// that reads each body whole and JSON.parses it, the way an unbounded server
// does, in the same run; the floor is a p99 under 250 ms.
//
//   npm run bench:large-requests                     # 15,000 files, 32 saves
//   npm run bench:large-requests -- --files 15000 --saves 32
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateRepo } from './generate-repo.ts';
import { printedUrl, startServeProcess } from './serve-process.ts';

const { values: options } = parseArgs({
  options: {
    files: { type: 'string', default: '15000' },
    saves: { type: 'string', default: '32' },
    positions: { type: 'string', default: '310000' },
    bytes: { type: 'string', default: '16400000' },
  },
});
const FILES = Number(options.files);
const SAVES = Number(options.saves);
const POSITIONS = Number(options.positions);
const BODY_BYTES = Number(options.bytes);
const FLOOR_MS = 250;
/** The cheap GET, asked one after the other every PROBE_GAP_MS while the saves run. */
const PROBE_PATH = '/api/graph/layout/compute/status';
const PROBE_GAP_MS = 20;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A save's body as in the report: POSITIONS ids the graph does not have, padded to BODY_BYTES. */
function attackBody(): Buffer {
  const entry = (i: number, pad: string): string =>
    `"gone/dir${i % 997}/f${i}${pad}.ts":{"x":${((i * 7.31) % 1000).toFixed(2)},"y":${((i * 3.17) % 1000).toFixed(2)}}`;
  let unpadded = 0;
  for (let i = 0; i < POSITIONS; i++) unpadded += entry(i, '').length + 1;
  const pad = '-'.repeat(Math.max(0, Math.floor((BODY_BYTES - unpadded - 20) / POSITIONS)));
  const parts: string[] = [];
  for (let i = 0; i < POSITIONS; i++) parts.push(entry(i, pad));
  return Buffer.from(`{"positions":{${parts.join(',')}}}`);
}

/**
 * Sends the saves from a process of its own, so that pushing 500 MB does not
 * hold up the probes of this one; prints the answers' statuses and its time.
 */
const UPLOADER = `
import { readFileSync } from 'node:fs';
const [url, file, count] = process.argv.slice(1);
const bytes = readFileSync(file);
const body = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
const started = performance.now();
const statuses = await Promise.all(Array.from({ length: Number(count) }, () =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (response) => (await response.arrayBuffer(), response.status), (error) => 'failed: ' + (error.cause?.code ?? error.message))));
process.stdout.write(JSON.stringify({ statuses, ms: performance.now() - started }));
`;

/** What a plain node:http server does: read the body whole, JSON.parse it, answer. */
const PLAIN_SERVER = `
import { createServer } from 'node:http';
const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    let count = 0;
    if (request.method === 'POST') { const body = JSON.parse(Buffer.concat(chunks).toString('utf8')); for (const id in body.positions) if (Number.isFinite(body.positions[id].x)) count++; }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ data: { count } }));
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write('at http://127.0.0.1:' + server.address().port + '\\n'));
`;

async function startPlainServer(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', PLAIN_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await printedUrl(child, 'the plain server');
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.on('exit', resolve));
    },
  };
}

/** The largest VmRSS of a process, sampled every 100 ms until `stop()`. */
function sampleRss(pid: number): { stop(): number } {
  let peak = 0;
  const sample = (): void => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      peak = Math.max(peak, kb / 1024);
    } catch {
      // gone
    }
  };
  sample();
  const timer = setInterval(sample, 100);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

interface Round {
  probes: number[];
  failedProbes: number;
  statuses: Map<number | string, number>;
  savesMs: number;
  peakRssMb: number;
}

/** Sends the saves at once and probes with the cheap GET until they are all answered. */
async function round(url: string, pid: number, savePath: string): Promise<Round> {
  const rss = sampleRss(pid);
  const probes: number[] = [];
  let failedProbes = 0;
  let done = false;
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      try {
        const response = await fetch(url + PROBE_PATH);
        await response.arrayBuffer();
        probes.push(performance.now() - started);
      } catch {
        failedProbes++;
      }
      await sleep(PROBE_GAP_MS);
    }
  })();
  const uploader = spawn(process.execPath, ['--input-type=module', '-e', UPLOADER, url + savePath, bodyFile, String(SAVES)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  uploader.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => uploader.on('exit', resolve));
  const sent = JSON.parse(out) as { statuses: Array<number | string>; ms: number };
  const statuses = new Map<number | string, number>();
  for (const status of sent.statuses) statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const savesMs = sent.ms;
  done = true;
  await probing;
  return { probes, failedProbes, statuses, savesMs, peakRssMb: rss.stop() };
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const loadAtStart = loadavg()[0]!;
const body = attackBody();
const repo = mkdtempSync(path.join(tmpdir(), 'strata-large-requests-'));
const bodyFile = path.join(repo, '..', `${path.basename(repo)}-body.json`);
writeFileSync(bodyFile, body);
const results: Array<[string, Round]> = [];
try {
  generateRepo(repo, Math.round((FILES * 21) / 20));
  const strata = await startServeProcess(repo, 'warn', 'pipe', ['--no-watch']);
  let nodes = 0;
  try {
    for (;;) {
      const response = await fetch(`${strata.url}/api/graph/map`).catch(() => undefined);
      if (response?.ok) {
        nodes = ((await response.json()) as { data: { nodes: { id: string[] } } }).data.nodes.id.length;
        break;
      }
      await sleep(500);
    }
    await sleep(3000);
    process.stderr.write(
      `strata: ${nodes} nodes; a save may hold ${1024 * 1024 + nodes * 512} bytes; the bodies are ${body.length} bytes with ${POSITIONS} positions\n`,
    );
    results.push(['Strata', await round(strata.url, strata.child.pid!, '/api/graph/layout')]);
  } finally {
    await strata.stop();
  }
  const plain = await startPlainServer();
  try {
    results.push(['plain node:http + JSON.parse', await round(plain.url, plain.pid, '/save')]);
  } finally {
    await plain.stop();
  }
} finally {
  rmSync(repo, { recursive: true, force: true });
  rmSync(bodyFile, { force: true });
}

console.log(
  `\n${SAVES} saves of ${(body.length / 1e6).toFixed(1)} MB (${POSITIONS.toLocaleString('en-US')} positions each) at once, and GET ${PROBE_PATH} every ${PROBE_GAP_MS} ms meanwhile; ${FILES.toLocaleString('en-US')} generated files; ${availableParallelism()} cores; Node ${process.version}; load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end\n`,
);
console.log(
  '| server | GETs (failed) | GET p50 ms | GET p99 ms | GET max ms | saves answered (status: count) | all saves answered after s | server peak RSS MB |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [name, result] of results) {
  const statuses = [...result.statuses].map(([status, count]) => `${status}: ${count}`).join(', ');
  console.log(
    `| ${name} | ${result.probes.length} (${result.failedProbes}) | ${quantile(result.probes, 0.5).toFixed(1)} | ${quantile(result.probes, 0.99).toFixed(1)} | ${Math.max(...result.probes).toFixed(1)} | ${statuses} | ${(result.savesMs / 1000).toFixed(1)} | ${result.peakRssMb.toFixed(0)} |`,
  );
}
const strataP99 = quantile(results[0]![1].probes, 0.99);
const plainP99 = quantile(results[1]![1].probes, 0.99);
console.log(
  `\nStrata's p99 ${strataP99.toFixed(1)} ms against a floor of ${FLOOR_MS} ms: ${strataP99 < FLOOR_MS ? 'met' : '**NOT met**'} (${(strataP99 / FLOOR_MS).toFixed(2)} of it); the plain server's p99 is ${(plainP99 / strataP99).toFixed(1)} times Strata's.`,
);
