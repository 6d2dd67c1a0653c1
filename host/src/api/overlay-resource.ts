import { Type } from '@sinclair/typebox';
import { HEX_COLOR_PATTERN } from '@strata/sdk';
import { inject, injectable } from 'tsyringe';
import { GraphAnalysis } from '../analysis/graph-analysis.js';
import { type ApiResource, type ApiRoute, defineRoute } from '../http/api-route.js';
import { OverlayService } from '../overlays/overlay-service.js';
import type { ApplyBody } from '../overlays/overlay-status.js';
import { ServedOverlays } from '../overlays/served-overlays.js';
import { PLUGIN_LOG_LINE_CHARS, PLUGIN_LOG_LINES, PluginLogs } from '../plugins/plugin-logs.js';
import { type PluginRecord, PluginRegistry } from '../plugins/plugin-registry.js';
import { StringEnum } from '../validation/string-enum.js';
import { EdgeGroupingQuery, edgeGroupingOf, groupedOverlayEdges, OverlayEdgeSchema, UnplacedSchema } from './edge-overlays.js';
import { NodeStyleSchema } from './graph-schemas.js';

const PluginIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200, description: 'Plugin id.' }) });

const OverlaySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: StringEnum(['color', 'size', 'badge', 'edge'] as const, {
    description: '`edge`: the overlay gives edges between nodes (GET /api/overlays/{id}/edges), the others style nodes.',
  }),
  legend: Type.Record(Type.String(), Type.String({ pattern: HEX_COLOR_PATTERN }), {
    description: 'Label to hex color; the legend of the last apply when the overlay is active.',
  }),
  description: Type.String(),
});

const PluginInputSchema = Type.Object({
  name: Type.String({ description: "The name to send the texts under, in the apply body's `inputs`." }),
  description: Type.String(),
  accept: Type.Optional(
    Type.String({
      description: 'File types it takes, as an HTML `accept` attribute: extensions and media types, comma-separated (`.xml`, `application/json`).',
    }),
  ),
  multiple: Type.Boolean({ description: 'Whether several texts may be sent under the name (an array).' }),
});

const PluginSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  overlays: Type.Array(OverlaySchema),
  version: Type.Optional(Type.String()),
  sdk: Type.Optional(Type.String({ description: 'SDK range the plugin was built for.' })),
  builtIn: Type.Boolean(),
  capabilities: Type.Array(Type.String()),
  parameters: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description:
        "JSON schema of the apply parameters, an object schema (declared in the plugin's `definePlugin` or its manifest's `strata.parameters`); absent when the plugin declares none.",
    }),
  ),
  inputs: Type.Array(PluginInputSchema, { description: 'The inputs the plugin reads, as its manifest declares them (`strata.inputs`); empty when none.' }),
  loaded: Type.Boolean({ description: 'False when the plugin cannot be applied; `reason` says why.' }),
  state: StringEnum(['loaded', 'invalid', 'incompatible', 'failed'] as const),
  reason: Type.Optional(Type.String()),
  reloadError: Type.Optional(Type.String({ description: 'The last reload failed; the previous version keeps serving.' })),
  overlayState: StringEnum(['inactive', 'applying', 'active', 'failed'] as const),
});

const StatusSchema = Type.Object({
  pluginId: Type.String(),
  state: StringEnum(['inactive', 'applying', 'active', 'failed'] as const),
  params: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  inputs: Type.Array(Type.String(), { description: 'Names of the inputs sent with the last apply.' }),
  startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  appliedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  durationMs: Type.Union([Type.Integer(), Type.Null()]),
  styledNodes: Type.Integer(),
  graphRevision: Type.Union([Type.Integer(), Type.Null()]),
  summary: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String()]), { description: 'Figures the plugin reported about the last apply.' }),
  error: Type.Union([Type.Object({ kind: Type.String(), message: Type.String() }), Type.Null()]),
  progress: Type.Union(
    [
      Type.Object({
        done: Type.Number({ description: 'How much is done, in the unit the plugin chose (files, commits).' }),
        total: Type.Optional(Type.Number({ description: 'How much there is to do, when the plugin knows.' })),
        message: Type.Optional(Type.String({ description: 'What the plugin is doing ("blaming files").' })),
        at: Type.String({ format: 'date-time', description: 'When the plugin said it.' }),
      }),
      Type.Null(),
    ],
    { description: 'How far the apply under way has come, as the plugin last said; null when no apply runs or the plugin said nothing.' },
  ),
});

