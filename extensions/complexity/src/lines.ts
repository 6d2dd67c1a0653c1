/**
 * Lines of code: lines holding something other than white space and
 * comments. Lines end where the parser's lines end (`\r\n`, `\n`, `\r`,
 * U+2028, U+2029), so that line numbers agree with the syntax tree's.
 */

/** A comment's span: UTF-16 offsets, end exclusive. */
export interface Span {
  start: number;
  end: number;
}

/** White space as JavaScript's `\s` (line terminators are handled apart). */
function isBlank(code: number): boolean {
  return (
    code === 32 ||
    code === 9 ||
    code === 11 ||
    code === 12 ||
    code === 0xa0 ||
    code === 0xfeff ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

function isLineEnd(code: number): boolean {
  return code === 10 || code === 13 || code === 0x2028 || code === 0x2029;
}

/**
 * Which lines hold code, as cumulative counts: `counts[n]` is the number of
 * code lines among lines 1..n (so lines a..b hold `counts[b] - counts[a - 1]`).
 * `comments` must be sorted by `start` and not overlap.
 */
export function codeLineCounts(text: string, comments: readonly Span[]): Int32Array {
  const hasCode: number[] = [0];
  let line = 1;
  let lineHasCode = 0;
  let commentIndex = 0;
  let nextComment = comments.length > 0 ? comments[0]!.start : -1;
  const newLine = (): void => {
    hasCode[line] = lineHasCode;
    line++;
    lineHasCode = 0;
  };
  for (let i = 0; i < text.length; i++) {
    // Comments overlapping one already skipped (none from the parser) are ignored.
    while (nextComment !== -1 && nextComment < i) {
      commentIndex++;
      nextComment = commentIndex < comments.length ? comments[commentIndex]!.start : -1;
    }
    if (i === nextComment) {
      const end = comments[commentIndex]!.end;
      for (; i < end; i++) {
        const code = text.charCodeAt(i);
        if (code === 13 && text.charCodeAt(i + 1) === 10) i++;
        if (isLineEnd(code)) newLine();
      }
      i--;
      commentIndex++;
      nextComment = commentIndex < comments.length ? comments[commentIndex]!.start : -1;
      continue;
    }
    const code = text.charCodeAt(i);
    if (isLineEnd(code)) {
      if (code === 13 && text.charCodeAt(i + 1) === 10) i++;
      newLine();
    } else if (!isBlank(code)) {
      lineHasCode = 1;
    }
  }
  hasCode[line] = lineHasCode;
  const counts = new Int32Array(line + 1);
  for (let n = 1; n <= line; n++) counts[n] = counts[n - 1]! + hasCode[n]!;
  return counts;
}

/** Code lines among lines `first..last` (1-based, inclusive). */
export function codeLinesBetween(counts: Int32Array, first: number, last: number): number {
  const top = Math.min(last, counts.length - 1);
  return first > top ? 0 : counts[top]! - counts[Math.max(0, first - 1)]!;
}
