import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRoute } from './api-route.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The request's path, without its query. */
export function pathOf(request: IncomingMessage): string {
  return (request.url ?? '/').split('?')[0]!;
}

/** Gives the request its id (the client's `X-Request-Id` when it is a sane one, else a new one) and says it in the answer. */
export function assignRequestId(request: IncomingMessage, response: ServerResponse): string {
  const header = request.headers['x-request-id'];
  const id = typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
  (request as IncomingMessage & { strataId?: string }).strataId = id;
  response.setHeader('x-request-id', id);
  return id;
}

/** The id `assignRequestId` gave the request. */
export function requestIdOf(request: IncomingMessage): string {
  return (request as IncomingMessage & { strataId?: string }).strataId ?? 'unknown';
}

/**
 * Why a raw path cannot be decoded (a `%` not followed by two hex digits, or
 * bytes that are not UTF-8), naming the route's parameter when the bad segment
 * is one; undefined when it decodes. The router would answer "no route".
 */
export function undecodablePathSegment(rawPath: string, routes: readonly ApiRoute[]): string | undefined {
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
