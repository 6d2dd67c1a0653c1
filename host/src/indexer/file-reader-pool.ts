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
    /** Worker threads besides the calling thread, which reads too. */
    private readonly threads = Math.max(1, availableParallelism() - 1),
  ) {}

  /** Threads started ahead of `readAll`, so that loading their modules overlaps the walk. */
  private prestarted: Worker[] = [];

  /** Starts the reading threads now; `readAll` uses them (or ends them, for a small job). */
  prestart(): void {
    if (this.prestarted.length > 0 || this.threads < 1) return;
    this.prestarted = Array.from({ length: this.threads }, () => this.newWorker());
  }

  /**
   * Reads `files`; calls `onProgress` with how many are done. Facts come back
   * in the order of `files`. The calling thread reads batches too, so that
   * work starts at once while the threads are still loading.
   */
  async readAll(files: readonly string[], onProgress: (done: number) => void = () => {}): Promise<FileFacts[]> {
    const prestarted = this.prestarted;
    this.prestarted = [];
    if (files.length <= INLINE_LIMIT || this.threads < 1) {
      await Promise.all(prestarted.map((worker) => worker.terminate()));
      return this.readInline(files, onProgress);
    }
    const results = new Array<FileFacts>(files.length);
    let nextStart = 0;
    let done = 0;
    const take = (): { start: number; files: string[] } | undefined => {
      if (nextStart >= files.length) return undefined;
      const start = nextStart;
      nextStart += BATCH;
      return { start, files: files.slice(start, start + BATCH) };
    };
    const store = (start: number, facts: readonly FileFacts[]): void => {
      for (let i = 0; i < facts.length; i++) results[start + i] = this.withLanguage(facts[i]!);
      done += facts.length;
      onProgress(done);
    };
    const workers = Array.from({ length: this.threads }, (_, i) => prestarted[i] ?? this.newWorker());
    await Promise.all(prestarted.slice(this.threads).map((worker) => worker.terminate()));
    try {
      const threadLanes = workers.map((worker) => new Promise<void>((resolve, reject) => {
        const inFlight = new Map<number, number>();
        let nextId = 0;
        const send = (): void => {
          const batch = take();
          if (!batch) {
            if (inFlight.size === 0) resolve();
            return;
          }
          const id = nextId++;
          inFlight.set(id, batch.start);
          worker.postMessage({ id, files: batch.files } satisfies ReadRequest);
        };
        worker.on('message', ({ id, facts }: ReadResponse) => {
          const start = inFlight.get(id)!;
          inFlight.delete(id);
          store(start, facts);
          send();
        });
        worker.once('error', reject);
        worker.once('exit', (code) => {
          if (inFlight.size > 0) reject(new Error(`file reader thread exited (${code}) before it finished`));
        });
        // Two batches in flight keep a thread busy while the next answer travels.
        send();
        send();
      }));
      // This thread's lane: one batch at a time, letting the threads' answers in between.
      const ownLane = (async () => {
        for (let batch = take(); batch; batch = take()) {
          store(batch.start, batch.files.map((file) => readFileFacts(this.root, file, this.maxFileBytes)));
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      await Promise.all([ownLane, ...threadLanes]);
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

  private withLanguage(facts: FileFacts): FileFacts {
    if (!facts.binary) {
      const language = this.languages.detect(facts.path.slice(facts.path.lastIndexOf('/') + 1));
      if (language) facts.language = language;
    }
    return facts;
  }

  private newWorker(): Worker {
    return new Worker(new URL('./parse-worker.js', import.meta.url), { workerData: { root: this.root, maxFileBytes: this.maxFileBytes } });
  }

  private startStandby(): NonNullable<FileReaderPool['standby']> {
    if (this.standby) return this.standby;
    const worker = this.newWorker();
    worker.unref();
    const standby = { worker, nextId: 0, waiting: new Map<number, (facts: FileFacts[]) => void>() };
    worker.on('message', ({ id, facts }: ReadResponse) => {
      standby.waiting.get(id)?.(facts.map((f) => this.withLanguage(f)));
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
    const results = files.map((file) => this.withLanguage(readFileFacts(this.root, file, this.maxFileBytes)));
    onProgress(results.length);
    return results;
  }
}
