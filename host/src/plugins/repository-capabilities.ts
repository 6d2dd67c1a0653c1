import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { BlameRange, Capability, GitCommit } from '@strata/sdk';
import { minimatch } from 'minimatch';
import { inject, injectable } from 'tsyringe';
import { Semaphore } from '../concurrency/semaphore.js';
import { StrataConfig } from '../config/strata-config.js';
import { GraphStore } from '../graph/graph-store.js';
import { GIT_LOG_FORMAT } from './git-output.js';
import { GitRunError, GitRunner } from './git-runner.js';

/** Most commits one `git log` call returns. */
const MAX_COMMITS = 50_000;
/** Most glob patterns in one `files.list` call. */
const MAX_PATTERNS = 20;
/** Graph nodes matched between two yields to the event loop in `files.list`. */
const LIST_CHUNK = 2000;
/** Most files in one `git.blameMany` call. */
const MAX_BLAME_BATCH = 500;
/** Largest output one git command may give. */
const GIT_MAX_BUFFER = 256 * 1024 * 1024;
/** Blamed lines kept for answering again without git (by HEAD and file content). */
const BLAME_CACHE_RUNS = 1_000_000;
/** How long a resolved HEAD is trusted before it is asked again. */
const HEAD_TTL_MS = 1000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A capability call was refused: its message goes back to the plugin. */
export class CapabilityError extends Error {
  override readonly name = 'CapabilityError';
}

/**
 * The capabilities that reach outside the sandbox, confined to the served
 * repository: git history, blame, file contents and file listings. Every
 * argument is checked here, whatever the plugin's runtime checked before.
 */
@injectable()
export class RepositoryCapabilities {
  private realRoot: Promise<string> | undefined;
  /** Blame answers by HEAD and file state, least recently used first out. */
  private readonly blames = new Map<string, BlameRange[]>();
  private realDataDir: Promise<string> | undefined;
  private blameRuns = 0;
  private head: { at: number; value: Promise<string> } | undefined;
  /** The blob of every file HEAD holds under the root, by path, for the HEAD it was read at. */
  private committedBlobs: { head: string; blobs: Promise<CommittedBlobs | undefined> } | undefined;
  /** The HEAD the commit-graph was last written for. */
  private commitGraph: { head: string; written: Promise<void> } | undefined;
  /** git processes one plugin may run at once: more gains nothing, and each plugin has its own share. */
  private readonly gitSlotsPerPlugin = Math.max(2, availableParallelism() * 2);
  private readonly gitSlots = new Map<string, Semaphore>();

  constructor(
    @inject(StrataConfig) private readonly config: StrataConfig,
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(GitRunner) private readonly gitRunner: GitRunner,
  ) {}

  /**
   * Runs capability `name` for `pluginId` with the plugin's arguments.
   * `signal` aborts when the apply ends: queued work is dropped and git
   * processes still running are killed.
   */
  call(pluginId: string, name: Capability, args: unknown[], signal?: AbortSignal): Promise<unknown> {
    const call: GitCall = { slots: this.slotsOf(pluginId), signal };
    switch (name) {
      case 'git:log':
        return this.gitLog(args[0], call);
      case 'git:blame':
        return args[1] === 'many' ? this.gitBlameMany(args[0], call) : this.gitBlame(args[0], call);
      case 'files:read':
        return this.readFile(args[0], signal);
      case 'files:list':
        return this.listFiles(args[0], signal);
      default:
        return Promise.reject(new CapabilityError(`capability "${name}" is not served by the host (graph:read and inputs:read live in the sandbox)`));
    }
  }

  /** Ends the git threads (after the sandboxes, whose calls they answer). */
  close(): Promise<void> {
    return this.gitRunner.close();
  }

  private slotsOf(pluginId: string): Semaphore {
    let slots = this.gitSlots.get(pluginId);
    if (!slots) this.gitSlots.set(pluginId, (slots = new Semaphore(this.gitSlotsPerPlugin)));
    return slots;
  }

