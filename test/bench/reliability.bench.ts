// The fuzz of test/http/fuzz.test.ts at a larger size (issue 19, point 9),
// against `strata serve` in a child process on a generated repository: every
// operation of the OpenAPI document, random and crafted requests, each answer
// checked (no 5xx but PLUGIN_FAILED and the 503s, every error in the error
// shape with a code of the table and its status); then rounds of kill -9
// during writes of every kind (test/http/crash-writes.test.ts at a larger
// size). There is no peer: the floor is no finding and no lost write.
//
//   npm run bench:reliability                          # 20,000 requests
//   npm run bench:reliability -- --requests 50000 --seed 7 --kills 30
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { served, writeUntilKilled, type Outcome } from '../helpers/crash-writes.ts';
import { fuzzServer, operationsOf } from '../helpers/fuzz-requests.ts';
import { generateRepo } from './generate-repo.ts';
import { startServeProcess } from './serve-process.ts';

const { values: options } = parseArgs({ options: { requests: { type: 'string', default: '20000' }, seed: { type: 'string', default: '1' }, files: { type: 'string', default: '2000' }, kills: { type: 'string', default: '30' } } });
const REQUESTS = Number(options.requests);
const SEED = Number(options.seed);
const FILES = Number(options.files);
const KILLS = Number(options.kills);

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

  // kill -9 during writes: each next start must serve the last acknowledged write or the one in flight.
  mkdirSync(path.join(repo, 'src'), { recursive: true });
  writeFileSync(path.join(repo, 'src/index.ts'), 'export const main = 1;\n');
  let acknowledged: Outcome = { position: undefined, complexity: false };
  let writes = 0;
  let lost = 0;
  const started = performance.now();
  for (let round = 0; round < KILLS; round++) {
    const victim = await startServeProcess(repo, 'warn', 'pipe', ['--no-watch']);
    acknowledged = await served(victim.url);
    const result = await writeUntilKilled(victim.url, round * 1000, 100 + ((round * 97) % 900), acknowledged, async () => {
      victim.child.kill('SIGKILL');
      if (victim.child.exitCode === null && victim.child.signalCode === null) await new Promise((resolve) => victim.child.once('exit', resolve));
    });
    writes += result.writes;
    const next = await startServeProcess(repo, 'warn', 'pipe', ['--no-watch']);
    const after = await served(next.url);
    const allowed = [result.acknowledged, ...(result.inFlight ? [result.inFlight.after(result.acknowledged)] : [])];
    if (!allowed.some((outcome) => JSON.stringify(outcome) === JSON.stringify(after))) {
      lost++;
      console.log(`- round ${round}: served ${JSON.stringify(after)}, not one of ${JSON.stringify(allowed)}`);
    }
    acknowledged = after;
    await next.stop();
  }
  console.log(`\n| kill -9 during writes | value | floor | |\n| --- | --- | --- | --- |`);
  console.log(`| rounds (a SIGKILL each, 0.1 to 1 s into a stream of saves, clears, applies and removals) | ${KILLS} |  |  |`);
  console.log(`| writes acknowledged before the kills | ${writes} |  |  |`);
  console.log(`| rounds whose next start lost an acknowledged write or showed one never made | ${lost} | 0 | ${lost === 0 ? 'met' : '**NOT met**'} |`);
  console.log(`| time s | ${((performance.now() - started) / 1000).toFixed(0)} |  |  |`);
} finally {
  rmSync(repo, { recursive: true, force: true });
}
