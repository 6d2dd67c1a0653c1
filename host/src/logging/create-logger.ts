import { type DestinationStream, pino } from 'pino';
import { escapeControlCharacters } from './escape-control-characters.js';
import type { Logger } from './logger.js';

/**
 * Creates the root logger. Logs go to standard error by default so that the
 * CLI's own messages on standard output stay readable and pipeable.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'strata' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: pino.stdSerializers.err },
      // A line holds what plugins and the repository named: JSON escapes C0 but leaves DEL and C1 (U+009B is CSI to
      // some terminals) as they are, and the log goes to a terminal by default.
      hooks: { streamWrite: (line) => escapeControlCharacters(line, { keepLineBreaks: true }) },
    },
    destination ?? pino.destination({ dest: 2, sync: false }),
  );
}