/** `/api/overlays`: the plugins, and applying and removing their overlays (spec 2.5, 2.6, 4.3). */
@injectable()
export class OverlayResource implements ApiResource {
  constructor(
    @inject(PluginRegistry) private readonly plugins: PluginRegistry,
    @inject(OverlayService) private readonly overlays: OverlayService,
    @inject(ServedOverlays) private readonly served: ServedOverlays,
    @inject(PluginLogs) private readonly logs: PluginLogs,
    @inject(GraphAnalysis) private readonly analysis: GraphAnalysis,
  ) {}

  routes(): ApiRoute[] {
    return [
      defineRoute({
        method: 'GET',
        path: '/api/overlays',
        operationId: 'listOverlays',
        summary: 'The overlay plugins and their overlays',
        description:
          'Returns `{plugins: [...]}` without the envelope (spec 4.3). Plugins that could not be loaded are listed with `loaded: false` and the reason. ' +
          'Each plugin gives what an apply form needs: `parameters`, the JSON schema of its parameters, and `inputs`, the texts it reads (sent under `inputs` in the apply body).',
        tags: ['overlays'],
        envelope: false,
        response: Type.Object({ plugins: Type.Array(PluginSchema) }),
        errors: [],
        handle: async () => {
          await this.plugins.whenLoaded();
          return { data: { plugins: this.plugins.list().map((record) => this.describe(record)) } };
        },
      }),
      defineRoute({
        method: 'POST',
        path: '/api/overlays/:id/apply',
        operationId: 'applyOverlay',
        summary: 'Apply the overlays of a plugin',
        description:
          "The body is optional: the plugin's parameters as a JSON object, checked against the schema it declares (`definePlugin` or its manifest), plus `inputs` (name -> text or texts) for plugins that read inputs. Answers once the plugin has finished, with the status. A plugin reloaded while it applies (`strata serve --dev`) answers with its new version, or `PLUGIN_RELOADED` when that version refuses the request.",
        tags: ['overlays'],
        params: PluginIdParams,
        body: Type.Object(
          { inputs: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]))) },
          { additionalProperties: true, description: 'Parameters of the plugin, and `inputs`.' },
        ),
        response: StatusSchema,
        errors: ['NOT_FOUND', 'INVALID_PARAMETER', 'OVERLAY_BUSY', 'PLUGIN_NOT_LOADED', 'PLUGIN_RELOADED', 'PLUGIN_FAILED'],
        handle: async ({ params, body }) => ({ data: await this.overlays.apply(params.id, body as ApplyBody | undefined) }),
      }),
      defineRoute({
        method: 'DELETE',
        path: '/api/overlays/:id/apply',
        operationId: 'removeOverlay',
        summary: 'Remove the overlays of a plugin',
        description: 'Stops an apply under way. Harmless when nothing is applied.',
        tags: ['overlays'],
        params: PluginIdParams,
        response: StatusSchema,
        errors: ['NOT_FOUND'],
        handle: async ({ params }) => ({ data: await this.overlays.remove(params.id) }),
      }),
      defineRoute({
        method: 'GET',
        path: '/api/overlays/:id/status',
        operationId: 'getOverlayStatus',
        summary: "Status of a plugin's overlays",
        tags: ['overlays'],
        params: PluginIdParams,
        response: StatusSchema,
        errors: ['NOT_FOUND'],
        handle: async ({ params }) => ({ data: await this.served.status(params.id) }),
      }),
      defineRoute({
        method: 'GET',
        path: '/api/overlays/:id/styles',
        operationId: 'getOverlayStyles',
        summary: "The styles a plugin's overlays serve now",
        description:
          "Overlay by overlay, the style of every node it paints, keyed by node id: what GET /api/graph merges into each node's `overlays[pluginId]`. " +
          'A client that follows `overlay.*` and `plugin.*` events fetches this instead of the whole graph. `serving: false`, with no overlays, when the plugin serves nothing now (inactive, or not loaded).',
        tags: ['overlays'],
        params: PluginIdParams,
        response: Type.Object({
          pluginId: Type.String(),
          state: StringEnum(['inactive', 'applying', 'active', 'failed'] as const),
          serving: Type.Boolean({ description: 'Whether the graph routes serve these styles now.' }),
          overlays: Type.Array(
            Type.Object({
              id: Type.String(),
              legend: Type.Record(Type.String(), Type.String()),
              styles: Type.Record(Type.String(), NodeStyleSchema, { description: 'Node id to style.' }),
            }),
          ),
        }),
        errors: ['NOT_FOUND'],
        handle: async ({ params }) => ({ data: await this.served.servedStyles(params.id) }),
      }),
      defineRoute({
        method: 'GET',
        path: '/api/overlays/:id/edges',
        operationId: 'getOverlayEdges',
        summary: "The edges a plugin's edge overlays serve now",
        description:
          'Overlay by overlay (those of type `edge`), every edge the plugin gave: `source`, `target`, `weight`, and `label` and `value` when it gave them. ' +
          'With `level` (a directory depth: 1 for the directories in the root) or `parent` (a directory id), the edges are summed between directories as GET /api/graph/edges sums imports: ' +
          'each end stands for its directory at that level (a node less deep for itself) or for the child of `parent` holding it; weights and values are added, `count` says how many edges each sums, edges within one group are left out, and `unplaced` counts edges whose nodes are gone from the graph. ' +
          '`serving: false`, with no overlays, when the plugin serves nothing now.',
        tags: ['overlays'],
        params: PluginIdParams,
        query: Type.Object(EdgeGroupingQuery),
        response: Type.Object({
          pluginId: Type.String(),
          state: StringEnum(['inactive', 'applying', 'active', 'failed'] as const),
          serving: Type.Boolean(),
          overlays: Type.Array(
            Type.Object({
              id: Type.String(),
              legend: Type.Record(Type.String(), Type.String()),
              edges: Type.Array(OverlayEdgeSchema),
              unplaced: UnplacedSchema,
            }),
          ),
        }),
        errors: ['NOT_FOUND', 'INVALID_PARAMETER'],
        handle: async ({ params, query }) => {
          const grouping = edgeGroupingOf(query);
          const served = await this.served.servedEdges(params.id);
          return { data: { ...served, overlays: groupedOverlayEdges(this.analysis, served.overlays, grouping) } };
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/api/overlays/:id/logs',
        operationId: 'getPluginLogs',
        summary: 'What a plugin logged',
        description:
          `The lines the plugin wrote with \`ctx.log\` (and what its sandbox process wrote to standard error), oldest first: the last ${PLUGIN_LOG_LINES} kept, each cut to ${PLUGIN_LOG_LINE_CHARS} characters. ` +
          'A plugin may log 200 lines in a burst, then 20 a second; lines beyond are dropped and counted in `dropped`. `since` (a `seq`) gives only the lines after it. ' +
          'Each line kept is also sent on the event stream as a `plugin.log` event.',
        tags: ['overlays'],
        params: PluginIdParams,
        query: Type.Object({ since: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: "A line's `seq`: only the lines after it." })) }),
        response: Type.Object({
          pluginId: Type.String(),
          lines: Type.Array(
            Type.Object({
              seq: Type.Integer({ minimum: 1 }),
              at: Type.String({ format: 'date-time' }),
              source: StringEnum(['plugin', 'sandbox'] as const, { description: "`plugin`: ctx.log; `sandbox`: the sandbox process's standard error." }),
              message: Type.String(),
              truncated: Type.Boolean(),
            }),
          ),
          dropped: Type.Object({
            rateLimited: Type.Integer({ minimum: 0, description: 'Lines over the rate limit, since the host started.' }),
            overwritten: Type.Integer({ minimum: 0, description: 'Lines pushed out of the buffer by newer ones.' }),
          }),
          limits: Type.Object({ lines: Type.Integer(), lineChars: Type.Integer(), burst: Type.Integer(), perSecond: Type.Integer() }),
        }),
        errors: ['NOT_FOUND', 'INVALID_PARAMETER'],
        handle: async ({ params, query }) => {
          const record = await this.plugins.listed(params.id);
          return { data: this.logs.read(record.id, query.since === undefined ? 0 : Number(query.since)) };
        },
      }),
    ];
  }

  private describe(record: PluginRecord) {
    const legends = this.served.legends(record.id);
    const manifest = record.package?.manifest;
    return {
      id: record.id,
      name: record.name,
      description: record.description,
      overlays: record.overlays.map((overlay) => ({
        id: overlay.id,
        name: overlay.name,
        type: overlay.type,
        legend: legends.get(overlay.id) ?? overlay.legend,
        description: overlay.description,
      })),
      ...(record.version !== undefined && { version: record.version }),
      ...(record.sdkRange !== undefined && { sdk: record.sdkRange }),
      builtIn: record.builtIn,
      capabilities: record.capabilities,
      ...(record.package?.parameters && { parameters: record.package.parameters }),
      inputs: Object.entries(manifest?.inputs ?? {}).map(([name, input]) => ({
        name,
        description: input.description,
        ...(input.accept !== undefined && { accept: input.accept }),
        multiple: input.multiple ?? false,
      })),
      loaded: record.state === 'loaded',
      state: record.state,
      ...(record.reason !== undefined && { reason: record.reason }),
      ...(record.reloadError !== undefined && { reloadError: record.reloadError }),
      overlayState: this.served.stateOf(record.id),
    };
  }
}
