import { type TSchema, Type } from '@sinclair/typebox';
import { ERROR_CODES, type ErrorCode } from '../errors/error-codes.js';
import { type ApiRoute, defineRoute, SerializedJson } from './api-route.js';

/** Codes any route can answer with. */
const COMMON_ERRORS: ErrorCode[] = ['INTERNAL_ERROR'];
/** Codes every route with a body can answer with. */
const BODY_ERRORS: ErrorCode[] = ['INVALID_JSON', 'INVALID_PARAMETER', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];

const ErrorResponseSchema = Type.Object({
  error: Type.Object({
    code: Type.String({ enum: Object.keys(ERROR_CODES), description: 'Machine-readable code.' } as never),
    message: Type.String({ description: 'What went wrong, naming the item or field.' }),
  }),
});

/** What the document says of the server it describes. */
export interface OpenApiOptions {
  /** The server is configured with `authToken`: every operation needs the bearer token. */
  bearerRequired: boolean;
}

/** The error codes a route can answer with, all told. */
export function routeErrorCodes(route: ApiRoute, { bearerRequired }: OpenApiOptions): ErrorCode[] {
  const codes = new Set<ErrorCode>([...COMMON_ERRORS, ...route.errors]);
  if (bearerRequired) codes.add('UNAUTHORIZED');
  if (route.body) for (const code of BODY_ERRORS) codes.add(code);
  if (route.params || route.query) codes.add('INVALID_PARAMETER');
  return [...codes].sort();
}

/** The OpenAPI 3.1 document of the routes, made from the same schemas that validate requests. */
export function buildOpenApiDocument(routes: readonly ApiRoute[], version: string, options: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const parameters = [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')];
    const responses: Record<string, unknown> = {
      '200': {
        description: 'Success',
        content: { [route.responseMediaType ?? 'application/json']: { schema: plain(route.envelope === false ? route.response : envelopeSchema(route)) } },
      },
    };
    const byStatus = new Map<number, ErrorCode[]>();
    for (const code of routeErrorCodes(route, options)) {
      const status = ERROR_CODES[code].status;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
      responses[String(status)] = {
        description: codes.map((code) => `\`${code}\`: ${ERROR_CODES[code].description}`).join(' '),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
      };
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description && { description: route.description }),
      tags: route.tags,
      ...(parameters.length > 0 && { parameters }),
      ...(route.body && {
        requestBody: { required: route.bodyRequired ?? false, content: { 'application/json': { schema: plain(route.body) } } },
      }),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Strata code graph API',
      version,
      description:
        'The graph of a code base, its saved layout and its overlays. Successes are `{data, meta: {timestamp}}`; errors are `{error: {code, message}}`.',
    },
    // The document describes the server that serves it: with a token configured, every operation needs it
    // (so that generated clients send it); without one, none does.
    ...(options.bearerRequired && { security: [{ bearer: [] }] }),
    paths,
    components: {
      schemas: { ErrorResponse: plain(ErrorResponseSchema) },
      ...(options.bearerRequired && {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The token the server is configured with (`authToken`).' } },
      }),
    },
  };
}

function envelopeSchema(route: ApiRoute): TSchema {
  return Type.Object({
    data: route.response,
    meta: Type.Intersect([Type.Object({ timestamp: Type.String({ format: 'date-time' }) }), ...(route.responseMeta ? [route.responseMeta] : [])]),
  });
}

function parametersOf(schema: ApiRoute['params'], location: 'path' | 'query'): unknown[] {
  if (!schema) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    ...(property.description && { description: property.description }),
    schema: plain(property),
  }));
}

/** A schema as plain JSON (TypeBox marks its objects with symbols; `$id`s are dropped to keep each schema self-contained). */
function plain(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === '$id' ? undefined : value)));
}

/** `GET /api/openapi.json`: the document describing every route, this one included (made once, when first asked). */
export function openApiRoute(document: () => Record<string, unknown>): ApiRoute {
  let cached: string | undefined;
  return defineRoute({
    method: 'GET',
    path: '/api/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'The OpenAPI 3.1 document of this API',
    tags: ['meta'],
    envelope: false,
    response: Type.Object({ openapi: Type.String() }, { additionalProperties: true }),
    errors: [],
    handle: async () => new SerializedJson([(cached ??= JSON.stringify(document()))]),
  });
}
