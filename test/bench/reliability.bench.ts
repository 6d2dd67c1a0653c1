// The fuzz of test/http/fuzz.test.ts at a larger size (issue 19, point 9),
// against `strata serve` in a child process on a generated repository: every
// operation of the OpenAPI document, random and crafted requests, each answer
// checked (no 5xx but PLUGIN_FAILED and the 503s, every error in the error
// shape with a code of the table and its status); then rounds of kill -9
// during writes of every kind (test/storage/crash-writes.test.ts at a larger
// size); then a full disk (test/storage/full-disk.test.ts at a larger size): the
// data directory on a tmpfs (mounting needs root) filled to a few KB, then
// saves of the whole layout, clears, applies and removals of complexity, each
// answered 200 or 507 DISK_FULL, what is served equal to what was acknowledged,
// before and after a restart on the full disk, no stray files, and a save
// that succeeds once space is freed; then a progress flood with clients that
// never read (test/events/event-flood.test.ts at a larger size) and a hostile
// repository (test/indexer/hostile-repository.test.ts at a larger size: links
// out of it, ignore files built to break the walker, names that are not
// UTF-8). There is no peer: the floor is no finding and no lost write.
//
//   npm run bench:reliability                          # 20,000 requests
//   npm run bench:reliability -- --requests 50000 --seed 7 --kills 30 --disk-writes 60 --flood-clients 100 --hostile-links 5000
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statfsSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FILE, type Outcome, served, type Write, writeNumber, writeUntilKilled } from '../helpers/crash-writes.ts';
import { FLOOD_PLUGIN, runEventFlood } from '../helpers/event-flood.ts';
import { writePlugins } from '../helpers/fixture-plugins.ts';
import { fuzzServer, operationsOf } from '../helpers/fuzz-requests.ts';
import { generateRepo } from './generate-repo.ts';
import { startServeProcess } from './serve-process.ts';

const { values: options } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    seed: { type: 'string', default: '1' },
    files: { type: 'string', default: '2000' },
    kills: { type: 'string', default: '30' },
    'disk-writes': { type: 'string', default: '40' },
    'flood-seconds': { type: 'string', default: '10' },
    'flood-clients': { type: 'string', default: '50' },
    'hostile-links': { type: 'string', default: '1000' },
    'hostile-names': { type: 'string', default: '500' },
  },
});
const REQUESTS = Number(options.requests);
const SEED = Number(options.seed);
const FILES = Number(options.files);
const KILLS = Number(options.kills);
const DISK_WRITES = Number(options['disk-writes']);
const FLOOD_SECONDS = Number(options['flood-seconds']);
const FLOOD_CLIENTS = Number(options['flood-clients']);
const HOSTILE_LINKS = Number(options['hostile-links']);
const HOSTILE_NAMES = Number(options['hostile-names']);

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
    console.log(
      `\n${report.requests.toLocaleString('en-US')} fuzzed requests (seed ${SEED}) over ${operations.length} operations, one after the other, against strata serve on ${FILES.toLocaleString('en-US')} generated files; ${availableParallelism()} cores; Node ${process.version}; load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end\n`,
    );
    console.log('| measure | value | floor | |');
    console.log('| --- | --- | --- | --- |');
    console.log(`| answers that broke a rule | ${report.findings.length} | 0 | ${report.findings.length === 0 ? 'met' : '**NOT met**'} |`);
    console.log(
      `| statuses | ${[...report.byStatus]
        .sort((a, b) => a[0] - b[0])
        .map(([status, count]) => `${status}: ${count}`)
        .join(', ')} |  |  |`,
    );
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

  await fullDisk(repo);
  await eventFlood(repo);
  await hostileRepository();
} finally {
  rmSync(repo, { recursive: true, force: true });
}

/**
 * test/events/event-flood.test.ts at a larger size: a plugin reporting progress as fast as it can for
 * `FLOOD_SECONDS`, with `FLOOD_CLIENTS` event streams that never read: the host's memory against its idle figure.
 */
