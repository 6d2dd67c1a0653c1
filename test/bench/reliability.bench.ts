// The fuzz of test/http/fuzz.test.ts at a larger size (issue 19, point 9),
// against `strata serve` in a child process on a generated repository: every
// operation of the OpenAPI document, random and crafted requests, each answer
// checked (no 5xx but PLUGIN_FAILED and the 503s, every error in the error
// shape with a code of the table and its status). There is no peer: the
// floor is no finding at all.
//
//   npm run bench:reliability                          # 20,000 requests
//   npm run bench:reliability -- --requests 50000 --seed 7
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fuzzServer, operationsOf } from '../helpers/fuzz-requests.ts';
import { generateRepo } from './generate-repo.ts';
import { startServeProcess } from './serve-process.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const REQUESTS = option('requests', 20_000);
const SEED = option('seed', 1);
const FILES = option('files', 2_000);

const loadAtStart = loadavg()[0]!;
const repo = mkdtempSync(path.join(tmpdir(), 'strata-reliability-'));
try {
  generateRepo(repo, Math.round((FILES * 21) / 20));
  const server = await startServeProcess(repo, 'warn', 'pipe', ['--no-watch']);
  try {
    for (;;) {
      const response = await fetch(`${server.url}/api/graph`).catch(() => undefined);
      if (response?.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const operations = operationsOf((await (await fetch(`${server.url}/api/openapi.json`)).json()) as Parameters<typeof operationsOf>[0]);
    const started = performance.now();
    const report = await fuzzServer(server.url, operations, REQUESTS, SEED);
    const seconds = (performance.now() - started) / 1000;
    const rssMb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
    const alive = (await fetch(`${server.url}/api/graph`)).status;
    console.log(`\n${report.requests.toLocaleString('en-US')} fuzzed requests (seed ${SEED}) over ${operations.length} operations, one after the other, against strata serve on ${FILES.toLocaleString('en-US')} generated files; ${availableParallelism()} cores; Node ${process.version}; load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end\n`);
    console.log('| measure | value | floor | |');
    console.log('| --- | --- | --- | --- |');
    console.log(`| answers that broke a rule | ${report.findings.length} | 0 | ${report.findings.length === 0 ? 'met' : '**NOT met**'} |`);
    console.log(`| statuses | ${[...report.byStatus].sort((a, b) => a[0] - b[0]).map(([status, count]) => `${status}: ${count}`).join(', ')} |  |  |`);
    console.log(`| requests per second | ${(report.requests / seconds).toFixed(0)} |  |  |`);
    console.log(`| server RSS at the end MB | ${rssMb.toFixed(0)} |  |  |`);
    console.log(`| GET /api/graph after | ${alive} | 200 | ${alive === 200 ? 'met' : '**NOT met**'} |`);
    for (const finding of report.findings.slice(0, 20)) console.log(`\n- ${finding.status}: ${finding.problem}\n  ${finding.request}`);
  } finally {
    await server.stop();
  }
} finally {
  rmSync(repo, { recursive: true, force: true });
}
