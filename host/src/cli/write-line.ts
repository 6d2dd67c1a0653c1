import { escapeControlCharacters } from '../logging/escape-control-characters.js';

/**
 * Writes `text` and a line break to `stream` (standard output or error),
 * with its control characters escaped: the paths, ids and messages in it
 * may come from the repository or a plugin, and must not drive the terminal
 * (see `escapeControlCharacters`). With `keepLineBreaks`, text of several
 * lines (a stack) keeps them.
 */
export function writeLine(stream: NodeJS.WritableStream, text: string, options: { keepLineBreaks?: boolean } = {}): void {
  stream.write(`${escapeControlCharacters(text, options)}\n`);
}
