import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { constants, crc32, deflateRaw, deflateRawSync } from 'node:zlib';
import Negotiator from 'negotiator';

const deflateRawAsync = promisify(deflateRaw);

/** Bodies smaller than this go as they are: gzip's framing would outweigh what it saves. */
const MIN_COMPRESSED_BYTES = 1024;
/** Chunks at least this large are compressed on libuv's threads and kept for as long as the chunk lives. */
const REUSED_CHUNK_BYTES = 64 * 1024;
/**
 * zlib's level 4: on a 122 MB graph (100k files) 0.3 s for 7.8 MB, where
 * level 1 gives 9.7 MB in 0.17 s and the default, 6, 6.8 MB in 0.9 s.
 */
const LEVEL = 4;
/** A chunk larger than this is compressed in pieces of this size at once, one per libuv thread. */
const PIECE_BYTES = 2 * 1024 * 1024;
/** A deflate stream ends with a last, empty block (fixed codes, BFINAL set). */
const LAST_BLOCK = Buffer.from([0x03, 0x00]);
/** Magic, deflate, no flags, no time, no extra flags, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);

/** A large chunk compressed once: its deflate blocks, ended by a sync flush so that more blocks may follow. */
interface DeflatedChunk {
  blocks: Promise<Buffer>;
  /** The CRC-32 after this chunk, for the CRC-32 it was started from (the chunks before it are usually the same). */
  crcFrom: { initial: number; after: number } | undefined;
}

/**
 * gzip for JSON answers made of pre-serialized chunks. The large chunk of an
 * answer (the serialized graph, the same for every request until the graph
 * changes) is compressed once, on libuv's threads; each request compresses
 * only its small chunks (the envelope's `meta`, with its timestamp) and joins
 * the deflate blocks into one gzip member: blocks ended by a sync flush may
 * be followed by blocks of another compressor, since a block may, but need
 * not, refer back to earlier data. The CRC-32 runs on over the chunks in turn.
 */
export class ResponseCompressor {
  private readonly deflated = new WeakMap<Buffer, DeflatedChunk>();

  /** Whether the client takes gzip (and prefers it to no encoding) and the body is large enough to gain from it. */
  wants(request: IncomingMessage, bodyBytes: number): boolean {
    return bodyBytes >= MIN_COMPRESSED_BYTES && new Negotiator(request).encoding(['gzip', 'identity']) === 'gzip';
  }

  /** The chunks as one gzip member. */
  async gzip(chunks: ReadonlyArray<Buffer | string>): Promise<Buffer[]> {
    const parts: Buffer[] = [GZIP_HEADER];
    let crc = 0;
    let length = 0;
    for (const chunk of chunks) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      length += bytes.length;
      if (bytes.length >= REUSED_CHUNK_BYTES) {
        const entry = this.deflatedChunk(bytes);
        parts.push(await entry.blocks);
        if (entry.crcFrom?.initial !== crc) entry.crcFrom = { initial: crc, after: crc32(bytes, crc) };
        crc = entry.crcFrom.after;
      } else {
        parts.push(deflateRawSync(bytes, { level: LEVEL, finishFlush: constants.Z_SYNC_FLUSH }));
        crc = crc32(bytes, crc);
      }
    }
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(length % 2 ** 32, 4);
    parts.push(LAST_BLOCK, trailer);
    return parts;
  }

  /**
   * Compresses a large chunk ahead of the first request that sends it (the serialized graph after a start or a
   * change), on libuv's threads: that request then only joins the blocks.
   */
  prepare(bytes: Buffer): void {
    if (bytes.length >= REUSED_CHUNK_BYTES) this.deflatedChunk(bytes);
  }

  private deflatedChunk(bytes: Buffer): DeflatedChunk {
    let entry = this.deflated.get(bytes);
    if (!entry) {
      // In pieces compressed side by side on libuv's threads (each piece's blocks may follow the last's): 25 MB of
      // payload's graph took 0.45 s on one thread.
      const pieces: Array<Promise<Buffer>> = [];
      for (let start = 0; start < bytes.length; start += PIECE_BYTES)
        pieces.push(deflateRawAsync(bytes.subarray(start, start + PIECE_BYTES), { level: LEVEL, finishFlush: constants.Z_SYNC_FLUSH, chunkSize: 1024 * 1024 }));
      const blocks = pieces.length === 1 ? pieces[0]! : Promise.all(pieces).then((deflated) => Buffer.concat(deflated));
      entry = { blocks, crcFrom: undefined };
      this.deflated.set(bytes, entry);
      // A failure is not kept: the next request tries again.
      blocks.catch(() => this.deflated.delete(bytes));
    }
    return entry;
  }
}
