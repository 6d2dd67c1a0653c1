import type { ServerResponse } from 'node:http';
import { Type } from '@sinclair/typebox';
import { inject, injectable } from 'tsyringe';
import { EventBus } from '../events/event-bus.js';
import { EVENT_PAYLOADS } from '../events/event-catalog.js';
import { EVENT_TYPES } from '../events/event-types.js';
import { type ApiResource, type ApiRoute, defineRoute, StreamedResponse } from '../http/api-route.js';

/** Comment lines keep proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/**
 * What the stream carries, for the OpenAPI document: one member per event
 * type, as `event` (the SSE event name) and `data` (its JSON, with `at`).
 */
const StreamedEventSchema = Type.Union(
  EVENT_TYPES.map((type) =>
    Type.Object(
      {
        event: Type.Literal(type),
        data: Type.Composite([Type.Object({ at: Type.String({ format: 'date-time', description: 'When it was published.' }) }), EVENT_PAYLOADS[type]], {
          additionalProperties: false,
        }),
      },
      { title: type, description: EVENT_PAYLOADS[type].description },
    ),
  ),
  { description: 'Each server-sent event: its `id`, its `event` name and its `data`.' },
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
          'A `text/event-stream`. Each event has `id`, `event` (its type, such as `plugin.reloaded` or `overlay.applied`) and `data` (JSON with `at` and the details). The stream sends a comment every 15 s.',
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
    response.write(': strata events\n\n');
    const unsubscribe = this.events.subscribe((event) => {
      response.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify({ at: event.at, ...event.data })}\n\n`);
    });
    const heartbeat = setInterval(() => response.write(': heartbeat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const end = (): void => {
      clearInterval(heartbeat);
      unsubscribe();
      stopOnClose();
      if (!response.writableEnded) response.end();
    };
    const stopOnClose = this.events.onClose(end);
    response.once('close', end);
  }
}
