import type { IncomingMessage } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from 'node:zlib';
import { JSONParser } from '@streamparser/json';
import { parse as parseContentType } from 'content-type';
import { StrataError } from '../errors/strata-error.js';

/** Refuses bytes that are not UTF-8, rather than turning them into U+FFFD (a key that was never sent). */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

const DECODERS: Record<string, () => Gunzip | ReturnType<typeof createInflate> | ReturnType<typeof createBrotliDecompress>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * Bodies larger than this (after decompression) are parsed a slice at a
 * time, with the event loop free between slices: JSON.parse holds it for the
 * whole body (120 ms for a layout of 100,000 nodes, 8.5 MB, on these cores),
 * and 32 such saves at once held a cheap GET for 10 s.
 */
export const LARGE_BODY_BYTES = 1024 * 1024;
/** One slice of a large body: 64 KiB, parsed in a few milliseconds. */
const SLICE_BYTES = 64 * 1024;

/** The most a body may hold, and what sets that limit (said when a body is larger). */
export interface BodyLimit {
  bytes: number;
  /** For example "setting maxBodyBytes". */
  setBy: string;
}

/** A request's parsed JSON body, and its size once decompressed. */
export interface JsonBody {
  value: unknown;
  bytes: number;
}

/**
 * Reads a JSON request body. The limit holds both for the bytes sent and for
 * the bytes after decompression, and reading stops as soon as either passes
 * it, so no body, compressed or not, can exhaust memory. Resolves with
 * `undefined` for an empty body.
 */
export async function readJsonBody(request: IncomingMessage, limit: BodyLimit): Promise<JsonBody | undefined> {
  refuseDeclaredTooLarge(request, limit);
  const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && !(encoding in DECODERS)) {
    throw new StrataError('UNSUPPORTED_MEDIA_TYPE', `Content-Encoding "${encoding}" is not supported; send gzip, deflate, br or identity`);
  }
  const raw = await collect(request, limit);
  if (raw.length === 0) return undefined;
  const decoded = encoding === 'identity' ? raw : await decompress(raw, DECODERS[encoding]!(), encoding, limit);
  checkContentType(request.headers['content-type']);
  let text: string;
  try {
    text = UTF8.decode(decoded);
  } catch {
    throw new StrataError('UNSUPPORTED_MEDIA_TYPE', 'the request body is not valid UTF-8 (JSON bodies are UTF-8)');
  }
  // A body of only white space says nothing, as an empty one does (JSON.parse would call it invalid JSON).
  if (text.trim() === '') return undefined;
  if (decoded.length > LARGE_BODY_BYTES) return { value: await parseInSlices(decoded), bytes: decoded.length };
  try {
    return { value: JSON.parse(text), bytes: decoded.length };
  } catch (error) {
    throw new StrataError('INVALID_JSON', `request body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * Parses JSON a slice at a time, letting other work run between slices; the
 * same values as JSON.parse (a `__proto__` key is an own property, numbers
 * beyond a double are Infinity), about 2.5 times its CPU.
 */
async function parseInSlices(bytes: Uint8Array): Promise<unknown> {
  const parser = new JSONParser({ paths: ['$'], keepStack: false });
  let root: unknown;
  let failure: Error | undefined;
  parser.onValue = ({ value }) => {
    root = value;
  };
  parser.onError = (error) => {
    failure ??= error;
  };
  for (let offset = 0; offset < bytes.length && failure === undefined; offset += SLICE_BYTES) {
    try {
      parser.write(bytes.subarray(offset, offset + SLICE_BYTES));
    } catch (error) {
      failure ??= error as Error;
    }
    await nextTurn();
  }
  if (failure === undefined && !parser.isEnded) {
    try {
      parser.end();
    } catch (error) {
      failure ??= error as Error;
    }
  }
  if (failure !== undefined) throw new StrataError('INVALID_JSON', `request body is not valid JSON: ${failure.message}`);
  return root;
}

/** Throws PAYLOAD_TOO_LARGE when the request's Content-Length is over the limit (nothing of it is read). */
export function refuseDeclaredTooLarge(request: IncomingMessage, limit: BodyLimit): void {
  const declared = request.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit.bytes) throw tooLarge(limit);
}

/**
 * Only `application/json`, in UTF-8 (RFC 8259 allows no other charset): a
 * type such as `application/merge-patch+json` means other semantics, and text
 * in another charset would be decoded wrongly.
 */
function checkContentType(header: string | undefined): void {
  if (header === undefined || header.trim() === '') {
    throw new StrataError('UNSUPPORTED_MEDIA_TYPE', 'a request body needs the header Content-Type: application/json');
  }
  // Lenient: it lower-cases the type and unquotes parameters, and never throws.
  const { type, parameters } = parseContentType(header);
  const charset = parameters.charset?.toLowerCase();
  if (type !== 'application/json') {
    throw new StrataError('UNSUPPORTED_MEDIA_TYPE', `Content-Type must be application/json, not "${type.slice(0, 200)}"`);
  }
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new StrataError('UNSUPPORTED_MEDIA_TYPE', `Content-Type charset "${charset.slice(0, 200)}" is not supported; JSON bodies are UTF-8`);
  }
}

function collect(request: IncomingMessage, limit: BodyLimit): Promise<Buffer> {
  const limitBytes = limit.bytes;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limitBytes) {
        cleanup();
        // Keep draining without storing, so the client can read the answer.
        request.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(new StrataError('BAD_REQUEST', `request body could not be read: ${error.message}`));
    };
    // A client that goes away mid-body may fire neither 'end' nor 'error'.
    const onClose = (): void => {
      if (!request.complete) onError(new Error('the client closed the connection before the body ended'));
    };
    const cleanup = (): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('close', onClose);
  });
}

function decompress(raw: Buffer, decoder: ReturnType<(typeof DECODERS)[string]>, encoding: string, limit: BodyLimit): Promise<Buffer> {
  const limitBytes = limit.bytes;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    decoder.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limitBytes) {
        settled = true;
        decoder.destroy();
        reject(tooLarge(limit, true));
        return;
      }
      chunks.push(chunk);
    });
    decoder.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks, size));
    });
    decoder.on('error', (error) => {
      if (settled) return;
      settled = true;
      reject(new StrataError('BAD_REQUEST', `request body is not valid ${encoding} data: ${error.message}`));
    });
    decoder.end(raw);
  });
}

function tooLarge(limit: BodyLimit, decompressed = false): StrataError {
  return new StrataError(
    'PAYLOAD_TOO_LARGE',
    `request body is larger than the limit of ${limit.bytes} bytes${decompressed ? ' once decompressed' : ''} (${limit.setBy})`,
  );
}
