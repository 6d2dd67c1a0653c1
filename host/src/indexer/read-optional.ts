import { readFileSync } from 'node:fs';

/**
 * A small file's text, or undefined when it cannot be read (absent,
 * unreadable). Synchronous: the indexer reads many such files (`.gitignore`
 * at every level, hundreds of workspace manifests), several times faster
 * than with promises.
 */
export function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
