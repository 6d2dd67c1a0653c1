import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, readFile, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { BlameRange, GitCommit } from '@strata/sdk';
import { inject, injectable } from 'tsyringe';
import { Semaphore } from '../concurrency/semaphore.js';
import { StrataConfig } from '../config/strata-config.js';
import { CapabilityError } from './capability-error.js';
import { type CommitAuthor, GIT_AUTHORSHIP_FORMAT, GIT_LOG_FORMAT, RENAME_CHECK_LIMIT, type SoleAuthorship } from './git-output.js';
import type { GitOutputKind } from './git-process.js';
import { GitRunError, GitRunner } from './git-runner.js';
import { RepositoryPaths } from './repository-paths.js';

/** Most commits one `git log` call returns. */
const MAX_COMMITS = 50_000;
/** Most files in one `git.blameMany` call. */
const MAX_BLAME_BATCH = 500;
/** Largest output one git command may give. */
const GIT_MAX_BUFFER = 256 * 1024 * 1024;
/** Blamed lines kept for answering again without git (by HEAD and file content). */
const BLAME_CACHE_RUNS = 1_000_000;
/** How long a resolved HEAD is trusted before it is asked again. */
const HEAD_TTL_MS = 1000;
/** How git blame names the author of lines not committed yet. */
const NOT_COMMITTED_YET = { hash: '0'.repeat(40), authorName: 'Not Committed Yet', authorEmail: 'not.committed.yet' };
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The capabilities `git:log` and `git:blame`: git run on the served
 * repository for plugins, each plugin with its own share of processes, with
 * blame answers cached by HEAD and file state and the commit-graph kept up
 * to date for blame's sake.
 */
@injectable()
export class GitCapabilities {
  /** Blame answers by HEAD and file state, least recently used first out. */
  private readonly blames = new Map<string, BlameRange[]>();
  private blameRuns = 0;
  private head: { at: number; value: Promise<HeadState> } | undefined;
  /** The blob of every file HEAD holds under the root, by path, for the HEAD it was read at. */
  private committedBlobs: { head: string; blobs: Promise<CommittedBlobs | undefined> } | undefined;
  /** The files one commit wrote whole at HEAD, read once per HEAD (see `readSoleAuthors`). */
  private soleAuthors: { head: string; authors: Promise<Map<string, SoleAuthor> | undefined> } | undefined;
  /** The HEAD the commit-graph was last written for. */
  private commitGraph: { head: string; written: Promise<void> } | undefined;
  /** git processes one plugin may run at once: more gains nothing, and each plugin has its own share. */
  private readonly gitSlotsPerPlugin = Math.max(2, availableParallelism() * 2);
  private readonly gitSlots = new Map<string, Semaphore>();

  constructor(
    @inject(StrataConfig) private readonly config: StrataConfig,
    @inject(RepositoryPaths) private readonly paths: RepositoryPaths,
    @inject(GitRunner) private readonly gitRunner: GitRunner,
  ) {}

  /** Who a git command runs for: `pluginId`'s share of processes, and its apply's end (`signal`). */
  callFor(pluginId: string, signal: AbortSignal | undefined): GitCall {
    let slots = this.gitSlots.get(pluginId);
    if (!slots) this.gitSlots.set(pluginId, (slots = new Semaphore(this.gitSlotsPerPlugin)));
    return { slots, signal };
  }

  /** Drops `pluginId`'s share of git processes (the plugin has gone; its calls have ended with its sandbox). */
  forget(pluginId: string): void {
    this.gitSlots.delete(pluginId);
  }

