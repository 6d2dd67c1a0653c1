import type { ServerResponse } from 'node:http';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } as const;

/** The bytes of pre-serialized chunks. */
export function byteLengthOf(chunks: ReadonlyArray<Buffer | string>): number {
  let length = 0;
  for (const chunk of chunks) length += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
  return length;
}

/** Writes a JSON response made of pre-serialized chunks (already encoded as `headers` may say; another body when `headers` give its `content-type`). */
export function writeJson(response: ServerResponse, status: number, chunks: ReadonlyArray<Buffer | string>, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...JSON_HEADERS, ...headers, 'content-length': byteLengthOf(chunks) });
  for (const chunk of chunks) response.write(chunk);
  response.end();
}

/** The body of an error response: `{error: {code, message}}`. */
export function errorBody(code: ErrorCode, message: string): string {
  return JSON.stringify({ error: { code, message } });
}

/** Writes an error response with the status the error table gives its code. */
export function writeError(response: ServerResponse, code: ErrorCode, message: string): void {
  writeJson(response, ERROR_CODES[code].status, [errorBody(code, message)]);
}

/** The envelope `{data, meta: {timestamp, ...}}` every success shares. */
export function envelope(data: unknown, meta?: Record<string, unknown>): string {
  return JSON.stringify({ data, meta: { timestamp: new Date().toISOString(), ...meta } });
}
