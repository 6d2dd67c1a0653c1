import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** A server's answer: status and body text. */
export interface LongRequestAnswer {
  status: number;
  ok: boolean;
  text(): Promise<string>;
}

/**
 * An HTTP request that waits as long as the server works on it. `fetch`
 * gives up when no response header has come in five minutes (undici's
 * `headersTimeout`), and an apply of ownership on a large repository takes
 * longer than that before its answer starts.
 */
export function longRequest(url: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<LongRequestAnswer> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      target,
      { method: init.method, headers: { ...init.headers, ...(init.body !== undefined && { 'content-length': String(Buffer.byteLength(init.body)) }) } },
      (response) => {
        const chunks: Buffer[] = [];
        const body = new Promise<string>((done, fail) => {
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
          response.on('error', fail);
        });
        body.catch(() => undefined);
        const status = response.statusCode ?? 0;
        resolve({ status, ok: status >= 200 && status < 300, text: () => body });
      },
    );
    request.on('error', reject);
    request.end(init.body);
  });
}
