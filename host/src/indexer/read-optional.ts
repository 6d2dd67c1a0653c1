import { closeSync, fstatSync, readFileSync, readSync } from 'node:fs';
import { openInRepository } from './repository-file.js';

/**
 * A small file's text, or undefined when it cannot be read (absent,
 * unreadable, or a symbolic link that leaves the repository `root`); with
 * `maxBytes`, at most that many bytes and one more of it (so that the caller
 * can tell a longer file). Synchronous: the indexer reads many such files
 * (`.gitignore` at every level, hundreds of workspace manifests), several
 * times faster than with promises.
 */
export function readOptional(root: string, file: string, maxBytes?: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openInRepository(root, file);
    if (maxBytes === undefined || fstatSync(fd).size <= maxBytes) return readFileSync(fd, 'utf8');
    const head = Buffer.allocUnsafe(maxBytes + 1);
    const read = readSync(fd, head, 0, head.length, 0);
    return head.toString('utf8', 0, read);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
