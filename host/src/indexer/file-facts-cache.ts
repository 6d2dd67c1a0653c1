import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject, injectable } from 'tsyringe';
import { StrataConfig } from '../config/strata-config.js';
import { createDataDirectory } from '../storage/create-data-directory.js';
import type { FileFacts, FileSignature } from './file-reader.js';
import { holds } from './saved-graph-check.js';

/** The cache's file in the data directory. */
export const FILE_FACTS_CACHE_FILE = 'file-facts.json';

type CachedFacts = Omit<FileFacts, 'path' | 'signature'>;

interface CacheFileContent {
  /** What the facts were made by, and of: a cache made by other code, settings or for another repository is not used. */
  key: string;
  entries: Array<[path: string, signature: FileSignature, facts: CachedFacts]>;
}

/**
 * What was read of each file at the last build, kept in the data directory
 * (`file-facts.json`) when `index.cache` is on, so that a start reads and
 * parses only files changed since. A file counts as unchanged when its size,
 * modification time, change time (which no tool can set back) and inode are
 * those it had when it was opened for reading. The cache is made for one
 * version of the indexer's code and its parser, one `index.maxFileBytes` and
 * one repository; any other is ignored, and so is a cache that cannot be
 * read. Reading or writing it never fails a build.
 */
@injectable()
export class FileFactsCache {
  private entries = new Map<string, { signature: FileSignature; facts: CachedFacts }>();
  /** The key of the loaded cache; undefined when it could not be made (then nothing is written). */
  private key: string | undefined;
  /** `currentKey` and what it was made from, once worked out (null: it could not be). */
  private madeKey: { key: string; inputs: string[] } | null | undefined;

  constructor(@inject(StrataConfig) private readonly config: StrataConfig) {}

  private get file(): string {
    return path.join(this.config.dataDir, FILE_FACTS_CACHE_FILE);
  }

  /** Reads the cache file, when `index.cache` is on; returns how many files it has facts of. */
  load(): number {
    this.entries = new Map();
    this.key = undefined;
    if (!this.config.index.cache) return 0;
    try {
      this.key = this.currentKey();
      const content = JSON.parse(readFileSync(this.file, 'utf8')) as CacheFileContent;
      if (content.key === this.key && Array.isArray(content.entries)) {
        for (const [file, signature, facts] of content.entries) this.entries.set(file, { signature, facts });
      }
    } catch {
      // No cache yet, one that cannot be read, or a key that cannot be made: everything is read.
    }
    return this.entries.size;
  }

  /**
   * What the facts are made by and of (the indexer's code, the parsers, the
   * settings, the repository), as the cache is keyed; undefined when it
   * cannot be made. Worked out once.
   */
  currentKey(): string | undefined {
    if (this.madeKey === undefined) {
      try {
        this.madeKey = cacheKey(this.config.repositoryRoot, this.config.index.maxFileBytes);
      } catch {
        this.madeKey = null;
      }
    }
    return this.madeKey?.key;
  }

  /**
   * The files and folders (absolute paths) `currentKey` was made from: the
   * indexer's modules and their folder, the parsers' package.json files, and
   * the node_modules folders (and scope folders) a package is looked for in.
   * While none of them changed, nor the settings, the key is the same.
   */
  keyInputs(): string[] | undefined {
    this.currentKey();
    return this.madeKey?.inputs;
  }

  /**
   * The loaded facts of `files` that still hold (undefined for a file to
   * read), in order. The loaded cache is let go: a server would otherwise
   * keep it, stale entries too, for as long as it runs.
   */
  lookup(files: readonly string[]): Array<FileFacts | undefined> {
    const cached = new Array<FileFacts | undefined>(files.length);
    for (let i = 0; i < files.length; i++) {
      const file = files[i]!;
      const entry = this.entries.get(file);
      if (!entry) continue;
      if (holds(path.join(this.config.repositoryRoot, file), entry.signature)) {
        cached[i] = { path: file, signature: entry.signature, ...entry.facts };
      }
    }
    this.entries = new Map();
    return cached;
  }

