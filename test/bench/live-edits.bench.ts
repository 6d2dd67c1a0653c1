/**
 * One-file edits at 100,000 files, as a user makes them while `strata serve`
 * runs with a saved layout (new files are placed into it live) and overlays
 * on (issue 38, point 6): from the write to `graph.changed` on the event
 * stream, median and 95th percentile; and the cold start of the same server
 * (time to its URL, peak memory).
 *
 *   npm run bench:live-edits                      (100,000 files, 40 edits)
 *   npm run bench:live-edits -- --files 20000 --edits 30 --overlays git-activity,complexity
 *
 * The repository is issue 38's: 100,000 TypeScript files in about 2,200
 * directories (45 to a directory), one to four relative imports each, about
 * 4 KB each (400 MB), in a git repository of one commit. Edits take turns:
 * a file edited (a function appended), a file added that imports it, that
 * file deleted; one every `--every` ms (1,500) after the last was announced.
 * `--keep DIR` writes the repository there and keeps it for the next run.
 * The peers are the floors (median 100 ms, 95th percentile 250 ms; the cold
 * start 10 s and 1.2 GB) and a full re-index of the same repository in the
 * same run (`indexRepository` in a process of its own, its facts cache
 * warm, as a refresh that read every file again would be at best).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateRepo } from './generate-repo.ts';
import { startServeProcess } from './serve-process.ts';
import { spiralLayout } from './spiral-layout.ts';

const { values: options } = parseArgs({
  options: {
    files: { type: 'string', default: '100000' },
    edits: { type: 'string', default: '40' },
    every: { type: 'string', default: '1500' },
    overlays: { type: 'string', default: 'git-activity' },
    /** Where the repository is written, and kept (made again only when it is not there): for runs one after the other. */
    keep: { type: 'string' },
  },
});
const FILES = Number(options.files);
const EDITS = Number(options.edits);
const EVERY_MS = Number(options.every);
const OVERLAYS = options.overlays.split(',').filter((id) => id !== '');
const here = path.dirname(fileURLToPath(import.meta.url));

