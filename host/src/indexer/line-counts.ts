/**
 * Line counts of a file: its lines, and the lines that hold code (something
 * other than white space and comments), shared by the parsers of every
 * language, which give the comments' spans.
 */

/** A string's UTF-16 code units. */
export function codeUnitsOf(text: string): Uint16Array {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return units;
}
/** Offsets of the first byte (or code unit) of each line. */
export function lineStartsOf(bytes: Uint8Array | Uint16Array): Int32Array {
  let count = 1;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) count++;
  const starts = new Int32Array(count);
  let line = 1;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) starts[line++] = i + 1;
  return starts;
}
/** The 1-based line of a byte offset. */
export function lineAt(starts: Int32Array, offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}
/**
 * Counts lines, and lines holding something other than white space, of a
 * file that is not parsed (no comments to leave out): as `countLines` with no
 * comments, in one pass over the bytes, jumping to the line end natively once
 * a line is known to hold code.
 */
export function countTextLines(bytes: Uint8Array): { lines: number; loc: number } {
  const length = bytes.length;
  let lines = 0;
  let loc = 0;
  let position = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  /** A line has begun, blank so far, and is not counted yet. */
  let blankLineOpen = position > 0;
  while (position < length) {
    const byte = bytes[position]!;
    if (byte === 10) {
      lines++;
      blankLineOpen = false;
      position++;
    } else if (byte === 32 || byte === 9 || byte === 13 || byte === 11 || byte === 12) {
      blankLineOpen = true;
      position++;
    } else {
      lines++;
      loc++;
      blankLineOpen = false;
      const end = bytes.indexOf(10, position + 1);
      if (end === -1) return { lines, loc };
      position = end + 1;
    }
  }
  return { lines: blankLineOpen ? lines + 1 : lines, loc };
}
/**
 * Counts lines, and lines holding code: something other than white space
 * (space, tab, CR, LF, vertical tab, form feed, and a byte order mark at the
 * start) outside the given comment spans (offsets into `bytes`, in order). Works on the
 * bytes, without allocating: from each line's first visible byte it jumps to
 * the next line end.
 */
export function countLines(
  bytes: Uint8Array | Uint16Array,
  lineStarts: Int32Array,
  comments: ReadonlyArray<{ start: number; end: number }>,
  /** When given (one entry per line start), set to 1 at each code line's 0-based index. */
  codeLines?: Uint8Array,
): { lines: number; loc: number } {
  const length = bytes.length;
  if (length === 0) return { lines: 0, loc: 0 };
  // A final line end does not begin another line.
  const lines = bytes[length - 1] === 10 ? lineStarts.length - 1 : lineStarts.length;
  let loc = 0;
  /** Index in `lineStarts` of the line holding `position`. */
  let line = 0;
  let lastCounted = -1;
  let position = bytes[0] === 0xfeff ? 1 : bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  for (let commentIndex = 0; commentIndex <= comments.length && position < length; commentIndex++) {
    // The code segment before the next comment (or the end).
    const comment = comments[commentIndex];
    const segmentEnd = comment ? Math.min(comment.start, length) : length;
    while (position < segmentEnd) {
      const byte = bytes[position]!;
      if (byte === 32 || byte === 9 || byte === 10 || byte === 13 || byte === 11 || byte === 12) {
        position++;
        continue;
      }
      while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= position) line++;
      if (line !== lastCounted) {
        loc++;
        lastCounted = line;
        if (codeLines) codeLines[line] = 1;
      }
      // Nothing else on this line can add to the count.
      position = line + 1 < lineStarts.length ? lineStarts[line + 1]! : length;
    }
    if (comment && position < comment.end) position = comment.end;
  }
  return { lines, loc };
}
