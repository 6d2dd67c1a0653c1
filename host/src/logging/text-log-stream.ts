import type { DestinationStream } from 'pino';
import { escapeControlCharacters } from './escape-control-characters.js';

/** What every line has, and is written in the line's head rather than as `key=value`. */
const HEAD_FIELDS = new Set(['level', 'time', 'msg', 'service', 'err']);

/**
 * Pino's JSON lines rewritten for a person at a terminal, one line each:
 * `12:59:27 INFO  serving  url=http://127.0.0.1:5050 nodes=3`, the local
 * time, the level, the message, then the other fields; an error's stack on
 * the lines below, indented. What the lines hold is escaped again once read
 * back (JSON's `\u001b` becomes the character when parsed): a file name or
 * plugin message is shown, never obeyed by the terminal.
 */
export class TextLogStream implements DestinationStream {
  /**
   * `onTerminal`: the destination is a terminal, where a progress line may be
   * showing (`Indexing: reading files 120/400`, rewritten in place): a log
   * line clears it first rather than being written on at its end.
   */
  constructor(
    private readonly destination: DestinationStream,
    private readonly onTerminal = false,
  ) {}

  write(chunk: string): void {
    let text = '';
    for (const line of chunk.split('\n')) if (line.trim() !== '') text += formatLine(line);
    if (text !== '') this.destination.write(this.onTerminal ? `\r\x1b[K${text}` : text);
  }
}

function formatLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line);
  } catch {
    return `${line}\n`;
  }
  const time = typeof record.time === 'string' || typeof record.time === 'number' ? new Date(record.time) : new Date();
  const clock = [time.getHours(), time.getMinutes(), time.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
  const level = String(record.level ?? 'info').toUpperCase();
  const fields = Object.entries(record)
    .filter(([key]) => !HEAD_FIELDS.has(key))
    .map(([key, value]) => `${key}=${fieldText(value)}`);
  const error = record.err as { message?: unknown; stack?: unknown } | undefined;
  const message = [record.msg !== undefined ? String(record.msg) : '', error?.message !== undefined && `(${String(error.message)})`].filter(Boolean).join(' ');
  const head = escapeControlCharacters(`${clock} ${level.padEnd(5)} ${message}${fields.length > 0 ? `  ${fields.join(' ')}` : ''}`);
  const stack =
    typeof error?.stack === 'string'
      ? escapeControlCharacters(
          error.stack
            .split('\n')
            .slice(1)
            .map((frame) => `    ${frame.trim()}`)
            .join('\n'),
          { keepLineBreaks: true },
        )
      : '';
  return stack ? `${head}\n${stack}\n` : `${head}\n`;
}

/** A field's value: numbers and words as they are, text with spaces or quotes quoted, anything else as JSON. */
function fieldText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return JSON.stringify(value);
}
