import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { open, readFile, realpath } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { minimatch } from 'minimatch';
import { inject, injectable } from 'tsyringe';
import type { BlameRange, Capability, GitCommit } from '@strata/sdk';
import { StrataConfig } from '../config/strata-config.js';
import { GraphStore } from '../graph/graph-store.js';

const run = promisify(execFile);

/** Most commits one `git log` call returns. */
const MAX_COMMITS = 50_000;
/** Most glob patterns in one `files.list` call. */
const MAX_PATTERNS = 100;
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
  /** Blame answers by `HEAD:content hash`, least recently used first out. */
  private readonly blames = new Map<string, BlameRange[]>();
  private blameRuns = 0;
  private head: { at: number; value: Promise<string> } | undefined;
  /** The HEAD the commit-graph was last written for. */
  private commitGraph: { head: string; written: Promise<void> } | undefined;
  /** git processes running at once: plugins may ask for more, the machine gains nothing from it. */
  private readonly gitSlots = new Semaphore(Math.max(2, availableParallelism() * 2));

  constructor(
    @inject(StrataConfig) private readonly config: StrataConfig,
    @inject(GraphStore) private readonly graph: GraphStore,
  ) {}

  /** Runs capability `name` with the plugin's arguments. */
  call(name: Capability, args: unknown[]): Promise<unknown> {
    switch (name) {
      case 'git:log':
        return this.gitLog(args[0]);
      case 'git:blame':
        return this.gitBlame(args[0]);
      case 'files:read':
        return this.readFile(args[0]);
      case 'files:list':
        return Promise.resolve(this.listFiles(args[0]));
      default:
        return Promise.reject(new CapabilityError(`capability "${name}" is not served by the host (graph:read and inputs:read live in the sandbox)`));
    }
  }

  /** `git log` with numstat, renames followed, `.mailmap` honoured. */
  async gitLog(options: unknown): Promise<GitCommit[]> {
    const given = (options ?? {}) as Record<string, unknown>;
    if (typeof given !== 'object' || Array.isArray(given)) throw new CapabilityError('git.log: options must be an object');
    for (const key of Object.keys(given)) {
      if (!['since', 'until', 'paths', 'maxCommits'].includes(key)) throw new CapabilityError(`git.log: unknown option "${key}"`);
    }
    const args = ['log', '--no-color', '--use-mailmap', '--numstat', '-z', '--find-renames', '--format=%x1e%H%x1f%aN%x1f%aE%x1f%aI%x1f%s'];
    for (const key of ['since', 'until'] as const) {
      const value = given[key];
      if (value === undefined) continue;
      if (typeof value !== 'string' || !ISO_DATE.test(value) || Number.isNaN(Date.parse(value))) throw new CapabilityError(`git.log: ${key} must be an ISO 8601 date, got ${JSON.stringify(value)}`);
      args.push(`--${key}=${value}`);
    }
    const maxCommits = given.maxCommits ?? MAX_COMMITS;
    if (typeof maxCommits !== 'number' || !Number.isInteger(maxCommits) || maxCommits < 1 || maxCommits > MAX_COMMITS) throw new CapabilityError(`git.log: maxCommits must be an integer from 1 to ${MAX_COMMITS}`);
    args.push(`--max-count=${maxCommits}`);
    args.push('--');
    if (given.paths !== undefined) {
      if (!Array.isArray(given.paths) || given.paths.length > 1000) throw new CapabilityError('git.log: paths must be an array of at most 1000 paths');
      for (const entry of given.paths) args.push(await this.confined(entry, 'git.log'));
      const head = await this.currentHead();
      if (head) await this.ensureCommitGraph(head);
    }
    const output = await this.git(args);
    return parseGitLog(output);
  }

  /**
   * `git blame` of one file, line by line. Answers are cached by HEAD and
   * the file's content, so a second apply with nothing changed runs no git.
   */
  async gitBlame(file: unknown): Promise<BlameRange[]> {
    const relative = await this.confined(file, 'git.blame');
    const [head, content] = await Promise.all([this.currentHead(), readFile(path.join(await this.root(), relative)).catch(() => undefined)]);
    const key = content && head ? `${head}:${relative}:${createHash('sha1').update(content).digest('hex')}` : undefined;
    const cached = key ? this.blames.get(key) : undefined;
    if (cached) {
      this.blames.delete(key!);
      this.blames.set(key!, cached);
      return cached;
    }
    if (head) await this.ensureCommitGraph(head);
    const output = await this.git(['blame', '--line-porcelain', '--', relative]);
    const lines = parseBlame(output);
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
   * repository) only cost that speed.
   */
  private ensureCommitGraph(head: string): Promise<void> {
    if (this.commitGraph?.head !== head) {
      this.commitGraph = { head, written: this.git(['commit-graph', 'write', '--reachable', '--changed-paths']).then(() => undefined, () => undefined) };
    }
    return this.commitGraph.written;
  }

  private currentHead(): Promise<string> {
    const now = Date.now();
    if (!this.head || now - this.head.at > HEAD_TTL_MS) {
      this.head = { at: now, value: this.git(['rev-parse', '--verify', '-q', 'HEAD']).then((out) => out.trim(), () => '') };
    }
    return this.head.value;
  }

  /** A repository file as UTF-8 text, up to the indexer's size limit. */
  async readFile(file: unknown): Promise<string> {
    const relative = await this.confined(file, 'files.read');
    const absolute = path.join(await this.root(), relative);
    const handle = await open(absolute, 'r').catch((error: NodeJS.ErrnoException) => {
      throw new CapabilityError(`files.read: ${relative}: ${error.code === 'ENOENT' ? 'no such file' : error.code === 'EISDIR' ? 'is a directory' : 'cannot be read'}`);
    });
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw new CapabilityError(`files.read: ${relative}: not a file`);
      if (stats.size > this.config.index.maxFileBytes) throw new CapabilityError(`files.read: ${relative}: ${stats.size} bytes is over the limit of ${this.config.index.maxFileBytes}`);
      return (await handle.readFile()).toString('utf8');
    } finally {
      await handle.close();
    }
  }

  /** Paths of the graph's files that match the patterns (the graph already honours `.gitignore`). */
  listFiles(patterns: unknown): string[] {
    const list = typeof patterns === 'string' ? [patterns] : patterns;
    if (!Array.isArray(list) || list.length === 0 || list.length > MAX_PATTERNS) throw new CapabilityError(`files.list: give one glob pattern or an array of 1 to ${MAX_PATTERNS}`);
    const matchers = list.map((pattern) => {
      if (typeof pattern !== 'string' || pattern.length === 0 || pattern.length > 500) throw new CapabilityError('files.list: each pattern must be a string of 1 to 500 characters');
      return new minimatch.Minimatch(pattern, { dot: true });
    });
    const matched: string[] = [];
    for (const node of this.graph.nodes()) {
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
    if (typeof value !== 'string' || value.length === 0 || value.length > 4096 || value.includes('\0')) throw new CapabilityError(`${where}: a path must be a non-empty string`);
    if (path.isAbsolute(value) || path.win32.isAbsolute(value)) throw new CapabilityError(`${where}: ${JSON.stringify(value)} is absolute; paths are relative to the repository root`);
    const normalized = path.posix.normalize(value.replace(/\\/g, '/'));
    if (normalized === '..' || normalized.startsWith('../')) throw new CapabilityError(`${where}: ${JSON.stringify(value)} leaves the repository`);
    if (normalized === '.git' || normalized.startsWith('.git/')) throw new CapabilityError(`${where}: ${JSON.stringify(value)} is inside .git`);
    const root = await this.root();
    const absolute = path.join(root, normalized);
    const dataDir = this.config.dataDir;
    if (absolute === dataDir || absolute.startsWith(dataDir + path.sep)) throw new CapabilityError(`${where}: ${JSON.stringify(value)} is inside Strata's data directory`);
    const real = await realpath(absolute).catch(() => absolute);
    if (real !== root && !real.startsWith(root + path.sep)) throw new CapabilityError(`${where}: ${JSON.stringify(value)} is a link that leads out of the repository`);
    return normalized;
  }

  private root(): Promise<string> {
    this.realRoot ??= realpath(this.config.repositoryRoot);
    return this.realRoot;
  }

  private async git(args: string[]): Promise<string> {
    const root = await this.root();
    const release = await this.gitSlots.acquire();
    try {
      const { stdout } = await run('git', ['-C', root, ...args], { maxBuffer: 512 * 1024 * 1024, timeout: this.config.plugins.wallTimeMs, encoding: 'utf8' });
      return stdout;
    } catch (error) {
      const stderr = String((error as { stderr?: string }).stderr ?? '').trim().split('\n')[0];
      throw new CapabilityError(`git ${args[0]} failed: ${stderr || (error as Error).message}`);
    } finally {
      release();
    }
  }
}