  /**
   * Writes the facts of a build, when `index.cache` is on. Left out: files
   * changed since shortly before `buildStartedAt` (a `Date.now()`), and files
   * that could not be read (a reason that may pass without the file
   * changing). Resolves with why it could not write, if it could not; never
   * rejects. The file is written in pieces, letting other work in between:
   * a server answers requests while it writes the facts of 100,000 files.
   */
  async save(facts: readonly FileFacts[], buildStartedAt: number): Promise<string | undefined> {
    if (!this.config.index.cache || this.key === undefined) return undefined;
    // Loaded by the build that made the facts (the parsers come with it).
    const { isRacy } = await import('./file-reader.js');
    const temporary = `${this.file}.${randomBytes(6).toString('hex')}.tmp`;
    let output: FileHandle | undefined;
    try {
      createDataDirectory(this.config.dataDir);
      output = await open(temporary, 'w');
      await output.write(`{"key":${JSON.stringify(this.key)},"entries":[`);
      let first = true;
      for (let start = 0; start < facts.length; start += SAVE_CHUNK_FILES) {
        const entries: CacheFileContent['entries'] = [];
        for (const { path: file, signature, ...rest } of facts.slice(start, start + SAVE_CHUNK_FILES)) {
          // A file changed shortly before the build could change again unseen: not kept.
          if (!signature || isRacy(signature, buildStartedAt)) continue;
          if (rest.error?.startsWith('unreadable')) continue;
          entries.push([file, signature, rest]);
        }
        if (entries.length === 0) continue;
        const chunk = JSON.stringify(entries).slice(1, -1);
        await output.write(first ? chunk : `,${chunk}`);
        first = false;
      }
      await output.write(']}');
      await output.close();
      output = undefined;
      await rename(temporary, this.file);
      return undefined;
    } catch (error) {
      await output?.close().catch(() => {});
      await rm(temporary, { force: true }).catch(() => {});
      return (error as Error).message;
    }
  }
}

/** Files whose facts are serialized at a time when the cache is written (a few milliseconds of work each). */
const SAVE_CHUNK_FILES = 2_000;

/**
 * What the facts depend on: the indexer's code as built (every module of
 * this folder), the versions of the parsers (oxc, web-tree-sitter and its
 * grammars) and of the binary detection, the size limit, and the repository.
 */
function cacheKey(repositoryRoot: string, maxFileBytes: number): { key: string; inputs: string[] } {
  const inputs = new Set<string>();
  const packageVersion = (name: string): string => {
    const { version, manifest } = packageOf(name);
    inputs.add(manifest);
    const scope = name.startsWith('@') ? name.slice(0, name.indexOf('/')) : undefined;
    // Where Node looks for a package (a copy made nearer would be found instead).
    for (let directory = path.dirname(fileURLToPath(import.meta.url)); ; directory = path.dirname(directory)) {
      const modules = path.join(directory, 'node_modules');
      inputs.add(modules);
      if (scope) inputs.add(path.join(modules, scope));
      if (path.dirname(directory) === directory) break;
    }
    return version;
  };
  const hash = createHash('sha256').update(
    JSON.stringify({
      format: 1,
      repositoryRoot,
      maxFileBytes,
      oxcParser: packageVersion('oxc-parser'),
      webTreeSitter: packageVersion('web-tree-sitter'),
      treeSitterPython: packageVersion('tree-sitter-python'),
      treeSitterGo: packageVersion('tree-sitter-go'),
      treeSitterRust: packageVersion('tree-sitter-rust'),
      treeSitterC: packageVersion('tree-sitter-c'),
      treeSitterCpp: packageVersion('tree-sitter-cpp'),
      treeSitterJava: packageVersion('tree-sitter-java'),
      treeSitterKotlin: packageVersion('@tree-sitter-grammars/tree-sitter-kotlin'),
      treeSitterCSharp: packageVersion('tree-sitter-c-sharp'),
      treeSitterRuby: packageVersion('tree-sitter-ruby'),
      treeSitterPhp: packageVersion('tree-sitter-php'),
      isbinaryfile: packageVersion('isbinaryfile'),
    }),
  );
  const folder = new URL('.', import.meta.url);
  inputs.add(fileURLToPath(folder));
  for (const module of readdirSync(folder)
    .filter((name) => name.endsWith('.js'))
    .sort()) {
    hash.update(module).update(readFileSync(new URL(module, folder)));
    inputs.add(fileURLToPath(new URL(module, folder)));
  }
  return { key: hash.digest('hex'), inputs: [...inputs] };
}

/** The version of an installed package and its package.json, the one above its entry (some do not export their package.json). */
function packageOf(name: string): { version: string; manifest: string } {
  let directory = path.dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    try {
      const file = path.join(directory, 'package.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === name && manifest.version) return { version: manifest.version, manifest: file };
    } catch {
      // No package.json at this level.
    }
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error(`no package.json of ${name}`);
    directory = parent;
  }
}
