/**
 * `text` with each C0 control character (U+0000 to U+001F) and DEL replaced
 * by U+FFFD, but those `keep` names (a tab, a line break): the formats whose
 * text a control character would break or hide (DOT, Mermaid, XML) show
 * such a file name with the replacement character where it was.
 */
export function replaceControlCharacters(text: string, keep: ReadonlySet<string> = NONE): string {
  let out = '';
  let from = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if ((code >= 0x20 && code !== 0x7f) || keep.has(text[at]!)) continue;
    out += `${text.slice(from, at)}\ufffd`;
    from = at + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

const NONE: ReadonlySet<string> = new Set();
