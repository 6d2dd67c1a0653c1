// `npx strata serve` stopped by npx's PID (issue 19, point 8): npm does not
// pass the signal on, and the server was left running, orphaned. Under npx
// (npm sets npm_command=exec) the server now stops when the process that
// started it is gone; started otherwise, an orphaned server keeps running.
// The npx chain is stood in for by `sh -c '... & wait'`, killed with SIGKILL.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { STRATA_BIN } from '../helpers/strata-cli.ts';

t.setTimeout(120_000);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `strata serve` under a shell that waits for it; resolves once it serves, with the shell's and the server's PIDs. */
async function serveUnderShell(
  t: { match(found: unknown, wanted: RegExp, message: string): unknown; teardown(fn: () => unknown): void },
  repo: string,
  npmCommand: string | undefined,
): Promise<{ shell: number; server: number }> {
  const env = { ...process.env };
  delete env.npm_command;
  if (npmCommand !== undefined) env.npm_command = npmCommand;
  const shell = spawn('sh', ['-c', `"${process.execPath}" "${STRATA_BIN}" serve "${repo}" --port 0 --no-watch & wait`], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  shell.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  for (let i = 0; i < 600 && !/is serving/.test(out); i++) await sleep(50);
  t.match(out, /is serving/, 'the server started');
  const server = Number(
    execFileSync('pgrep', ['-P', String(shell.pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')[0],
  );
  t.teardown(() => {
    try {
      process.kill(server, 'SIGKILL');
    } catch {
      // stopped already
    }
  });
  return { shell: shell.pid!, server };
}

async function runningAfter(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!existsSync(`/proc/${pid}`) || isZombie(pid)) return false;
    await sleep(100);
  }
  return true;
}

/** Exited but not yet reaped by its new parent. */
function isZombie(pid: number): boolean {
  try {
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

t.test('under npx, the server stops when npx is gone', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const { shell, server } = await serveUnderShell(t, repo, 'exec');
  process.kill(shell, 'SIGKILL');
  t.equal(await runningAfter(server, 15_000), false, 'the orphaned server stopped by itself');
});

t.test('started otherwise, an orphaned server keeps running (a server started in the background on purpose)', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const { shell, server } = await serveUnderShell(t, repo, undefined);
  process.kill(shell, 'SIGKILL');
  t.equal(await runningAfter(server, 3000), true, 'still running 3 s later');
});
