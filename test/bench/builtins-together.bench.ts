/**
 * The built-in overlays that take longest, ownership and complexity, applied
 * at the same time on large repositories with the default limits, against
 * each applied alone on the same repository in the same run (the peer: what
 * the other plugin's apply costs it). Every apply must succeed; the ratio
 * together/alone shows whether one plugin starves the other.
 *
 *   npm run bench:builtins -- [--files 10000] [--no-generated] [--together-only] [git clone ...]
 *
 * Without clones it runs on a generated repository of `--files` files with a
 * history (20 commits by 5 authors). Each repository given is cloned afresh
 * (never committed: fetch one for the purpose); git's commit-graph is written
 * once before the runs, so that no run pays for it. Each apply runs on a
 * fresh `strata serve` (no answer cached from a previous run). With
 * `--together-only` the applies alone are left out (at 100,000 files each
 * ownership apply is over an hour of git on two cores): the table then says
 * whether both succeed together with the defaults, and how long they took.
 */
import { execFile, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { generateRepo } from './generate-repo.ts';
import { type ServeProcess, STRATA_BIN, startServeProcess } from './serve-process.ts';

const run = promisify(execFile);
const { values: options, positionals: clones } = parseArgs({
  allowPositionals: true,
  options: {
    files: { type: 'string', default: '10000' },
    'no-generated': { type: 'boolean', default: false },
    'together-only': { type: 'boolean', default: false },
  },
});
const PLUGINS = ['ownership', 'complexity'] as const;

interface Outcome {
  ms: number;
  state: string;
  error?: string;
  summary?: Record<string, unknown>;
  /** Progress reports seen in the event stream, and the last progress line the CLI wrote. */
  progressEvents: number;
  lastProgress?: string;
  /** Largest gap between two answers of a cheap GET polled every 100 ms during the apply. */
  worstGetMs: number;
}

async function git(repo: string, ...args: string[]): Promise<string> {
  return (await run('git', ['-C', repo, ...args], { maxBuffer: 256 * 1024 * 1024 })).stdout;
}

/** A generated repository of `files` files with 20 commits by 5 authors, each touching a few hundred files. */
async function generatedWithHistory(root: string, files: number): Promise<void> {
  const made = generateRepo(root, Math.round(files * 1.05));
  await git(root, 'init', '-q', '-b', 'main');
  const authors = ['ada', 'brian', 'grace', 'ken', 'linus'];
  const commit = async (author: string, message: string, date: string): Promise<void> => {
    await git(root, 'add', '-A');
    await run('git', ['-C', root, '-c', `user.name=${author}`, '-c', `user.email=${author}@example.com`, 'commit', '-q', '-m', message], {
      env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
  };
  await commit('ada', 'initial', '2025-01-01T00:00:00Z');
  const list = (await git(root, 'ls-files')).split('\n').filter(Boolean);
  let seed = 7;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const { appendFileSync: append } = await import('node:fs');
  for (let c = 1; c <= 20; c++) {
    for (let k = 0; k < Math.max(50, Math.round(list.length / 30)); k++)
      append(path.join(root, list[Math.floor(random() * list.length)]!), `export const edit${c}_${k} = ${c};\n`);
    await commit(authors[c % authors.length]!, `change ${c}`, `2026-${String(1 + (c % 10)).padStart(2, '0')}-15T12:00:00Z`);
  }
  console.log(`generated: ${made.files} files in ${made.directories} directories, 21 commits`);
}

/** Applies `plugins` at once on a fresh server, watching the event stream and a cheap GET meanwhile. */
async function applyOnFreshServer(repo: string, plugins: readonly string[]): Promise<Map<string, Outcome>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'strata-bench-builtins-data-'));
  let server: ServeProcess | undefined;
  try {
    server = await startServeProcess(repo, 'warn', 'inherit', ['--data-dir', dataDir, '--no-watch']);
    const url = server.url;
    const progress = new Map<string, { count: number }>(plugins.map((plugin) => [plugin, { count: 0 }]));
    const events = new AbortController();
    const watching = (async () => {
      const response = await fetch(`${url}/api/events`, { signal: events.signal });
      const decoder = new TextDecoder();
      let buffered = '';
      for await (const chunk of response.body!) {
        buffered += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const frame = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (!/^event: overlay\.progress$/m.test(frame)) continue;
          const data = JSON.parse(/^data: (.*)$/m.exec(frame)![1]!) as { pluginId: string };
          const seen = progress.get(data.pluginId);
          if (seen) seen.count++;
        }
      }
    })().catch(() => undefined);
    let worstGetMs = 0;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const started = performance.now();
        const answered = await fetch(`${url}/api/overlays`)
          .then((response) => response.arrayBuffer())
          .then(
            () => true,
            () => false,
          );
        if (answered) worstGetMs = Math.max(worstGetMs, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const outcomes = new Map<string, Outcome>();
    // Through the CLI, as a user applies them: its request waits however long the apply takes.
    await Promise.all(
      plugins.map(async (plugin) => {
        const started = performance.now();
        const cli = spawn(process.execPath, [STRATA_BIN, 'overlay', 'apply', plugin, '--server', url], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        cli.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        cli.stdout!.resume();
        const code = await new Promise<number | null>((resolve) => cli.on('exit', resolve));
        const ms = performance.now() - started;
        const status = (
          (await (await fetch(`${url}/api/overlays/${plugin}/status`)).json()) as {
            data: { state: string; summary: Record<string, unknown>; error: { message: string } | null };
          }
        ).data;
        const progressLines = stderr.split('\n').filter((line) => line.startsWith(`Applying ${plugin}: `));
        outcomes.set(plugin, {
          ms,
          state: code === 0 ? status.state : 'failed',
          error: code === 0 ? undefined : (status.error?.message ?? stderr.trim().split('\n').at(-1)),
          summary: status.summary,
          progressEvents: 0,
          lastProgress: progressLines.at(-1),
          worstGetMs: 0,
        });
      }),
    );
    polling = false;
    await poll;
    events.abort();
    await watching;
    for (const [plugin, outcome] of outcomes) Object.assign(outcome, { progressEvents: progress.get(plugin)!.count, worstGetMs });
    return outcomes;
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function benchRepository(label: string, repo: string): Promise<void> {
  const files = (await git(repo, 'ls-files')).split('\n').filter(Boolean).length;
  const commits = Number((await git(repo, 'rev-list', '--count', 'HEAD')).trim());
  await git(repo, 'commit-graph', 'write', '--reachable', '--changed-paths');
  console.log(`\n${label}: ${files} tracked files, ${commits} commits; default limits\n`);
  const alone = new Map<string, Outcome>();
  if (!options['together-only']) for (const plugin of PLUGINS) alone.set(plugin, (await applyOnFreshServer(repo, [plugin])).get(plugin)!);
  const together = await applyOnFreshServer(repo, PLUGINS);
  const lines = [
    '| repository | plugin | alone ms | together ms | ratio | result together | progress events | last CLI progress line | worst GET ms (together) |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const plugin of PLUGINS) {
    const a = alone.get(plugin);
    const t = together.get(plugin)!;
    const result = (outcome: Outcome): string => (outcome.state === 'active' ? 'ok' : `FAILED ${outcome.error ?? outcome.state}`);
    lines.push(
      `| ${label} | ${plugin} | ${a ? `${a.ms.toFixed(0)} (${result(a)})` : 'not run'} | ${t.ms.toFixed(0)} | ${a ? `${(t.ms / a.ms).toFixed(2)}x` : '—'} | ${result(t)} | ${t.progressEvents} | ${t.lastProgress ?? '—'} | ${t.worstGetMs.toFixed(0)} |`,
    );
  }
  for (const plugin of PLUGINS) lines.push(`\n${plugin} summary (together): ${JSON.stringify(together.get(plugin)!.summary ?? {})}`);
  console.log(lines.join('\n'));
  if (process.env.STRATA_BENCH_OUT) appendFileSync(process.env.STRATA_BENCH_OUT, `${lines.join('\n')}\n`);
}

const work = mkdtempSync(path.join(tmpdir(), 'strata-bench-builtins-'));
try {
  if (!options['no-generated']) {
    const root = path.join(work, 'generated');
    await generatedWithHistory(root, Number(options.files));
    await benchRepository(`generated ${options.files}`, root);
  }
  for (const [index, source] of clones.entries()) {
    const clone = path.join(work, `clone-${index}`);
    await run('git', ['clone', '-q', source, clone]);
    await benchRepository(path.basename(source.replace(/\/(repo|\.git)\/?$/, '')), clone);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
