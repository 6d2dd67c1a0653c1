import type { ServerResponse } from 'node:http';
import { type TObject, Type } from '@sinclair/typebox';
import { inject, injectable } from 'tsyringe';
import { EventBus } from '../events/event-bus.js';
import { EVENT_PAYLOADS, STREAM_EVENT_PAYLOADS } from '../events/event-catalog.js';
import { EVENT_TYPES, STREAM_EVENT_TYPES } from '../events/event-types.js';
import { type ApiResource, type ApiRoute, defineRoute, StreamedResponse } from '../http/api-route.js';
import { type EventStreamBounds, EventStreamWriter } from '../http/event-stream-writer.js';

/** Comment lines keep proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/**
 * How far a client may fall behind: 1 MiB of events (thousands of them) it
 * has not taken, beyond what the operating system buffers; and 10 s for a
 * dropped one to take its last words.
 */
export const EVENT_STREAM_BOUNDS: EventStreamBounds = { maxBehindBytes: 1024 * 1024, dropGraceMs: 10_000 };

/** One member of the stream's schema: `event` (the SSE event name) and `data` (its JSON, with `at`). */
function streamedEvent(type: string, payload: TObject) {
  return Type.Object(
    {
      event: Type.Literal(type),
      data: Type.Composite([Type.Object({ at: Type.String({ format: 'date-time', description: 'When it was published.' }) }), payload], {
        additionalProperties: false,
      }),
    },
    { title: type, description: payload.description },
  );
}

/** What the stream carries, for the OpenAPI document: one member per event type, the stream's own last included. */
const StreamedEventSchema = Type.Union(
  [
    ...EVENT_TYPES.map((type) => streamedEvent(type, EVENT_PAYLOADS[type])),
    ...STREAM_EVENT_TYPES.map((type) => streamedEvent(type, STREAM_EVENT_PAYLOADS[type])),
  ],
  {
    description: "Each server-sent event: its `id` (none on `stream.dropped`, which is the stream's own), its `event` name and its `data`.",
  },
);

/** `GET /api/events`: server-sent events, so that a UI refreshes without polling. */
@injectable()
export class EventResource implements ApiResource {
  constructor(@inject(EventBus) private readonly events: EventBus) {}

  routes(): ApiRoute[] {
    return [
      defineRoute({
        method: 'GET',
        path: '/api/events',
        operationId: 'streamEvents',
        summary: 'Server-sent events: plugins loaded, reloaded or failed; overlays applied, removed or failed; graph changes',
        description:
          'A `text/event-stream`. Each event has `id`, `event` (its type, such as `plugin.reloaded` or `overlay.applied`) and `data` (JSON with `at` and the details). The stream sends a comment every 15 s. ' +
          'A client that falls more than 1 MiB of events behind (beyond what the operating system buffers) is dropped: its last event is `stream.dropped`, and the stream ends; reconnect, then catch up with `GET /api/graph/changes?since=` and `GET /api/overlays`.',
        tags: ['events'],
        envelope: false,
        responseMediaType: 'text/event-stream',
        response: StreamedEventSchema,
        errors: [],
        handle: async () => new StreamedResponse((response) => this.stream(response)),
      }),
    ];
  }

  private stream(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const { maxBehindBytes } = EVENT_STREAM_BOUNDS;
    const lastWords = (behindBytes: number): string => {
      const message = `this client fell ${behindBytes} bytes of events behind, more than the ${maxBehindBytes} a client may: reconnect, then catch up with GET /api/graph/changes?since=<the last revision seen> and GET /api/overlays`;
      const data = { at: new Date().toISOString(), reason: 'too far behind', behindBytes, limitBytes: maxBehindBytes, message };
      return `event: stream.dropped\ndata: ${JSON.stringify(data)}\n\n`;
    };
    const writer = new EventStreamWriter(response, EVENT_STREAM_BOUNDS, lastWords, () => stop());
    writer.write(': strata events\n\n');
    const unsubscribe = this.events.subscribe((event) => {
      writer.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify({ at: event.at, ...event.data })}\n\n`);
    });
    const heartbeat = setInterval(() => writer.write(': heartbeat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const stop = (): void => {
      clearInterval(heartbeat);
      unsubscribe();
      stopOnClose();
    };
    const end = (): void => {
      stop();
      writer.end();
    };
    const stopOnClose = this.events.onClose(end);
    response.once('close', end);
  }
}
