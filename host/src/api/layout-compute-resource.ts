import { Type } from '@sinclair/typebox';
import { inject, injectable } from 'tsyringe';
import { StrataConfig } from '../config/strata-config.js';
import { type ApiResource, type ApiRoute, defineRoute } from '../http/api-route.js';
import { LayoutComputation } from '../layout/layout-computation.js';
import { StringEnum } from '../validation/string-enum.js';

const StatusSchema = Type.Object({
  state: StringEnum(['idle', 'running', 'completed', 'cancelled', 'failed'] as const),
  iteration: Type.Integer({ description: 'Iterations done.' }),
  iterations: Type.Integer({ description: 'Iterations asked for.' }),
  progress: Type.Number({ minimum: 0, maximum: 1 }),
  backend: Type.Union([Type.String(), Type.Null()], { description: 'TensorFlow.js backend of the job: tensorflow-gpu, tensorflow, webgpu, wasm or cpu.' }),
  seed: Type.Union([Type.Integer(), Type.Null()]),
  nodes: Type.Integer(),
  startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});

/** `/api/graph/layout/compute`: the layout computed by the layout engine (spec 2.4, 4.2). */
@injectable()
export class LayoutComputeResource implements ApiResource {
  constructor(
    @inject(LayoutComputation) private readonly layout: LayoutComputation,
    @inject(StrataConfig) private readonly config: StrataConfig,
  ) {}

  routes(): ApiRoute[] {
    return [
      defineRoute({
        method: 'POST',
        path: '/api/graph/layout/compute',
        operationId: 'computeLayout',
        summary: 'Start computing a layout',
        description:
          'Runs in a worker thread; poll the status. On completion the positions are saved as the layout (as POST /api/graph/layout saves them). Deterministic for a seed; starts from the saved positions.',
        tags: ['layout'],
        body: Type.Object(
          {
            iterations: Type.Integer({ minimum: 1, maximum: this.config.layout.maxIterations, description: 'Iterations to run.' }),
            seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1, description: 'Seed of the random choices (default 1).' })),
            settings: Type.Optional(
              Type.Object(
                {
                  attraction: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'Pull along edges (default 1).' })),
                  repulsion: Type.Optional(
                    Type.Number({ minimum: 0, maximum: 100_000, description: 'Push between sampled node pairs (default: nodes / 100, at least 1).' }),
                  ),
                  negativeSamples: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: 'Pairs sampled per node and iteration (default 5).' })),
                  gravity: Type.Optional(Type.Number({ minimum: 0, maximum: 10, description: 'Pull toward the center (default 0.01).' })),
                  siblingRepulsion: Type.Optional(
                    Type.Number({
                      minimum: 0,
                      maximum: 100,
                      description:
                        'Push between siblings (the nodes of one directory or file), relative to the push between any two nodes (default 2; 0: none).',
                    }),
                  ),
                  learningRate: Type.Optional(
                    Type.Number({
                      exclusiveMinimum: 0,
                      maximum: 100,
                      description:
                        'First step size; it cools to a tenth, and to at most 0.1 (default: √nodes / 33, at least 1; a twentieth of that when at least 80 % of the nodes have saved positions, so that the run refines the saved layout).',
                    }),
                  ),
                },
                { additionalProperties: false },
              ),
            ),
          },
          { additionalProperties: false },
        ),
        bodyRequired: true,
        response: StatusSchema,
        errors: ['INVALID_PARAMETER', 'LAYOUT_RUNNING'],
        handle: async ({ body }) => ({ data: this.layout.start(body!) }),
      }),
      defineRoute({
        method: 'GET',
        path: '/api/graph/layout/compute/status',
        operationId: 'getLayoutComputationStatus',
        summary: 'Progress of the layout computation',
        tags: ['layout'],
        response: StatusSchema,
        errors: [],
        handle: async () => ({ data: this.layout.current() }),
      }),
      defineRoute({
        method: 'POST',
        path: '/api/graph/layout/compute/cancel',
        operationId: 'cancelLayoutComputation',
        summary: 'Cancel the layout computation',
        description: 'Takes effect within one iteration; the positions reached are not saved. Harmless when nothing runs.',
        tags: ['layout'],
        response: StatusSchema,
        errors: [],
        handle: async () => ({ data: await this.layout.cancel() }),
      }),
      defineRoute({
        method: 'GET',
        path: '/api/graph/layout/compute/available',
        operationId: 'getLayoutAvailability',
        summary: 'Whether a GPU is available for the layout',
        description: '`available` is true only when a GPU backend is loaded and sees a device; `backend` says which backend computes layouts here.',
        tags: ['layout'],
        response: Type.Object({
          available: Type.Boolean(),
          backend: Type.Union([Type.String(), Type.Null()]),
          gpu: Type.Boolean(),
          device: Type.String(),
          error: Type.Optional(Type.String()),
        }),
        errors: [],
        handle: async () => ({ data: await this.layout.available() }),
      }),
    ];
  }
}
