import { type Stats, statSync } from 'node:fs';
import { isMainThread, workerData } from 'node:worker_threads';
import { fileSystemPath } from '../graph/file-names.js';
import type { FileSignature } from './file-reader.js';

/** A path's size, modification time, change time and inode, or null when there is nothing there (or it cannot be looked at). */
export type PathSignature = FileSignature | null;

/** The saved graph's header: what the graph was made by and from (`saved-graph.ts`). */
export interface SavedHeader {
  format: number;
  /** Also at the start of the graph's file: the two files were written together. */
  token: string;
  key: string;
  /**
   * Every listed file, then the root ('') and every listed directory (any
   * entry made, removed or renamed in one changes its times); `signatures`
   * holds their signatures, four numbers each, in the same order (numbers
   * alone: an array of them parses into one block, where an array per path
   * made tens of thousands of objects to collect).
   */
  paths: string[];
  signatures: number[];
  /** How many of `paths` are files. */
  fileCount: number;
  /** Other paths (absolute) that listing or resolving reads: ignore files, compilation databases, node_modules folders, skipped entries... */
  others: Array<[path: string, signature: PathSignature]>;
  /**
   * The facts cache as it was when the graph was saved: the two go together (a facts cache written since, by
   * another build, means this graph may not be the last one).
   */
  factsFile: PathSignature;
  /** The settings the graph was made with (`SavedGraph.settings`). */
  settings: string;
  /** What `key` was made from and the signature each had; null when one had just changed (the key is then made again). */
  keyInputs: Array<[path: string, signature: PathSignature]> | null;
  /** git's index (its file as it was, and a hash of the tracked paths), or null outside a work tree. */
  tracked: { indexFile: string; signature?: string; hash: string } | null;
}

/** Entries of the listing a thread checks at a time. */
const CHUNK = 512;
/** The most the checking thread waits for its helper's last entries before it takes the listing for changed. */
const HELPER_WAIT_MS = 2_000;

/**
 * What the threads that check a listing share (`Int32Array` over a
 * `SharedArrayBuffer`): the next entry to take, whether an entry differed,
 * and how many entries were checked.
 */
const NEXT = 0;
const DIFFERED = 1;
const CHECKED = 2;
export const SHARED_SLOTS = 3;

/**
 * Whether every listed file and directory of `header` still has its
 * signature (the bulk of a start from the saved graph: a stat each).
 * With `shared`, the entries are shared with a helper thread running
 * `helpCheck` on the same header, chunk by chunk; the caller's answer
 * covers them all (it waits for the helper's last chunk).
 */
export function checkListing(header: SavedHeader, prefix: string, shared?: Int32Array): boolean {
  const total = header.paths.length;
  const entryHolds = entryCheck(header, prefix);
  if (!shared) {
    for (let i = 0; i < total; i++) if (!entryHolds(i)) return false;
    return true;
  }
  if (!checkChunks(shared, total, entryHolds)) return false;
  const deadline = performance.now() + HELPER_WAIT_MS;
  for (;;) {
    const checked = Atomics.load(shared, CHECKED);
    if (Atomics.load(shared, DIFFERED) !== 0) return false;
    if (checked >= total) return true;
    if (performance.now() > deadline) return false;
    Atomics.wait(shared, CHECKED, checked, 5);
  }
}

/** A helper thread's part of `checkListing`. */
function helpCheck(header: SavedHeader, prefix: string, shared: Int32Array): void {
  checkChunks(shared, header.paths.length, entryCheck(header, prefix));
}

/** Whether the header's `i`th path still has its signature. */
function entryCheck({ paths, signatures }: SavedHeader, prefix: string): (i: number) => boolean {
  return (i) => {
    // Joined by hand: path.join's normalizing cost more than the stats (paths from a walk need none); a name that is
    // not UTF-8 is quoted in the path, and stat'ed by its bytes.
    const relative = paths[i]!;
    const now = signatureOf(relative.includes('"') ? fileSystemPath(prefix, relative) : prefix + relative);
    const at = 4 * i;
    return now !== null && now[0] === signatures[at] && now[1] === signatures[at + 1] && now[2] === signatures[at + 2] && now[3] === signatures[at + 3];
  };
}

/** Takes chunks of the entries until none is left or one differed; answers whether all it took held. */
function checkChunks(shared: Int32Array, total: number, entryHolds: (i: number) => boolean): boolean {
  for (;;) {
    const start = Atomics.add(shared, NEXT, CHUNK);
    if (start >= total || Atomics.load(shared, DIFFERED) !== 0) return Atomics.load(shared, DIFFERED) === 0;
    const end = Math.min(total, start + CHUNK);
    for (let i = start; i < end; i++) {
      if (!entryHolds(i)) {
        Atomics.store(shared, DIFFERED, 1);
        Atomics.notify(shared, CHECKED);
        return false;
      }
    }
    Atomics.add(shared, CHECKED, end - start);
    Atomics.notify(shared, CHECKED);
  }
}

/** A path's signature (following symbolic links), or null when there is nothing to look at there. */
export function signatureOf(absolute: string | Buffer): PathSignature {
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

/** What a helper thread started on this module is given: the header's text (the same the caller parses) and what the two share. */
export interface HelpRequest {
  headerText: string;
  prefix: string;
  shared: SharedArrayBuffer;
}

const request = isMainThread ? undefined : (workerData as { savedGraphCheck?: HelpRequest } | undefined)?.savedGraphCheck;
if (request) {
  try {
    helpCheck(JSON.parse(request.headerText) as SavedHeader, request.prefix, new Int32Array(request.shared));
  } catch {
    // It only helps: the caller checks whatever it leaves.
  }
}
