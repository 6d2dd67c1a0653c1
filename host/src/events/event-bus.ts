import { injectable } from 'tsyringe';

/** What the host tells clients on `GET /api/events`. */
export interface StrataEvent {
  /** `plugin.loaded`, `plugin.reloaded`, `plugin.failed`, `plugin.removed`, `plugin.log`, `overlay.applying`, `overlay.progress`, `overlay.applied`, `overlay.removed`, `overlay.failed`, `graph.changed`. */
  type: string;
  data: Record<string, unknown>;
}

/** Publishes host events to whoever listens (the event stream, tests). */
@injectable()
export class EventBus {
  private readonly listeners = new Set<(event: StrataEvent & { id: number; at: string }) => void>();
  private nextId = 1;
  private readonly closers = new Set<() => void>();
  private closed = false;

  publish(type: string, data: Record<string, unknown>): void {
    const event = { id: this.nextId++, at: new Date().toISOString(), type, data };
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
  subscribe(listener: (event: StrataEvent & { id: number; at: string }) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
