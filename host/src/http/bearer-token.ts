import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeError } from './json-responses.js';

/** What a request's Authorization header holds against the configured token. */
export type Credentials = 'none' | 'valid' | 'invalid';

/** The `authToken` setting's check: every request but the web UI's page and assets sends `Authorization: Bearer <token>`. */
export class BearerToken {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(token);
  }

  /** Whether the request carries the token, a wrong one, or none. */
  check(request: IncomingMessage): Credentials {
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') return 'none';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    return match !== null && timingSafeEqual(digest(match[1]!), this.expected) ? 'valid' : 'invalid';
  }

  /** Answers 401, saying (RFC 6750) which scheme is expected and whether the token sent was wrong. */
  refuse(response: ServerResponse, credentials: Exclude<Credentials, 'valid'>): void {
    response.setHeader('www-authenticate', credentials === 'none' ? 'Bearer realm="strata"' : 'Bearer realm="strata", error="invalid_token"');
    writeError(
      response,
      'UNAUTHORIZED',
      credentials === 'none'
        ? 'this server requires the header Authorization: Bearer <token>'
        : 'the bearer token in the Authorization header is not the one this server is configured with',
    );
  }
}

/** Tokens are compared as digests so that the comparison takes the same time whatever their lengths. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
