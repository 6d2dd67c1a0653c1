import { mkdir, writeFile, access } from 'node:fs/promises';
import path from 'node:path';
import Datastore from 'nedb-promises';
import { inject, injectable } from 'tsyringe';
import { StrataConfig } from '../config/strata-config.js';

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

/** Injection token of the `DataDirectory`. */
export const DataDirectory = Symbol('DataDirectory');

@injectable()
export class NedbDataDirectory implements DataDirectory {
  private readonly open = new Map<string, Promise<Collection>>();
  private prepared: Promise<void> | undefined;

  constructor(@inject(StrataConfig) private readonly config: StrataConfig) {}

  get path(): string {
    return this.config.dataDir;
  }

  collection(name: string): Promise<Collection> {
    let collection = this.open.get(name);
    if (!collection) {
      collection = this.prepare().then(async () => {
        const store = Datastore.create({ filename: path.join(this.config.dataDir, `${name}.db`), autoload: false }) as Collection;
        await store.load();
        return store;
      });
      this.open.set(name, collection);
    }
    return collection;
  }

  async close(): Promise<void> {
    const collections = await Promise.all(this.open.values());
    await Promise.all(collections.map((store) => (store as unknown as { compactDatafileAsync(): Promise<void> }).compactDatafileAsync()));
  }

  private prepare(): Promise<void> {
    this.prepared ??= (async () => {
      await mkdir(this.config.dataDir, { recursive: true });
      // Keep the store out of the user's commits, as tools' caches do.
      const gitignore = path.join(this.config.dataDir, '.gitignore');
      try {
        await access(gitignore);
      } catch {
        await writeFile(gitignore, '# Created by Strata: its store is local to this machine.\n*\n');
      }
    })();
    return this.prepared;
  }
}
