import { type DestinationStream, pino } from 'pino';
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
    },
    destination ?? pino.destination({ dest: 2, sync: false }),
  );
}
