import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DataDirectoryError } from './data-directory-error.js';

/**
 * Creates the data directory when it is not there, with a `.gitignore` that
 * keeps it out of the user's commits, as tools' caches do. (Its own module:
 * the indexer writes its cache there without loading the store.)
 */
export function createDataDirectory(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    throw cannotUse(dataDir, error as NodeJS.ErrnoException);
  }
  try {
    writeFileSync(path.join(dataDir, '.gitignore'), '# Created by Strata: its store is local to this machine.\n*\n', { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw cannotUse(dataDir, error as NodeJS.ErrnoException);
  }
}

function cannotUse(dataDir: string, error: NodeJS.ErrnoException): DataDirectoryError {
  const why =
    error.code === 'EEXIST' || error.code === 'ENOTDIR'
      ? 'a file is in the way of it'
      : error.code === 'EACCES' || error.code === 'EPERM'
        ? 'no permission to write there'
        : error.code === 'EROFS'
          ? 'the file system is read-only'
          : error.code === 'ENOSPC'
            ? 'the disk is full'
            : error.message;
  return new DataDirectoryError(`cannot use the data directory ${dataDir}: ${why}; choose another with --data-dir`);
}
