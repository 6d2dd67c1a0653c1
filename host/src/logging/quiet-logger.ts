import type { Logger } from './logger.js';

/**
 * A logger that writes nothing, without loading pino: for indexing as a
 * library call (`indexRepository`), which has nobody to log to.
 */
export function quietLogger(): Logger {
  const ignore = (): void => {};
  const logger = {
    level: 'silent',
    fatal: ignore,
    error: ignore,
    warn: ignore,
    info: ignore,
    debug: ignore,
    trace: ignore,
    silent: ignore,
    isLevelEnabled: () => false,
    child: () => logger,
  };
  return logger as unknown as Logger;
}
