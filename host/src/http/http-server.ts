import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import restify from 'restify';
import { inject, injectAll, injectable } from 'tsyringe';
import { ForegroundRequests } from '../concurrency/foreground-requests.js';
import { StrataConfig } from '../config/strata-config.js';
import { type ErrorCode, statusOf } from '../errors/error-codes.js';
import type { StrataError } from '../errors/strata-error.js';
import { HOST_VERSION } from '../host-version.js';
import { Logger } from '../logging/logger.js';
import { ApiResource, type ApiRoute } from './api-route.js';
import { BearerToken } from './bearer-token.js';
import { answerClientError } from './client-errors.js';
import { ConnectionGate } from './connection-gate.js';
import { errorBody, writeError } from './json-responses.js';
import { ListenError } from './listen-error.js';
import { buildOpenApiDocument, openApiRoute } from './openapi-document.js';
import { type OriginVerdict, RequestOriginPolicy } from './request-origin.js';
import { assignRequestId, pathOf, requestIdOf, undecodablePathSegment } from './request-paths.js';
import { ResponseCompressor } from './response-compression.js';
import { RouteRunner } from './route-runner.js';
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

/** Longest path parameter (a node id, decoded) the router matches. */
const MAX_PATH_PARAMETER_LENGTH = 8_192;

/**
 * The API on restify: what every request goes through before its route (the
 * Host and origin check, the token, a path that does not decode, the first
 * graph), the routes (run by `RouteRunner`), the web UI's files, routing
 * failures in the API's error shape, request ids and the access log,
 * connection limits, and a close that answers what is in flight.
 */
@injectable()
export class RestifyHttpServer implements HttpServer {
  readonly routes: readonly ApiRoute[];
  private readonly server: restify.Server;
  private readonly token: BearerToken | undefined;
  private ready: Promise<void> | undefined;
  /** Responses not yet finished. */
  private readonly inFlight = new Set<ServerResponse>();
  /** Set by `close`: every answer from then on ends its connection. */
  private closing = false;
  private readonly origins: RequestOriginPolicy;
  private readonly connections: ConnectionGate;
  private readonly runner: RouteRunner;

  constructor(
    @inject(StrataConfig) private readonly config: StrataConfig,
    @inject(Logger) private readonly logger: Logger,
    @injectAll(ApiResource) resources: ApiResource[],
    @inject(UiAssets) private readonly ui: UiAssets,
    @inject(ResponseCompressor) compressor: ResponseCompressor,
    @inject(ForegroundRequests) private readonly foreground: ForegroundRequests,
  ) {
    const apiRoutes = resources.flatMap((resource) => resource.routes());
    this.routes = [...apiRoutes, openApiRoute(() => buildOpenApiDocument(this.routes, HOST_VERSION, { bearerRequired: config.authToken !== undefined }))];
    this.token = config.authToken === undefined ? undefined : new BearerToken(config.authToken);
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
    this.runner = new RouteRunner(config, logger, compressor, foreground);
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
      if (this.token) {
        const credentials = this.token.check(request);
        if (credentials !== 'valid') {
          this.token.refuse(response, credentials);
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
        if (code === 'INTERNAL_ERROR') this.logger.error({ err: error, reqId: requestIdOf(request) }, 'routing failed');
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
    const handler = this.runner.handlerFor(route);
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

  /** A request arrives: its id, its line in the access log once answered, and its place among those in flight. */
  private begin(request: IncomingMessage, response: ServerResponse): void {
    const started = performance.now();
    const id = assignRequestId(request, response);
    this.track(response);
    this.foreground.track(response);
    response.once('finish', () => {
      this.logger.info(
        { reqId: id, method: request.method, url: request.url, status: response.statusCode, durationMs: Math.round((performance.now() - started) * 10) / 10 },
        'request',
      );
    });
  }
}
