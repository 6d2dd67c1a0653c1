import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../errors/error-codes.js';
import type { Logger } from '../logging/logger.js';

/** What a route handler receives: everything already validated against the route's schemas. */
export interface ApiRequest<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
  /** The request id, also sent back as `x-request-id`. */
  id: string;
  /** A logger bound to this request. */
  log: Logger;
}

/** A payload to wrap in the envelope `{data, meta: {timestamp, ...meta}}`. */
export interface EnvelopeResult {
  data: unknown;
  meta?: Record<string, unknown>;
}

/**
 * A response body already serialized as JSON, for payloads too large to
 * serialize on every request. The chunks are written in order.
 */
export class SerializedJson {
  constructor(readonly chunks: ReadonlyArray<Buffer | string>) {}
}

/**
 * A response the handler writes itself, for streams (server-sent events).
 * `write` takes over the response; the server does nothing more with it.
 */
export class StreamedResponse {
  constructor(readonly write: (response: import('node:http').ServerResponse) => void) {}
}

/**
 * A file to download (an export): its bytes in chunks, its media type, and
 * the file name a browser saves it under (`Content-Disposition`). Gzipped as
 * JSON answers are.
 */
export class DownloadedFile {
  constructor(
    readonly chunks: ReadonlyArray<Buffer | string>,
    readonly mediaType: string,
    /** Plain ASCII letters, digits, dots and dashes: it goes into the header as it is. */
    readonly filename: string,
  ) {}
}

/** What a handler returns. */
export type ApiResult = EnvelopeResult | SerializedJson | StreamedResponse | DownloadedFile;

/**
 * One route of the API, described once: its schemas validate requests and
 * make the OpenAPI document.
 */
export interface ApiRoute<P extends TObject = TObject, Q extends TObject = TObject, B extends TSchema = TSchema> {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path with `:name` parameters, starting with `/api`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: P;
  query?: Q;
  /** Schema of the JSON body; routes without one ignore any body. */
  body?: B;
  /** Whether a body must be sent (default: false; an empty body then reaches the handler as `undefined`). */
  bodyRequired?: boolean;
  /**
   * A tighter limit on the body than the server's `maxBodyBytes`, from what
   * the route can use (a layout, from the graph's size): a larger body is
   * answered 413 before it is read. Asked at each request.
   */
  bodyLimit?: () => { bytes: number; setBy: string };
  /** Schema of `data` in the envelope, or of the whole body when `envelope` is false. */
  response: TSchema;
  /** Schema of the extra `meta` fields. */
  responseMeta?: TObject;
  /** False for the routes the spec defines without an envelope. Default true. */
  envelope?: boolean;
  /** The media type of a success, for the OpenAPI document. Default `application/json`. */
  responseMediaType?: string;
  /** The error codes this route answers with, besides those every route can give. */
  errors: ErrorCode[];
  handle(request: ApiRequest<Static<P>, Static<Q>, B extends TSchema ? Static<B> | undefined : undefined>): Promise<ApiResult>;
}

/** Builds a route with its handler typed from its schemas. */
export function defineRoute<P extends TObject, Q extends TObject, B extends TSchema>(route: ApiRoute<P, Q, B>): ApiRoute {
  return route as unknown as ApiRoute;
}

/** A group of routes, usually one resource. Register implementations under the `ApiResource` token. */
export interface ApiResource {
  routes(): ApiRoute[];
}

/** Injection token under which every `ApiResource` is registered. */
export const ApiResource = Symbol('ApiResource');
