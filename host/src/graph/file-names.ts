import { isUtf8 } from 'node:buffer';
import path from 'node:path';

/**
 * File names as repository paths. A name on disk is bytes; most are UTF-8
 * and are their own path. One that is not (`\xff.ts`) cannot be a string
 * as it is: decoded, every such byte becomes U+FFFD, so `\xff.ts` and
 * `\xfe.ts` became one node whose file could not be opened. Such a name is
 * written as git quotes names (`core.quotePath`): in double quotes, with
 * `\"`, `\\`, C escapes (`\t`, `\n`, ...) and three-digit octal for the other
 * control characters and for every byte from 0x80 (`"\377.ts"`), one path
 * component at a time, so that `/` still separates directories. A name that
 * begins with `"` is quoted too, so that no UTF-8 name can be read as the
 * quoted form of another.
 */

const C_ESCAPES: Record<number, string> = { 7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r', 34: '"', 92: '\\' };
const UNESCAPES: Record<string, number> = Object.fromEntries(Object.entries(C_ESCAPES).map(([byte, letter]) => [letter, Number(byte)]));

/** A directory entry's name (its bytes) as a path component. */
export function nameFromBytes(bytes: Uint8Array): string {
  if (bytes[0] !== 0x22 && isUtf8(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  let quoted = '"';
  for (const byte of bytes) {
    const letter = C_ESCAPES[byte];
    if (letter !== undefined) quoted += `\\${letter}`;
    else if (byte < 0x20 || byte >= 0x7f) quoted += `\\${byte.toString(8).padStart(3, '0')}`;
    else quoted += String.fromCharCode(byte);
  }
  return `${quoted}"`;
}

/** Whether a path component is a quoted name (see `nameFromBytes`). */
export function isQuotedName(component: string): boolean {
  return component.length >= 2 && component.startsWith('"') && component.endsWith('"');
}

/** The bytes of a path component (the inverse of `nameFromBytes`). */
export function nameToBytes(component: string): Buffer {
  if (!isQuotedName(component)) return Buffer.from(component, 'utf8');
  const bytes: number[] = [];
  for (let i = 1; i < component.length - 1; i++) {
    const char = component[i]!;
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const next = component[++i]!;
    if (next >= '0' && next <= '7') {
      bytes.push(Number.parseInt(component.slice(i, i + 3), 8));
      i += 2;
    } else {
      bytes.push(UNESCAPES[next] ?? next.charCodeAt(0));
    }
  }
  return Buffer.from(bytes);
}

/**
 * Whether a quoted component is one `nameFromBytes` makes: written the one
 * way it writes it, and naming an entry (not empty, no `/` or NUL byte, not
 * `.` or `..`). A path from outside (a plugin's) is checked with this before
 * its bytes are used.
 */
export function isWellFormedQuotedName(component: string): boolean {
  const bytes = nameToBytes(component);
  if (bytes.length === 0 || bytes.includes(0x2f) || bytes.includes(0) || bytes.equals(DOT) || bytes.equals(DOT_DOT)) return false;
  return nameFromBytes(bytes) === component;
}

const DOT = Buffer.from('.');
const DOT_DOT = Buffer.from('..');

/**
 * The absolute path of a repository path, as the file system takes it: the
 * string `root/relative` when no component is quoted (nearly always), else
 * the bytes.
 */
export function fileSystemPath(root: string, relative: string): string | Buffer {
  if (!relative.includes('"')) return relative === '' ? root : path.join(root, relative);
  const parts: Buffer[] = [Buffer.from(root, 'utf8')];
  for (const component of relative.split('/')) parts.push(Buffer.of(0x2f), nameToBytes(component));
  return Buffer.concat(parts);
}

/**
 * A path component as text to read a language or an extension from: a
 * quoted name without its quotes and escapes, its bytes that are not UTF-8
 * as U+FFFD (`"\377.ts"` is a `.ts` file).
 */
export function plainName(component: string): string {
  return isQuotedName(component) ? nameToBytes(component).toString('utf8') : component;
}
