/**
 * Cold indexing of a generated repository of 100k files (time, peak memory)
 * and the time to bring the served graph up to date after a one-file change,
 * against the floors of issue 3 and against a full re-index measured in the
 * same run; then a branch switch (thousands of files edited, deleted and
 * added at once) and the time until all of it is visible; then a burst of
 * files written at once, which can overflow the watcher's queue: what its
 * events missed and whether the graph ends complete.
 *
 *   npm run bench:live               (100k files)
 *   npm run bench:live -- 20000      (another size)
 *   npm run bench:live -- --mixed    (100k files, half of them in ten other languages; one-file changes in each
 *                                     language too, then each language's files per second from a cold index of
 *                                     a repository of it alone: --per-language=5000 files, 0 for none;
 *                                     --per-language-only for that part alone)
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateMixedRepo, generateRepo, MIXED_LANGUAGES, type MixedLanguage, type MixedLanguageFiles } from './generate-repo.ts';
import { startServeProcess } from './serve-process.ts';
import { spiralLayout } from './spiral-layout.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const FILES = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 100_000);
/** Half of the files in the ten other languages of `generateMixedRepo`. */
const MIXED = args.includes('--mixed');
/** Files of each language's own repository, for its files per second (mixed only; 0: none). */
const PER_LANGUAGE = Number(/^--per-language=(\d+)$/.exec(args.find((arg) => arg.startsWith('--per-language=')) ?? '')?.[1] ?? 5_000);
const PER_LANGUAGE_ONLY = args.includes('--per-language-only');
/** One-file changes in each other language: edit, add, delete. */
const LANGUAGE_CHANGES = 3;
const CHANGES = 7;
/** The branch switch: files edited and deleted (and as many added as deleted). */
const SWITCH_EDITS = 2_000;
const SWITCH_DELETES = 500;

if (PER_LANGUAGE_ONLY) {
  process.stdout.write(`${perLanguageTable(PER_LANGUAGE)}\n`);
  process.exit(0);
}

