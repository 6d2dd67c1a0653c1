/**
 * Every error code the HTTP API can answer with, in one table: the status it
 * maps to and what it means. Handlers throw `StrataError` with one of these
 * codes; only the HTTP layer turns it into a response. CONTRIBUTING.md lists
 * the same table, and a test keeps the two in step.
 */
export const ERROR_CODES = {
  BAD_REQUEST: { status: 400, description: 'The request is malformed in a way no more specific code covers.' },
  DISK_FULL: {
    status: 507,
    description:
      'The disk that holds the data directory is full: the save, clear or apply changed nothing (on disk or in what the server serves). Free some space and retry.',
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    description: 'The request line and headers exceed what the server reads (16 KB): a URL that long is not one the API makes.',
  },
  HOST_NOT_ALLOWED: {
    status: 403,
    description:
      'The Host header names a host this server does not answer to (a DNS rebinding guard): loopback names, IP addresses, the bound host and `allowedHosts` are answered.',
  },
  INTERNAL_ERROR: { status: 500, description: 'An unexpected failure; details are in the server log, never in the response.' },
  INVALID_JSON: { status: 400, description: 'The request body is not valid JSON.' },
  INVALID_PARAMETER: { status: 400, description: 'A path, query or body field has the wrong type or a value out of range; the message names the field.' },
  LAYOUT_RUNNING: { status: 409, description: 'A layout computation is running already; poll its status, or cancel it first.' },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The path exists but does not accept this method.' },
  NOT_FOUND: { status: 404, description: 'The node, resource or route named in the request does not exist; the message names it.' },
  ORIGIN_NOT_ALLOWED: {
    status: 403,
    description:
      "A web page of another origin sent a request that changes state, or asked to (CORS preflight); only the server's own origin and `cors.origins` may.",
  },
  OVERLAY_BUSY: { status: 409, description: 'The plugin is applying already; wait for it (GET /api/overlays/{id}/status or the event stream) or remove it.' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The request body, before or after decompression, exceeds the configured limit.' },
  PLUGIN_FAILED: {
    status: 500,
    description:
      'The plugin failed while applying (it threw, ran out of time or memory, or gave an invalid result); the message says how, and the overlay status keeps it.',
  },
  PLUGIN_NOT_LOADED: {
    status: 409,
    description: 'The plugin is listed but not loaded (invalid manifest, incompatible SDK range, or a load error); the message gives the reason.',
  },
  PLUGIN_RELOADED: {
    status: 409,
    description:
      'The plugin was reloaded (its files changed, `strata serve --dev`) while it applied, and its new version refuses the request (the message names the field). Apply again with what it takes; an apply the new version takes is answered by it.',
  },
  REQUEST_TIMEOUT: { status: 408, description: 'The client did not send the whole request within `requestTimeoutMs`.' },
  RULES_INVALID: {
    status: 422,
    description:
      'The architecture rules (`rules` in strata.config.json, .dependency-cruiser.json, or the body of POST /api/graph/violations) have mistakes; the message names each, with its rule and field. Nothing was checked.',
  },
  TOO_MANY_CONNECTIONS: {
    status: 503,
    description:
      "The server holds as many connections as it accepts in all (`maxConnections`) or from the client's address (`maxConnectionsPerAddress`); the connection is closed. Retry after the `Retry-After` seconds.",
  },
  TOO_MANY_LARGE_REQUESTS: {
    status: 503,
    description:
      'Requests with a large body (over 1 MiB, compressed, or of undeclared length) are handled one at a time, and as many as the server queues are waiting already; nothing was read or changed. Retry after the `Retry-After` seconds.',
  },
  UNAUTHORIZED: { status: 401, description: 'The server requires a bearer token and the request carried none or a wrong one.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    description: 'The request body is not `application/json` in UTF-8, or its content encoding is not gzip, deflate, br or identity.',
  },
} as const satisfies Record<string, { status: number; description: string }>;

/** A machine-readable error code of the API. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The HTTP status for an error code. */
export function statusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}
