import { injectable } from 'tsyringe';
import type { EventPayload, PublishedEvent } from './event-catalog.js';
import type { EventType } from './event-types.js';

/** Publishes host events to whoever listens (the event stream, tests); their types and payloads: event-catalog.ts. */
@injectable()
export class EventBus {
  private readonly listeners = new Set<(event: PublishedEvent) => void>();
  private nextId = 1;
  private readonly closers = new Set<() => void>();
  private closed = false;

  publish<T extends EventType>(type: T, data: EventPayload<T>): void {
    const event = { id: this.nextId++, at: new Date().toISOString(), type, data } as PublishedEvent;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener must not stop the others.
      }
    }
  }

  /** Calls `onClose` when the host stops (streams end then, so that the server can close). */
  onClose(onClose: () => void): () => void {
    if (this.closed) {
      onClose();
      return () => undefined;
    }
    this.closers.add(onClose);
    return () => this.closers.delete(onClose);
  }

  close(): void {
    this.closed = true;
    for (const closer of [...this.closers]) closer();
    this.closers.clear();
    this.listeners.clear();
  }

  /** Calls `listener` for every event from now on; returns a function that stops it. */
  subscribe(listener: (event: PublishedEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
