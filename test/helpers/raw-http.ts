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
