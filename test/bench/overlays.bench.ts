/**
 * The built-in overlays on a real repository, against the git commands
 * they stand on, in the same run:
 *
 * - git-activity over the whole history against `git log --numstat` alone
 *   over the same range (floor: at most 1.2x);
 * - ownership against `git blame` of the same files one after the other
 *   (floor: at most 0.5x), and a second apply with nothing changed (floor:
 *   under a second);
 * - complexity against the indexer's own time on the same repository (a
 *   cold index, and oxc-parser's parse of the same files on one thread)
 *   (floor: at most 2x).
 *
 *   npm run bench:overlays -- <repository> [--blame-sample N]
 *
 * The repository must be a git clone with history (fetch one; never commit
 * it). Each side works on its own fresh clone of it, so that neither gains
 * from what the other left in `.git` (Strata writes git's commit-graph).
 * `--blame-sample N` times the sequential blame on N of the files and
 * scales it up, for repositories where blaming all would take too long.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { indexRepository, startStrata } from '@strata/host';

const run = promisify(execFile);
const args = process.argv.slice(2);
const source = args.find((arg) => !arg.startsWith('--') && !/^\d+$/.test(arg));
const sampleIndex = args.indexOf('--blame-sample');
const blameSample = sampleIndex >= 0 ? Number(args[sampleIndex + 1]) : undefined;
if (!source) {
  console.error('usage: npm run bench:overlays -- <git repository> [--blame-sample N]');
  process.exit(2);
}
const work = mkdtempSync(path.join(tmpdir(), 'strata-bench-overlays-'));
const repository = path.join(work, 'strata');
const peerRepository = path.join(work, 'peer');
await run('git', ['clone', '-q', source, repository]);
await run('git', ['clone', '-q', source, peerRepository]);

/** Runs git on the peer's clone and times it. */
const git = async (gitArgs: string[]): Promise<number> => {
  const started = performance.now();
  await run('git', ['-C', peerRepository, ...gitArgs], { maxBuffer: 1024 * 1024 * 1024 });
  return performance.now() - started;
};

const strata = await startStrata({
  repository,
  env: {},
  flags: { port: 0, logLevel: 'silent', watch: false, dataDir: path.join(work, 'data'), plugins: { wallTimeMs: 3_600_000, cpuTimeMs: 600_000 } },
  logDestination: new Writable({ write: (_chunk, _encoding, done) => done() }),
});
const apply = async (plugin: string, body: unknown): Promise<{ ms: number; data: any }> => {
  const started = performance.now();
  const response = await fetch(`${strata.url}/api/overlays/${plugin}/apply`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as any;
  if (response.status !== 200) throw new Error(`${plugin}: ${JSON.stringify(json)}`);
  return { ms: performance.now() - started, data: json.data };
};

try {
  const commits = Number((await run('git', ['-C', repository, 'rev-list', '--count', 'HEAD'])).stdout.trim());
  const files = Number((await run('git', ['-C', repository, 'ls-files'])).stdout.split('\n').filter(Boolean).length);
  console.log(`\nRepository: ${source} (${commits} commits, ${files} tracked files)\n`);

  // git-activity: the whole history.
  const since = '1990-01-01';
  const until = new Date().toISOString().slice(0, 10);
  const gitLog = await git(['log', '--numstat', `--since=${since}`, `--until=${until}`]);
  const activity = await apply('git-activity', { since, until });
  const gitLogAgain = await git(['log', '--numstat', `--since=${since}`, `--until=${until}`]);
  const logMs = Math.min(gitLog, gitLogAgain);
  console.log('| overlay | Strata ms | peer | peer ms | ratio | floor |');
  console.log('|---|---|---|---|---|---|');
  console.log(
    `| git-activity (${activity.data.summary.commits} commits) | ${activity.ms.toFixed(0)} | git log --numstat | ${logMs.toFixed(0)} | ${(activity.ms / logMs).toFixed(2)}x | 1.2x: ${activity.ms / logMs <= 1.2 ? 'met' : 'NOT met'} |`,
  );

  // ownership: every file it blames, then again with nothing changed.
  const owned = await apply('ownership', {});
  const again = await apply('ownership', {});
  const blamed = Number(owned.data.summary.filesBlamed);
  const graph = (await (await fetch(`${strata.url}/api/graph`)).json()) as { data: { nodes: Array<{ kind: string; path: string; language?: string }> } };
  const candidates = graph.data.nodes.filter((node) => node.kind === 'file' && node.language).map((node) => node.path);
  const sample = blameSample
    ? candidates.filter((_, i) => i % Math.max(1, Math.floor(candidates.length / blameSample)) === 0).slice(0, blameSample)
    : candidates;
  let blameMs = 0;
  for (const file of sample) blameMs += await git(['blame', '--line-porcelain', '--', file]).catch(() => 0);
  const sequential = (blameMs * candidates.length) / sample.length;
  const note = sample.length < candidates.length ? ` (${sample.length} timed, scaled to ${candidates.length})` : '';
  console.log(
    `| ownership (${blamed} files) | ${owned.ms.toFixed(0)} | git blame, one file after the other${note} | ${sequential.toFixed(0)} | ${(owned.ms / sequential).toFixed(2)}x | 0.5x: ${owned.ms / sequential <= 0.5 ? 'met' : 'NOT met'} |`,
  );
  console.log(`| ownership again, nothing changed | ${again.ms.toFixed(0)} | — | — | — | 1000 ms: ${again.ms < 1000 ? 'met' : 'NOT met'} |`);

  // complexity: every TypeScript and JavaScript file.
  const complexity = await apply('complexity', {});
  const indexStarted = performance.now();
  await indexRepository({ repository: peerRepository, env: {} });
  const indexMs = performance.now() - indexStarted;
  const sourceFiles = graph.data.nodes
    .filter((node) => node.kind === 'file' && ['typescript', 'javascript', 'tsx', 'jsx'].includes(node.language ?? ''))
    .map((node) => node.path);
  const { parseSync } = createRequire(createRequire(import.meta.url).resolve('@strata/host'))('oxc-parser') as {
    parseSync(name: string, text: string): unknown;
  };
  const parseStarted = performance.now();
  for (const file of sourceFiles) {
    try {
      parseSync(file, readFileSync(path.join(peerRepository, file), 'utf8'));
    } catch {
      // unreadable or too odd: the indexer skips it too
    }
  }
  const parseMs = performance.now() - parseStarted;
  const summary = complexity.data.summary as Record<string, unknown>;
  console.log(
    `| complexity (${summary.files ?? sourceFiles.length} files, ${summary.functions ?? '?'} functions) | ${complexity.ms.toFixed(0)} | Strata's cold index (2 threads) | ${indexMs.toFixed(0)} | ${(complexity.ms / indexMs).toFixed(2)}x | 2x: ${complexity.ms / indexMs <= 2 ? 'met' : 'NOT met'} |`,
  );
  console.log(`| | | oxc-parser alone, same ${sourceFiles.length} files, one thread | ${parseMs.toFixed(0)} | ${(complexity.ms / parseMs).toFixed(2)}x | |`);
} finally {
  await strata.stop();
  rmSync(work, { recursive: true, force: true });
}