async function eventFlood(repository: string): Promise<void> {
  const plugins = mkdtempSync(path.join(tmpdir(), 'strata-reliability-plugins-'));
  try {
    await writePlugins(plugins, [FLOOD_PLUGIN]);
    const server = await startServeProcess(repository, 'warn', 'pipe', ['--no-watch', '--no-built-ins', '--plugins', plugins]);
    try {
      await fetch(`${server.url}/api/overlays/flood/apply`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"seconds":0}' });
      const figures = await runEventFlood({
        url: server.url,
        pid: server.child.pid!,
        seconds: FLOOD_SECONDS,
        quietClients: FLOOD_CLIENTS,
        abortAboveBytes: 2 ** 30,
      });
      const grownMb = (figures.peakRssBytes - figures.idleRssBytes) / 2 ** 20;
      const progress = figures.reading.filter((event) => event.type === 'overlay.progress' && event.data.pluginId === 'flood').length;
      const ended = new Map<string, number>();
      for (const client of figures.quiet) ended.set(client.ended, (ended.get(client.ended) ?? 0) + 1);
      console.log(`\n| progress flood (${FLOOD_SECONDS} s, ${FLOOD_CLIENTS} clients that never read) | value | floor | |\n| --- | --- | --- | --- |`);
      console.log(`| reports the plugin made | ${figures.apply.body?.data?.summary?.reports ?? '?'} |  |  |`);
      console.log(
        `| progress events a reading client got | ${progress} | ${FLOOD_SECONDS * 5 + 2} | ${progress <= FLOOD_SECONDS * 5 + 2 ? 'met' : '**NOT met**'} |`,
      );
      console.log(`| host RSS idle / peak MB | ${(figures.idleRssBytes / 2 ** 20).toFixed(0)} / ${(figures.peakRssBytes / 2 ** 20).toFixed(0)} |  |  |`);
      console.log(`| host grew MB | ${grownMb.toFixed(0)} | 200 | ${grownMb < 200 && !figures.aborted ? 'met' : '**NOT met**'} |`);
      console.log(`| the quiet clients | ${[...ended].map(([how, count]) => `${how}: ${count}`).join(', ')} |  |  |`);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(plugins, { recursive: true, force: true });
  }
}

/**
 * test/indexer/hostile-repository.test.ts at a larger size: a generated repository with `HOSTILE_LINKS` links out
 * of it (files, directories, chains, absolute), a `.gitignore` of two 100,000-character lines and more rules than
 * are read, and `HOSTILE_NAMES` file names that are not UTF-8: the server starts, nothing outside is in its graph, every
 * such name is a node of its own, and every link is skipped with its reason.
 */
async function hostileRepository(): Promise<void> {
  const base = mkdtempSync(path.join(tmpdir(), 'strata-reliability-hostile-'));
  try {
    const repository = path.join(base, 'repo');
    mkdirSync(path.join(base, 'outside'), { recursive: true });
    writeFileSync(path.join(base, 'outside/secret.ts'), "import 'SECRET_sk_live_abc123';\nexport function SECRET_function() {}\n");
    generateRepo(repository, FILES);
    mkdirSync(path.join(repository, 'links'));
    for (let i = 0; i < HOSTILE_LINKS; i++) {
      const target = ['../../outside/secret.ts', path.join(base, 'outside/secret.ts'), '../../outside', '/etc/passwd'][i % 4]!;
      symlinkSync(target, path.join(repository, 'links', `link${i}${i % 4 === 2 ? '' : '.ts'}`));
    }
    symlinkSync('link0.ts', path.join(repository, 'links', 'chain.ts'));
    writeFileSync(
      path.join(repository, '.gitignore'),
      `${`${'a'.repeat(100_000)}\n`.repeat(2)}${Array.from({ length: 2_500 }, (_, i) => `ignored-${i}/`).join('\n')}\n`,
    );
    mkdirSync(path.join(repository, 'names'));
    for (let i = 0; i < HOSTILE_NAMES; i++)
      writeFileSync(
        Buffer.concat([Buffer.from(`${repository}/names/`), Buffer.from([0x80 + (i % 64), 0xff - (i % 61)]), Buffer.from(`-${i}.ts`)]),
        `export const n${i} = ${i};\n`,
      );
    const started = performance.now();
    const server = await startServeProcess(repository, 'warn', 'pipe', ['--no-watch', '--no-built-ins']);
    const startSeconds = (performance.now() - started) / 1000;
    try {
      const text = await (await fetch(`${server.url}/api/graph`)).text();
      const graph = JSON.parse(text) as { data: { nodes: Array<{ id: string; error?: string }> }; meta: { skipped: Array<{ path: string; reason: string }> } };
      const named = graph.data.nodes.filter((node) => node.id.startsWith('file:names/"') && !node.error).length;
      const skippedLinks = graph.meta.skipped.filter((entry) => entry.path.startsWith('links/') && /outside the repository/.test(entry.reason)).length;
      const ignoreProblems = graph.meta.skipped.filter((entry) => entry.path === '.gitignore').length;
      const met = (ok: boolean): string => (ok ? 'met' : '**NOT met**');
      console.log(`\n| hostile repository (${FILES.toLocaleString('en-US')} generated files besides) | value | floor | |\n| --- | --- | --- | --- |`);
      console.log(`| strata serve started (spawn to URL) s | ${startSeconds.toFixed(1)} |  |  |`);
      console.log(`| the graph names anything of the files outside | ${text.includes('SECRET') ? 'yes' : 'no'} | no | ${met(!text.includes('SECRET'))} |`);
      console.log(
        `| links out of the repository skipped with their reason | ${skippedLinks} | ${HOSTILE_LINKS + 1} | ${met(skippedLinks === HOSTILE_LINKS + 1)} |`,
      );
      console.log(`| names that are not UTF-8, each a node read | ${named} | ${HOSTILE_NAMES} | ${met(named === HOSTILE_NAMES)} |`);
      console.log(`| ignore lines left out, each named | ${ignoreProblems} | 3 | ${met(ignoreProblems === 3)} |`);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** A save of every node's position (FILE's at x, -x): a write of about 50 bytes a node, larger than a page. */
function saveAll(ids: readonly string[], x: number): Write {
  return {
    name: `save all x=${x}`,
    send: (url) =>
      fetch(`${url}/api/graph/layout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ positions: Object.fromEntries(ids.map((id, k) => [id, id === FILE ? { x, y: -x } : { x: k, y: x }])) }),
      }),
    after: (state) => ({ ...state, position: { x, y: -x } }),
  };
}

/** The full-disk rounds: see the comment at the top. */
async function fullDisk(repository: string): Promise<void> {
  const disk = mkdtempSync(path.join(tmpdir(), 'strata-reliability-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', disk]);
  try {
    const dataDir = path.join(disk, 'data');
    const args = ['--no-watch', '--data-dir', dataDir];
    let server = await startServeProcess(repository, 'warn', 'pipe', args);
    const ids = ((await (await fetch(`${server.url}/api/graph`)).json()) as { data: { nodes: Array<{ id: string }> } }).data.nodes.map((node) => node.id);
    // Room for the first writes, then the disk filled to a few KB.
    const first = await saveAll(ids, 1).send(server.url);
    let acknowledged: Outcome = first.status === 200 ? saveAll(ids, 1).after(await served(server.url)) : await served(server.url);
    const filler = path.join(disk, 'filler');
    const fd = openSync(filler, 'w');
    const block = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) {
        const free = statfsSync(disk).bavail * statfsSync(disk).bsize;
        if (free <= 16 * 1024) break;
        writeSync(fd, block, 0, Math.min(block.length, free - 8 * 1024));
      }
    } catch {
      // ENOSPC: full
    } finally {
      closeSync(fd);
    }
    const statuses = new Map<number, number>();
    const findings: string[] = [];
    const started = performance.now();
    for (let i = 0; i < DISK_WRITES; i++) {
      const write = i % 4 === 0 ? saveAll(ids, 100 + i) : writeNumber(i);
      const response = await write.send(server.url);
      const body = (await response.json().catch(() => ({}))) as { error?: { code?: string } };
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status === 200) acknowledged = write.after(acknowledged);
      else if (response.status !== 507 || body.error?.code !== 'DISK_FULL')
        findings.push(`${write.name}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
      const now = await served(server.url);
      if (JSON.stringify(now) !== JSON.stringify(acknowledged))
        findings.push(`after ${write.name} (${response.status}): served ${JSON.stringify(now)}, acknowledged ${JSON.stringify(acknowledged)}`);
    }
    await server.stop();
    const stray = readdirSync(dataDir).filter((name) => name.endsWith('~'));
    server = await startServeProcess(repository, 'warn', 'pipe', args);
    const afterRestart = await served(server.url);
    const restartKept = JSON.stringify(afterRestart) === JSON.stringify(acknowledged);
    rmSync(filler);
    const freed = await saveAll(ids, 999).send(server.url);
    await server.stop();
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `\n| full disk (a 32 MiB tmpfs filled to 16 KB free, ${ids.length.toLocaleString('en-US')} nodes) | value | floor | |\n| --- | --- | --- | --- |`,
    );
    console.log(`| writes (saves of every position, clears, complexity applied and removed) | ${DISK_WRITES} |  |  |`);
    console.log(
      `| answers | ${[...statuses]
        .sort((a, b) => a[0] - b[0])
        .map(([status, count]) => `${status}: ${count}`)
        .join(', ')} |  |  |`,
    );
    console.log(
      `| answers other than 200 or 507 DISK_FULL, or served state unlike what was acknowledged | ${findings.length} | 0 | ${findings.length === 0 ? 'met' : '**NOT met**'} |`,
    );
    console.log(
      `| after a restart on the full disk, what was acknowledged is served | ${restartKept ? 'yes' : `no: ${JSON.stringify(afterRestart)}`} | yes | ${restartKept ? 'met' : '**NOT met**'} |`,
    );
    console.log(`| stray files in the data directory after stopping | ${stray.length} | 0 | ${stray.length === 0 ? 'met' : '**NOT met**'} |`);
    console.log(`| a save once space is freed | ${freed.status} | 200 | ${freed.status === 200 ? 'met' : '**NOT met**'} |`);
    console.log(`| time s | ${seconds.toFixed(0)} |  |  |`);
    for (const finding of findings.slice(0, 20)) console.log(`- ${finding}`);
  } finally {
    execFileSync('umount', ['-l', disk]);
    rmSync(disk, { recursive: true, force: true });
  }
}
