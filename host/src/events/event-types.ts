// The names of the events the host sends on `GET /api/events`. Free of imports, so that the web UI takes the same
// list; their payloads are in event-catalog.ts, keyed by these names.

/** Every event type, in the order the README lists them. */
export const EVENT_TYPES = [
  'graph.changed',
  'plugin.loaded',
  'plugin.reloaded',
  'plugin.ready',
  'plugin.failed',
  'plugin.removed',
  'plugin.log',
  'overlay.applying',
  'overlay.progress',
  'overlay.applied',
  'overlay.removed',
  'overlay.failed',
  'layout.started',
  'layout.finished',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Events the stream itself sends one client, never published on the bus: `stream.dropped`, its last event when
 * the client fell too far behind.
 */
export const STREAM_EVENT_TYPES = ['stream.dropped'] as const;

export type StreamEventType = (typeof STREAM_EVENT_TYPES)[number];
