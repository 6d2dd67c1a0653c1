import type { Logger as PinoLogger } from 'pino';

/** The host's structured logger (pino, one JSON object per line). */
export type Logger = PinoLogger;

/** Injection token of the `Logger`. */
export const Logger = Symbol('Logger');
