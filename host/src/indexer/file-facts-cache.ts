import { createHash } from 'node:crypto';
import { readFileSync, renameSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createDataDirectory } from '../storage/create-data-directory.js';
import type { FileFacts } from './file-reader.js';

/** The cache's file in the data directory. */
export const FILE_FACTS_CACHE_FILE = 'file-facts.json';

/**
 * A file changed this long before a build started, or later, is not kept:
 * a later edit could leave its size and times as they were (timestamps as
 * coarse as FAT's two seconds), as git's "racily clean" entries.
 */
const RACY_WINDOW_MS = 2_000;

/** What says a file is unchanged: size, modification and change times, inode. */
type Signature = [size: number, mtimeMs: number, ctimeMs: number, ino: number];

interface CacheFileContent {
  /** What the facts were made by: a cache made by other code, or other settings, is not used. */
  key: string;
  entries: Array<[path: string, signature: Signature, facts: Omit<FileFacts, 'path'>]>;
}

/**
 * What was read of each file at the last build, kept in the data directory
 * (`file-facts.json`), so that a start reads and parses only files changed
 * since. A file counts as unchanged when its size, modification time, change
 * time (which no tool can set back) and inode are those it had. The cache is
 * made for one version of the reading code and one `index.maxFileBytes`; any
 * other is ignored, and so is a cache that cannot be read. Writing it never
 * fails a build.
 */
export class FileFactsCache {
  private constructor(
    private readonly file: string,
    private readonly key: string,
    private readonly entries: Map<string, { signature: Signature; facts: Omit<FileFacts, 'path'> }>,
  ) {}

  /** How many files it has facts of. */
  get size(): number {
    return this.entries.size;
  }

  /** Opens the cache of a data directory (empty when there is none, or it is not for this code and these settings). */
  static open(dataDir: string, maxFileBytes: number): FileFactsCache {
    const file = path.join(dataDir, FILE_FACTS_CACHE_FILE);
    const key = cacheKey(maxFileBytes);
    const entries = new Map<string, { signature: Signature; facts: Omit<FileFacts, 'path'> }>();
    try {
      const content = JSON.parse(readFileSync(file, 'utf8')) as CacheFileContent;
      if (content.key === key && Array.isArray(content.entries)) {
        for (const [file, signature, facts] of content.entries) entries.set(file, { signature, facts });
      }
    } catch {
      // No cache yet, or one that cannot be read: everything is read.
    }
    return new FileFactsCache(file, key, entries);
  }

  /**
   * Splits `files` into those whose cached facts still hold and those to
   * read. `stats[i]` is the state of `files[i]` when it has an entry (so was
   * looked at), for `save`.
   */
  lookup(root: string, files: readonly string[]): { cached: Array<FileFacts | undefined>; stats: Array<Stats | undefined> } {
    const cached = new Array<FileFacts | undefined>(files.length);
    const stats = new Array<Stats | undefined>(files.length);
    for (let i = 0; i < files.length; i++) {
      const file = files[i]!;
      const entry = this.entries.get(file);
      if (!entry) continue;
      const stat = statSync(path.join(root, file), { throwIfNoEntry: false });
      stats[i] = stat;
      if (!stat) continue;
      const [size, mtimeMs, ctimeMs, ino] = entry.signature;
      if (stat.size === size && stat.mtimeMs === mtimeMs && stat.ctimeMs === ctimeMs && stat.ino === ino) cached[i] = { path: file, ...entry.facts };
    }
    return { cached, stats };
  }

  /**
   * Writes the facts of a build (`stats` as `lookup` gave them; files it did
   * not look at are looked at now), leaving out files changed since shortly
   * before `buildStartedAt` (a `Date.now()`). Looking at a file after it was
   * read is safe: a change after the read gives it a time after the build's
   * start, and so leaves it out. Returns why it could not write, if it could not.
   */
  save(root: string, facts: readonly FileFacts[], stats: ReadonlyArray<Stats | undefined>, buildStartedAt: number): string | undefined {
    const entries: CacheFileContent['entries'] = [];
    for (let i = 0; i < facts.length; i++) {
      const stat = stats[i] ?? statSync(path.join(root, facts[i]!.path), { throwIfNoEntry: false });
      if (!stat || Math.max(stat.mtimeMs, stat.ctimeMs) >= buildStartedAt - RACY_WINDOW_MS) continue;
      const { path: file, ...rest } = facts[i]!;
      entries.push([file, [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino], rest]);
    }
    const temporary = `${this.file}.${process.pid}.tmp`;
    try {
      createDataDirectory(path.dirname(this.file));
      writeFileSync(temporary, JSON.stringify({ key: this.key, entries } satisfies CacheFileContent));
      renameSync(temporary, this.file);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }
}

/** The reading code (these modules, as built) and oxc's version, with the size limit: what the facts depend on. */
function cacheKey(maxFileBytes: number): string {
  const hash = createHash('sha256').update(`format 1; maxFileBytes ${maxFileBytes}; oxc-parser ${oxcParserVersion()}`);
  for (const module of ['./file-reader.js', './source-file-analyzer.js', './language-detector.js', './language-table.js']) {
    hash.update(readFileSync(new URL(module, import.meta.url)));
  }
  return hash.digest('hex');
}

function oxcParserVersion(): string {
  return (createRequire(import.meta.url)('oxc-parser/package.json') as { version: string }).version;
}
