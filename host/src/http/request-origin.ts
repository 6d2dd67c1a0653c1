import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { parse as parseContentType } from 'content-type';
import { StrataError } from '../errors/strata-error.js';

/** Methods that change state: a page of another origin may not send them. */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** What a CORS preflight is told a configured origin may send. */
const CORS_METHODS = 'GET, HEAD, POST, DELETE';
const CORS_HEADERS = 'Authorization, Content-Type, Content-Encoding, X-Request-Id, Last-Event-Id';
/** Seconds a browser may keep a preflight's answer. */
const CORS_MAX_AGE = 600;

/** What the checks decided about a request that may go on. */
export interface OriginVerdict {
  /** Headers to add to the answer (CORS). */
  headers: Record<string, string>;
  /** True for a CORS preflight: answer 204 with `headers` and nothing else. */
  preflight: boolean;
}

/**
 * Who may reach the API from a browser. With no token (the default on a
 * developer's machine) any web page the developer visits could otherwise
 * send it requests. As dev servers do since the same class of bugs (Vite,
 * webpack-dev-server):
 *
 * - the Host header must name a loopback name (`localhost`, `*.localhost`),
 *   an IP address, the host the server binds to, or one of `allowedHosts`:
 *   a page on a domain that an attacker rebinds to 127.0.0.1 sends its own
 *   name, and is refused (DNS rebinding);
 * - a request that changes state and carries an `Origin` (every browser sends
 *   one on POST and DELETE) must come from the server's own origin or one of
 *   `cors.origins`;
 * - from a browser (an `Origin` or `Sec-Fetch-Site` header), such a request
 *   must say `Content-Type: application/json`, even with an empty body: a
 *   page can send that to another origin only after a CORS preflight, which
 *   only `cors.origins` pass. Clients that are not browsers (curl, the CLI)
 *   may send an empty body with no type.
 *
 * Origins in `cors.origins` get CORS headers, and their preflights an answer.
 */
export class RequestOriginPolicy {
  private readonly allowedNames: ReadonlySet<string>;
  private readonly allowedDomains: readonly string[];
  private readonly corsOrigins: ReadonlySet<string>;

  constructor(options: { host: string; allowedHosts: readonly string[]; corsOrigins: readonly string[] }) {
    const names = options.allowedHosts.filter((name) => !name.startsWith('.'));
    const bound = options.host.toLowerCase();
    // Binding to every interface names no host.
    if (isIP(bound) === 0 && bound !== '') names.push(bound);
    this.allowedNames = new Set(names.map(withoutTrailingDot));
    this.allowedDomains = options.allowedHosts.filter((name) => name.startsWith('.')).map((name) => withoutTrailingDot(name.slice(1)));
    this.corsOrigins = new Set(options.corsOrigins);
  }

  /** Throws `HOST_NOT_ALLOWED` or `ORIGIN_NOT_ALLOWED` or `UNSUPPORTED_MEDIA_TYPE`; else says what to add to the answer. */
  check(request: IncomingMessage): OriginVerdict {
    const hostHeader = request.headers.host;
    this.checkHost(hostHeader);
    const method = (request.method ?? 'GET').toUpperCase();
    const origin = singleHeader(request.headers.origin);
    const headers: Record<string, string> = {};
    const configured = origin !== undefined && this.corsOrigins.has(origin.toLowerCase());
    if (this.corsOrigins.size > 0) headers.vary = 'Origin';
    if (configured) {
      headers['access-control-allow-origin'] = origin;
      headers['access-control-expose-headers'] = 'X-Request-Id, WWW-Authenticate';
    }
    const sameOrigin = origin !== undefined && hostHeader !== undefined && originHost(origin) === hostHeader.toLowerCase();
    if (method === 'OPTIONS' && origin !== undefined && request.headers['access-control-request-method'] !== undefined) {
      if (!configured && !sameOrigin) throw notAllowed(origin);
      return {
        preflight: true,
        headers: {
          ...headers,
          'access-control-allow-methods': CORS_METHODS,
          'access-control-allow-headers': CORS_HEADERS,
          'access-control-max-age': String(CORS_MAX_AGE),
        },
      };
    }
    if (STATE_CHANGING.has(method)) {
      if (origin !== undefined && !configured && !sameOrigin) throw notAllowed(origin);
      const fromBrowser = origin !== undefined || request.headers['sec-fetch-site'] !== undefined;
      if (fromBrowser && !isJson(singleHeader(request.headers['content-type']))) {
        throw new StrataError(
          'UNSUPPORTED_MEDIA_TYPE',
          `${method} from a web page needs the header Content-Type: application/json, even with an empty body (a page of another site cannot send it without this server's consent)`,
        );
      }
    }
    return { headers, preflight: false };
  }

  private checkHost(hostHeader: string | undefined): void {
    // HTTP/1.0 clients may send none; browsers always do.
    if (hostHeader === undefined) return;
    const name = hostnameOf(hostHeader);
    if (name === undefined) throw new StrataError('HOST_NOT_ALLOWED', `the Host header ${JSON.stringify(hostHeader.slice(0, 200))} is not a host name`);
    if (isIP(name.replace(/^\[|\]$/g, '')) !== 0) return;
    if (name === 'localhost' || name.endsWith('.localhost')) return;
    if (this.allowedNames.has(name)) return;
    if (this.allowedDomains.some((domain) => name === domain || name.endsWith(`.${domain}`))) return;
    throw new StrataError(
      'HOST_NOT_ALLOWED',
      `host "${name.slice(0, 200)}" is not allowed: this server answers localhost, IP addresses and the host names in allowedHosts (set allowedHosts, or STRATA_ALLOWED_HOSTS, to serve this name)`,
    );
  }
}

function notAllowed(origin: string): StrataError {
  return new StrataError(
    'ORIGIN_NOT_ALLOWED',
    `origin ${JSON.stringify(origin.slice(0, 200))} may not change anything here: only this server's own pages may, and the origins in cors.origins (STRATA_CORS_ORIGINS)`,
  );
}

/** The host name of a Host header (lower case, IPv6 in brackets), or undefined when it is not one. */
function hostnameOf(hostHeader: string): string | undefined {
  // Only what a host and port are made of: no user info, path or query for the URL parser to take apart.
  if (!/^[\w.:[\]-]+$/.test(hostHeader)) return undefined;
  try {
    return withoutTrailingDot(new URL(`http://${hostHeader}`).hostname);
  } catch {
    return undefined;
  }
}

/** `host[:port]` of an Origin header, lower case; undefined for `null` and what is not a URL. */
function originHost(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

function withoutTrailingDot(name: string): string {
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function isJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  return parseContentType(contentType).type === 'application/json';
}