  /** `git log` with numstat, renames followed, `.mailmap` honoured (by %aN and %aE). */
  async gitLog(options: unknown, call: GitCall): Promise<GitCommit[]> {
    const given = (options ?? {}) as Record<string, unknown>;
    if (typeof given !== 'object' || Array.isArray(given)) throw new CapabilityError('git.log: options must be an object');
    for (const key of Object.keys(given)) {
      if (!['since', 'until', 'paths', 'maxCommits'].includes(key)) throw new CapabilityError(`git.log: unknown option "${key}"`);
    }
    const args = ['log', '--no-color', '--numstat', '-z', '--find-renames', GIT_LOG_FORMAT];
    for (const key of ['since', 'until'] as const) {
      const value = given[key];
      if (value === undefined) continue;
      if (typeof value !== 'string' || !ISO_DATE.test(value) || Number.isNaN(Date.parse(value)))
        throw new CapabilityError(`git.log: ${key} must be an ISO 8601 date, got ${JSON.stringify(value)}`);
      args.push(`--${key}=${value}`);
    }
    const maxCommits = given.maxCommits ?? MAX_COMMITS;
    if (typeof maxCommits !== 'number' || !Number.isInteger(maxCommits) || maxCommits < 1 || maxCommits > MAX_COMMITS)
      throw new CapabilityError(`git.log: maxCommits must be an integer from 1 to ${MAX_COMMITS}`);
    args.push(`--max-count=${maxCommits}`);
    args.push('--');
    if (given.paths !== undefined) {
      if (!Array.isArray(given.paths) || given.paths.length > 1000) throw new CapabilityError('git.log: paths must be an array of at most 1000 paths');
      for (const entry of given.paths) args.push(await this.confined(entry, 'git.log'));
      const head = await this.currentHead();
      if (head) await this.ensureCommitGraph(head);
    }
    return this.git(args, 'log', call);
  }

  /**
   * `git blame` of one file, as runs of lines by commit. Answers are cached
   * by HEAD and the file's identity, size and modification time, so a second
   * apply with nothing changed runs no git.
   */
  async gitBlame(file: unknown, call: GitCall): Promise<BlameRange[]> {
    const relative = await this.confined(file, 'git.blame');
    const absolute = path.join(await this.root(), relative);
    const stats = await stat(absolute).catch(() => undefined);
    if (stats && !stats.isFile()) throw new CapabilityError(`git.blame: ${relative}: not a file`);
    if (stats && stats.size > this.config.index.maxFileBytes)
      throw new CapabilityError(`git.blame: ${relative}: ${stats.size} bytes is over the limit of ${this.config.index.maxFileBytes}`);
    // The answer depends on the history (HEAD) and on the file as it is now: its
    // identity, size and modification time stand for its content, as git's own index does.
    const head = await this.currentHead();
    const key = stats && head ? `${head}:${relative}:${stats.ino}:${stats.size}:${stats.mtimeMs}` : undefined;
    const cached = key ? this.blames.get(key) : undefined;
    if (cached) {
      this.blames.delete(key!);
      this.blames.set(key!, cached);
      return cached;
    }
    if (head) await this.ensureCommitGraph(head);
    // A file as HEAD has it is blamed at HEAD: the same answer, without git reading its index (a blame of the
    // working tree does, and at 100,000 files that took 0.4 to 0.7 s a file instead of 0.06 to 0.11 s).
    const asCommitted = head !== '' && stats !== undefined && (await this.isAsCommitted(head, relative, absolute, stats.size));
    const lines = await this.git(['blame', '--porcelain', ...(asCommitted ? [head] : []), '--', relative], 'blame', call);
    if (key) {
      this.blames.set(key, lines);
      this.blameRuns += lines.length;
      for (const [oldKey, oldLines] of this.blames) {
        if (this.blameRuns <= BLAME_CACHE_RUNS) break;
        this.blames.delete(oldKey);
        this.blameRuns -= oldLines.length;
      }
    }
    return lines;
  }

