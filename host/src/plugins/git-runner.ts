import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BlameRange, GitCommit } from '@strata/sdk';
import { injectable } from 'tsyringe';
import type { SoleAuthorship } from './git-output.js';
import type { GitOutputKind, GitProcessRequest, GitProcessResponse } from './git-process.js';

/** How a git run failed: git's exit, a timeout, an output too large, or a cancel. */
export class GitRunError extends Error {
  override readonly name = 'GitRunError';
  constructor(
    message: string,
    /** The error code of Node's child_process (`ERR_CHILD_PROCESS_STDIO_MAXBUFFER`, `ENOENT`...) or git's exit code. */
    readonly code: string | number | undefined,
    /** What git wrote to standard error. */
    readonly stderr: string,
    readonly cancelled: boolean,
  ) {
    super(message);
  }
}

/** One git run's options. */
export interface GitRunOptions {
  cwd: string;
  maxBuffer: number;
  timeoutMs: number;
  /** Written to git's standard input. */
  input?: string;
  /** Aborting kills the process (or drops the run before it starts). */
  signal?: AbortSignal;
}

/**
 * Runs git from a small process of its own (see git-process.ts for why),
 * which parses blame and log output too. The process starts on first use,
 * does not keep the host alive while nothing runs, and is started again if
 * it stops; `close` ends it.
 */
@injectable()
export class GitRunner {
  private gitProcess: ChildProcess | undefined;
  private readonly waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;

  run(args: string[], parse: 'blame', options: GitRunOptions): Promise<BlameRange[]>;
  run(args: string[], parse: 'log', options: GitRunOptions): Promise<GitCommit[]>;
  run(args: string[], parse: 'text', options: GitRunOptions): Promise<string>;
  run(args: string[], parse: 'sole-authorship', options: GitRunOptions): Promise<SoleAuthorship>;
  run(args: string[], parse: 'renamed-paths', options: GitRunOptions): Promise<string[]>;
  run(args: string[], parse: GitOutputKind, options: GitRunOptions): Promise<unknown> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new GitRunError('cancelled', 'ABORT_ERR', '', true));
    const gitProcess = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const cancel = (): void => this.post(gitProcess, { type: 'cancel', id });
      signal?.addEventListener('abort', cancel, { once: true });
      this.waiting.set(id, {
        resolve: (value) => {
          signal?.removeEventListener('abort', cancel);
          resolve(value);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', cancel);
          reject(error);
        },
      });
      if (this.waiting.size === 1) setHeld(gitProcess, true);
      this.post(gitProcess, {
        type: 'run',
        id,
        cwd: options.cwd,
        args,
        // The environment as it is now: git runs with the PATH and GIT_* variables the host has at this moment.
        env: process.env,
        input: options.input,
        maxBuffer: options.maxBuffer,
        timeoutMs: options.timeoutMs,
        parse,
      });
    });
  }

  /** Ends the git process; runs under way fail. */
  async close(): Promise<void> {
    const gitProcess = this.gitProcess;
    if (!gitProcess) return;
    this.gitProcess = undefined;
    const exited = new Promise<void>((resolve) => gitProcess.once('exit', () => resolve()));
    if (gitProcess.exitCode === null && gitProcess.signalCode === null) {
      // Held until it has gone, so that the host waits for its end.
      gitProcess.ref();
      if (gitProcess.connected) gitProcess.disconnect();
      else gitProcess.kill();
      await exited;
    }
  }

  private post(gitProcess: ChildProcess, request: GitProcessRequest): void {
    if (gitProcess.connected) gitProcess.send(request);
  }

  private started(): ChildProcess {
    if (this.gitProcess) return this.gitProcess;
    const gitProcess = fork(fileURLToPath(new URL('./git-process.js', import.meta.url)), [], {
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.gitProcess = gitProcess;
    setHeld(gitProcess, false);
    gitProcess.on('message', (response: GitProcessResponse) => {
      const waiter = this.waiting.get(response.id);
      if (!waiter) return;
      this.waiting.delete(response.id);
      if (this.waiting.size === 0) setHeld(gitProcess, false);
      if (response.ok) waiter.resolve(response.value);
      else waiter.reject(new GitRunError(response.message, response.code, response.stderr, response.cancelled));
    });
    const fail = (error: Error): void => {
      if (this.gitProcess === gitProcess) this.gitProcess = undefined;
      for (const waiter of this.waiting.values()) waiter.reject(new GitRunError(`the git process stopped: ${error.message}`, undefined, '', false));
      this.waiting.clear();
    };
    gitProcess.on('error', fail);
    gitProcess.on('exit', (code, signal) => fail(new Error(signal ? `signal ${signal}` : `exit code ${code}`)));
    return gitProcess;
  }
}

/** Whether the git process (and its channel) keeps the host's event loop alive: only while runs wait on it. */
function setHeld(gitProcess: ChildProcess, held: boolean): void {
  if (held) {
    gitProcess.ref();
    gitProcess.channel?.ref();
  } else {
    gitProcess.unref();
    gitProcess.channel?.unref();
  }
}
