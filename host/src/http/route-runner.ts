import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SchemaCheck } from '@strata/sandbox';
import type restify from 'restify';
import type { ForegroundRequests } from '../concurrency/foreground-requests.js';
import { StrataError } from '../errors/strata-error.js';
import type { Logger } from '../logging/logger.js';
import { checkInBatches } from '../validation/batched-check.js';
import { compileSchema } from '../validation/schema-validator.js';
import { type ApiRoute, DownloadedFile, SerializedJson, StreamedResponse } from './api-route.js';
import { byteLengthOf, envelope, writeError, writeJson } from './json-responses.js';
import { LargeRequestGate } from './large-request-gate.js';
import { type BodyLimit, LARGE_BODY_BYTES, readJsonBody, refuseDeclaredTooLarge } from './request-body.js';
import { requestIdOf } from './request-paths.js';
import type { ResponseCompressor } from './response-compression.js';

/** The settings a route's handling reads. */
export interface RouteRunnerSettings {
  /** The largest body any route reads (`maxBodyBytes`); a route may set a tighter one. */
  maxBodyBytes: number;
  /** Whether answers are gzipped for clients that take it. */
  compressResponses: boolean;
  /** The time a client has to send its request: large ones that would wait past half of it are refused at once. */
  requestTimeoutMs: number;
}

/**
 * Runs an API route for a request, from what the router matched to the
 * answer: the path, query and body checked against the route's schemas
 * (compiled once), a large body read in its turn, the handler called, its
 * result enveloped and gzipped, and whatever it throws answered in the API's
 * error shape.
 */
export class RouteRunner {
  private readonly largeRequests: LargeRequestGate;

  constructor(
    private readonly settings: RouteRunnerSettings,
    private readonly logger: Logger,
    private readonly compressor: ResponseCompressor,
    private readonly foreground: ForegroundRequests,
  ) {
    this.largeRequests = new LargeRequestGate(settings.requestTimeoutMs);
  }

  /** The request handler of `route`. */
  handlerFor(route: ApiRoute): (request: restify.Request, response: restify.Response) => Promise<void> {
    const checks = {
      params: route.params && compileSchema(route.params),
      query: route.query && compileSchema(route.query),
      body: route.body && compileSchema(route.body),
    };
    // An async function, as restify tells a handler without a `next` by its kind.
    return async (request, response) => {
      await this.run(route, checks, request, response);
    };
  }

  private async run(
    route: ApiRoute,
    checks: { params?: SchemaCheck<unknown>; query?: SchemaCheck<unknown>; body?: SchemaCheck<unknown> },
    request: restify.Request,
    response: restify.Response,
  ): Promise<void> {
    const id = requestIdOf(request);
    const log = this.logger.child({ reqId: id });
    let endTurn: (() => void) | undefined;
    try {
      const params = (checks.params ? validate(checks.params, request.params ?? {}, 'path') : {}) as Record<string, unknown>;
      const query = (
        checks.query ? validate(checks.query, Object.fromEntries(new URL(request.url ?? '/', 'http://host').searchParams), 'query') : {}
      ) as Record<string, unknown>;
      let body: unknown;
      if (checks.body) {
        const limit = this.bodyLimitOf(route);
        // A body declared too large is refused before it waits for a turn.
        refuseDeclaredTooLarge(request, limit);
        if (LargeRequestGate.isLarge(request)) endTurn = await this.largeRequests.enter(response, declaredLength(request) ?? limit.bytes);
        const parsed = await readJsonBody(request, limit);
        if (parsed === undefined) {
          if (route.bodyRequired) throw new StrataError('INVALID_PARAMETER', 'body: is required (a JSON object)');
        } else if (parsed.bytes > LARGE_BODY_BYTES) {
          const checked = await checkInBatches(route.body!, parsed.value, 'body');
          if (!checked.ok) throw new StrataError('INVALID_PARAMETER', checked.message);
          body = checked.value;
        } else {
          body = validate(checks.body, parsed.value, 'body');
        }
      }
      const result = await route.handle({ params, query, body, id, log });
      if (result instanceof StreamedResponse) {
        result.write(response);
        // Open for as long as its client listens: background work need not wait for it.
        this.foreground.settled(response);
        // A stream's headers are all HEAD asks for; left open, the stream would never end.
        if (request.method === 'HEAD') response.end();
      } else if (result instanceof SerializedJson) await this.answer(request, response, result.chunks);
      else if (result instanceof DownloadedFile)
        await this.answer(request, response, result.chunks, {
          'content-type': result.mediaType,
          'content-disposition': `attachment; filename="${result.filename}"`,
        });
      else if (route.envelope === false) await this.answer(request, response, [JSON.stringify(result.data)]);
      else await this.answer(request, response, [envelope(result.data, result.meta)]);
    } catch (error) {
      if (response.headersSent) {
        log.error({ err: error }, 'failed after the response began');
        response.destroy();
      } else if (error instanceof StrataError) {
        if (error.code === 'PAYLOAD_TOO_LARGE') response.setHeader('connection', 'close');
        if (error.retryAfterSeconds !== undefined) response.setHeader('retry-after', String(error.retryAfterSeconds));
        // Its body is read and dropped, so that the client, still sending it, reads the answer (closed, it saw EPIPE).
        if (error.code === 'TOO_MANY_LARGE_REQUESTS') request.resume();
        writeError(response, error.code, error.message);
      } else {
        log.error({ err: error, route: route.operationId }, 'request failed unexpectedly');
        writeError(response, 'INTERNAL_ERROR', `unexpected server error; the server log has the details under request id ${id}`);
      }
    } finally {
      endTurn?.();
    }
  }

  /** The limit on a route's body: the server's `maxBodyBytes`, or the route's own when tighter. */
  private bodyLimitOf(route: ApiRoute): BodyLimit {
    const server = { bytes: this.settings.maxBodyBytes, setBy: 'setting maxBodyBytes' };
    const own = route.bodyLimit?.();
    return own && own.bytes < server.bytes ? own : server;
  }

  /** A 200 answer (JSON unless `headers` say otherwise), gzipped when the client takes it. */
  private async answer(
    request: IncomingMessage,
    response: ServerResponse,
    chunks: ReadonlyArray<Buffer | string>,
    headers: Record<string, string> = {},
  ): Promise<void> {
    if (!this.settings.compressResponses) return writeJson(response, 200, chunks, headers);
    if (!this.compressor.wants(request, byteLengthOf(chunks))) return writeJson(response, 200, chunks, { ...headers, vary: 'Accept-Encoding' });
    const gzipped = await this.compressor.gzip(chunks);
    if (!response.destroyed) writeJson(response, 200, gzipped, { ...headers, vary: 'Accept-Encoding', 'content-encoding': 'gzip' });
  }
}

function validate(check: SchemaCheck<unknown>, value: unknown, rootName: string): unknown {
  const result = check(value, rootName);
  if (!result.ok) throw new StrataError('INVALID_PARAMETER', result.message);
  return result.value;
}

/** The body's length as its Content-Length header declares it, if it does. */
function declaredLength(request: IncomingMessage): number | undefined {
  const declared = request.headers['content-length'];
  return declared === undefined ? undefined : Number(declared);
}
