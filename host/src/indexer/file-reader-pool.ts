import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FileFacts } from './file-reader.js';
import { readFileFacts } from './file-reader.js';
import { LanguageDetector } from './language-detector.js';
import type { ReadRequest, ReadResponse } from './parse-worker.js';

/** Below this many files, starting threads costs more than it saves. */
const INLINE_LIMIT = 300;
const BATCH = 128;

/**
 * Reads and parses files on every core: a pool of worker threads, each
 * taking batches of paths. Small jobs are read on the calling thread.
 */
export class FileReaderPool {
  private readonly languages = new LanguageDetector();
  /** A thread kept for the small reads of live updates, so that parsing never runs on the server's thread. */
  private standby: { worker: Worker; nextId: number; waiting: Map<number, (facts: FileFacts[]) => void> } | undefined;

  constructor(
    private readonly root: string,
    private readonly maxFileBytes: number,
    private readonly threads = availableParallelism(),
  ) {}

  /** Reads `files`; calls `onProgress` with how many are done. Facts come back in the order of `files`. */
  async readAll(files: readonly string[], onProgress: (done: number) => void = () => {}): Promise<FileFacts[]> {
    if (files.length <= INLINE_LIMIT || this.threads <= 1) return this.readInline(files, onProgress);
    const results = new Array<FileFacts>(files.length);
    const batches: Array<{ start: number; files: string[] }> = [];
    for (let start = 0; start < files.length; start += BATCH) batches.push({ start, files: files.slice(start, start + BATCH) });
    let nextBatch = 0;
    let done = 0;
    const workerCount = Math.min(this.threads, batches.length);
    const workers = Array.from({ length: workerCount }, () =>
      new Worker(new URL('./parse-worker.js', import.meta.url), { workerData: { root: this.root, maxFileBytes: this.maxFileBytes } }),
    );
    try {
      await Promise.all(workers.map((worker) => new Promise<void>((resolve, reject) => {
        const inFlight = new Map<number, number>();
        const send = (): void => {
          if (nextBatch >= batches.length) {
            if (inFlight.size === 0) resolve();
            return;
          }
          const id = nextBatch++;
          inFlight.set(id, batches[id]!.start);
          worker.postMessage({ id, files: batches[id]!.files } satisfies ReadRequest);
        };
        worker.on('message', ({ id, facts }: ReadResponse) => {
          const start = inFlight.get(id)!;
          inFlight.delete(id);
          for (let i = 0; i < facts.length; i++) results[start + i] = facts[i]!;
          done += facts.length;
          onProgress(done);
          send();
        });
        worker.once('error', reject);
        worker.once('exit', (code) => {
          if (nextBatch < batches.length || inFlight.size > 0) reject(new Error(`file reader thread exited (${code}) before it finished`));
        });
        // Two batches in flight keep a thread busy while the next answer travels.
        send();
        send();
      })));
    } finally {
      await Promise.all(workers.map((worker) => worker.terminate()));
    }
    return results;
  }

  /**
   * Reads a few files on the standby thread (started on first use, or by
   * `warmUp`). A large heap on the calling thread makes the parser's first
   * use there cost a full garbage collection; on the standby thread it does not.
   */
  async readFew(files: readonly string[]): Promise<FileFacts[]> {
    if (files.length === 0) return [];
    const standby = this.startStandby();
    const id = standby.nextId++;
    return new Promise((resolve) => {
      standby.waiting.set(id, resolve);
      standby.worker.postMessage({ id, files: [...files] } satisfies ReadRequest);
    });
  }

  /** Starts the standby thread and has it parse once, ahead of the first live update. */
  warmUp(sampleFile: string | undefined): void {
    if (sampleFile !== undefined) void this.readFew([sampleFile]);
    else this.startStandby();
  }

  /** Stops the standby thread. */
  async close(): Promise<void> {
    const standby = this.standby;
    this.standby = undefined;
    await standby?.worker.terminate();
  }

  private startStandby(): NonNullable<FileReaderPool['standby']> {
    if (this.standby) return this.standby;
    const worker = new Worker(new URL('./parse-worker.js', import.meta.url), { workerData: { root: this.root, maxFileBytes: this.maxFileBytes } });
    worker.unref();
    const standby = { worker, nextId: 0, waiting: new Map<number, (facts: FileFacts[]) => void>() };
    worker.on('message', ({ id, facts }: ReadResponse) => {
      standby.waiting.get(id)?.(facts);
      standby.waiting.delete(id);
    });
    worker.once('exit', () => {
      if (this.standby === standby) this.standby = undefined;
      // Whoever waits gets the files read here instead.
      for (const [id, resolve] of standby.waiting) resolve([]);
      standby.waiting.clear();
    });
    this.standby = standby;
    return standby;
  }

  /** Reads on this thread, for small jobs. */
  async readInline(files: readonly string[], onProgress: (done: number) => void = () => {}): Promise<FileFacts[]> {
    const results = new Array<FileFacts>(files.length);
    let next = 0;
    let done = 0;
    const lane = async (): Promise<void> => {
      while (next < files.length) {
        const index = next++;
        results[index] = await readFileFacts(this.root, files[index]!, this.maxFileBytes, this.languages);
        if (++done % 250 === 0) onProgress(done);
      }
    };
    await Promise.all(Array.from({ length: Math.min(32, files.length) }, lane));
    onProgress(done);
    return results;
  }
}
