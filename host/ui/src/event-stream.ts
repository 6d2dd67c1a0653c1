// GET /api/events, followed for as long as the page is open. The browser's
// own EventSource cannot send a header, so the `eventsource` package (the
// same standard client, on fetch) carries the token in the Authorization
// header: the token never goes into a URL that a log would keep.
import { EventSource } from 'eventsource';
import type { EventPayload } from '../../src/events/event-catalog.js';
import { EVENT_TYPES, type EventType } from '../../src/events/event-types.js';
import type { ApiClient } from './api-client.js';

/**
 * The events the page follows: all the host sends (one list, with the host's
 * payload types) but `plugin.log`, a line a plugin logged, which the page
 * does not show and which can come many times a second.
 */
const FOLLOWED_EVENT_TYPES = EVENT_TYPES.filter((type): type is FollowedEventType => type !== 'plugin.log');

export type FollowedEventType = Exclude<EventType, 'plugin.log'>;

/** An event as the page receives it: its type and its payload, with `at`. */
export type FollowedEvent = { [T in FollowedEventType]: { type: T; data: EventPayload<T> & { at: string } } }[FollowedEventType];

export interface EventStreamListener {
  event(event: FollowedEvent): void;
  /**
   * The stream is open: first, and after each reconnection (the page then
   * catches up). `afterDrop`: the server had dropped the stream because the
   * page fell behind (`stream.dropped`); the server is the same, so what
   * changed meanwhile can be asked of it.
   */
  connected(reconnected: boolean, afterDrop: boolean): void;
  /** The stream broke; it is tried again after `retryInMs`. A refused token is told apart. */
  disconnected(retryInMs: number, unauthorized: boolean): void;
}

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 10_000;

/** Follows the event stream, reconnecting with exponential backoff. */
export class EventStream {
  private source: EventSource | undefined;
  private retryMs = FIRST_RETRY_MS;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private everConnected = false;
  private stopped = false;
  /** The last stream ended with `stream.dropped`: the next open is a catch-up, not a recovery. */
  private afterDrop = false;

  constructor(
    private readonly api: ApiClient,
    private readonly listener: EventStreamListener,
  ) {}

  start(): void {
    this.stopped = false;
    this.open();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.source?.close();
    this.source = undefined;
  }

  /** Reconnects now (after the token changed, say). */
  restart(): void {
    this.stop();
    this.retryMs = FIRST_RETRY_MS;
    this.start();
  }

  private open(): void {
    let unauthorized = false;
    let dropped = false;
    const source = new EventSource(`${this.api.baseUrl}/api/events`, {
      fetch: async (input, init) => {
        const response = await fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...this.api.authHeaders() } });
        unauthorized = response.status === 401;
        return response;
      },
    });
    this.source = source;
    source.addEventListener('open', () => {
      const reconnected = this.everConnected;
      this.everConnected = true;
      this.retryMs = FIRST_RETRY_MS;
      const afterDrop = this.afterDrop;
      this.afterDrop = false;
      this.listener.connected(reconnected, afterDrop);
    });
    // The stream's last words when the page fell too far behind (a busy or hidden tab): the server ends it next.
    source.addEventListener('stream.dropped', () => {
      dropped = true;
    });
    source.addEventListener('error', () => {
      // The client's own retry has no backoff and gives up on a 401: the page does both itself.
      source.close();
      if (this.stopped || this.source !== source) return;
      if (dropped) {
        // Not an outage, nothing for the user to do: connect again soon, quietly, and catch up.
        this.afterDrop = true;
        this.timer = setTimeout(() => this.open(), FIRST_RETRY_MS);
        return;
      }
      const wait = this.retryMs;
      this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
      this.listener.disconnected(wait, unauthorized);
      this.timer = setTimeout(() => this.open(), wait);
    });
    for (const type of FOLLOWED_EVENT_TYPES) {
      source.addEventListener(type, (message) => {
        let data: unknown;
        try {
          data = JSON.parse(message.data);
        } catch {
          return;
        }
        // As the host's event catalog says (test/events/event-schemas.test.ts holds the host to it).
        this.listener.event({ type, data } as FollowedEvent);
      });
    }
  }
}