  /**
   * Writes git's commit-graph with changed-path Bloom filters (as `git
   * maintenance` does) once per HEAD. A blame walks the history of its file;
   * the filters let git skip every commit that did not touch it, which makes
   * blame several times faster on long histories. Failures (a read-only
   * repository) only cost that speed. Off with `plugins.gitCommitGraph: false`.
   */
  private ensureCommitGraph(head: string): Promise<void> {
    if (!this.config.plugins.gitCommitGraph) return Promise.resolve();
    if (this.commitGraph?.head !== head) {
      this.commitGraph = {
        head,
        written: this.git(['commit-graph', 'write', '--reachable', '--changed-paths'], 'text').then(
          () => undefined,
          () => undefined,
        ),
      };
    }
    return this.commitGraph.written;
  }

  /**
   * Whether the file's bytes are those of its blob at `head` (git's object
   * id of the content, compared with `git ls-tree`'s): then its blame is
   * HEAD's. A file changed, new, or not readable is not (its blame is the
   * working tree's, with uncommitted lines).
   */
  private async isAsCommitted(head: string, relative: string, absolute: string, size: number): Promise<boolean> {
    if (this.committedBlobs?.head !== head) this.committedBlobs = { head, blobs: this.readCommittedBlobs(head) };
    const committed = await this.committedBlobs.blobs;
    const blob = committed?.byPath.get(relative);
    if (!committed || !blob) return false;
    const content = await readFile(absolute).catch(() => undefined);
    if (!content || content.length !== size) return false;
    return createHash(committed.objectFormat).update(`blob ${content.length}\0`).update(content).digest('hex') === blob;
  }

  /** The blobs of HEAD under the root (`git ls-tree -r`), or undefined when git cannot list them. */
  private async readCommittedBlobs(head: string): Promise<CommittedBlobs | undefined> {
    try {
      const format = (await this.git(['rev-parse', '--show-object-format'], 'text').catch(() => 'sha1')).trim();
      if (format !== 'sha1' && format !== 'sha256') return undefined;
      const listing = await this.git(['ls-tree', '-r', '-z', head], 'text');
      const byPath = new Map<string, string>();
      for (const entry of listing.split('\0')) {
        // <mode> SP <type> SP <object> TAB <path>
        const tab = entry.indexOf('\t');
        if (tab < 0) continue;
        const [, type, object] = entry.slice(0, tab).split(' ');
        if (type === 'blob' && object) byPath.set(entry.slice(tab + 1), object);
      }
      return { objectFormat: format, byPath };
    } catch {
      return undefined;
    }
  }

  /** `git blame` of many files, each answer or error in the order asked. */
  async gitBlameMany(paths: unknown, call: GitCall): Promise<Array<{ path: string; ranges?: BlameRange[]; error?: string }>> {
    if (!Array.isArray(paths) || paths.length > MAX_BLAME_BATCH) throw new CapabilityError(`git.blameMany: give an array of at most ${MAX_BLAME_BATCH} paths`);
    return Promise.all(
      paths.map((file) =>
        this.gitBlame(file, call).then(
          (ranges) => ({ path: String(file), ranges }),
          (error: Error) => ({ path: String(file), error: error.message }),
        ),
      ),
    );
  }

  private currentHead(): Promise<string> {
    const now = Date.now();
    if (!this.head || now - this.head.at > HEAD_TTL_MS) {
      this.head = {
        at: now,
        value: this.git(['rev-parse', '--verify', '-q', 'HEAD'], 'text').then(
          (out) => out.trim(),
          () => '',
        ),
      };
    }
    return this.head.value;
  }

