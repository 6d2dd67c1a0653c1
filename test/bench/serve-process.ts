import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The `strata` executable. */
export const STRATA_BIN = path.resolve(fileURLToPath(import.meta.url), '../../../host/bin/strata.js');

/** A `strata serve` child process of a benchmark, and the URL it printed. */
export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Stops it with SIGTERM and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `strata serve <repo> --port 0 --log-level <level>` and waits until it prints its URL. With `stderr`
 * 'pipe', read what it writes there from the start (`onStderr`): a pipe nobody reads fills, and the server's
 * writes to it then block (a cold start of 100,000 files took 32 s instead of 20, writing its progress).
 */
export async function startServeProcess(
  repo: string,
  logLevel: string,
  stderr: 'pipe' | 'inherit',
  extraArgs: string[] = [],
  onStderr?: (chunk: Buffer) => void,
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [STRATA_BIN, 'serve', repo, '--port', '0', '--log-level', logLevel, ...extraArgs], {
    stdio: ['ignore', 'pipe', stderr],
  });
  if (onStderr) child.stderr?.on('data', onStderr);
  const url = await printedUrl(child, 'strata serve');
  return {
    child,
    url,
    stop: async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.on('exit', resolve));
    },
  };
}

/** The URL a server process prints (`... at http://...`) once it listens; rejects if `what` exits first. */
export function printedUrl(child: ChildProcess, what: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /at (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`${what} exited with ${code}`)));
  });
}