  /** Ends the git process (after the sandboxes, whose calls it answers). */
  close(): Promise<void> {
    return this.gitRunner.close();
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
      for (const entry of given.paths) args.push(await this.paths.confined(entry, 'git.log'));
      const head = await this.headState();
      if (head.kind === 'no-history') return [];
      if (head.kind === 'commit') await this.ensureCommitGraph(head.hash);
    }
    try {
      return await this.git(args, 'log', call);
    } catch (error) {
      // git log fails where there is no commit to start from; the answer there is that there are none. Asked only
      // after a failure: a log that works costs no more than its own run.
      if ((await this.headState()).kind === 'no-history') return [];
      throw error;
    }
  }

  /**
   * `git blame` of one file, as runs of lines by commit. Answers are cached
   * by HEAD and the file's identity, size and modification time, so a second
   * apply with nothing changed runs no git.
   */
  async gitBlame(file: unknown, call: GitCall): Promise<BlameRange[]> {
    const relative = await this.paths.confined(file, 'git.blame');
    const absolute = path.join(await this.paths.root(), relative);
    const stats = await stat(absolute).catch(() => undefined);
    if (stats && !stats.isFile()) throw new CapabilityError(`git.blame: ${relative}: not a file`);
    if (stats && stats.size > this.config.index.maxFileBytes)
      throw new CapabilityError(`git.blame: ${relative}: ${stats.size} bytes is over the limit of ${this.config.index.maxFileBytes}`);
    // The answer depends on the history (HEAD) and on the file as it is now: its
    // identity, size and modification time stand for its content, as git's own index does.
    const state = await this.headState();
    // No commit at all: every line is not committed yet, as git says of a staged file, and no git runs (a blame per
    // file that git fails took a minute for the 12,000 files of a fresh `git init`).
    if (state.kind === 'no-history') return notCommittedYet(relative, absolute, stats);
    const head = state.kind === 'commit' ? state.hash : '';
    const key = stats && head ? `${head}:${relative}:${stats.ino}:${stats.size}:${stats.mtimeMs}` : undefined;
    const cached = key ? this.blames.get(key) : undefined;
    if (cached) {
      this.blames.delete(key!);
      this.blames.set(key!, cached);
      return cached;
    }
    // A file as HEAD has it is blamed at HEAD: the same answer, without git reading its index (a blame of the
    // working tree does, and at 100,000 files that took 0.4 to 0.7 s a file instead of 0.06 to 0.11 s).
    const committed = head !== '' && stats !== undefined ? await this.committedContent(head, relative, absolute, stats.size) : undefined;
    const soleAuthor = committed ? (await this.soleAuthorsAt(head))?.get(relative) : undefined;
    let lines: BlameRange[];
    if (committed && soleAuthor) {
      lines = wholeFileRange(committed, soleAuthor);
    } else {
      if (head) await this.ensureCommitGraph(head);
      lines = await this.git(['blame', '--porcelain', ...(committed ? [head] : []), '--', relative], 'blame', call);
    }
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
   * The file's bytes when they are those of its blob at `head` (git's object
   * id of the content, compared with `git ls-tree`'s): then its blame is
   * HEAD's. Undefined for a file changed, new, or not readable (its blame is
   * the working tree's, with uncommitted lines).
   */
  private async committedContent(head: string, relative: string, absolute: string, size: number): Promise<Buffer | undefined> {
    if (this.committedBlobs?.head !== head) this.committedBlobs = { head, blobs: this.readCommittedBlobs(head) };
    const committed = await this.committedBlobs.blobs;
    const blob = committed?.byPath.get(relative);
    if (!committed || !blob) return undefined;
    const content = await readFile(absolute).catch(() => undefined);
    if (!content || content.length !== size) return undefined;
    return createHash(committed.objectFormat).update(`blob ${content.length}\0`).update(content).digest('hex') === blob ? content : undefined;
  }

  /** The files one commit wrote whole, as of `head`, read once per HEAD; undefined when git cannot say. */
  private soleAuthorsAt(head: string): Promise<Map<string, SoleAuthor> | undefined> {
    if (this.soleAuthors?.head !== head) this.soleAuthors = { head, authors: this.readSoleAuthors(head) };
    return this.soleAuthors.authors;
  }

  /**
   * Most files of a repository were written by one commit and never changed
   * (all of a vendored or generated tree, most tests' fixtures): blame gives
   * every line of such a file to that commit, and one pass over the history
   * finds them all, where a blame per file costs a process and a walk of the
   * history each. Two passes: `git log --no-renames` lists the paths only one
   * commit touched, by adding them (git-output.ts, `parseSoleAuthorship`);
   * then the commits among those that deleted files are shown again with
   * renames and copies found, and a file git sees there as renamed or copied
   * is left to blame, which would follow it to its old name.
   */
  private async readSoleAuthors(head: string): Promise<Map<string, SoleAuthor> | undefined> {
    try {
      const history = await this.git(
        ['log', '--no-color', '--cc', '--no-renames', '--name-status', '-z', GIT_AUTHORSHIP_FORMAT, head, '--'],
        'sole-authorship',
      );
      const renamed = new Set(
        history.toCheck.length === 0
          ? []
          : await this.git(
              ['log', '--no-color', '--no-walk=unsorted', '--stdin', '-C', `-l${RENAME_CHECK_LIMIT}`, '--name-status', '-z', '--format=%x1e%H', '--'],
              'renamed-paths',
              undefined,
              `${history.toCheck.join('\n')}\n`,
            ),
      );
      const authors = new Map(history.authors.map(([hash, author]) => [hash, { hash, ...author }]));
      const byPath = new Map<string, SoleAuthor>();
      for (const [file, hash] of history.files) if (!renamed.has(file)) byPath.set(file, authors.get(hash)!);
      return byPath;
    } catch {
      return undefined;
    }
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

  /** What HEAD names now (asked again after `HEAD_TTL_MS`). */
  private headState(): Promise<HeadState> {
    const now = Date.now();
    if (!this.head || now - this.head.at > HEAD_TTL_MS) this.head = { at: now, value: this.readHeadState() };
    return this.head.value;
  }

  /**
   * `git rev-parse --verify -q HEAD`: a commit's hash; or, quietly, exit code
   * 1 where HEAD names no commit in a repository (unborn: `git init` and
   * nothing committed yet, an orphan branch); or 128, git's fatal error,
   * outside any repository, and for a repository git will not read (one
   * owned by another user, a broken one), told apart by whether a `.git`
   * is there to be found (git's messages depend on the locale).
   */
  private async readHeadState(): Promise<HeadState> {
    const root = await this.paths.root();
    try {
      const out = await this.gitRunner.run(['rev-parse', '--verify', '-q', 'HEAD'], 'text', {
        cwd: root,
        maxBuffer: GIT_MAX_BUFFER,
        timeoutMs: this.config.plugins.wallTimeMs,
      });
      return { kind: 'commit', hash: out.trim() };
    } catch (error) {
      const code = error instanceof GitRunError ? error.code : undefined;
      if (code === 1) return { kind: 'no-history' };
      if (code === 128 && process.env.GIT_DIR === undefined && !(await gitEntryAtOrAbove(root))) return { kind: 'no-history' };
      return { kind: 'unknown' };
    }
  }

  private git(args: string[], parse: 'blame', call?: GitCall): Promise<BlameRange[]>;
  private git(args: string[], parse: 'log', call?: GitCall): Promise<GitCommit[]>;
  private git(args: string[], parse: 'text', call?: GitCall): Promise<string>;
  private git(args: string[], parse: 'sole-authorship', call?: GitCall): Promise<SoleAuthorship>;
  private git(args: string[], parse: 'renamed-paths', call: GitCall | undefined, input: string): Promise<string[]>;
  private async git(args: string[], parse: GitOutputKind, call?: GitCall, input?: string): Promise<unknown> {
    const root = await this.paths.root();
    const release = call ? await call.slots.acquire(call.signal, () => new CapabilityError('the apply has ended')) : undefined;
    try {
      if (call?.signal?.aborted) throw new CapabilityError(`git ${args[0]}: the apply has ended`);
      return await this.gitRunner.run(args, parse as 'text', {
        cwd: root,
        input,
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
export interface GitCall {
  slots: Semaphore;
  signal: AbortSignal | undefined;
}

/**
 * What HEAD names: a commit; no commit at all (`no-history`: HEAD is unborn,
 * or the repository is in no git repository); or `unknown` when git failed
 * otherwise, and each run then asks git itself, which says why.
 */
type HeadState = { kind: 'commit'; hash: string } | { kind: 'no-history' } | { kind: 'unknown' };

/** Whether `dir` or a folder above it holds a `.git` (a repository's folder, or a worktree's or submodule's file). */
async function gitEntryAtOrAbove(dir: string): Promise<boolean> {
  for (let at = dir; ; at = path.dirname(at)) {
    const found = await lstat(path.join(at, '.git')).then(
      () => true,
      () => false,
    );
    if (found) return true;
    if (path.dirname(at) === at) return false;
  }
}

/** The blame of a file where nothing is committed: all its lines in one run, not committed yet, dated now (as git dates them). */
async function notCommittedYet(relative: string, absolute: string, stats: Stats | undefined): Promise<BlameRange[]> {
  if (!stats) throw new CapabilityError(`git.blame: ${relative}: no such file`);
  const content = await readFile(absolute).catch((error: NodeJS.ErrnoException) => {
    throw new CapabilityError(`git.blame: ${relative}: not readable (${error.code ?? error.message})`);
  });
  return wholeFileRange(content, { ...NOT_COMMITTED_YET, date: new Date().toISOString() });
}

/** What HEAD holds: each file's blob id, and the hash git names objects with. */
interface CommittedBlobs {
  objectFormat: 'sha1' | 'sha256';
  byPath: Map<string, string>;
}

/** The commit that wrote a whole file, and who made it. */
interface SoleAuthor extends CommitAuthor {
  hash: string;
}

/** A file's blame when one commit wrote it whole: all its lines in one run (none for an empty file), as git counts lines. */
function wholeFileRange(content: Buffer, author: SoleAuthor): BlameRange[] {
  if (content.length === 0) return [];
  let lineCount = 0;
  for (let at = content.indexOf(10); at >= 0; at = content.indexOf(10, at + 1)) lineCount++;
  if (content[content.length - 1] !== 10) lineCount++;
  return [{ startLine: 1, lineCount, ...author }];
}
