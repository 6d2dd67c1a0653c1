import { readFileSync, type Stats, statSync } from 'node:fs';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { FileSignature } from './file-reader.js';

/** A path's size, modification time, change time and inode, or null when there is nothing there (or it cannot be looked at). */
export type PathSignature = FileSignature | null;

/** The saved graph's header: what the graph was made by and from (`saved-graph.ts`). */
export interface SavedHeader {
  format: number;
  /** Also at the start of the graph's file: the two files were written together. */
  token: string;
  key: string;
  /** Every listed file and its signature as read. */
  files: Array<[path: string, signature: FileSignature]>;
  /** The root ('') and every listed directory: any entry made, removed or renamed in one changes its times. */
  directories: Array<[path: string, signature: FileSignature]>;
  /** Other paths (absolute) that listing or resolving reads: ignore files, compilation databases, node_modules folders, skipped entries... */
  others: Array<[path: string, signature: PathSignature]>;
  /**
   * The facts cache as it was when the graph was saved: the two go together (a facts cache written since, by
   * another build, means this graph may not be the last one).
   */
  factsFile: PathSignature;
  /** git's index (its file as it was, and a hash of the tracked paths), or null outside a work tree. */
  tracked: { indexFile: string; signature?: string; hash: string } | null;
}

/** The header without its long lists, and whether the listed files and directories are as they were. */
export interface ListingCheck {
  header: Omit<SavedHeader, 'files' | 'directories'>;
  fileCount: number;
  listingHolds: boolean;
}

/** What a thread started on this module is given. */
export interface CheckRequest {
  headerFile: string;
  /** The repository's root with a separator after it. */
  prefix: string;
}

/**
 * Reads the saved graph's header and compares every listed file and
 * directory with its signature (the bulk of a start from the saved graph:
 * a stat each, done on a thread of its own while the graph is parsed).
 * Throws when the header cannot be read.
 */
export function checkListing({ headerFile, prefix }: CheckRequest): ListingCheck {
  const { files, directories, ...header } = JSON.parse(readFileSync(headerFile, 'utf8')) as SavedHeader;
  // Joined by hand: path.join's normalizing cost more than the stats (paths from a walk need none).
  const listingHolds =
    files.every(([file, signature]) => holds(prefix + file, signature)) && directories.every(([directory, signature]) => holds(prefix + directory, signature));
  return { header, fileCount: files.length, listingHolds };
}

/** A path's signature (following symbolic links), or null when there is nothing to look at there. */
export function signatureOf(absolute: string): PathSignature {
  let stat: Stats | undefined;
  try {
    stat = statSync(absolute, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  return stat ? [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino] : null;
}

export function holds(absolute: string, signature: PathSignature): boolean {
  const now = signatureOf(absolute);
  if (now === null || signature === null) return now === signature;
  return now[0] === signature[0] && now[1] === signature[1] && now[2] === signature[2] && now[3] === signature[3];
}

if (!isMainThread && parentPort && (workerData as { savedGraphCheck?: CheckRequest } | undefined)?.savedGraphCheck) {
  let answer: ListingCheck | undefined;
  try {
    answer = checkListing((workerData as { savedGraphCheck: CheckRequest }).savedGraphCheck);
  } catch {
    // No header, or one that cannot be read: undefined.
  }
  parentPort.postMessage(answer);
}