const repo = mkdtempSync(path.join(tmpdir(), 'strata-live-'));
try {
  const mixed = MIXED ? generateMixedRepo(repo, FILES) : undefined;
  const generated = mixed ?? generateRepo(repo, Math.round((FILES * 21) / 20));
  process.stderr.write(`generated ${generated.files} files in ${generated.directories} directories\n`);
  if (mixed) {
    for (const [language, written] of Object.entries(mixed.languages)) {
      process.stderr.write(`  ${language}: ${written.files} files, ${(written.bytes / 1e6).toFixed(1)} MB\n`);
    }
  }

  // Files changed under two seconds before a build are not cached: wait, so that the warm run below can take them all.
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  // Cold index (no cache yet; it writes one into the repository's data directory), alone in a child process: wall time and peak memory.
  const indexOnce = (): { ms: number; peakKb: number; nodes: number; edges: number; cachedFiles: number } => {
    const run = spawnSync(process.execPath, [path.join(here, 'cold-index-child.ts'), repo], { cwd: path.resolve(here, '../..'), encoding: 'utf8' });
    if (run.status !== 0) throw new Error(run.stderr);
    return JSON.parse(run.stdout.trim().split('\n').pop()!);
  };
  const coldRun = indexOnce();
  process.stderr.write(
    `cold index: ${(coldRun.ms / 1000).toFixed(1)} s, peak RSS ${(coldRun.peakKb / 1024).toFixed(0)} MB, ${coldRun.nodes} nodes (load ${loadAverage()})\n`,
  );
  // Warm: the same, with the cache the cold run wrote (what a restart of `strata serve` does).
  const warmRun = indexOnce();
  process.stderr.write(`warm index: ${(warmRun.ms / 1000).toFixed(1)} s, peak RSS ${(warmRun.peakKb / 1024).toFixed(0)} MB (load ${loadAverage()})\n`);

  // Live: serve (the time to its URL, with the cache the runs above wrote), change one file at a time, read the
  // server's own timing of each update.
  const updates: Array<{ durationMs: number }> = [];
  const checks: Array<{ stalePaths: number; changedNodes?: number; checkMs: number; durationMs: number }> = [];
  const placements: Array<{ placed: number; placeMs: number }> = [];
  const placedSaves: Array<{ saveMs: number }> = [];
  let log = '';
  /** The server's last log lines, printed when the benchmark fails. */
  const lastLines: string[] = [];
  let phase = 'start';
  // Read from the start: a pipe nobody reads fills, and the server's writes to it block.
  const onStderr = (chunk: Buffer): void => {
    log += chunk.toString();
    let newline;
    while ((newline = log.indexOf('\n')) !== -1) {
      const line = log.slice(0, newline);
      log = log.slice(newline + 1);
      lastLines.push(line);
      if (lastLines.length > 200) lastLines.shift();
      if (line.includes('"graph updated"')) updates.push(JSON.parse(line) as { durationMs: number });
      if (line.includes('"graph checked against the files')) checks.push(JSON.parse(line) as (typeof checks)[number]);
      if (line.includes('"placed the new nodes in the saved layout"')) placements.push(JSON.parse(line) as (typeof placements)[number]);
      if (line.includes('"saved the placed nodes"')) placedSaves.push(JSON.parse(line) as (typeof placedSaves)[number]);
    }
  };
  const serveStarted = performance.now();
  const server = await startServeProcess(repo, 'info', 'pipe', [], onStderr);
  const serveStartMs = performance.now() - serveStarted;
  const { url } = server;
  server.child.on('exit', (code, signal) => lastLines.push(`strata serve exited: ${code ?? signal}`));
  try {
    // Right after start the server still finishes work (writing the facts cache, loading plugins): the longest a
    // request waits in the first two seconds, from a client that asks every 5 ms.
    let longestWaitMs = 0;
    for (const until = performance.now() + 2_000; performance.now() < until; ) {
      const asked = performance.now();
      await (await fetch(`${url}/api/graph/layout/compute/status`)).arrayBuffer();
      longestWaitMs = Math.max(longestWaitMs, performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const target = 'pkg1/file3.ts';
    const nodeUrl = `${url}/api/graph/nodes/${encodeURIComponent(`file:${target}`)}`;
    phase = 'one-file changes';
    const updateMs: number[] = [];
    const visibleMs: number[] = [];
    for (let i = 0; i < CHANGES; i++) {
      const seen = updates.length;
      const marker = `export function changed${i}() { return ${i}; }\n`;
      const t0 = performance.now();
      // Alternate: edit a file, add a file, delete it again.
      if (i % 3 === 0) appendFileSync(path.join(repo, target), marker);
      else if (i % 3 === 1) writeFileSync(path.join(repo, 'pkg1/added.ts'), `import { value } from './file3.js';\n${marker}`);
      else unlinkSync(path.join(repo, 'pkg1/added.ts'));
      const probe = i % 3 === 0 ? nodeUrl : `${url}/api/graph/nodes/${encodeURIComponent('file:pkg1/added.ts')}`;
      const wanted = i % 3 === 2 ? 404 : 200;
      for (;;) {
        const response = await fetch(probe);
        const body = (await response.json()) as { data?: { outgoing?: Array<{ target: string }> } };
        const done = response.status === wanted && (i % 3 !== 0 || body.data?.outgoing?.some((edge) => edge.target.endsWith(`#changed${i}`)));
        if (done && updates.length > seen) break;
        if (performance.now() - t0 > 20_000) throw new Error('change not seen within 20 s');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      visibleMs.push(performance.now() - t0);
      updateMs.push(updates.at(-1)!.durationMs);
      process.stderr.write(
        `change ${i} (${['edit', 'add', 'delete'][i % 3]}): update ${updates.at(-1)!.durationMs} ms, visible ${visibleMs.at(-1)!.toFixed(0)} ms\n`,
      );
    }
    // The same in each other language of a mixed repository: edit its sample file (a function or class appended),
    // add a copy of it beside it, delete that copy; from the write until the change is visible over HTTP.
    const languageRows: string[][] = [];
    for (const [language, written] of mixed ? (Object.entries(mixed.languages) as Array<[MixedLanguage, MixedLanguageFiles]>) : []) {
      if ((language as string) === 'typescript') continue;
      phase = `one-file changes in ${language}`;
      const sample = written.sample;
      const copy = `${path.posix.dirname(sample)}/added${path.posix.extname(sample)}`;
      const languageUpdates: number[] = [];
      const languageVisible: number[] = [];
      for (let i = 0; i < LANGUAGE_CHANGES; i++) {
        const seen = updates.length;
        const name = `changed${i}`;
        const t0 = performance.now();
        if (i % 3 === 0) appendFileSync(path.join(repo, sample), written.declaration(name));
        else if (i % 3 === 1) writeFileSync(path.join(repo, copy), `${readFileSync(path.join(repo, sample), 'utf8')}${written.declaration(`added${i}`)}`);
        else unlinkSync(path.join(repo, copy));
        const probe = `${url}/api/graph/nodes/${encodeURIComponent(`file:${i % 3 === 0 ? sample : copy}`)}`;
        const wanted = i % 3 === 2 ? 404 : 200;
        for (;;) {
          const response = await fetch(probe);
          const body = (await response.json()) as { data?: { outgoing?: Array<{ target: string }> } };
          const done = response.status === wanted && (i % 3 !== 0 || body.data?.outgoing?.some((edge) => edge.target.toLowerCase().endsWith(name)));
          if (done && updates.length > seen) break;
          if (performance.now() - t0 > 20_000) throw new Error(`change ${i} of ${sample} not seen within 20 s`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        languageVisible.push(performance.now() - t0);
        languageUpdates.push(updates.at(-1)!.durationMs);
      }
      process.stderr.write(
        `${language} changes (edit, add, delete): update ${languageUpdates.join(', ')} ms, visible ${languageVisible.map((ms) => ms.toFixed(0)).join(', ')} ms\n`,
      );
      languageRows.push([
        `one-file change in ${language} (${path.posix.extname(sample)}): update ms in the server / visible over HTTP ms (edit, add, delete)`,
        `${languageUpdates.join(', ')} / ${languageVisible.map((ms) => ms.toFixed(0)).join(', ')}`,
      ]);
    }

    // Incremental placement (issue 22, point 4): with a layout saved for every node, each file added is placed next
    // to its directory and served before the change is announced (saved in the background). The server's own time
    // to place and to save (its log), and the time from the write until the node is served with a position.
    // Not in a mixed repository: its layout of every node (about 470,000 with the other languages' symbols) is over
    // the server's 16 MiB body limit.
    phase = 'placement';
    if (!mixed) {
      const served = (await (await fetch(`${url}/api/graph`)).json()) as { data: { nodes: Array<{ id: string; parent?: string }> } };
      const layout = spiralLayout(served.data.nodes);
      const saved = await fetch(`${url}/api/graph/layout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ positions: layout }),
      });
      if (!saved.ok) throw new Error(`saving a layout answered ${saved.status}: ${await saved.text()}`);
    }
    const placeMs: number[] = [];
    const placedVisibleMs: number[] = [];
    const savesBefore = placedSaves.length;
    for (let i = 0; i < (mixed ? 0 : CHANGES); i++) {
      const seen = placements.length;
      const file = `pkg2/placed${i}.ts`;
      const t0 = performance.now();
      writeFileSync(path.join(repo, file), `import { value } from './file0.js';\nexport const placed${i} = value;\n`);
      for (;;) {
        const response = await fetch(`${url}/api/graph/nodes/${encodeURIComponent(`file:${file}`)}`);
        const body = (await response.json()) as { data?: { position?: unknown } };
        if (response.status === 200 && body.data?.position && placements.length > seen) break;
        if (performance.now() - t0 > 20_000) throw new Error(`${file} was not placed within 20 s`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      placedVisibleMs.push(performance.now() - t0);
      placeMs.push(placements.at(-1)!.placeMs);
      process.stderr.write(
        `placement ${i}: placed in ${placeMs.at(-1)} ms, served with its position ${placedVisibleMs.at(-1)!.toFixed(0)} ms after the write\n`,
      );
    }

    // A branch switch: thousands of files changed at once across the repository, as `git checkout` does (edits,
    // deletions and new files), then the time from the last write until the last of each kind is visible over HTTP,
    // and whether the graph has every one of them then.
    const sources = (readdirSync(repo, { recursive: true }) as string[]).filter((p) => p.endsWith('.ts') && p.includes('/')).sort();
    const step = Math.max(1, Math.floor(sources.length / (SWITCH_EDITS + SWITCH_DELETES)));
    const picked = sources.filter((_, i) => i % step === 0).slice(0, SWITCH_EDITS + SWITCH_DELETES);
    const edited = picked.filter((_, i) => i % 5 !== 4);
    const deleted = picked.filter((_, i) => i % 5 === 4);
    const added = edited.slice(0, SWITCH_DELETES).map((file, i) => `${path.posix.dirname(file)}/switched${i}.ts`);
    const switchUpdatesBefore = updates.length;
    const switchStarted = performance.now();
    for (const file of edited) appendFileSync(path.join(repo, file), 'export function switched() { return 1; }\n');
    for (const file of deleted) unlinkSync(path.join(repo, file));
    for (const file of added) writeFileSync(path.join(repo, file), "import { value } from './file0.js';\nexport const switchedIn = value;\n");
    const switchWrittenAt = performance.now();
    phase = 'waiting for the branch switch';
    const nodeStatus = async (id: string): Promise<number> => {
      const response = await fetch(`${url}/api/graph/nodes/${encodeURIComponent(id)}`);
      await response.arrayBuffer();
      return response.status;
    };
    for (;;) {
      const [edit, add, gone] = await Promise.all([
        nodeStatus(`sym:${edited.at(-1)}#switched`),
        nodeStatus(`file:${added.at(-1)}`),
        nodeStatus(`file:${deleted.at(-1)}`),
      ]);
      if (edit === 200 && add === 200 && gone === 404) break;
      if (performance.now() - switchWrittenAt > 60_000) throw new Error('the branch switch was not seen within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const switchVisibleMs = performance.now() - switchWrittenAt;
    phase = 'graph after the switch';
    const afterSwitch = (await (await fetch(`${url}/api/graph`)).json()) as { data: { nodes: Array<{ id: string }> } };
    const idsAfterSwitch = new Set(afterSwitch.data.nodes.map((node) => node.id));
    const switchMissing =
      edited.filter((file) => !idsAfterSwitch.has(`sym:${file}#switched`)).length +
      added.filter((file) => !idsAfterSwitch.has(`file:${file}`)).length +
      deleted.filter((file) => idsAfterSwitch.has(`file:${file}`)).length;
    const switchUpdates = updates.slice(switchUpdatesBefore);
    process.stderr.write(
      `branch switch: ${edited.length} edited, ${deleted.length} deleted, ${added.length} added in ${(switchWrittenAt - switchStarted).toFixed(0)} ms; visible ${switchVisibleMs.toFixed(0)} ms; ${switchUpdates.length} updates\n`,
    );

    // A burst: files written at once into existing directories (a large checkout, an unpacked archive). Their
    // events can overflow inotify's queue, which the watcher passes over silently; the server checks the graph
    // against the files once the burst is over. How much the events missed, and whether the graph ends complete.
    const peakBeforeBurstKb = peakKbOf(server.child.pid!);
    const burstFiles = Math.round(FILES * 0.6);
    phase = 'burst';
    const burstStarted = performance.now();
    for (let i = 0; i < burstFiles; i++) {
      writeFileSync(path.join(repo, `pkg${1 + (i % 8)}/burst${i}.ts`), `export const b${i} = ${i};\n`);
      // Let the client's timers run: with its loop held for over 5 s (the server's keep-alive timeout), fetch would
      // reuse a connection the server has just closed as idle ('other side closed').
      if (i % 2_000 === 1_999) await new Promise((resolve) => setImmediate(resolve));
    }
    const burstWrittenMs = performance.now() - burstStarted;
    // Meanwhile the server applies the burst's events, then checks: the longest a request waits, asking every 5 ms.
    let longestBurstWaitMs = 0;
    while (checks.length === 0) {
      if (performance.now() - burstStarted > 180_000) throw new Error('no check against a full build within 180 s of the burst');
      const asked = performance.now();
      phase = `burst poll at ${(asked - burstStarted).toFixed(0)} ms`;
      await (await fetch(`${url}/api/graph/layout/compute/status`)).arrayBuffer();
      longestBurstWaitMs = Math.max(longestBurstWaitMs, performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const burstCompleteMs = performance.now() - burstStarted - burstWrittenMs;
    const graph = (await (await fetch(`${url}/api/graph`)).json()) as { data: { nodes: Array<{ kind: string; path: string }> } };
    const filesInGraph = new Set(graph.data.nodes.filter((node) => node.kind === 'file').map((node) => node.path));
    let burstMissing = 0;
    for (let i = 0; i < burstFiles; i++) if (!filesInGraph.has(`pkg${1 + (i % 8)}/burst${i}.ts`)) burstMissing++;
    process.stderr.write(`burst: ${burstFiles} files written in ${burstWrittenMs.toFixed(0)} ms; check: ${JSON.stringify(checks[0])}\n`);
    const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const placedSavesOf = (from: number, to: number): string =>
      placedSaves
        .slice(from, to)
        .map((save) => save.saveMs)
        .join(', ') || 'none';
    const rows = [
      ['files', String(generated.files)],
      ['nodes / edges', `${coldRun.nodes} / ${coldRun.edges}`],
      ['cold index s (floor 30)', `${(coldRun.ms / 1000).toFixed(1)} (${(coldRun.ms / 30_000).toFixed(2)} of the floor)`],
      ['cold index peak RSS MB (floor 2048)', `${(coldRun.peakKb / 1024).toFixed(0)} (${(coldRun.peakKb / 1024 / 2048).toFixed(2)} of the floor)`],
      ['warm index s (files from the cache)', `${(warmRun.ms / 1000).toFixed(1)} (${warmRun.cachedFiles}); peak RSS ${(warmRun.peakKb / 1024).toFixed(0)} MB`],
      [
        'one-file update ms, in the server (median of 7; floor 200)',
        `${median(updateMs)} (max ${Math.max(...updateMs)}; ${(median(updateMs) / 200).toFixed(2)} of the floor)`,
      ],
      [
        'one-file change visible over HTTP ms (median of 7)',
        `${median(visibleMs).toFixed(0)} (includes the watcher's 50 ms and the server's 10 ms of event settling)`,
      ],
      ['full re-index / one-file update', `${(coldRun.ms / median(updateMs)).toFixed(0)}x`],
      ...languageRows,
      ...(mixed
        ? []
        : [
            [
              'a file added to a saved layout of every node: placed, in the server ms (median of 7; floor 100)',
              `${median(placeMs)} (max ${Math.max(...placeMs)}; ${(median(placeMs) / 100).toFixed(2)} of the floor); saved in the background in ${placedSavesOf(savesBefore, savesBefore + CHANGES)} ms`,
            ],
            ['a file added to a saved layout: served with its position ms after the write (median of 7)', median(placedVisibleMs).toFixed(0)],
            [
              'branch switch and burst with the saved layout: nodes placed / placing ms (per update)',
              placements
                .slice(CHANGES)
                .map((placement) => `${placement.placed} / ${placement.placeMs}`)
                .join('; ') || 'none',
            ],
            ['branch switch and burst: the placed nodes saved in the background, ms per write', placedSavesOf(savesBefore + CHANGES, placedSaves.length)],
          ]),
      ['`strata serve` start to its URL s (cache warm) / warm index', `${(serveStartMs / 1000).toFixed(1)} / ${(warmRun.ms / 1000).toFixed(1)}`],
      ['longest request wait in the 2 s after start ms', longestWaitMs.toFixed(0)],
      [
        'branch switch: files edited / deleted / added at once, across the repository',
        `${edited.length} / ${deleted.length} / ${added.length} in ${((switchWrittenAt - switchStarted) / 1000).toFixed(2)} s`,
      ],
      [
        'branch switch: from the last write until all three kinds are visible over HTTP ms',
        `${switchVisibleMs.toFixed(0)} (${switchUpdates.length} updates of ${switchUpdates.map((update) => update.durationMs).join(' + ')} ms in the server)`,
      ],
      ['branch switch: changes not in the graph then', String(switchMissing)],
      ['burst: files written at once into 8 directories', `${burstFiles} in ${(burstWrittenMs / 1000).toFixed(1)} s`],
      ["burst: paths the check found stale / nodes the watcher's events had missed", `${checks[0]!.stalePaths} / ${checks[0]!.changedNodes ?? 0}`],
      [
        'burst: from the last write to the checked graph s',
        `${(burstCompleteMs / 1000).toFixed(1)} (listing and comparing ${(checks[0]!.checkMs / 1000).toFixed(1)}, applying what differed ${(checks[0]!.durationMs / 1000).toFixed(1)})`,
      ],
      ['burst: files of the burst missing from the graph after the check', String(burstMissing)],
      ['burst: longest request wait from the last write to the checked graph ms', longestBurstWaitMs.toFixed(0)],
      [
        'server peak RSS MB: after the one-file changes / after the burst',
        `${(peakBeforeBurstKb / 1024).toFixed(0)} / ${(peakKbOf(server.child.pid!) / 1024).toFixed(0)}`,
      ],
    ];
    process.stdout.write(`${rows.map(([k, v]) => `| ${k} | ${v} |`).join('\n')}\n`);
    if (mixed) process.stdout.write(`cold index peak RSS ${(coldRun.peakKb / 1024).toFixed(0)} MB; load at the end: ${loadAverage()}\n`);
  } catch (error) {
    process.stderr.write(`failed in: ${phase}\nthe server's last log lines:\n${lastLines.slice(-40).join('\n')}\n`);
    throw error;
  } finally {
    await server.stop();
  }
} finally {
  rmSync(repo, { recursive: true, force: true });
}
if (MIXED && PER_LANGUAGE > 0) process.stdout.write(`\n${perLanguageTable(PER_LANGUAGE)}\n`);

/**
 * Each language's files per second and MB per second: a repository of that language alone (`files` files, as
 * `generateMixedRepo` writes them) indexed cold in a child process, the best of two runs (the machine is shared);
 * the time of the `indexRepository` call, which includes listing, reading, parsing, resolving and writing the cache.
 */
function perLanguageTable(files: number): string {
  const rows = ['| language | files | MB | cold index s (best of 2) | files/s | MB/s | peak RSS MB |', '| --- | --- | --- | --- | --- | --- | --- |'];
  for (const language of ['typescript', ...MIXED_LANGUAGES] as const) {
    const root = mkdtempSync(path.join(tmpdir(), `strata-${language}-`));
    try {
      const written = generateMixedRepo(root, files, [language]).languages[language]!;
      const runs = [0, 1].map(() => {
        rmSync(path.join(root, '.strata'), { recursive: true, force: true });
        const run = spawnSync(process.execPath, [path.join(here, 'cold-index-child.ts'), root], { cwd: path.resolve(here, '../..'), encoding: 'utf8' });
        if (run.status !== 0) throw new Error(run.stderr);
        return JSON.parse(run.stdout.trim().split('\n').pop()!) as { ms: number; peakKb: number };
      });
      const best = runs.reduce((a, b) => (a.ms <= b.ms ? a : b));
      const seconds = best.ms / 1000;
      rows.push(
        `| ${language} | ${written.files} | ${(written.bytes / 1e6).toFixed(2)} | ${seconds.toFixed(2)} | ${(written.files / seconds).toFixed(0)} | ${(written.bytes / 1e6 / seconds).toFixed(2)} | ${(best.peakKb / 1024).toFixed(0)} |`,
      );
      process.stderr.write(`${rows.at(-1)} (runs ${runs.map((run) => (run.ms / 1000).toFixed(2)).join(', ')} s; load ${loadAverage()})\n`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  return rows.join('\n');
}

/** The 1-minute load average (the machine is shared). */
function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!;
}

/** A process's peak resident memory (`VmHWM`, Linux), in KB. */
function peakKbOf(pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}
