import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Type } from '@sinclair/typebox';
import type { SchemaCheck } from '@strata/sandbox';
import restify from 'restify';
import { inject, injectAll, injectable } from 'tsyringe';
import { StrataConfig } from '../config/strata-config.js';
import { type ErrorCode, statusOf } from '../errors/error-codes.js';
import { StrataError } from '../errors/strata-error.js';
import { HOST_VERSION } from '../host-version.js';
import { Logger } from '../logging/logger.js';
import { checkInBatches } from '../validation/batched-check.js';
import { compileSchema } from '../validation/schema-validator.js';
import { ApiResource, type ApiRoute, defineRoute, SerializedJson, StreamedResponse } from './api-route.js';
import { ConnectionGate } from './connection-gate.js';
import { byteLengthOf, envelope, errorBody, writeError, writeJson } from './json-responses.js';
import { LargeRequestGate } from './large-request-gate.js';
import { ListenError } from './listen-error.js';
import { buildOpenApiDocument } from './openapi-document.js';
import { type BodyLimit, LARGE_BODY_BYTES, readJsonBody, refuseDeclaredTooLarge } from './request-body.js';
import { type OriginVerdict, RequestOriginPolicy } from './request-origin.js';
import { ResponseCompressor } from './response-compression.js';
import { UiAssets } from './ui-assets.js';

/** The HTTP server of the API. */
export interface HttpServer {
  /** Every route, in registration order (the OpenAPI document is made from them). */
  readonly routes: readonly ApiRoute[];
  /**
   * Starts listening on the configured host and port; resolves with the bound
   * address. Requests wait for `ready` (the first graph) before they are handled.
   */
  listen(ready?: Promise<void>): Promise<{ host: string; port: number; url: string }>;
  /** Stops accepting connections and resolves once every request in flight has been answered. */
  close(): Promise<void>;
}

/** Injection token of the `HttpServer`. */
export const HttpServer = Symbol('HttpServer');

const REQUEST_ID = /^[\w.:-]{1,128}$/;
/** Longest path parameter (a node id, decoded) the router matches. */
const MAX_PATH_PARAMETER_LENGTH = 8_192;

/** Checks every route's inputs once, up front. */
interface CompiledRoute {
  route: ApiRoute;
  params?: SchemaCheck<unknown>;
  query?: SchemaCheck<unknown>;
  body?: SchemaCheck<unknown>;
}

/** The API on restify: validation, envelope, error mapping, request ids, access log. */
@injectable()
export class RestifyHttpServer implements HttpServer {
  readonly routes: readonly ApiRoute[];
  private readonly server: restify.Server;
  private readonly expectedToken: Buffer | undefined;
  private ready: Promise<void> | undefined;
  /** Responses not yet finished. */
  private readonly inFlight = new Set<ServerResponse>();
  /** Set by `close`: every answer from then on ends its connection. */
  private closing = false;
  private readonly compressor = new ResponseCompressor();
  private readonly origins: RequestOriginPolicy;
  private readonly connections: ConnectionGate;
  private readonly largeRequests: LargeRequestGate;

  constructor(
    @inject(StrataConfig) private readonly config: StrataConfig,
    @inject(Logger) private readonly logger: Logger,
    @injectAll(ApiResource) resources: ApiResource[],
    @inject(UiAssets) private readonly ui: UiAssets,
  ) {
    const apiRoutes = resources.flatMap((resource) => resource.routes());
    this.routes = [...apiRoutes, openApiRoute(() => buildOpenApiDocument(this.routes, HOST_VERSION, { bearerRequired: config.authToken !== undefined }))];
    this.expectedToken = config.authToken === undefined ? undefined : digest(config.authToken);
    this.origins = new RequestOriginPolicy({ host: config.host, allowedHosts: config.allowedHosts, corsOrigins: config.cors.origins });
    this.server = restify.createServer({
      name: 'strata',
      log: logger.child({ component: 'restify' }) as never,
      handleUncaughtExceptions: false,
      ignoreTrailingSlash: true,
      // Path parameters are node ids (a path and a symbol's name): the router's default cuts them at 100 characters
      // and answers "no route" for a node that exists. Passed straight through to find-my-way.
      maxParamLength: MAX_PATH_PARAMETER_LENGTH,
    } as restify.ServerOptions);
    const nodeServer = this.server.server;
    nodeServer.requestTimeout = config.requestTimeoutMs;
    nodeServer.headersTimeout = config.headersTimeoutMs;
    // Node looks for connections past those times every 30 s by default: a half-sent request would hold its
    // connection up to 30 s longer than headersTimeoutMs. Read when the server starts listening.
    (nodeServer as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = Math.min(1_000, config.headersTimeoutMs);
    this.connections = new ConnectionGate({ maxConnections: config.maxConnections, maxConnectionsPerAddress: config.maxConnectionsPerAddress });
    this.largeRequests = new LargeRequestGate(config.requestTimeoutMs);
    this.connections.install(nodeServer);
    // What Node's HTTP parser refuses before any handler runs answers in the API's error shape too.
    nodeServer.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket));

