import type { ServerResponse } from 'node:http';

/** How far one client of a stream may fall behind. */
export interface EventStreamBounds {
  /**
   * Bytes written for the client and not yet handed to the operating system
   * (which buffers a few MB more on its own), at most: one more and the
   * client is dropped.
   */
  maxBehindBytes: number;
  /** Time a dropped stream has to hand its last bytes over; then its socket is destroyed. */
  dropGraceMs: number;
}

/**
 * Writes a stream (server-sent events) to one client, and never holds more
 * than `maxBehindBytes` of it for a client that does not read: once the
 * socket's buffer is full, what follows waits in a queue here, and when the
 * two together pass the bound, the queue is let go, the client gets
 * `lastWords` (why it was dropped) and the end of the response, and its
 * socket is destroyed if that has not gone out within `dropGraceMs`.
 * Without this a client that stopped reading kept every event in the host's
 * memory for as long as it stayed connected (five of them took a host from
 * 155 MB to 4.1 GB under a flood of events).
 */
export class EventStreamWriter {
  private readonly queue: Buffer[] = [];
  /** Index of the first queued chunk not yet written. */
  private head = 0;
  private queuedBytes = 0;
  /** The socket's buffer is full: writes wait in the queue for its `drain`. */
  private congested = false;
  private over = false;

  constructor(
    private readonly response: ServerResponse,
    private readonly bounds: EventStreamBounds,
    /** The stream's last words to a client that fell behind by `behindBytes`. */
    private readonly lastWords: (behindBytes: number) => string,
    /** Told once, when the client is dropped. */
    private readonly onDropped: () => void,
  ) {
    response.on('drain', () => this.drain());
  }

  /** Whether the stream is over: ended, dropped, or its client gone. */
  get ended(): boolean {
    return this.over || this.response.destroyed;
  }

  write(text: string): void {
    if (this.ended) return;
    if (!this.congested) {
      this.congested = !this.response.write(text);
      return;
    }
    const chunk = Buffer.from(text);
    this.queue.push(chunk);
    this.queuedBytes += chunk.length;
    const behind = this.response.writableLength + this.queuedBytes;
    if (behind > this.bounds.maxBehindBytes) this.drop(behind);
  }

  /** Ends the stream (the host stops); what waits in the queue is let go. */
  end(): void {
    if (this.ended) return;
    this.over = true;
    this.letGo();
    this.response.end();
  }

  private drain(): void {
    this.congested = false;
    while (!this.congested && this.head < this.queue.length && !this.ended) {
      const chunk = this.queue[this.head]!;
      this.queue[this.head++] = EMPTY;
      this.queuedBytes -= chunk.length;
      this.congested = !this.response.write(chunk);
    }
    if (this.head === this.queue.length) this.letGo();
    else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }

  private drop(behindBytes: number): void {
    this.over = true;
    this.letGo();
    this.response.end(this.lastWords(behindBytes));
    // What is left in the socket's buffer (at most its high-water mark and the last words) goes out once the client
    // reads; a client that never does is cut off.
    const cutOff = setTimeout(() => this.response.destroy(), this.bounds.dropGraceMs);
    cutOff.unref();
    this.response.once('finish', () => clearTimeout(cutOff));
    this.response.once('close', () => clearTimeout(cutOff));
    this.onDropped();
  }

  private letGo(): void {
    this.queue.length = 0;
    this.head = 0;
    this.queuedBytes = 0;
  }
}

const EMPTY = Buffer.alloc(0);
