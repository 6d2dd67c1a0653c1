import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { nameFromBytes } from '../graph/file-names.js';

/** What tells that git's index file was written again: git writes a new file and renames it over the old one. */
type IndexSignature = string;

/** What git said of the repository: its index file, and what the index holds. */
interface IndexReading {
  /** Absolute path of the index file. */
  indexFile: string;
  signature: IndexSignature | undefined;
  /** Tracked paths, relative to the repository root. */
  files: Set<string>;
}

/**
 * The files in git's index: part of the repository whatever `.gitignore`
 * says, as `git ls-files` shows them (payload commits a generated
 * `importMap.js` that its `.gitignore` names, and three files import it).
 * Read with one `git ls-files -z` (a second process finds the index file, to
 * tell later whether it changed); there are none outside a git work tree,
 * or where git cannot be run. A repository that is a folder of a work tree
 * gets the paths below it, relative to it.
 */
export class TrackedFiles {
  /** No tracked files: outside a work tree, or without git. */
  static readonly NONE = new TrackedFiles('', undefined);

  private files = new Set<string>();
  /** Every directory with a tracked file below it. */
  private directories = new Set<string>();

  private constructor(
    private readonly root: string,
    private reading: IndexReading | undefined,
  ) {
    if (reading) this.take(reading.files);
  }

  /** Reads the index of the work tree `root` is in (absolute), or the index file `indexFile` when known. Never rejects. */
  static async read(root: string, indexFile?: string): Promise<TrackedFiles> {
    return new TrackedFiles(root, await readIndex(root, indexFile));
  }

  /** What tells that an index file was written again since (undefined when there is none). */
  static indexSignature(indexFile: string): string | undefined {
    return signatureOf(indexFile);
  }

  /** The index file and its signature when it was read; undefined outside a work tree. */
  indexState(): { indexFile: string; signature: string | undefined } | undefined {
    return this.reading && { indexFile: this.reading.indexFile, signature: this.reading.signature };
  }

  /** The tracked paths. */
  paths(): Iterable<string> {
    return this.files;
  }

  /** Whether git tracks the file (or symbolic link) at this repository path. */
  has(file: string): boolean {
    return this.files.has(file);
  }

  /** Whether git tracks a file somewhere below this repository directory. */
  holdsBelow(directory: string): boolean {
    return this.directories.has(directory);
  }

  /**
   * Reads the index again if it was written since it was read (a file
   * added with `git add -f`, one removed with `git rm --cached`, a checkout);
   * answers the paths that were tracked and are not, or the other way round.
   * Only a stat of the index file when it was not. Never rejects.
   */
  async reread(): Promise<string[]> {
    if (!this.reading || signatureOf(this.reading.indexFile) === this.reading.signature) return [];
    const reading = await readIndex(this.root, this.reading.indexFile);
    if (!reading) return [];
    const before = this.files;
    this.reading = reading;
    this.take(reading.files);
    const changed = [...reading.files].filter((file) => !before.has(file));
    for (const file of before) if (!reading.files.has(file)) changed.push(file);
    return changed;
  }

  private take(files: Set<string>): void {
    this.files = files;
    this.directories = new Set();
    for (const file of files) {
      for (let slash = file.lastIndexOf('/'); slash !== -1; slash = file.lastIndexOf('/', slash - 1)) {
        const directory = file.slice(0, slash);
        if (this.directories.has(directory)) break;
        this.directories.add(directory);
      }
    }
  }
}

/**
 * The index of the work tree `root` is in, or undefined when git says there is none (or cannot be run). Each git
 * process started blocks this thread for a while (about 20 ms here): the index file, once known, is not asked again.
 */
async function readIndex(root: string, knownIndexFile?: string): Promise<IndexReading | undefined> {
  try {
    const indexFile = knownIndexFile ?? path.resolve(root, (await git(root, ['rev-parse', '--git-path', 'index'])).trim());
    // Taken before the listing, so that a write while git lists is seen by the next `reread`.
    const signature = signatureOf(indexFile);
    // -z: paths as they are, not quoted; relative to `root`, and only those below it.
    return { indexFile, signature, files: pathsOfListing(await gitBytes(root, ['ls-files', '-z'])) };
  } catch {
    return undefined;
  }
}

async function git(cwd: string, args: string[]): Promise<string> {
  return (await gitBytes(cwd, args)).toString('utf8');
}

function gitBytes(cwd: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // No limit on the output: a repository of 160,000 files lists about 10 MB.
    execFile('git', args, { cwd, encoding: 'buffer', maxBuffer: Number.POSITIVE_INFINITY, windowsHide: true }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

/** The paths of `git ls-files -z`, named as the walker names them (`nameFromBytes`: a name that is not UTF-8 quoted). */
function pathsOfListing(listing: Buffer): Set<string> {
  const text = listing.toString('utf8');
  // Nearly always: every name is UTF-8 and none begins with a quote, and the paths are the text's.
  if (!text.includes('\uFFFD') && !text.includes('"')) return new Set(text.split('\0').filter((file) => file !== ''));
  const files = new Set<string>();
  for (let start = 0; start < listing.length; ) {
    let end = listing.indexOf(0, start);
    if (end === -1) end = listing.length;
    const components: string[] = [];
    for (let at = start; at < end; ) {
      let slash = listing.indexOf(0x2f, at);
      if (slash === -1 || slash > end) slash = end;
      components.push(nameFromBytes(listing.subarray(at, slash)));
      at = slash + 1;
    }
    if (components.length > 0) files.add(components.join('/'));
    start = end + 1;
  }
  return files;
}

function signatureOf(indexFile: string): IndexSignature | undefined {
  try {
    const stat = statSync(indexFile);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    // No index yet (a fresh `git init`).
    return undefined;
  }
}
