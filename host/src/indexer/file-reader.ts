import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, readSync, statSync } from 'node:fs';
import { isBinaryFileSync } from 'isbinaryfile';
import { fileSystemPath, plainName } from '../graph/file-names.js';
import { countTextLines } from './line-counts.js';
import { OutsideRepositoryError, openInRepository } from './repository-file.js';
import type { ImportReference, SymbolFacts } from './source-analyzer.js';
import { sourceAnalyzerFor } from './source-analyzers.js';

/**
 * What tells that a file is unchanged, taken from the open file before it
 * was read: size, modification and change times (milliseconds), inode.
 */
export type FileSignature = [size: number, mtimeMs: number, ctimeMs: number, ino: number];

/**
 * A file changed this long before a moment, or later, may change again
 * without its signature changing (timestamps as coarse as FAT's two seconds):
 * git's "racily clean" entries.
 */
const RACY_WINDOW_MS = 2_000;

/** Whether the file at `absolutePath` still has `signature` (following symbolic links, as reading does). */
export function signatureHolds(absolutePath: string | Buffer, signature: FileSignature): boolean {
  let stat;
  try {
    stat = statSync(absolutePath, { throwIfNoEntry: false });
  } catch {
    return false;
  }
  const [size, mtimeMs, ctimeMs, ino] = signature;
  return stat !== undefined && stat.size === size && stat.mtimeMs === mtimeMs && stat.ctimeMs === ctimeMs && stat.ino === ino;
}

/** Whether a file of this signature changed within `RACY_WINDOW_MS` before `moment` (a `Date.now()`), or later. */
export function isRacy(signature: FileSignature, moment: number): boolean {
  return Math.max(signature[1], signature[2]) >= moment - RACY_WINDOW_MS;
}

/** What reading one file tells: everything the graph needs from it. */
export interface FileFacts {
  path: string;
  /** The file as it was read (for the facts cache; not part of the graph). Absent when it could not be opened. */
  signature?: FileSignature;
  language?: string;
  bytes?: number;
  lines?: number;
  loc?: number;
  binary?: boolean;
  error?: string;
  /** Complexity sums over the file's functions, where its language's analyzer measures them. */
  cyclomatic?: number;
  cognitive?: number;
  imports: ImportReference[];
  symbols: SymbolFacts[];
}

/**
 * Reads and analyzes one repository file. Never throws: what goes wrong is
 * recorded in `error`, and the file is still a node. Synchronous on purpose:
 * it runs in worker threads, where it is several times faster than promises.
 * The language is left to the caller (it needs only the name).
 *
 * oxc's parser recurses once per level of nesting on the native stack, and
 * overflowing it kills the process (oxc-project/oxc#24375): a level takes
 * up to about 1.5 KB and one byte of source. Where `parseLimitBytes` is
 * given (the calling thread), a source of such a parser larger than that is
 * not parsed, and neither is one whose parser is not loaded on this thread
 * (a tree-sitter grammar, loaded by the reading threads, and by the calling
 * thread when it helps with a large job) or, of another parser, one larger
 * than `otherParseLimitBytes`: the answer is `undefined`, and the caller
 * sends it to a reading thread.
 */