  /**
   * A repository file as UTF-8 text, up to the indexer's size limit. A read
   * that does not finish within `plugins.wallTimeMs` (a stalled network file
   * system) is refused, as a git run that long is killed: the time the host
   * spends on a capability does not count against the plugin's wall time, so
   * without this the apply would wait for it for ever. It is refused at once
   * when the apply ends (`signal`).
   */
  async readFile(file: unknown, signal?: AbortSignal): Promise<string> {
    const relative = await this.confined(file, 'files.read');
    const absolute = path.join(await this.root(), relative);
    // Checked before opening: opening a FIFO would block a thread of the pool.
    const stats = await stat(absolute).catch((error: NodeJS.ErrnoException) => {
      throw new CapabilityError(`files.read: ${relative}: ${error.code === 'ENOENT' ? 'no such file' : 'cannot be read'}`);
    });
    if (!stats.isFile()) throw new CapabilityError(`files.read: ${relative}: ${stats.isDirectory() ? 'is a directory' : 'not a regular file'}`);
    if (stats.size > this.config.index.maxFileBytes)
      throw new CapabilityError(`files.read: ${relative}: ${stats.size} bytes is over the limit of ${this.config.index.maxFileBytes}`);
    const content = await withinTime(
      readFile(absolute).catch(() => {
        throw new CapabilityError(`files.read: ${relative}: cannot be read`);
      }),
      this.config.plugins.wallTimeMs,
      signal,
      () => new CapabilityError(`files.read: ${relative}: the file system did not answer within ${this.config.plugins.wallTimeMs} ms`),
    );
    if (content.length > this.config.index.maxFileBytes) throw new CapabilityError(`files.read: ${relative}: over the size limit`);
    return content.toString('utf8');
  }

  /**
   * Paths of the graph's files that match the patterns (the graph already
   * honours `.gitignore`). Braces are not expanded (a pattern like
   * `{1..99999}` would explode), and matching yields to the event loop every
   * few thousand nodes so that the API keeps answering.
   */
  async listFiles(patterns: unknown, signal?: AbortSignal): Promise<string[]> {
    const list = typeof patterns === 'string' ? [patterns] : patterns;
    if (!Array.isArray(list) || list.length === 0 || list.length > MAX_PATTERNS)
      throw new CapabilityError(`files.list: give one glob pattern or an array of 1 to ${MAX_PATTERNS}`);
    const matchers = list.map((pattern) => {
      if (typeof pattern !== 'string' || pattern.length === 0 || pattern.length > 300)
        throw new CapabilityError('files.list: each pattern must be a string of 1 to 300 characters');
      return new minimatch.Minimatch(pattern, { dot: true, nobrace: true, noext: true });
    });
    const matched: string[] = [];
    let seen = 0;
    for (const node of this.graph.nodes()) {
      if (++seen % LIST_CHUNK === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (signal?.aborted) throw new CapabilityError('files.list: the apply has ended');
      }
      if (node.kind === 'file' && matchers.some((matcher) => matcher.match(node.path))) matched.push(node.path);
    }
    return matched.sort();
  }

