import { readFile, stat } from 'node:fs/promises';
import { minimatch } from 'minimatch';
import { inject, injectable } from 'tsyringe';
import { StrataConfig } from '../config/strata-config.js';
import { fileSystemPath } from '../graph/file-names.js';
import { GraphStore } from '../graph/graph-store.js';
import { CapabilityError } from './capability-error.js';
import { RepositoryPaths } from './repository-paths.js';

/** Most glob patterns in one `files.list` call. */
const MAX_PATTERNS = 20;
/** Graph nodes matched between two yields to the event loop in `files.list`. */
const LIST_CHUNK = 2000;

/** The capabilities `files:read` and `files:list`: the repository's files, as text and by glob. */
@injectable()
export class FileCapabilities {
  constructor(
    @inject(StrataConfig) private readonly config: StrataConfig,
    @inject(RepositoryPaths) private readonly paths: RepositoryPaths,
    @inject(GraphStore) private readonly graph: GraphStore,
  ) {}

  /**
   * A repository file as UTF-8 text, up to the indexer's size limit. A read
   * that does not finish within `plugins.wallTimeMs` (a stalled network file
   * system) is refused, as a git run that long is killed: the time the host
   * spends on a capability does not count against the plugin's wall time, so
   * without this the apply would wait for it for ever. It is refused at once
   * when the apply ends (`signal`).
   */
  async readFile(file: unknown, signal?: AbortSignal): Promise<string> {
    const relative = await this.paths.confined(file, 'files.read');
    const absolute = fileSystemPath(await this.paths.root(), relative);
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
