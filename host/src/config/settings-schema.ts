import { type TObject, type TSchema, Type } from '@sinclair/typebox';
import { StringEnum } from '../validation/string-enum.js';

/** The levels of `logLevel`, least severe last. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The forms of `logFormat`: `auto` is text on a terminal, JSON elsewhere. */
export const LOG_FORMATS = ['auto', 'text', 'json'] as const;

/**
 * The settings a user can give in `strata.config.json`, `STRATA_*` variables
 * and flags. Every key is optional in each source; defaults fill the rest.
 * An unknown key is an error, so a typo never goes unnoticed.
 */
export const StrataSettingsSchema = Type.Object(
  {
    port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535, description: 'TCP port of the HTTP server (0 picks a free one).' })),
    host: Type.Optional(Type.String({ minLength: 1, description: 'Address the HTTP server binds to.' })),
    dataDir: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'Where Strata keeps its store; relative paths are taken from the repository root (from the working directory for flags and variables).',
      }),
    ),
    logLevel: Type.Optional(StringEnum(LOG_LEVELS, { description: 'Least severe level written to the log.' })),
    logFormat: Type.Optional(
      StringEnum(LOG_FORMATS, {
        description:
          'How log lines are written: text (a readable line each), json (one JSON object each, for log collectors), or auto: text when the log goes to a terminal, json otherwise.',
      }),
    ),
    maxBodyBytes: Type.Optional(
      Type.Integer({ minimum: 1024, maximum: 1024 * 1024 * 1024, description: 'Largest request body accepted, counted both as sent and after decompression.' }),
    ),
    compressResponses: Type.Optional(Type.Boolean({ description: 'Answer with gzip when the client accepts it (the graph is compressed once per change).' })),
    requestTimeoutMs: Type.Optional(Type.Integer({ minimum: 1000, maximum: 3_600_000, description: 'Time a client has to send a whole request.' })),
    headersTimeoutMs: Type.Optional(
      Type.Integer({
        minimum: 1000,
        maximum: 3_600_000,
        description: "Time a client has to send a request's line and headers (at most requestTimeoutMs); a connection that has not is answered 408 and closed.",
      }),
    ),
    maxConnections: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: "Connections held at once; one more is answered 503 and closed. Kept below the process's limit of open files.",
      }),
    ),
    maxConnectionsPerAddress: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: 'Connections held at once from one client address; one more from it is answered 503 and closed.',
      }),
    ),
    watch: Type.Optional(Type.Boolean({ description: 'Follow edits to the repository while serving.' })),
    authToken: Type.Optional(
      Type.String({ minLength: 16, description: 'When set, every request must carry `Authorization: Bearer <token>` (at least 16 characters).' }),
    ),
    dev: Type.Optional(
      Type.Boolean({ description: 'Plugin development: watch plugin folders, rebuild and reload a plugin when it changes (strata serve --dev).' }),
    ),
    allowedHosts: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 253, pattern: '^\\.?[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$' }), {
        maxItems: 100,
        description:
          'Host names the server answers to besides loopback names (localhost, *.localhost), IP addresses and the `host` it binds to: the name in the Host header a browser sends (others are refused, against DNS rebinding). A leading dot allows a domain and its subdomains (`.example.com`). Comma-separated in STRATA_ALLOWED_HOSTS.',
      }),
    ),
    cors: Type.Optional(
      Type.Object(
        {
          origins: Type.Optional(
            Type.Array(Type.String({ pattern: '^https?://[^/?#\\s]+$' }), {
              maxItems: 100,
              description:
                'Origins (`https://ui.example.com`) of web pages served elsewhere that may use the API: they get CORS headers and may send requests that change state, which pages of any other origin may not. Comma-separated in STRATA_CORS_ORIGINS.',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    plugins: Type.Optional(
      Type.Object(
        {
          directories: Type.Optional(
            Type.Array(Type.String({ minLength: 1 }), {
              maxItems: 100,
              description:
                'Folders holding plugins (a plugin folder, or a folder of plugin folders); relative paths as for dataDir. Comma-separated in STRATA_PLUGINS_DIRECTORIES.',
            }),
          ),
          builtIns: Type.Optional(
            Type.Boolean({
              description:
                'Load the built-in overlay plugins (git-activity, test-coverage, complexity, ownership, hotspots, change-coupling); off: only the plugins of directories.',
            }),
          ),
          memoryMb: Type.Optional(Type.Integer({ minimum: 8, maximum: 4096, description: 'Heap limit of each plugin sandbox, in MiB.' })),
          cpuTimeMs: Type.Optional(
            Type.Integer({ minimum: 10, maximum: 600_000, description: 'CPU time one apply may use, plus cpuTimeMsPerFile for each file of the graph.' }),
          ),
          cpuTimeMsPerFile: Type.Optional(
            Type.Number({
              minimum: 0,
              maximum: 1000,
              description: 'CPU time one apply may use for each file of the graph, on top of cpuTimeMs (0: cpuTimeMs alone, whatever the repository).',
            }),
          ),
          wallTimeMs: Type.Optional(
            Type.Integer({
              minimum: 10,
              maximum: 3_600_000,
              description:
                "Wall time one apply may take, plus wallTimeMsPerFile for each file of the graph, not counting the time it waits on the host's capabilities (git, file reads).",
            }),
          ),
          wallTimeMsPerFile: Type.Optional(
            Type.Number({
              minimum: 0,
              maximum: 1000,
              description: 'Wall time one apply may take for each file of the graph, on top of wallTimeMs (0: wallTimeMs alone, whatever the repository).',
            }),
          ),
          loadTimeMs: Type.Optional(Type.Integer({ minimum: 10, maximum: 600_000, description: 'Time loading a plugin may take.' })),
          maxCapabilityCalls: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000, description: 'Capability calls one apply may make.' })),
          gitCommitGraph: Type.Optional(
            Type.Boolean({
              description:
                "Write git's commit-graph with changed-path filters into the repository's .git before blaming (as git maintenance does): blame gets several times faster.",
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    layout: Type.Optional(
      Type.Object(
        {
          backend: Type.Optional(
            StringEnum(['auto', 'tensorflow-gpu', 'tensorflow', 'webgpu', 'wasm', 'cpu'] as const, {
              description:
                'TensorFlow.js backend of the layout: auto takes the first that loads of native TensorFlow on a GPU, native TensorFlow, WebGPU on a GPU, wasm, cpu (webgpu by name also takes a software adapter).',
            }),
          ),
          maxIterations: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Largest `iterations` a layout computation accepts.' })),
        },
        { additionalProperties: false },
      ),
    ),
    index: Type.Optional(
      Type.Object(
        {
          maxFileBytes: Type.Optional(Type.Integer({ minimum: 1024, description: 'Files larger than this are graph nodes but are not parsed for imports.' })),
          cache: Type.Optional(
            Type.Boolean({
              description:
                'Keep what was read of each file in the data directory, so that the next start reads only files changed since (by size, modification and change time, inode), and the last graph, which a start serves as it is when nothing it was made from changed.',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    rules: Type.Optional(
      Type.Object(
        {
          forbidden: Type.Optional(
            Type.Array(Type.Unknown(), {
              maxItems: 200,
              description:
                "Architecture rules in dependency-cruiser's `forbidden` shape (`name`, `severity`, `from`/`to` with `path`, `pathNot`, `circular`, `orphan`, `dependencyTypes`), checked by `strata check` and GET /api/graph/violations; each is checked there, with its mistakes named.",
            }),
          ),
        },
        // Only in strata.config.json: no variable or flag sets rules.
        { additionalProperties: false, fileOnly: true },
      ),
    ),
  },
  { additionalProperties: false },
);

/**
 * The leaves of a settings schema, with their dotted path, for naming
 * environment variables (`scripts/generate-settings-validator.ts` writes them
 * out with a validator for each).
 */
export function settingLeaves(schema: TObject = StrataSettingsSchema, prefix: string[] = []): Array<{ path: string[]; schema: TSchema }> {
  const leaves: Array<{ path: string[]; schema: TSchema }> = [];
  for (const [key, child] of Object.entries(schema.properties)) {
    const path = [...prefix, key];
    if ((child as { fileOnly?: boolean }).fileOnly) continue;
    if (child.type === 'object' && 'properties' in child) {
      leaves.push(...settingLeaves(child as TObject, path));
    } else {
      leaves.push({ path, schema: child });
    }
  }
  return leaves;
}
