import type { Socket } from 'node:net';

/** An HTTP answer read off a raw socket: its status, its header block and its body. */
export interface RawAnswer {
  status: number;
  headers: string;
  body: string;
}

/** Reads everything the server sends on `socket` until the connection closes, as one HTTP answer. */
export function readRawAnswer(socket: Socket): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), headers: text.slice(0, split), body: text.slice(split + 4) });
    });
  });
}

/**
 * Reads one HTTP answer off `socket` as soon as its headers and the body its
 * Content-Length declares have arrived, whether or not the server then
 * closes the connection (it may be reading the rest of a request first);
 * status 0 when the connection closes before a whole answer.
 */
export function readAnswer(socket: Socket): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const split = received.indexOf('\r\n\r\n');
      if (split < 0) return;
      const headers = received.subarray(0, split).toString('utf8');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(headers)?.[1] ?? 0);
      if (received.length < split + 4 + length) return;
      socket.off('data', onData);
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0),
        headers,
        body: received.subarray(split + 4, split + 4 + length).toString('utf8'),
      });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('close', () => resolve({ status: 0, headers: '', body: '' }));
  });
}