const base = mkdtempSync(path.join(tmpdir(), 'strata-live-edits-'));
const repo = options.keep ? path.resolve(options.keep) : path.join(base, 'repo');
const dataDir = path.join(base, 'data');
try {
  const made = path.join(repo, '.generated');
  if (!existsSync(made) || readFileSync(made, 'utf8') !== String(FILES)) {
    rmSync(repo, { recursive: true, force: true });
    generateRepo(repo, Math.round(FILES * (46 / 45)), { filesPerDirectory: 45, fileBytes: 4000, minImports: 1 });
    writeFileSync(path.join(repo, '.gitignore'), '.generated\n');
    execFileSync('git', ['init', '-q'], { cwd: repo });
    execFileSync('git', ['add', '-A'], { cwd: repo });
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'generated'], { cwd: repo });
    writeFileSync(made, String(FILES));
  }
  // A kept repository as it was committed (an earlier run's edits undone).
  execFileSync('git', ['checkout', '-q', '--', '.'], { cwd: repo });
  execFileSync('git', ['clean', '-qfd'], { cwd: repo });
  const fileCount =
    execFileSync('git', ['ls-files'], { cwd: repo, maxBuffer: 1 << 30 })
      .toString()
      .split('\n').length - 2;
  const bytes = Number(execFileSync('du', ['-sb', '--exclude=.git', repo], { encoding: 'utf8' }).split('\t')[0]);
  process.stderr.write(`${fileCount} files (${(bytes / 1e6).toFixed(0)} MB)\n`);
  // Files changed under two seconds before a build are not cached.
  await new Promise((resolve) => setTimeout(resolve, 2_100));

  // The cold start of the server, as a first `strata serve` of the repository.
  const startedAt = performance.now();
  const log = { updates: [] as number[], pending: '' };
  const server = await startServeProcess(repo, 'info', 'pipe', ['--data-dir', dataDir], (chunk) => followLog(log, chunk));
  const coldStartMs = performance.now() - startedAt;
  const peakAtUrlKb = peakKbOf(server.child.pid!);
  const { url } = server;
  try {
    const graph = (await (await fetch(`${url}/api/graph`)).json()) as { data: { nodes: Array<{ id: string; parent?: string }> } };
    const nodes = graph.data.nodes.length;
    process.stderr.write(`cold start: URL after ${(coldStartMs / 1000).toFixed(1)} s, peak ${(peakAtUrlKb / 1024).toFixed(0)} MB, ${nodes} nodes\n`);
    const saved = await fetch(`${url}/api/graph/layout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // Directories and files (symbols are placed around them): the layout of every node is over the body limit.
      body: JSON.stringify({ positions: spiralLayout(graph.data.nodes.filter((node) => !node.id.startsWith('sym:'))) }),
    });
    if (!saved.ok) throw new Error(`saving a layout answered ${saved.status}: ${await saved.text()}`);
    for (const overlay of OVERLAYS) {
      const applied = await fetch(`${url}/api/overlays/${overlay}/apply`, { method: 'POST' });
      if (!applied.ok) throw new Error(`applying ${overlay} answered ${applied.status}: ${await applied.text()}`);
      process.stderr.write(`${overlay} applied\n`);
    }
    const peakSettledKb = peakKbOf(server.child.pid!);
    const events = followEvents(url);
    await events.connected;

    const target = 'pkg1/file3.ts';
    const latencies: number[] = [];
    const updates: number[] = [];
    for (let i = 0; i < EDITS; i++) {
      await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
      const announced = events.changes.length;
      const updated = log.updates.length;
      const marker = `export function changed${i}() { return ${i}; }\n`;
      const t0 = performance.now();
      if (i % 3 === 0) appendFileSync(path.join(repo, target), marker);
      else if (i % 3 === 1) writeFileSync(path.join(repo, 'pkg1/added.ts'), `import { value } from './file3.js';\n${marker}`);
      else unlinkSync(path.join(repo, 'pkg1/added.ts'));
      for (;;) {
        if (events.changes.length > announced) break;
        if (performance.now() - t0 > 30_000) throw new Error(`edit ${i}: no graph.changed within 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      latencies.push(events.changes[announced]! - t0);
      // The server's own figure for the same update (from its batch of file events to the new revision).
      while (log.updates.length <= updated && performance.now() - t0 < 30_000) await new Promise((resolve) => setTimeout(resolve, 1));
      updates.push(log.updates[updated] ?? Number.NaN);
      process.stderr.write(
        `edit ${i} (${['edit', 'add', 'delete'][i % 3]}): graph.changed after ${latencies.at(-1)!.toFixed(0)} ms, update ${updates.at(-1)} ms\n`,
      );
    }
    events.stop();
    const peakEndKb = peakKbOf(server.child.pid!);
    await server.stop();

    // The peer: a whole re-index of the same repository, its facts cache warm (nothing to parse again).
    const reindex = spawnSync(process.execPath, [path.join(here, 'cold-index-child.ts'), repo], {
      cwd: path.resolve(here, '../..'),
      encoding: 'utf8',
      env: { ...process.env, STRATA_DATA_DIR: dataDir, STRATA_INDEX_CACHE: 'false' },
    });
    if (reindex.status !== 0) throw new Error(reindex.stderr);
    const reindexMs = (JSON.parse(reindex.stdout.trim().split('\n').pop()!) as { ms: number }).ms;

    const median = percentile(latencies, 0.5);
    const p95 = percentile(latencies, 0.95);
    process.stdout.write(
      `\n${fileCount.toLocaleString('en-US')} files (${(bytes / 1e6).toFixed(0)} MB), ${nodes.toLocaleString('en-US')} nodes, a layout saved for every node, overlays ${OVERLAYS.join(', ') || 'none'}; ${EDITS} edits, one every ${EVERY_MS} ms; load average ${loadavg()[0]!.toFixed(2)} at the end\n\n`,
    );
    const met = (ok: boolean): string => (ok ? 'met' : '**NOT met**');
    process.stdout.write('| measure | value | floor | |\n| --- | --- | --- | --- |\n');
    process.stdout.write(`| cold start, spawn to URL s | ${(coldStartMs / 1000).toFixed(1)} | 10 | ${met(coldStartMs < 10_000)} |\n`);
    process.stdout.write(`| peak RSS at the URL MB | ${(peakAtUrlKb / 1024).toFixed(0)} | 1,229 | ${met(peakAtUrlKb < 1.2 * 1024 * 1024)} |\n`);
    process.stdout.write(`| peak RSS with the layout saved and overlays applied MB | ${(peakSettledKb / 1024).toFixed(0)} |  |  |\n`);
    process.stdout.write(`| peak RSS after the edits MB | ${(peakEndKb / 1024).toFixed(0)} |  |  |\n`);
    process.stdout.write(`| edit to graph.changed, median ms | ${median.toFixed(0)} | 100 | ${met(median < 100)} |\n`);
    process.stdout.write(`| edit to graph.changed, 95th percentile ms | ${p95.toFixed(0)} | 250 | ${met(p95 < 250)} |\n`);
    process.stdout.write(`| edit to graph.changed, max ms | ${Math.max(...latencies).toFixed(0)} |  |  |\n`);
    process.stdout.write(
      `| the server's update (events to revision), median / max ms | ${percentile(updates, 0.5).toFixed(0)} / ${Math.max(...updates).toFixed(0)} |  |  |\n`,
    );
    process.stdout.write(`| a whole re-index (cache off), s | ${(reindexMs / 1000).toFixed(1)} |  |  |\n`);
    process.stdout.write(`| whole re-index ÷ median edit | ${(reindexMs / median).toFixed(0)} |  |  |\n`);
  } finally {
    await server.stop();
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}

/** Takes the server's `graph updated` log lines (their `durationMs`) out of what it wrote. */
function followLog(log: { updates: number[]; pending: string }, chunk: Buffer): void {
  log.pending += chunk.toString();
  for (let newline = log.pending.indexOf('\n'); newline !== -1; newline = log.pending.indexOf('\n')) {
    const line = log.pending.slice(0, newline);
    log.pending = log.pending.slice(newline + 1);
    if (line.includes('"msg":"graph updated"')) log.updates.push((JSON.parse(line) as { durationMs: number }).durationMs);
  }
}

/** `GET /api/events`, read as it comes: when each `graph.changed` arrived (`performance.now()`). */
function followEvents(url: string): { connected: Promise<void>; changes: number[]; stop(): void } {
  const controller = new AbortController();
  const changes: number[] = [];
  const connected = (async () => {
    const response = await fetch(`${url}/api/events`, { signal: controller.signal });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      let buffered = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffered += decoder.decode(value, { stream: true });
          for (let end = buffered.indexOf('\n\n'); end !== -1; end = buffered.indexOf('\n\n')) {
            if (/^event: graph\.changed$/m.test(buffered.slice(0, end))) changes.push(performance.now());
            buffered = buffered.slice(end + 2);
          }
        }
      } catch {
        // Stopped.
      }
    })();
  })();
  return { connected, changes, stop: () => controller.abort() };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** A process's peak resident memory (`VmHWM`, Linux), in KB. */
function peakKbOf(pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}
