import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The `strata` executable as users run it. */
export const STRATA_BIN = path.resolve(fileURLToPath(import.meta.url), '../../../host/bin/strata.js');

/** A `strata` process and what it printed. */
export interface CliRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string>;
  /** Resolves with the URL the server printed once it listens. */
  url(): Promise<string>;
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** Runs `strata <args>`; killed when the test ends if still running. */
export function runStrata(t: Teardown, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): CliRun {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  for (const name of Object.keys(env)) if (name.startsWith('STRATA_') && !options.env?.[name]) delete env[name];
  const child = spawn(process.execPath, [STRATA_BIN, ...args], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    url: () =>
      new Promise((resolve, reject) => {
        const look = (): void => {
          const match = /at (http:\/\/\S+)/.exec(stdout);
          if (match) resolve(match[1]!);
        };
        child.stdout!.on('data', look);
        look();
        exited.then((code) => reject(new Error(`strata exited (${code}) before listening:\n${stderr}`)));
      }),
  };
}
