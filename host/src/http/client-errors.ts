import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type ErrorCode, statusOf } from '../errors/error-codes.js';
import { errorBody } from './json-responses.js';

// Required, not imported: importing node:http as an ES module copies all its exports, and one of them loads Node's
// fetch (30 ms of the server's start).
const { STATUS_CODES } = createRequire(import.meta.url)('node:http') as typeof import('node:http');

/** How long a connection answered with an error may stay open for its client to read the answer. */
const CLOSED_CONNECTION_LINGER_MS = 2_000;

/** What Node's parser errors mean, in the words of the API's messages. */
const PARSER_ERRORS: Record<string, string> = {
  HPE_INVALID_METHOD: 'unknown method',
  HPE_INVALID_URL: 'the URL has a character that may not be in one (non-ASCII bytes must be percent-encoded)',
  HPE_INVALID_CONTENT_LENGTH: 'Content-Length is not a number',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length with Transfer-Encoding',
  HPE_INVALID_HEADER_TOKEN: 'a header name has a character that may not be in one',
  HPE_INVALID_TRANSFER_ENCODING: 'Transfer-Encoding is not one the server reads',
  HPE_INVALID_CHUNK_SIZE: 'a chunk size is not a hex number',
  HPE_INVALID_VERSION: 'the HTTP version is not 1.0 or 1.1',
};

/**
 * Answers a request that Node's HTTP parser refused (a bad Content-Length, a
 * byte that may not be in a URL, an unknown method, headers past 16 KB, a
 * request not sent in time) with `{error: {code, message}}` instead of Node's
 * empty answer, and closes the connection. Node's `clientError` listener.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [code, message]: [ErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ['HEADERS_TOO_LARGE', 'the request line and headers are over 16 KB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['REQUEST_TIMEOUT', 'the request was not sent in time']
        : ['BAD_REQUEST', `the request is not valid HTTP: ${PARSER_ERRORS[error.code ?? ''] ?? (error.message || 'it could not be parsed').slice(0, 200)}`];
  const body = errorBody(code, message);
  const status = statusOf(code);
  // A client that never closes its end would otherwise hold the connection (and a file descriptor) on.
  (socket as Socket).setTimeout?.(CLOSED_CONNECTION_LINGER_MS, () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
  );
}
