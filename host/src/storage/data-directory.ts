import { readFileSync } from 'node:fs';
import { copyFile, readFile, readlink, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Datastore from 'nedb-promises';
import { inject, injectable } from 'tsyringe';
import { StrataConfig } from '../config/strata-config.js';
import { StrataError } from '../errors/strata-error.js';
import { Logger } from '../logging/logger.js';
import { createDataDirectory } from './create-data-directory.js';
import { DataDirectoryLockedError } from './data-directory-locked-error.js';

/** A collection of the embedded store (nedb-promises). */
export type Collection = Datastore<Record<string, unknown>>;

/**
 * The data directory (`.strata/` in the repository by default) and the
 * embedded store's collections in it. Each collection is one append-only
 * file that nedb compacts on load and when the host closes.
 */
export interface DataDirectory {
  readonly path: string;
  /** Opens (once) and loads the collection `name`. */
  collection(name: string): Promise<Collection>;
  /**
   * Runs a write on the collection `name`, one at a time per collection. On
   * a full disk nothing of it stays, in the file or in the collection's
   * memory, and it fails with `DISK_FULL` saying that `what` was not saved.
   */
  write<T>(name: string, what: string, write: (collection: Collection) => Promise<T>): Promise<T>;
  /** Compacts every open collection so that the files on disk are complete and minimal. */
  close(): Promise<void>;
}

const LOCK_FILE = 'strata.lock';

/** Injection token of the `DataDirectory`. */
export const DataDirectory = Symbol('DataDirectory');

@injectable()
export class NedbDataDirectory implements DataDirectory {
  private readonly open = new Map<string, Promise<Collection>>();
  /** The last write queued on each collection. */
  private readonly writes = new Map<string, Promise<unknown>>();
  private prepared: Promise<void> | undefined;

  constructor(
    @inject(StrataConfig) private readonly config: StrataConfig,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  get path(): string {
    return this.config.dataDir;
  }

  collection(name: string): Promise<Collection> {
    let collection = this.open.get(name);
    if (!collection) {
      collection = this.prepare().then(() => this.load(name));
      this.open.set(name, collection);
    }
    return collection;
  }

  /**
   * Loads a collection's file. Lines that do not parse are what a write cut
   * short leaves (a crash or a full disk during an append; a save is one
   * line): nedb refuses a file with over 10 % of them, which would stop every
   * later start. Such a file is copied aside, byte for byte, and the lines
   * that parse are loaded.
   */
  private async load(name: string): Promise<Collection> {
    const filename = this.filenameOf(name);
    const store = Datastore.create({ filename, autoload: false }) as Collection;
    try {
      await store.load();
      return store;
    } catch (error) {
      if (isDiskFull(error)) return this.loadedOnFullDisk(store, filename);
      const corruption = error as Error & { corruptItems?: number; dataLength?: number };
      if (typeof corruption.corruptItems !== 'number') throw error;
      const kept = `${filename}.unreadable-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await copyFile(filename, kept);
      this.logger.warn(
        { file: filename, copy: kept, unreadableLines: corruption.corruptItems, lines: corruption.dataLength },
        `${corruption.corruptItems} of ${corruption.dataLength} lines of ${filename} could not be read (a write cut short?); loading the others, the file as it was is kept as ${kept}`,
      );
      const tolerant = Datastore.create({ filename, autoload: false, corruptAlertThreshold: 1 }) as Collection;
      await tolerant.load();
      return tolerant;
    }
  }

  /**
   * nedb reads a file, then compacts it (writes it anew and renames it over):
   * on a full disk the reading is done and only the compaction fails, and nedb
   * then leaves the collection neither loaded nor usable. It is used as read
   * (its half-written temporary file removed); writes to it answer 507 until
   * there is space again.
   */
  private async loadedOnFullDisk(store: Collection, filename: string): Promise<Collection> {
    await rm(`${filename}~`, { force: true });
    const wrapper = store as unknown as { __loaded: Promise<void>; __original: { executor: { processBuffer(): void } } };
    // What nedb does once its compaction succeeds: take the operations waiting for the load.
    wrapper.__original.executor.processBuffer();
    // nedb-promises keeps its load's promise, and would fail every operation with the compaction's error.
    wrapper.__loaded = Promise.resolve();
    this.logger.warn(
      { file: filename },
      `${filename} was read but not compacted: the disk that holds the data directory is full; what it holds is served, and changes to it answer 507 DISK_FULL until there is space`,
    );
    return store;
  }

  write<T>(name: string, what: string, write: (collection: Collection) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      const collection = await this.collection(name);
      const filename = this.filenameOf(name);
      const sizeBefore = await stat(filename).then(
        (file) => file.size,
        () => 0,
      );
      try {
        return await write(collection);
      } catch (error) {
        if (!isDiskFull(error)) throw error;
        await this.undo(name, collection, sizeBefore);
        throw new StrataError(
          'DISK_FULL',
          `${what} was not saved: the disk that holds the data directory is full (${(error as NodeJS.ErrnoException).code}); nothing changed. Free some space and try again`,
          { cause: error },
        );
      }
    };
    const next = (this.writes.get(name) ?? Promise.resolve()).then(run, run);
    this.writes.set(
      name,
      next.catch(() => undefined),
    );
    return next;
  }

  /**
   * A write that failed on a full disk: nedb changed its memory before it
   * appended, and the append may have left part of a line. The file is cut
   * back to its size before the write, and the memory read again from it (the
   * compaction nedb does after reading cannot run on a full disk: its
   * half-written temporary file is removed).
   */
  private async undo(name: string, collection: Collection, sizeBefore: number): Promise<void> {
    const filename = this.filenameOf(name);
    await truncate(filename, sizeBefore).catch((error: unknown) =>
      this.logger.warn({ err: error, file: filename }, 'could not cut a write short on a full disk back'),
    );
    // nedb-promises keeps its first load's promise: nedb's own datastore reads the file again.
    const datastore = (collection as unknown as { __original: { loadDatabaseAsync(): Promise<void> } }).__original;
    await datastore.loadDatabaseAsync().catch((error: unknown) => {
      if (!isDiskFull(error)) this.logger.warn({ err: error, file: filename }, 'could not read a collection again after a write failed on a full disk');
    });
    await rm(`${filename}~`, { force: true });
  }

  async close(): Promise<void> {
    const collections = await Promise.all([...this.open].map(async ([name, collection]) => [name, await collection] as const));
    await Promise.all([...this.writes.values()]);
    await Promise.all(
      collections.map(async ([name, store]) => {
        try {
          await (store as unknown as { compactDatafileAsync(): Promise<void> }).compactDatafileAsync();
        } catch (error) {
          if (!isDiskFull(error)) throw error;
          // The file as appended holds every write (a compaction only makes it shorter): nothing is lost.
          await rm(`${this.filenameOf(name)}~`, { force: true });
          this.logger.warn(
            { file: this.filenameOf(name), code: (error as NodeJS.ErrnoException).code },
            `${name}.db was not compacted: the disk that holds the data directory is full; it is complete as it is`,
          );
        }
      }),
    );
    if (this.prepared) await rm(path.join(this.config.dataDir, LOCK_FILE), { force: true });
  }

  private filenameOf(name: string): string {
    return path.join(this.config.dataDir, `${name}.db`);
  }

  private prepare(): Promise<void> {
    this.prepared ??= (async () => {
      createDataDirectory(this.config.dataDir);
      await this.lock();
    })();
    return this.prepared;
  }

  /**
   * Takes the directory for this process: two hosts writing one store would
   * lose each other's writes. A lock left by a process that is gone is taken over.
   */
  private async lock(): Promise<void> {
    const lockFile = path.join(this.config.dataDir, LOCK_FILE);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await createLock(lockFile);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await lockHolder(lockFile);
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new DataDirectoryLockedError(
          `data directory ${this.config.dataDir} is in use by another Strata (process ${holder}); stop it, or give this one another --data-dir`,
        );
      }
      await rm(lockFile, { force: true });
    }
    throw new DataDirectoryLockedError(`could not lock the data directory ${this.config.dataDir}`);
  }
}

/**
 * Creates the lock, failing with EEXIST when it exists: a symbolic link whose
 * target is this process's id, which takes no block of the disk (a file with
 * the id in it could not be written on a full disk, and the server could not
 * start to serve what its store holds). Where links cannot be made (Windows
 * without the privilege), a file holding the id.
 */
async function createLock(lockFile: string): Promise<void> {
  try {
    await symlink(String(process.pid), lockFile);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOSYS' && code !== 'EINVAL') throw error;
    await writeFile(lockFile, `${process.pid}\n`, { flag: 'wx' });
  }
}

/** The process id a lock names (a link's target, or a file's text from a host that wrote files); NaN when unreadable. */
async function lockHolder(lockFile: string): Promise<number> {
  const text = await readlink(lockFile).catch(() => readFile(lockFile, 'utf8').catch(() => ''));
  return Number(text.trim());
}

/** Whether an error is the disk (or the user's quota on it) being full. */
function isDiskFull(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * Whether a process has ended and waits for its parent to reap it (Linux:
 * state Z in /proc/<pid>/stat). A server killed with kill -9 stays so until
 * its parent (a shell, a supervisor) notices; it holds nothing.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The state follows the command name, which is in parentheses and may hold spaces or parentheses itself.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}
