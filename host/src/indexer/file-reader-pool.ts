import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../concurrency/start-thread.js';
import type { FileFacts } from './file-reader.js';
import { MAX_PARSED_NESTING, readFileFacts } from './file-reader.js';
import { LanguageDetector } from './language-detector.js';
import type { ReadRequest, ReadResponse } from './parse-worker.js';
import { isParsedSource, loadAnalyzersOf, sourceAnalyzerFor } from './source-analyzers.js';

/** Below this many files, starting threads costs more than it saves. */
const INLINE_LIMIT = 300;
const BATCH = 128;
/**
 * What a source of a parser that does not recurse on the stack (tree-sitter's, 0.5 to 2 MB/s) counts for in a
 * batch, against 1 for oxc's (about ten times as fast on the same bytes).
 */
const SLOW_PARSE_COST = 16;
/** Sources of the slow parsers listed in one job past which a reading thread more starts (where there is a core for it). */
const SLOW_SOURCES_FOR_EXTRA_THREAD = 200;
/** Batches a thread holds at a time: work for it while this thread is busy. */
const IN_FLIGHT = 4;
/** Batches of the calling thread, which handles the threads' answers between its batches. */
const OWN_BATCH = 64;

/**
 * Sources up to this size are parsed on the calling thread: they cannot nest
 * deeper than this many levels, which its stack (8 MiB on Linux) takes with
 * room to spare (about 1.5 KB a level in oxc's parser, which crashed at 3,500
 * to 7,000 levels of parentheses there). Larger ones go to a reading thread.
 */
const CALLING_THREAD_PARSE_BYTES = 2_000;

/**
 * Sources of parsers that do not recurse on the stack (tree-sitter's) up to
 * this size are parsed on the calling thread too once it has nothing else
 * to do in a large job, a few milliseconds at a time (`HELPING_SLICE_MS`);
 * larger ones go back to a reading thread. At 0.5 to 2 MB/s a file this
 * size takes 8 to 30 ms.
 */
const CALLING_THREAD_OTHER_PARSE_BYTES = 16 * 1024;
/** How long the calling thread parses before it lets the threads' answers (and requests, in a server) in. */
const HELPING_SLICE_MS = 8;

/** Whether the calling thread may help parse files named `filename` (its parser does not recurse on the stack). */
function parsedOffStack(filename: string): boolean {
  return sourceAnalyzerFor(filename)?.recursesPerNestingLevel === false;
}

/**
 * Stack of the reading threads: room for `MAX_PARSED_NESTING` levels at
 * 5 KB each (`()=>{` took over 2 KB a level, nested functions 3.3 KB).
 * Reserved, not used, until a file nests that deep (on Linux and macOS).
 */
const PARSER_STACK_MB = Math.ceil((MAX_PARSED_NESTING * 5 * 1024) / 2 ** 20);

/**
 * A list of files that grows while it is read (a walk of the repository
 * under way): `grow` lists more into `files`, and answers whether any are
 * left to list.
 */
export interface GrowingFileList {
  readonly files: string[];
  grow(): boolean;
}

function isGrowing(list: readonly string[] | GrowingFileList): list is GrowingFileList {
  return !Array.isArray(list);
}

