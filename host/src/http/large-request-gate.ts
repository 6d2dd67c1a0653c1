import type { IncomingMessage, ServerResponse } from 'node:http';
import { Semaphore } from '../concurrency/semaphore.js';
import { StrataError } from '../errors/strata-error.js';
import { LARGE_BODY_BYTES } from './request-body.js';

/** Large requests handled at once: each holds the event loop in slices, and more at once only share the same cores. */
const AT_ONCE = 1;
/** Large requests that may wait for their turn, whatever their size; one more is answered 503. */
const MAX_WAITING = 64;
/** How much of the time a client has to send its request (`requestTimeoutMs`) a turn may be expected to take in coming. */
const WAIT_SHARE = 0.5;

/**
 * The pace assumed until one large request has been handled: a layout save
 * of 16 MB took 2 s on two cores (parsed and checked in slices).
 */
const INITIAL_MS_PER_BYTE = 2000 / 16e6;

/** A turn in the gate: ended once the request is answered. */
export type EndTurn = () => void;

/**
 * Requests whose body is large (over `LARGE_BODY_BYTES`, or compressed, or of
 * a length not declared) are read, parsed and handled one at a time, the
 * others waiting in order with their bodies unread: 32 layout saves of 16 MB
 * at once held a cheap GET for 10 s and the process's memory at 1.6 GB.
 * Requests with a small body or none never wait here.
 *
 * A waiting request's body is not read, and Node gives a client
 * `requestTimeoutMs` to send all of it: one that would wait longer than half
 * of that, at the pace the last large requests were handled, is answered 503
 * at once (with the expected wait as Retry-After) rather than 408 later, its
 * upload wasted.
 */
export class LargeRequestGate {
  private readonly turns = new Semaphore(AT_ONCE);
  private waiting = 0;
  /** Bytes of the requests waiting or being handled. */
  private bytesAhead = 0;
  /** Milliseconds per byte of the last large requests (a moving average). */
  private msPerByte = INITIAL_MS_PER_BYTE;

  constructor(private readonly requestTimeoutMs: number) {}

  /** Whether the request's body is large, or may be once decompressed, or is of a length it does not declare. */
  static isLarge(request: IncomingMessage): boolean {
    const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (encoding !== 'identity') return true;
    const declared = request.headers['content-length'];
    if (declared === undefined) return request.headers['transfer-encoding'] !== undefined;
    return Number(declared) > LARGE_BODY_BYTES;
  }

  /**
   * Waits for the request's turn; resolves with what ends it. `bytes` is its
   * body's size (declared, or the most it may hold). Rejects with
   * TOO_MANY_LARGE_REQUESTS when the queue is full or would take too long,
   * and leaves the queue when the client goes away first.
   */
  async enter(response: ServerResponse, bytes: number): Promise<EndTurn> {
    const expectedWaitMs = this.bytesAhead * this.msPerByte;
    if (this.waiting >= MAX_WAITING || expectedWaitMs > this.requestTimeoutMs * WAIT_SHARE) {
      const seconds = Math.min(60, Math.max(1, Math.ceil(expectedWaitMs / 1000)));
      const why =
        this.waiting >= MAX_WAITING
          ? `${MAX_WAITING} requests with a large body are waiting for their turn already`
          : `the requests with a large body ahead of it would take about ${seconds} s`;
      throw new StrataError('TOO_MANY_LARGE_REQUESTS', `${why} (they are handled one at a time); retry later`, { retryAfterSeconds: seconds });
    }
    const gone = new AbortController();
    const onClose = (): void => gone.abort();
    response.once('close', onClose);
    this.waiting++;
    this.bytesAhead += bytes;
    let release: () => void;
    try {
      release = await this.turns.acquire(gone.signal, () => new StrataError('BAD_REQUEST', 'the client closed the connection while its request waited'));
    } catch (error) {
      this.bytesAhead -= bytes;
      throw error;
    } finally {
      this.waiting--;
      response.off('close', onClose);
    }
    const started = performance.now();
    return () => {
      this.bytesAhead -= bytes;
      const pace = (performance.now() - started) / Math.max(1, bytes);
      this.msPerByte = 0.7 * this.msPerByte + 0.3 * pace;
      release();
    };
  }
}
