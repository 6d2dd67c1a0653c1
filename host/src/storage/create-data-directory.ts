import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Creates the data directory when it is not there, with a `.gitignore` that
 * keeps it out of the user's commits, as tools' caches do. (Its own module:
 * the indexer writes its cache there without loading the store.)
 */
export function createDataDirectory(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(path.join(dataDir, '.gitignore'), '# Created by Strata: its store is local to this machine.\n*\n', { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
