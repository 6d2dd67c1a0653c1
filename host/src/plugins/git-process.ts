/**
 * A git thread: runs git processes for GitRunner and parses what they print.
 * Starting a process blocks the thread that starts it until the process has
 * been made (about 20 ms each here, whatever the parent's size): from the
 * main thread, four blames at a time held it for most of every second, and a
 * plugin reading files beside them waited 200 ms a read.
 */
import { execFile } from 'node:child_process';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { parseBlame, parseGitLog } from './git-output.js';

/** What a git thread is asked: run git, or stop a run. */
export type GitThreadRequest =
  | { type: 'run'; id: number; cwd: string; args: string[]; maxBuffer: number; timeoutMs: number; parse: GitOutputKind }
  | { type: 'cancel'; id: number };

/** How the output is given back: as text, or parsed as blame or log. */
export type GitOutputKind = 'text' | 'blame' | 'log';

/** A run's answer: the output, or what went wrong. */
export type GitThreadResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; code: string | number | undefined; stderr: string; message: string; cancelled: boolean };

/** The niceness of git processes (0 is normal, 19 the lowest priority). */
const GIT_NICENESS = 10;

const running = new Map<number, AbortController>();

parentPort!.on('message', (request: GitThreadRequest) => {
  if (request.type === 'cancel') {
    running.get(request.id)?.abort();
    return;
  }
  const { id, cwd, args, maxBuffer, timeoutMs, parse } = request;
  const controller = new AbortController();
  running.set(id, controller);
  const answer = (response: GitThreadResponse): void => {
    running.delete(id);
    parentPort!.postMessage(response);
  };
  try {
    const child = execFile(
      'git',
      ['-C', cwd, ...args],
      { maxBuffer, timeout: timeoutMs, encoding: 'utf8', signal: controller.signal },
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
          answer({ id, ok: true, value: parse === 'blame' ? parseBlame(stdout) : parse === 'log' ? parseGitLog(stdout) : stdout });
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
