/**
 * Where a sandbox's child process comes from. A process started when it is
 * needed takes 100 to 150 ms before it can load a plugin (Node's start and
 * isolated-vm's, measured on the 2-core machine of the benchmarks); one
 * started ahead loads a plugin in 20 to 30 ms. `strata serve --dev` keeps one
 * spare, so that a plugin its author saves is back sooner.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Node flags the sandbox process runs with: isolated-vm needs `--no-node-snapshot` on Node 20 and later. */
export const SANDBOX_NODE_FLAGS: readonly string[] = ['--no-node-snapshot', '--max-old-space-size=1024'];

/** Hands out sandbox processes, each to one sandbox (which then owns it and ends it). */
export interface SandboxProcessSource {
  take(): ChildProcess;
}

/** Starts a sandbox process now. */
export function forkSandboxProcess(): ChildProcess {
  const script = fileURLToPath(new URL('./sandbox-process.js', import.meta.url));
  const child = fork(script, [], {
    execArgv: [...SANDBOX_NODE_FLAGS],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    // Nothing of the host's environment is needed in there.
    env: { NODE_ENV: process.env.NODE_ENV ?? 'production' },
  });
  // A process that cannot start says so through its exit, which its owner hears.
  child.on('error', () => undefined);
  return child;
}

/** Every process started when it is taken. */
export const FORK_ON_DEMAND: SandboxProcessSource = { take: forkSandboxProcess };

/**
 * Keeps one sandbox process started ahead and hands it out; the next spare is
 * started a while after (`refillDelayMs`), so that starting it does not compete
 * with the load and the apply that the taken one is about to run.
 */
export class SpareSandboxProcess implements SandboxProcessSource {
  private spare: ChildProcess | undefined;
  private refill: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(private readonly refillDelayMs = 1000) {}

  take(): ChildProcess {
    const spare = this.spare;
    this.spare = undefined;
    const alive = spare !== undefined && spare.exitCode === null && spare.signalCode === null && spare.connected;
    if (spare && !alive) spare.kill('SIGKILL');
    this.scheduleRefill();
    return alive ? spare : forkSandboxProcess();
  }

  /** Whether a spare is started and waiting. */
  get ready(): boolean {
    return this.spare !== undefined && this.spare.exitCode === null && this.spare.signalCode === null;
  }

  /** Ends the spare (its owner calls this when it stops: a spare keeps the owner's process running); `take()` then starts each process when asked. */
  close(): void {
    this.closed = true;
    clearTimeout(this.refill);
    this.spare?.kill('SIGKILL');
    this.spare = undefined;
  }

  private scheduleRefill(): void {
    if (this.closed) return;
    clearTimeout(this.refill);
    this.refill = setTimeout(() => {
      if (this.closed || this.spare) return;
      this.spare = forkSandboxProcess();
    }, this.refillDelayMs);
    this.refill.unref();
  }
}
