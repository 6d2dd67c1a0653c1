import { type DestinationStream, pino } from 'pino';
import type { LOG_FORMATS } from '../config/settings-schema.js';
import { escapeControlCharacters } from './escape-control-characters.js';
import type { Logger } from './logger.js';
import { TextLogStream } from './text-log-stream.js';

/** How log lines are written (the `logFormat` setting). */
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * Creates the root logger. Logs go to standard error by default so that the
 * CLI's own messages on standard output stay readable and pipeable: as text
 * when standard error is a terminal (`auto`) or `format` says `text`, else as
 * JSON lines. A `destination` given (a test's, a library user's) gets JSON
 * lines unless `format` is `text`.
 */
export function createLogger(level: string, destination?: DestinationStream, format: LogFormat = 'auto'): Logger {
  const stream = destination ?? pino.destination({ dest: 2, sync: false });
  const onTerminal = destination === undefined && process.stderr.isTTY === true;
  const asText = format === 'text' || (format === 'auto' && onTerminal);
  return pino(
    {
      level,
      base: { service: 'strata' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: pino.stdSerializers.err },
      // A line holds what plugins and the repository named: JSON escapes C0 but leaves DEL and C1 (U+009B is CSI to
      // some terminals) as they are, and the log goes to a terminal by default. (Text lines are escaped as they are
      // written, after the JSON is read back.)
      hooks: { streamWrite: (line) => escapeControlCharacters(line, { keepLineBreaks: true }) },
    },
    asText ? new TextLogStream(stream, onTerminal) : stream,
  );
}
