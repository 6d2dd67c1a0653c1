import type { ErrorCode } from './error-codes.js';

/**
 * A failure the API reports to its client: a code from the error table and a
 * message for people. The HTTP layer decides the status from the code.
 */
export class StrataError extends Error {
  override readonly name = 'StrataError';

  /** For a 503: when to retry, in seconds (sent as `Retry-After`). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options);
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}
