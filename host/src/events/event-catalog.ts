import { type Static, type TObject, Type } from '@sinclair/typebox';
import type { EventType, StreamEventType } from './event-types.js';

const pluginId = Type.String({ description: 'The plugin the event is about.' });

/**
 * Each event's payload (`data`, besides `at`): the one description of what
 * the host sends, used to type `EventBus.publish` and its listeners, the
 * OpenAPI description of `GET /api/events`, and the web UI's handlers.
 */
export const EVENT_PAYLOADS = {
  'graph.changed': Type.Object(
    {
      revision: Type.Integer({ description: 'The graph revision after the change (`GET /api/graph/changes?since=` takes the one before).' }),
      changedPaths: Type.Integer({ description: 'How many files were added, changed or removed.' }),
    },
    { description: 'The live graph changed after edits on disk.' },
  ),
  'plugin.loaded': Type.Object({ pluginId, version: Type.Optional(Type.String()) }, { description: 'A plugin was loaded for the first time.' }),
  'plugin.reloaded': Type.Object({ pluginId, version: Type.Optional(Type.String()) }, { description: 'A plugin was loaded again after its files changed.' }),
  'plugin.ready': Type.Object(
    { pluginId, ms: Type.Number({ description: 'From the save on disk to this event, in milliseconds.' }) },
    { description: 'A reload that a save started is over: the plugin loaded, and its overlay was applied again if it was active (`strata serve --dev`).' },
  ),
  'plugin.failed': Type.Object(
    {
      pluginId,
      error: Type.Optional(Type.String({ description: 'Why it could not be loaded.' })),
      serving: Type.Optional(Type.Literal('previous version', { description: 'Present when the version loaded before is kept.' })),
    },
    { description: 'A plugin could not be loaded or reloaded.' },
  ),
  'plugin.removed': Type.Object({ pluginId }, { description: "A plugin's folder went away; its overlay is gone too." }),
  'plugin.log': Type.Object(
    {
      pluginId,
      seq: Type.Integer({ description: "The line number in the plugin's log (`GET /api/overlays/{id}/logs?since=`)." }),
      at: Type.String({ format: 'date-time' }),
      source: Type.Union([Type.Literal('plugin'), Type.Literal('sandbox')], {
        description: "`plugin`: `ctx.log`; `sandbox`: its sandbox process's standard error.",
      }),
      message: Type.String(),
      truncated: Type.Boolean(),
    },
    { description: 'A plugin logged a line.' },
  ),
  'overlay.applying': Type.Object({ pluginId }, { description: 'An apply started.' }),
  'overlay.progress': Type.Object(
    {
      pluginId,
      done: Type.Number({ description: "Work done so far, in the plugin's unit." }),
      total: Type.Optional(Type.Number({ description: 'Work to do in all, when the plugin knows it.' })),
      message: Type.Optional(Type.String({ description: 'What the apply is doing.' })),
      elapsedMs: Type.Integer({ description: 'Since the apply started.' }),
    },
    { description: 'How far an apply under way has come (`ctx.progress`).' },
  ),
  'overlay.applied': Type.Object(
    {
      pluginId,
      styledNodes: Type.Integer(),
      edges: Type.Integer({ description: "Edges the plugin's edge overlays gave (GET /api/overlays/{id}/edges); 0 for other overlays." }),
      durationMs: Type.Integer(),
    },
    { description: "An apply succeeded: the overlay's styles (and edges) are served." },
  ),
  'overlay.removed': Type.Object({ pluginId }, { description: "An overlay's styles were removed." }),
  'overlay.failed': Type.Object(
    {
      pluginId,
      error: Type.Object({ kind: Type.String(), message: Type.String() }),
      serving: Type.Union([Type.Literal('last good result'), Type.Literal('nothing')], { description: 'What the overlay shows now.' }),
    },
    { description: 'An apply failed.' },
  ),
  'layout.started': Type.Object({ iterations: Type.Integer(), nodes: Type.Integer() }, { description: 'A layout computation started.' }),
  'layout.finished': Type.Object(
    {
      state: Type.Union([Type.Literal('idle'), Type.Literal('running'), Type.Literal('completed'), Type.Literal('cancelled'), Type.Literal('failed')]),
      iteration: Type.Integer({ description: 'The iterations run.' }),
    },
    { description: 'A layout computation ended (completed, cancelled or failed).' },
  ),
} satisfies Record<EventType, TObject>;

/** The payloads of the events the stream sends one client (not published on the bus), as EVENT_PAYLOADS. */
export const STREAM_EVENT_PAYLOADS = {
  'stream.dropped': Type.Object(
    {
      reason: Type.Literal('too far behind', { description: 'The client took events more slowly than they came.' }),
      behindBytes: Type.Integer({ description: 'Bytes of events sent to this client that it had not taken (beyond what the operating system buffers).' }),
      limitBytes: Type.Integer({ description: 'How far behind a client may fall.' }),
      message: Type.String({ description: 'The same, in words, with what to do.' }),
    },
    {
      description:
        'The last event of a stream whose client fell too far behind: the events it had not taken are let go and the stream ends. Reconnect, then catch up: `GET /api/graph/changes?since=` the last revision seen, and `GET /api/overlays`.',
    },
  ),
} satisfies Record<StreamEventType, TObject>;

/** The payload of one event type. */
export type EventPayload<T extends EventType> = Static<(typeof EVENT_PAYLOADS)[T]>;

/** An event as the bus carries it: its type and payload, one member per type. */
export type StrataEvent = { [T in EventType]: { type: T; data: EventPayload<T> } }[EventType];

/** An event as published: with the stream's id and the time it was published. */
export type PublishedEvent = StrataEvent & { id: number; at: string };
