import { availableParallelism } from 'node:os';
import { SHARE_ENV, type Worker } from 'node:worker_threads';
import type { BlameRange, GitCommit } from '@strata/sdk';
import { injectable } from 'tsyringe';
import { startThread } from '../concurrency/start-thread.js';
import type { GitOutputKind, GitThreadRequest, GitThreadResponse } from './git-worker.js';

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
  /** Aborting kills the process (or drops the run before it starts). */
  signal?: AbortSignal;
}

interface GitThread {
  worker: Worker;
  waiting: Map<number, { resolve(value: unknown): void; reject(error: Error): void }>;
}

/**
 * Runs git on a few threads of its own (see git-worker.ts for why), and
 * parses blame and log output there too. Threads start on first use and do
 * not keep the process alive; `close` ends them.
 */
@injectable()
export class GitRunner {
  private readonly threads: GitThread[] = [];
  private readonly size = Math.max(2, Math.min(4, availableParallelism()));
  private nextId = 1;

  run(args: string[], parse: 'blame', options: GitRunOptions): Promise<BlameRange[]>;
  run(args: string[], parse: 'log', options: GitRunOptions): Promise<GitCommit[]>;
  run(args: string[], parse: 'text', options: GitRunOptions): Promise<string>;
  run(args: string[], parse: GitOutputKind, options: GitRunOptions): Promise<unknown> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new GitRunError('cancelled', 'ABORT_ERR', '', true));
    const thread = this.leastBusy();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const cancel = (): void => thread.worker.postMessage({ type: 'cancel', id } satisfies GitThreadRequest);
      signal?.addEventListener('abort', cancel, { once: true });
      thread.waiting.set(id, {
        resolve: (value) => {
          signal?.removeEventListener('abort', cancel);
          resolve(value);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', cancel);
          reject(error);
        },
      });
      if (thread.waiting.size === 1) thread.worker.ref();
      thread.worker.postMessage({
        type: 'run',
        id,
        cwd: options.cwd,
        args,
        maxBuffer: options.maxBuffer,
        timeoutMs: options.timeoutMs,
        parse,
      } satisfies GitThreadRequest);
    });
  }

  /** Ends the threads; runs under way fail. */
  async close(): Promise<void> {
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private leastBusy(): GitThread {
    if (this.threads.length < this.size && this.threads.every((thread) => thread.waiting.size > 0)) this.threads.push(this.startThread());
    return this.threads.reduce((best, thread) => (thread.waiting.size < best.waiting.size ? thread : best));
  }

  private startThread(): GitThread {
    // The process's environment itself, not a copy: git runs with the PATH and GIT_* variables the host has now.
    const worker = startThread(new URL('./git-worker.js', import.meta.url), { env: SHARE_ENV });
    const thread: GitThread = { worker, waiting: new Map() };
    worker.unref();
    worker.on('message', (response: GitThreadResponse) => {
      const waiter = thread.waiting.get(response.id);
      if (!waiter) return;
      thread.waiting.delete(response.id);
      if (thread.waiting.size === 0) worker.unref();
      if (response.ok) waiter.resolve(response.value);
      else waiter.reject(new GitRunError(response.message, response.code, response.stderr, response.cancelled));
    });
    const fail = (error: Error): void => {
      const index = this.threads.indexOf(thread);
      if (index >= 0) this.threads.splice(index, 1);
      for (const waiter of thread.waiting.values()) waiter.reject(new GitRunError(`the git thread stopped: ${error.message}`, undefined, '', false));
      thread.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    return thread;
  }
}