export function readFileFacts(root: string, file: string, maxFileBytes: number): FileFacts;
export function readFileFacts(root: string, file: string, maxFileBytes: number, parseLimitBytes: number, otherParseLimitBytes?: number): FileFacts | undefined;
export function readFileFacts(
  root: string,
  file: string,
  maxFileBytes: number,
  parseLimitBytes = Infinity,
  /** With `parseLimitBytes`: the same for parsers that do not recurse (tree-sitter's; -1: none is parsed here). */
  otherParseLimitBytes = Infinity,
): FileFacts | undefined {
  const name = plainName(file.slice(file.lastIndexOf('/') + 1));
  const analyzer = sourceAnalyzerFor(name);
  /** Whether this thread leaves a source of `bytes` to a reading thread. */
  const leftToThread = (bytes: number): boolean =>
    analyzer !== undefined &&
    parseLimitBytes !== Infinity &&
    (!analyzer.loaded || bytes > (analyzer.recursesPerNestingLevel ? parseLimitBytes : otherParseLimitBytes));
  const facts: FileFacts = { path: file, imports: [], symbols: [] };
  let fd: number | undefined;
  try {
    // Non-blocking, so that a path that became a pipe since it was listed cannot stop the reader; a link is followed
    // only into the repository (one swapped for a link to outside since the listing is refused).
    fd = openInRepository(root, fileSystemPath(root, file));
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      facts.error = 'not read: not a regular file';
      return facts;
    }
    facts.signature = [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino];
    if (stat.size > maxFileBytes) {
      facts.bytes = stat.size;
      facts.error = `not read: ${stat.size} bytes is over the limit of ${maxFileBytes} (index.maxFileBytes)`;
      return facts;
    }
    if (leftToThread(stat.size)) return undefined;
    const length = readToScratch(fd, maxFileBytes + 1);
    if (length > maxFileBytes) {
      facts.bytes = length;
      facts.error = `not read: it grew over the limit of ${maxFileBytes} bytes (index.maxFileBytes) while read`;
      return facts;
    }
    // It may have grown since it was looked at.
    if (leftToThread(length)) return undefined;
    facts.bytes = length;
    const bytes = scratch.subarray(0, length);
    // Valid UTF-8 without a NUL byte is text (the common case, decided natively); anything else is for isbinaryfile to judge.
    const utf8 = isUtf8(bytes);
    if (bytes.length > 0 && (!utf8 || bytes.indexOf(0) !== -1) && isBinaryFileSync(bytes)) {
      facts.binary = true;
      return facts;
    }
    if (!utf8) facts.error = 'not valid UTF-8; read as Latin-1';
    if (!analyzer) return Object.assign(facts, countTextLines(bytes));
    // Latin-1 maps each byte to one character, so offsets into the text stay offsets into the bytes.
    // Only a file longer than that many bytes can nest deeper.
    const nesting = analyzer.recursesPerNestingLevel && bytes.length > MAX_PARSED_NESTING ? nestingDepth(bytes) : 0;
    if (nesting > MAX_PARSED_NESTING) {
      facts.error = `not parsed: nested ${nesting} deep, more than the parser can take`;
      return Object.assign(facts, countTextLines(bytes));
    }
    const text = bytes.toString(utf8 ? 'utf8' : 'latin1');
    const analysis = analyzer.analyze(name, text, bytes);
    facts.lines = analysis.lines;
    facts.loc = analysis.loc;
    facts.imports = analysis.imports;
    facts.symbols = analysis.symbols;
    if (analysis.error) facts.error = analysis.error;
    if (analysis.cyclomatic !== undefined) {
      facts.cyclomatic = analysis.cyclomatic;
      facts.cognitive = analysis.cognitive;
    }
    return facts;
  } catch (error) {
    facts.error =
      error instanceof OutsideRepositoryError
        ? 'not read: a symbolic link to outside the repository'
        : `unreadable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    return facts;
  } finally {
    if (fd !== undefined) closeSync(fd);
    if (scratch.length > SCRATCH_KEPT_BYTES) scratch = Buffer.allocUnsafe(SCRATCH_KEPT_BYTES);
  }
}

/** Files are read into one buffer per thread, grown for a larger file: no allocation per file. */
const SCRATCH_KEPT_BYTES = 4 * 1024 * 1024;
let scratch = Buffer.allocUnsafe(1024 * 1024);

/** Reads the open file into `scratch` from its start, up to `limit` bytes; returns how many it read. */
function readToScratch(fd: number, limit: number): number {
  let length = 0;
  while (length < limit) {
    if (length === scratch.length) {
      const larger = Buffer.allocUnsafe(Math.min(scratch.length * 2, limit));
      scratch.copy(larger, 0, 0, length);
      scratch = larger;
    }
    const read = readSync(fd, scratch, length, Math.min(scratch.length, limit) - length, null);
    if (read === 0) break;
    length += read;
  }
  return length;
}

/**
 * Deepest nesting a parser thread's stack is sized for (`PARSER_STACK_MB`
 * in file-reader-pool.ts); a file nested deeper is not parsed. Less on
 * Windows, where a thread's whole stack is committed when it starts.
 */
export const MAX_PARSED_NESTING = process.platform === 'win32' ? 12_000 : 100_000;

/**
 * How deep `(`, `[`, `{` and `<` nest, counted naively (in strings and
 * comments too), or the longest run of `!` and `~` if longer: a file with a
 * deeper count is not given to the parser. A heuristic for the shapes that
 * overflow oxc's stack (bracket nesting, type arguments, unary chains);
 * other deep chains in a file over 100 KB can still get past it.
 */
function nestingDepth(bytes: Uint8Array): number {
  let depth = 0;
  let deepest = 0;
  let run = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 33 || byte === 126) {
      if (++run > deepest) deepest = run;
      continue;
    }
    run = 0;
    if (byte === 40 || byte === 91 || byte === 123 || byte === 60) {
      if (++depth > deepest) deepest = depth;
    } else if (byte === 41 || byte === 93 || byte === 125 || (byte === 62 && bytes[i - 1] !== 61)) {
      // `>` closes a type argument list, but not as the end of `=>`.
      if (depth > 0) depth--;
    }
  }
  return deepest;
}
