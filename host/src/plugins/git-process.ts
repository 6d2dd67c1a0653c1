/**
 * The git process: a small Node process of its own that starts git for
 * GitRunner and parses what git prints. Starting a process costs its parent
 * in proportion to the parent's memory (the kernel copies the parent's page
 * tables, then copy-on-write faults follow): measured here, 3 ms a start
 * from a process of 60 MB, 16 ms from 370 MB and 46 ms from 1.1 GB, most of
 * it system time. The host holds the graph of the repository (a gigabyte at
 * 100,000 files) and a blame is one process a file: started from here, each
 * costs the small process's price, and the host's threads are not blocked
 * meanwhile.
 */
import { execFile } from 'node:child_process';
import { setPriority } from 'node:os';
import { parseBlame, parseGitLog, parseRenamedPaths, parseSoleAuthorship } from './git-output.js';

/** What the git process is asked: run git, or stop a run. */
export type GitProcessRequest =
  | {
      type: 'run';
      id: number;
      cwd: string;
      args: string[];
      /** The host's environment when the run was asked for (PATH, GIT_*). */
      env: NodeJS.ProcessEnv;
      input?: string;
      maxBuffer: number;
      timeoutMs: number;
      parse: GitOutputKind;
    }
  | { type: 'cancel'; id: number };

/** How the output is given back: as text, or parsed (see git-output.ts). */
export type GitOutputKind = 'text' | 'blame' | 'log' | 'sole-authorship' | 'renamed-paths';

/** A run's answer: the output, or what went wrong. */
export type GitProcessResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; code: string | number | undefined; stderr: string; message: string; cancelled: boolean };

const PARSERS: Record<GitOutputKind, (output: string) => unknown> = {
  text: (output) => output,
  blame: parseBlame,
  log: parseGitLog,
  'sole-authorship': parseSoleAuthorship,
  'renamed-paths': parseRenamedPaths,
};

/** The niceness of git processes (0 is normal, 19 the lowest priority). */
const GIT_NICENESS = 10;

const running = new Map<number, AbortController>();

function answer(response: GitProcessResponse): void {
  running.delete(response.id);
  // The host has gone: nothing is waiting for the answer.
  if (process.connected) process.send!(response);
}

process.on('message', (request: GitProcessRequest) => {
  if (request.type === 'cancel') {
    running.get(request.id)?.abort();
    return;
  }
  const { id, cwd, args, env, input, maxBuffer, timeoutMs, parse } = request;
  const controller = new AbortController();
  running.set(id, controller);
  try {
    const child = execFile(
      'git',
      ['-C', cwd, ...args],
      { env, maxBuffer, timeout: timeoutMs, encoding: 'utf8', signal: controller.signal },
      (error, stdout, stderr) => {
        if (error) {
          answer({
            id,
            ok: false,
            code: (error as NodeJS.ErrnoException).code,
            stderr: String(stderr ?? ''),
            message: error.message,
            cancelled: controller.signal.aborted,
          });
          return;
        }
        try {
          answer({ id, ok: true, value: PARSERS[parse](stdout) });
        } catch (failure) {
          answer({
            id,
            ok: false,
            code: undefined,
            stderr: '',
            message: `the output of git ${args[0]} could not be read: ${(failure as Error).message}`,
            cancelled: false,
          });
        }
      },
    );
    if (input !== undefined) child.stdin?.end(input);
    // git works for plugins in bulk (a blame per file): at a low priority, it takes the CPU that is idle and
    // leaves the server and the plugins' own work to go first.
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, GIT_NICENESS);
      } catch {
        // Gone already, or not allowed: it runs at the normal priority.
      }
    }
  } catch (error) {
    answer({ id, ok: false, code: (error as NodeJS.ErrnoException).code, stderr: '', message: (error as Error).message, cancelled: false });
  }
});

// The host has gone (or closed the runner): the runs under way end with this process.
process.on('disconnect', () => {
  for (const controller of running.values()) controller.abort();
  process.exit(0);
});