  /**
   * A repository-relative path the plugin named, checked: no absolute paths,
   * no `..` out of the root, nothing under `.git` or the data directory, and
   * no symlink that resolves outside the repository.
   */
  private async confined(value: unknown, where: string): Promise<string> {
    if (typeof value !== 'string' || value.length === 0 || value.length > 4096 || value.includes('\0'))
      throw new CapabilityError(`${where}: a path must be a non-empty string`);
    if (path.isAbsolute(value) || path.win32.isAbsolute(value))
      throw new CapabilityError(`${where}: ${JSON.stringify(value)} is absolute; paths are relative to the repository root`);
    const normalized = path.posix.normalize(value.replace(/\\/g, '/'));
    if (normalized === '..' || normalized.startsWith('../')) throw new CapabilityError(`${where}: ${JSON.stringify(value)} leaves the repository`);
    // Any .git along the way (the repository's, a submodule's, a vendored one's), in any case.
    if (normalized.split('/').some((segment) => segment.toLowerCase() === '.git'))
      throw new CapabilityError(`${where}: ${JSON.stringify(value)} is inside .git`);
    const [root, dataDir] = await Promise.all([this.root(), this.dataDir()]);
    const absolute = path.join(root, normalized);
    // Compared after symlinks are resolved, for the root, the data directory and the path alike.
    const real = await realpath(absolute).catch(() => absolute);
    if (real !== root && !real.startsWith(root + path.sep))
      throw new CapabilityError(`${where}: ${JSON.stringify(value)} is a link that leads out of the repository`);
    if (real === dataDir || real.startsWith(dataDir + path.sep) || absolute === dataDir || absolute.startsWith(dataDir + path.sep)) {
      throw new CapabilityError(`${where}: ${JSON.stringify(value)} is inside Strata's data directory`);
    }
    if (real.split(path.sep).some((segment) => segment.toLowerCase() === '.git'))
      throw new CapabilityError(`${where}: ${JSON.stringify(value)} leads inside .git`);
    return normalized;
  }

  private dataDir(): Promise<string> {
    this.realDataDir ??= realpath(this.config.dataDir).catch(() => path.resolve(this.config.dataDir));
    return this.realDataDir;
  }

  private root(): Promise<string> {
    this.realRoot ??= realpath(this.config.repositoryRoot);
    return this.realRoot;
  }

  private git(args: string[], parse: 'blame', call?: GitCall): Promise<BlameRange[]>;
  private git(args: string[], parse: 'log', call?: GitCall): Promise<GitCommit[]>;
  private git(args: string[], parse: 'text', call?: GitCall): Promise<string>;
  private async git(args: string[], parse: 'blame' | 'log' | 'text', call?: GitCall): Promise<unknown> {
    const root = await this.root();
    const release = call ? await call.slots.acquire(call.signal, () => new CapabilityError('the apply has ended')) : undefined;
    try {
      if (call?.signal?.aborted) throw new CapabilityError(`git ${args[0]}: the apply has ended`);
      return await this.gitRunner.run(args, parse as 'text', {
        cwd: root,
        maxBuffer: GIT_MAX_BUFFER,
        timeoutMs: this.config.plugins.wallTimeMs,
        signal: call?.signal,
      });
    } catch (error) {
      if (error instanceof CapabilityError) throw error;
      if (call?.signal?.aborted || (error instanceof GitRunError && error.cancelled)) throw new CapabilityError(`git ${args[0]}: the apply has ended`);
      const failure = error as GitRunError;
      // git's first line of complaint, with the server's paths taken out.
      const stderr = String(failure.stderr ?? '')
        .trim()
        .split('\n')[0]!
        .split(root)
        .join('.');
      throw new CapabilityError(
        `git ${args[0]} failed: ${stderr || (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER' ? 'its output is too large' : 'unknown error')}`,
      );
    } finally {
      release?.();
    }
  }
}

/** Who a git command runs for: that plugin's share of processes, and its apply's end. */
interface GitCall {
  slots: Semaphore;
  signal: AbortSignal | undefined;
}

/** `work`, or the error of `late()` once `ms` have passed or `signal` aborts, whichever comes first. */
function withinTime<T>(work: Promise<T>, ms: number, signal: AbortSignal | undefined, late: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const giveUp = (): void => {
      clearTimeout(timer);
      reject(late());
    };
    const timer = setTimeout(giveUp, ms);
    signal?.addEventListener('abort', giveUp, { once: true });
    if (signal?.aborted) giveUp();
    work.then(
      (value) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', giveUp);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', giveUp);
        reject(error);
      },
    );
  });
}

/** What HEAD holds: each file's blob id, and the hash git names objects with. */
interface CommittedBlobs {
  objectFormat: 'sha1' | 'sha256';
  byPath: Map<string, string>;
}
