/** JSON's short escapes, for the control characters that have one. */
const SHORT_ESCAPES: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };

/**
 * `text` with every control character written as an escape, for a terminal:
 * what the repository or a plugin names (a file called `\x1b]0;owned\x07.ts`
 * sets a terminal's title; `\x1b[2J` clears it) is shown, never obeyed. The
 * characters are C0 (U+0000 to U+001F), DEL (U+007F) and C1 (U+0080 to
 * U+009F, which some terminals obey as they do ESC sequences: U+009B is CSI),
 * written as JSON writes them: `\n`, `\t`, `\u001b`, `\u009b`. JSON.stringify
 * leaves DEL and C1 as they are, so a JSON line is made safe by this too
 * (the escapes are JSON's own; outside a string no such character can be).
 * With `keepLineBreaks`, `\n` stays a line break (a stack's lines, a JSON
 * line's end); everything else, tabs too, is escaped. The bidirectional
 * controls are escaped too (U+061C, U+200E, U+200F, U+202A to U+202E,
 * U+2066 to U+2069): a file name holding U+202E shows its text reversed, so
 * that `src/evil\u202etxt.ts` reads as another name ("Trojan Source",
 * CVE-2021-42574).
 */
export function escapeControlCharacters(text: string, options: { keepLineBreaks?: boolean } = {}): string {
  let escaped = '';
  let from = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code >= 0x20 && (code < 0x7f || code > 0x9f) && !isBidiControl(code)) continue;
    if (code === 10 && options.keepLineBreaks) continue;
    escaped += text.slice(from, at) + (SHORT_ESCAPES[code] ?? `\\u${code.toString(16).padStart(4, '0')}`);
    from = at + 1;
  }
  return from === 0 ? text : escaped + text.slice(from);
}

/** Whether `code` is one of Unicode's bidirectional formatting controls. */
function isBidiControl(code: number): boolean {
  return code === 0x061c || code === 0x200e || code === 0x200f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}
