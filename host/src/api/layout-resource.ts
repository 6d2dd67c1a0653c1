import { setImmediate } from 'node:timers/promises';
import { Type } from '@sinclair/typebox';
import type { Position } from '@strata/sdk';
import { inject, injectable } from 'tsyringe';
import { StrataError } from '../errors/strata-error.js';
import { GraphStore } from '../graph/graph-store.js';
import { type ApiResource, type ApiRoute, defineRoute } from '../http/api-route.js';
import { LayoutPositionStore } from '../layout/layout-position-store.js';
import { PositionSchema } from './graph-schemas.js';

/** How many ignored ids a save response names. */
const IGNORED_SAMPLE = 20;

/**
 * A save's body may hold this much per node of the graph, plus a base (ids
 * average under 100 bytes and a position under 60): a body far larger than
 * the graph could use is refused before it is read. 16 MB of 310,000 unknown
 * ids took 1.35 s of the event loop each, and 32 of them stalled the server.
 */
const SAVE_BYTES_PER_NODE = 512;
const SAVE_BASE_BYTES = 1024 * 1024;
/** Positions are checked this many at a time, the event loop free in between. */
const CHECK_BATCH = 20_000;

/** `POST` and `DELETE /api/graph/layout`: the saved positions, as a whole (spec 2.3, 4.1). */
@injectable()
export class LayoutResource implements ApiResource {
  constructor(
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(LayoutPositionStore) private readonly layout: LayoutPositionStore,
  ) {}

  routes(): ApiRoute[] {
    return [
      defineRoute({
        method: 'POST',
        path: '/api/graph/layout',
        operationId: 'saveLayout',
        summary: 'Save layout positions, replacing the saved set',
        description:
          'Ids that are not in the graph are ignored and counted. Coordinates must be finite numbers. ' +
          `A body larger than ${SAVE_BYTES_PER_NODE} bytes per node of the graph plus ${SAVE_BASE_BYTES} bytes (or than \`maxBodyBytes\`) is answered 413 before it is read.`,
        tags: ['layout'],
        body: Type.Object({ positions: Type.Record(Type.String(), PositionSchema, { description: 'Node id to position.' }) }, { additionalProperties: false }),
        bodyRequired: true,
        bodyLimit: () => ({
          bytes: SAVE_BASE_BYTES + this.graph.nodeCount * SAVE_BYTES_PER_NODE,
          setBy: `a layout of this graph: ${SAVE_BYTES_PER_NODE} bytes for each of its ${this.graph.nodeCount.toLocaleString('en-US')} nodes, plus ${SAVE_BASE_BYTES} bytes`,
        }),
        response: Type.Object({
          saved: Type.Integer({ description: 'Positions saved.' }),
          ignored: Type.Integer({ description: 'Positions whose node id is not in the graph.' }),
          ignoredIds: Type.Array(Type.String(), { description: `Up to ${IGNORED_SAMPLE} of the ignored ids.` }),
        }),
        errors: ['INVALID_PARAMETER'],
        handle: async ({ body }) => {
          const positions = new Map<string, Position>();
          const ignoredIds: string[] = [];
          let ignored = 0;
          let checked = 0;
          for (const id in body!.positions) {
            if (!Object.hasOwn(body!.positions, id)) continue;
            if (++checked % CHECK_BATCH === 0) await setImmediate();
            const { x, y } = body!.positions[id]!;
            if (!Number.isFinite(x) || !Number.isFinite(y)) {
              throw new StrataError('INVALID_PARAMETER', `body.positions[${JSON.stringify(id)}]: x and y must be finite numbers`);
            }
            if (!this.graph.has(id)) {
              ignored++;
              if (ignoredIds.length < IGNORED_SAMPLE) ignoredIds.push(id);
              continue;
            }
            positions.set(id, { x, y });
          }
          await this.layout.replaceAll(positions);
          return { data: { saved: positions.size, ignored, ignoredIds } };
        },
      }),
      defineRoute({
        method: 'DELETE',
        path: '/api/graph/layout',
        operationId: 'clearLayout',
        summary: 'Clear every saved layout position',
        tags: ['layout'],
        response: Type.Object({ cleared: Type.Integer({ description: 'Positions removed.' }) }),
        errors: [],
        handle: async () => ({ data: { cleared: await this.layout.clear() } }),
      }),
    ];
  }
}