    this.server.pre((request: restify.Request, response: restify.Response, next: restify.Next) => {
      this.begin(request, response);
      // Before anything else, the page and its assets included: the Host (DNS rebinding), and who may change state.
      let verdict: OriginVerdict;
      try {
        verdict = this.origins.check(request);
      } catch (error) {
        const { code, message } = error as StrataError;
        writeError(response, code, message);
        return next(false);
      }
      for (const [name, value] of Object.entries(verdict.headers)) response.setHeader(name, value);
      if (verdict.preflight) {
        response.writeHead(204, { 'content-length': '0' });
        response.end();
        return next(false);
      }
      // The web UI's page and assets hold no data: they load without a token (the page then asks for one) and
      // while the repository is still being indexed. Only exact asset paths qualify, never one the router rewrites.
      if ((request.method === 'GET' || request.method === 'HEAD') && UiAssets.isAssetPath(pathOf(request))) return next();
      // Every request, not only those whose raw path starts with /api: the router decodes and resolves the path
      // (`/%61pi/graph` and `/x/../api/graph` are routed to /api/graph), and this server serves nothing else.
      if (this.expectedToken) {
        const credentials = this.credentialsOf(request);
        if (credentials !== 'valid') {
          // RFC 6750: say which scheme is expected, and whether the token sent was wrong.
          response.setHeader('www-authenticate', credentials === 'none' ? 'Bearer realm="strata"' : 'Bearer realm="strata", error="invalid_token"');
          writeError(
            response,
            'UNAUTHORIZED',
            credentials === 'none'
              ? 'this server requires the header Authorization: Bearer <token>'
              : 'the bearer token in the Authorization header is not the one this server is configured with',
          );
          return next(false);
        }
      }
      const badEncoding = undecodablePathSegment(pathOf(request), this.routes);
      if (badEncoding) {
        writeError(response, 'INVALID_PARAMETER', badEncoding);
        return next(false);
      }
      if (this.ready) {
        return void this.ready.then(
          () => next(),
          () => {
            writeError(response, 'INTERNAL_ERROR', 'the repository could not be indexed; the server log has the details');
            next(false);
          },
        );
      }
      return next();
    });
    for (const route of this.routes) this.register(route);
    this.registerUi();
    // Routing failures (unknown path, wrong method) in the API's error shape.
    this.server.on('restifyError', (request: restify.Request, response: restify.Response, error: Error & { statusCode?: number }, done: () => void) => {
      if (!response.headersSent) {
        const code: ErrorCode =
          error.name === 'ResourceNotFoundError' ? 'NOT_FOUND' : error.name === 'MethodNotAllowedError' ? 'METHOD_NOT_ALLOWED' : 'INTERNAL_ERROR';
        const message =
          code === 'NOT_FOUND'
            ? `no route ${request.method} ${pathOf(request)}`
            : code === 'METHOD_NOT_ALLOWED'
              ? `${pathOf(request)} does not accept ${request.method}`
              : 'unexpected server error';
        if (code === 'INTERNAL_ERROR') this.logger.error({ err: error, reqId: requestId(request) }, 'routing failed');
        response.sendRaw(statusOf(code), errorBody(code, message), { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      }
      done();
    });
  }

  listen(ready?: Promise<void>): Promise<{ host: string; port: number; url: string }> {
    this.ready = ready?.then(() => {
      this.ready = undefined;
    });
    // A failed start answers the requests that waited; it is reported by whoever started the server.
    this.ready?.catch(() => undefined);
    return new Promise((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException): void => {
        if (error.code === 'EADDRINUSE')
          reject(new ListenError(`port ${this.config.port} is already in use on ${this.config.host}; choose another with --port`));
        else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
          reject(new ListenError(`cannot bind to host ${this.config.host}: no such local address`));
        else if (error.code === 'EACCES') reject(new ListenError(`no permission to listen on port ${this.config.port}`));
        else reject(error);
      };
      // restify re-emits the socket's errors on itself: listen there.
      this.server.once('error', onError);
      this.server.listen(this.config.port, this.config.host, () => {
        this.server.off('error', onError);
        const address = this.server.server.address() as AddressInfo;
        const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        resolve({ host: address.address, port: address.port, url: `http://${shownHost}:${address.port}` });
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server.server.listening) return resolve();
      this.closing = true;
      // A kept-alive connection that a client goes on using would keep the server open: each answer from now on
      // closes its connection (a request on its way in is still answered), and idle connections close now.
      for (const response of this.inFlight) if (!response.headersSent) response.setHeader('connection', 'close');
      this.logger.info({ inFlight: this.inFlight.size }, 'closing: answering the requests in flight');
      this.server.close(() => resolve());
      this.server.server.closeIdleConnections();
    });
  }

  private track(response: ServerResponse): void {
    if (this.closing) response.setHeader('connection', 'close');
    this.inFlight.add(response);
    response.once('close', () => {
      this.inFlight.delete(response);
      // An answer whose headers kept its connection alive before closing began leaves it idle now.
      if (this.closing) this.server.server.closeIdleConnections();
    });
  }

  private register(route: ApiRoute): void {
    const compiled: CompiledRoute = {
      route,
      params: route.params && compileSchema(route.params),
      query: route.query && compileSchema(route.query),
      body: route.body && compileSchema(route.body),
    };
    const handler = async (request: restify.Request, response: restify.Response): Promise<void> => {
      await this.handle(compiled, request, response);
    };
    const method = route.method === 'DELETE' ? 'del' : (route.method.toLowerCase() as 'get' | 'post');
    this.server[method]({ path: route.path, name: route.operationId }, handler);
    // HEAD is GET without the body (RFC 9110): Node's server drops what the handler writes.
    if (route.method === 'GET') this.server.head({ path: route.path, name: `${route.operationId}Head` }, handler);
  }

  /** `GET /` and `GET /assets/<file>`: the web UI, outside the API (no envelope, not in the OpenAPI document). */
  private registerUi(): void {
    const serve = (request: restify.Request, response: restify.Response, next: restify.Next): void => {
      const urlPath = pathOf(request);
      if (this.ui.serve(urlPath, request, response)) return next(false);
      writeError(response, 'NOT_FOUND', this.ui.available ? `no file ${urlPath}` : 'the web UI is not built: run `npm run build` in the Strata checkout');
      return next(false);
    };
    for (const urlPath of ['/', '/assets/:file']) {
      this.server.get({ path: urlPath, name: urlPath === '/' ? 'uiPage' : 'uiAsset' }, serve);
      this.server.head({ path: urlPath, name: urlPath === '/' ? 'uiPageHead' : 'uiAssetHead' }, serve);
    }
  }

  private async handle({ route, params, query, body }: CompiledRoute, request: restify.Request, response: restify.Response): Promise<void> {
    const id = requestId(request);
    const log = this.logger.child({ reqId: id });
    let endTurn: (() => void) | undefined;
    try {
      const validParams = (params ? validate(params, request.params ?? {}, 'path') : {}) as Record<string, unknown>;
      const validQuery = (query ? validate(query, Object.fromEntries(new URL(request.url ?? '/', 'http://host').searchParams), 'query') : {}) as Record<
        string,
        unknown
      >;
      let validBody: unknown;
      if (body) {
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
          validBody = checked.value;
        } else {
          validBody = validate(body, parsed.value, 'body');
        }
      }
      const result = await route.handle({ params: validParams, query: validQuery, body: validBody, id, log });
      if (result instanceof StreamedResponse) {
        result.write(response);
        // A stream's headers are all HEAD asks for; left open, the stream would never end.
        if (request.method === 'HEAD') response.end();
      } else if (result instanceof SerializedJson) await this.answer(request, response, result.chunks);
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
    const server = { bytes: this.config.maxBodyBytes, setBy: 'setting maxBodyBytes' };
    const own = route.bodyLimit?.();
    return own && own.bytes < server.bytes ? own : server;
  }

  /** A 200 JSON answer, gzipped when the client takes it. */
  private async answer(request: IncomingMessage, response: ServerResponse, chunks: ReadonlyArray<Buffer | string>): Promise<void> {
    if (!this.config.compressResponses) return writeJson(response, 200, chunks);
    if (!this.compressor.wants(request, byteLengthOf(chunks))) return writeJson(response, 200, chunks, { vary: 'Accept-Encoding' });
    const gzipped = await this.compressor.gzip(chunks);
    if (!response.destroyed) writeJson(response, 200, gzipped, { vary: 'Accept-Encoding', 'content-encoding': 'gzip' });
  }

  private begin(request: IncomingMessage, response: ServerResponse): void {
    const started = performance.now();
    const header = request.headers['x-request-id'];
    const id = typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
    (request as IncomingMessage & { strataId?: string }).strataId = id;
    response.setHeader('x-request-id', id);
    this.track(response);
    response.once('finish', () => {
      this.logger.info(
        { reqId: id, method: request.method, url: request.url, status: response.statusCode, durationMs: Math.round((performance.now() - started) * 10) / 10 },
        'request',
      );
    });
  }

  private credentialsOf(request: IncomingMessage): 'none' | 'valid' | 'invalid' {
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') return 'none';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    return match !== null && timingSafeEqual(digest(match[1]!), this.expectedToken!) ? 'valid' : 'invalid';
  }
}

/**
 * Answers a request that Node's HTTP parser refused (a bad Content-Length, a
 * byte that may not be in a URL, an unknown method, headers past 16 KB, a
 * request not sent in time) with `{error: {code, message}}` instead of Node's
 * empty answer, and closes the connection.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [code, message]: [ErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ['HEADERS_TOO_LARGE', 'the request line and headers are over 16 KB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['REQUEST_TIMEOUT', 'the request was not sent in time']
        : ['BAD_REQUEST', `the request is not valid HTTP: ${PARSER_ERRORS[error.code ?? ''] ?? (error.message || 'it could not be parsed').slice(0, 200)}`];
  const body = errorBody(code, message);
  const status = statusOf(code);
  // A client that never closes its end would otherwise hold the connection (and a file descriptor) on.
  (socket as Socket).setTimeout?.(CLOSED_CONNECTION_LINGER_MS, () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** How long a connection answered with an error may stay open for its client to read the answer. */
const CLOSED_CONNECTION_LINGER_MS = 2_000;

/** What Node's parser errors mean, in the words of the API's messages. */
const PARSER_ERRORS: Record<string, string> = {
  HPE_INVALID_METHOD: 'unknown method',
  HPE_INVALID_URL: 'the URL has a character that may not be in one (non-ASCII bytes must be percent-encoded)',
  HPE_INVALID_CONTENT_LENGTH: 'Content-Length is not a number',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length with Transfer-Encoding',
  HPE_INVALID_HEADER_TOKEN: 'a header name has a character that may not be in one',
  HPE_INVALID_TRANSFER_ENCODING: 'Transfer-Encoding is not one the server reads',
  HPE_INVALID_CHUNK_SIZE: 'a chunk size is not a hex number',
  HPE_INVALID_VERSION: 'the HTTP version is not 1.0 or 1.1',
};

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

function requestId(request: IncomingMessage): string {
  return (request as IncomingMessage & { strataId?: string }).strataId ?? 'unknown';
}

function pathOf(request: IncomingMessage): string {
  return (request.url ?? '/').split('?')[0]!;
}

/**
 * Why a raw path cannot be decoded (a `%` not followed by two hex digits, or
 * bytes that are not UTF-8), naming the route's parameter when the bad segment
 * is one; undefined when it decodes. The router would answer "no route".
 */
function undecodablePathSegment(rawPath: string, routes: readonly ApiRoute[]): string | undefined {
  if (!rawPath.includes('%')) return undefined;
  const segments = rawPath.split('/').filter((segment) => segment !== '');
  const index = segments.findIndex((segment) => decodedOrUndefined(segment) === undefined);
  if (index < 0) return undefined;
  const shown = JSON.stringify(segments[index]!.slice(0, 200));
  const why = 'is not valid percent-encoding (each % takes two hex digits, and the bytes must be UTF-8)';
  for (const route of routes) {
    const template = route.path.split('/').filter((segment) => segment !== '');
    if (template.length !== segments.length || !template[index]!.startsWith(':')) continue;
    const matches = template.every((part, i) => i === index || part.startsWith(':') || part === decodedOrUndefined(segments[i]!));
    if (matches) return `path parameter ${template[index]!.slice(1)}: ${shown} ${why}`;
  }
  return `path: ${shown} ${why}`;
}

function decodedOrUndefined(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Tokens are compared as digests so that the comparison takes the same time whatever their lengths. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** `GET /api/openapi.json`: the document describing every route, this one included. */
function openApiRoute(document: () => Record<string, unknown>): ApiRoute {
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
