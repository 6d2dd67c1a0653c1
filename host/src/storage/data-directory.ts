import { copyFile, writeFile, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Datastore from 'nedb-promises';
import { inject, injectable } from 'tsyringe';
import { StrataConfig } from '../config/strata-config.js';
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
  /** Compacts every open collection so that the files on disk are complete and minimal. */
  close(): Promise<void>;
}

const LOCK_FILE = 'strata.lock';

/** Injection token of the `DataDirectory`. */
export const DataDirectory = Symbol('DataDirectory');

@injectable()
export class NedbDataDirectory implements DataDirectory {
  private readonly open = new Map<string, Promise<Collection>>();
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
    const filename = path.join(this.config.dataDir, `${name}.db`);
    const store = Datastore.create({ filename, autoload: false }) as Collection;
    try {
      await store.load();
      return store;
    } catch (error) {
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

  async close(): Promise<void> {
    const collections = await Promise.all(this.open.values());
    await Promise.all(collections.map((store) => (store as unknown as { compactDatafileAsync(): Promise<void> }).compactDatafileAsync()));
    if (this.prepared) await rm(path.join(this.config.dataDir, LOCK_FILE), { force: true });
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
        await writeFile(lockFile, `${process.pid}\n`, { flag: 'wx' });
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
        throw new DataDirectoryLockedError(`data directory ${this.config.dataDir} is in use by another Strata (process ${holder}); stop it, or give this one another --data-dir`);
      }
      await rm(lockFile, { force: true });
    }
    throw new DataDirectoryLockedError(`could not lock the data directory ${this.config.dataDir}`);
  }
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