/**
 * Reads and parses files on every core: a pool of worker threads, each
 * taking batches of paths. Small jobs are read on the calling thread. Only
 * the threads, whose stacks are sized for it, parse sources larger than
 * `CALLING_THREAD_PARSE_BYTES`: a parser that overflows its stack takes the
 * whole process with it.
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

  /** Why the last standby thread failed, for the error of a read it left unanswered. */
  private lastThreadError: Error | undefined;

  /** Threads started ahead of `readAll`, so that loading their modules overlaps the walk. */
  private prestarted: Worker[] = [];

  /** Starts the reading threads now; `readAll` uses them (or ends them, for a small job). */
  prestart(): void {
    if (this.prestarted.length > 0 || this.threads < 1) return;
    this.prestarted = Array.from({ length: this.threads }, () => this.newWorker());
  }

  /**
   * Reads the files of `list`; calls `onProgress` with how many are done,
   * and `onRead` with each file's facts as they come (in any order). Facts
   * come back in the order of the list. The threads parse the sources; the
   * calling thread grows a growing list to its end (the threads take the
   * sources listed so far meanwhile), then reads the other files.
   */
  async readAll(
    list: readonly string[] | GrowingFileList,
    onProgress: (done: number) => void = () => {},
    onRead: (facts: FileFacts) => void = () => {},
  ): Promise<FileFacts[]> {
    const prestarted = this.prestarted;
    this.prestarted = [];
    const growing = isGrowing(list) ? list : undefined;
    const files: readonly string[] = isGrowing(list) ? list.files : list;
    /** Whether `files` is whole. */
    let complete = !growing;
    try {
      while (!complete && files.length <= INLINE_LIMIT) complete = !growing!.grow();
      if ((complete && files.length <= INLINE_LIMIT) || this.threads < 1) while (!complete) complete = !growing!.grow();
    } catch (error) {
      // The list failed to grow (the walk threw): the threads started ahead end with this job.
      await Promise.all(prestarted.map((worker) => worker.terminate()));
      throw error;
    }
    if ((complete && files.length <= INLINE_LIMIT) || this.threads < 1) {
      // One thread started ahead stays as the standby thread, which reads the larger sources of this job.
      const [kept, ...others] = prestarted;
      if (kept && !this.standby) this.adoptStandby(kept);
      else if (kept) others.push(kept);
      await Promise.all(others.map((worker) => worker.terminate()));
      return this.readInline(files, onProgress, onRead);
    }
    const results: FileFacts[] = [];
    let done = 0;
    // The threads parse every source; this thread reads the other files (it only counts their lines) while it
    // resolves the imports of what the threads send. Measured on typescript-eslint (2,735 sources, 4,780 other
    // files): 570 ms, where this thread also parsing small sources took 645 (each parsing thread pays the JIT's
    // warm-up); on 100,000 sources the same (it is busy resolving them). Once it has read the other files it
    // parses tree-sitter sources too, from the end of the list while the threads take from its start: they parse
    // several times slower than oxc (0.5 to 2 MB/s), and this thread was idle for half of a mixed build.
    const sources: number[] = [];
    /** Whether each source (by its place in `sources`) was taken, by a thread or this one. */
    const taken: boolean[] = [];
    /** Sources this thread took and left to the threads (too large to parse here). */
    const returned: number[] = [];
    const others: number[] = [];
    let classified = 0;
    /** Sources of the slow parsers (tree-sitter's) listed so far. */
    let slowSources = 0;
    /** Called as sources are listed, once the threads' lanes can be joined (`joinExtraThread`). */
    let sourcesListed = (): void => {};
    const classifyListed = (): void => {
      for (; classified < files.length; classified++) {
        const name = files[classified]!.slice(files[classified]!.lastIndexOf('/') + 1);
        if (isParsedSource(name)) {
          sources.push(classified);
          taken.push(false);
          if (parsedOffStack(name)) slowSources++;
        } else {
          others.push(classified);
        }
      }
      sourcesListed();
    };
    classifyListed();
    let nextSource = 0;
    let nextOther = 0;
    const batchOf = (indices: number[]): { indices: number[]; files: string[] } => ({ indices, files: indices.map((i) => files[i]!) });
    /** For this thread: the next batch of other files. */
    const takeOwn = (): { indices: number[]; files: string[] } | undefined => {
      if (nextOther >= others.length) return undefined;
      const indices = others.slice(nextOther, nextOther + OWN_BATCH);
      nextOther += indices.length;
      return batchOf(indices);
    };
    /** For a reading thread: the next batch of sources (only whole batches while the list grows). */
    const take = (): { indices: number[]; files: string[] } | undefined => {
      const indices = returned.splice(0, BATCH);
      if (indices.length === 0 && !complete && sources.length - nextSource < BATCH) return undefined;
      // A batch is BATCH files' worth of parsing: fewer of the slow parsers' (tree-sitter's), so that the work is
      // shared (with 128 a batch and four in flight, one thread took 512 of okhttp's 662 Kotlin and Java files,
      // parsing 4.3 s while the calling thread waited 3).
      let cost = indices.length;
      for (; nextSource < sources.length && cost < BATCH; nextSource++) {
        if (taken[nextSource]) continue;
        taken[nextSource] = true;
        const file = files[sources[nextSource]!]!;
        indices.push(sources[nextSource]!);
        cost += parsedOffStack(file.slice(file.lastIndexOf('/') + 1)) ? SLOW_PARSE_COST : 1;
      }
      return indices.length > 0 ? batchOf(indices) : undefined;
    };
    /** Where this thread looks for sources to parse, from the end of the list back (once it is whole). */
    let ownSource = -1;
    /** For this thread: the next source it may parse (none left: undefined). */
    const takeOwnSource = (): number | undefined => {
      if (ownSource === -1) ownSource = sources.length;
      while (ownSource > nextSource) {
        const at = --ownSource;
        const file = files[sources[at]!]!;
        if (taken[at] || !parsedOffStack(file.slice(file.lastIndexOf('/') + 1))) continue;
        taken[at] = true;
        return sources[at];
      }
      return undefined;
    };
    /** Set once this thread has nothing more to read: the threads' lanes may end. */
    let ownDone = false;
    const store = (indices: readonly number[], facts: readonly FileFacts[]): void => {
      for (let i = 0; i < facts.length; i++) onRead((results[indices[i]!] = this.withLanguage(facts[i]!)));
      done += facts.length;
      onProgress(done);
    };
    const workers = Array.from({ length: this.threads }, (_, i) => prestarted[i] ?? this.newWorker());
    await Promise.all(prestarted.slice(this.threads).map((worker) => worker.terminate()));
    /** Set when a thread failed: this thread's lane stops too. */
    let failed = false;
    /** Has each thread that waits for the list to grow take more. */
    const wakeUps: Array<() => void> = [];
    const threadLanes: Array<Promise<void>> = [];
    /**
     * One more reading thread, one to a core, once many sources of the slow parsers are listed: this thread is then
     * mostly idle (their imports are cheap to resolve), where for JavaScript and TypeScript it resolves all the
     * while and a thread more only added contention (100,000 TypeScript files: 15.5 s against 14.8 s).
     */
    const joinExtraThread = (): void => {
      if (slowSources < SLOW_SOURCES_FOR_EXTRA_THREAD || workers.length > this.threads || availableParallelism() <= this.threads || failed) return;
      const worker = this.newWorker();
      workers.push(worker);
      startLane(worker);
    };
    const startLane = (worker: Worker): void => {
      threadLanes.push(
        new Promise<void>((resolve, reject) => {
          const inFlight = new Map<number, number[]>();
          let nextId = 0;
          /** Keeps `IN_FLIGHT` batches with the thread, so that it has work while answers travel; resolves once all is read. */
          const fill = (): void => {
            for (let batch = inFlight.size < IN_FLIGHT ? take() : undefined; batch; batch = inFlight.size < IN_FLIGHT ? take() : undefined) {
              const id = nextId++;
              inFlight.set(id, batch.indices);
              worker.postMessage({ id, files: batch.files } satisfies ReadRequest);
            }
            if (inFlight.size === 0 && complete && ownDone) resolve();
          };
          worker.on('message', ({ id, facts }: ReadResponse) => {
            const indices = inFlight.get(id)!;
            inFlight.delete(id);
            store(indices, facts);
            fill();
          });
          const fail = (error: Error): void => {
            failed = true;
            reject(error);
          };
          worker.once('error', fail);
          // Before its lane is done, a thread must not go (rejecting after resolving does nothing).
          worker.once('exit', (code) => fail(new Error(`file reader thread exited (${code}) before it finished`)));
          wakeUps.push(fill);
          fill();
        }),
      );
    };
    try {
      for (const worker of [...workers]) startLane(worker);
      sourcesListed = joinExtraThread;
      joinExtraThread();
      // This thread's lane: first the rest of the list, a step at a time, letting the threads' answers in between;
      // then one batch of other files at a time.
      const ownLane = (async () => {
        while (!complete && !failed) {
          complete = !growing!.grow();
          classifyListed();
          for (const wakeUp of wakeUps) wakeUp();
          await new Promise((resolve) => setImmediate(resolve));
        }
        for (let batch = takeOwn(); batch && !failed; batch = takeOwn()) {
          store(
            batch.indices,
            batch.files.map((file) => readFileFacts(this.root, file, this.maxFileBytes)),
          );
          await new Promise((resolve) => setImmediate(resolve));
        }
        // Then tree-sitter sources, a slice of time at a time (their grammars loaded here on the first of each),
        // unless a thread more reads them: this thread's grammars would then cost memory for little.
        for (let index = workers.length > this.threads ? undefined : takeOwnSource(); index !== undefined && !failed; ) {
          await loadAnalyzersOf([files[index]!]);
          const indices: number[] = [];
          const read: FileFacts[] = [];
          const sliceStarted = performance.now();
          for (; index !== undefined; index = takeOwnSource()) {
            const file = files[index]!;
            const name = file.slice(file.lastIndexOf('/') + 1);
            // A grammar not loaded here yet: after this slice.
            if (!sourceAnalyzerFor(name)!.loaded) break;
            const facts = readFileFacts(this.root, file, this.maxFileBytes, CALLING_THREAD_PARSE_BYTES, CALLING_THREAD_OTHER_PARSE_BYTES);
            if (facts) {
              indices.push(index);
              read.push(facts);
            } else {
              returned.push(index);
            }
            if (performance.now() - sliceStarted > HELPING_SLICE_MS) {
              index = takeOwnSource();
              break;
            }
          }
          if (read.length > 0) store(indices, read);
          if (returned.length > 0) for (const wakeUp of wakeUps) wakeUp();
          await new Promise((resolve) => setImmediate(resolve));
        }
      })().finally(() => {
        ownDone = true;
        for (const wakeUp of wakeUps) wakeUp();
      });
      await ownLane;
      // A lane may have joined while the others ran.
      for (let awaited = 0; awaited < threadLanes.length; awaited = threadLanes.length) await Promise.all(threadLanes.slice(awaited));
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
      // An idle standby thread lets the process exit; one that owes an answer must not.
      standby.worker.ref();
      standby.worker.postMessage({ id, files: [...files] } satisfies ReadRequest);
    });
  }

  /** Starts the standby thread and has it parse once (a file of each parser: `sampleFiles`), ahead of the first live update. */
  warmUp(sampleFiles: readonly string[]): void {
    // Only a head start: a thread that cannot start now fails the read that needs it, not this.
    try {
      if (sampleFiles.length > 0) this.readFew(sampleFiles).catch(() => {});
      else this.startStandby();
    } catch {
      // Starting the thread failed; a later read tries again.
    }
  }

  /** Stops the standby thread (and threads started ahead of a job). */
  async close(): Promise<void> {
    const standby = this.standby;
    this.standby = undefined;
    // Threads started ahead of a job that never came (the build failed before it).
    const prestarted = this.prestarted.splice(0);
    await Promise.all(prestarted.map((worker) => worker.terminate()));
    // An idle standby thread is unref'd: held again, or the process could end before it has stopped (and
    // `terminate` never settle).
    standby?.worker.ref();
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
    return startThread(new URL('./parse-worker.js', import.meta.url), {
      workerData: { root: this.root, maxFileBytes: this.maxFileBytes },
      resourceLimits: { stackSizeMb: PARSER_STACK_MB },
    });
  }

  private startStandby(): NonNullable<FileReaderPool['standby']> {
    return this.standby ?? this.adoptStandby(this.newWorker());
  }

  private adoptStandby(worker: Worker): NonNullable<FileReaderPool['standby']> {
    worker.unref();
    const standby = { worker, nextId: 0, waiting: new Map<number, (facts: FileFacts[]) => void>() };
    worker.on('message', ({ id, facts }: ReadResponse) => {
      standby.waiting.get(id)?.(facts.map((f) => this.withLanguage(f)));
      standby.waiting.delete(id);
      // Not once closing: an answer that comes after `close` asked the thread to stop must not let the process end first.
      if (standby.waiting.size === 0 && this.standby === standby) worker.unref();
    });
    // A thread that fails exits too; its exit answers whoever waits.
    worker.on('error', (error) => (this.lastThreadError = error));
    worker.once('exit', () => {
      if (this.standby === standby) this.standby = undefined;
      // Whoever waits gets no facts, and asks a new standby thread (readInline) or reads otherwise.
      for (const resolve of standby.waiting.values()) resolve([]);
      standby.waiting.clear();
    });
    this.standby = standby;
    return standby;
  }

  /** Reads on this thread, for small jobs; sources too large to parse here are read on the standby thread. */
  async readInline(
    files: readonly string[],
    onProgress: (done: number) => void = () => {},
    onRead: (facts: FileFacts) => void = () => {},
  ): Promise<FileFacts[]> {
    // Tree-sitter sources never here (-1): a grammar a large job loaded on this thread stays, and one file can hold it.
    const results: Array<FileFacts | undefined> = files.map((file) => readFileFacts(this.root, file, this.maxFileBytes, CALLING_THREAD_PARSE_BYTES, -1));
    const left = results.flatMap((facts, i) => (facts ? [] : [i]));
    if (left.length > 0) {
      const leftFiles = left.map((i) => files[i]!);
      // A standby thread that is gone answers nothing; a new one is asked once more.
      let read = await this.readFew(leftFiles);
      if (read.length !== leftFiles.length) read = await this.readFew(leftFiles);
      if (read.length !== leftFiles.length) {
        throw new Error(`the file reader thread stopped before it answered${this.lastThreadError ? `: ${this.lastThreadError.message}` : ''}`);
      }
      for (const [i, position] of left.entries()) results[position] = read[i];
    }
    onProgress(results.length);
    const read = results.map((facts) => this.withLanguage(facts!));
    for (const facts of read) onRead(facts);
    return read;
  }
}