/** Parses `git log -z --numstat` with the format above. */
export function parseGitLog(output: string): GitCommit[] {
  const commits: GitCommit[] = [];
  for (const record of output.split('\x1e')) {
    if (record.trim() === '') continue;
    // With -z the header ends with NUL; numstat lines follow, NUL-terminated.
    const tokens = record.split('\0');
    const [hash, authorName, authorEmail, date, subject] = tokens.shift()!.split('\x1f');
    const files: GitCommit['files'] = [];
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!.replace(/^\n/, '');
      if (token === '') continue;
      const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(token);
      if (!match) continue;
      const binary = match[1] === '-';
      const added = binary ? 0 : Number(match[1]);
      const deleted = binary ? 0 : Number(match[2]);
      if (match[3] === '') {
        // A rename: the old and the new path follow as their own tokens.
        const previousPath = tokens[++i] ?? '';
        const newPath = tokens[++i] ?? '';
        files.push({ path: newPath, previousPath, added, deleted, binary });
      } else {
        files.push({ path: match[3]!, added, deleted, binary });
      }
    }
    commits.push({ hash: hash ?? '', authorName: authorName ?? '', authorEmail: authorEmail ?? '', date: date ?? '', subject: subject ?? '', files });
  }
  return commits;
}

/** Parses `git blame --line-porcelain` into runs of consecutive lines from one commit. */
export function parseBlame(output: string): BlameRange[] {
  const ranges: BlameRange[] = [];
  let current: { hash?: string; line?: number; authorName?: string; authorEmail?: string; time?: number } = {};
  for (const line of output.split('\n')) {
    if (line.startsWith('\t')) {
      const lineNumber = current.line ?? 0;
      const last = ranges.at(-1);
      if (last && last.hash === current.hash && last.startLine + last.lineCount === lineNumber) {
        last.lineCount++;
      } else {
        ranges.push({
          startLine: lineNumber,
          lineCount: 1,
          hash: current.hash ?? '',
          authorName: current.authorName ?? '',
          authorEmail: current.authorEmail ?? '',
          date: new Date((current.time ?? 0) * 1000).toISOString(),
        });
      }
      current = {};
      continue;
    }
    const header = /^([0-9a-f]{40}) \d+ (\d+)/.exec(line);
    if (header) {
      current.hash = header[1];
      current.line = Number(header[2]);
    } else if (line.startsWith('author ')) current.authorName = line.slice(7);
    else if (line.startsWith('author-mail ')) current.authorEmail = line.slice(12).replace(/^<|>$/g, '');
    else if (line.startsWith('author-time ')) current.time = Number(line.slice(12));
  }
  return ranges;
}

/** At most `size` holders at once; the others wait in order. */
class Semaphore {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
