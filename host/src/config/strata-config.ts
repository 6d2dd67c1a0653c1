import type { Static } from '@sinclair/typebox';
import type { LOG_FORMATS, LOG_LEVELS, StrataSettingsSchema } from './settings-schema.js';

/** Settings as a source gives them: every key optional. */
export type StrataSettings = Static<typeof StrataSettingsSchema>;

/** The defaults every source is laid over. */
export const DEFAULT_SETTINGS = {
  port: 5050,
  host: '127.0.0.1',
  dataDir: '.strata',
  logLevel: 'info',
  logFormat: 'auto',
  maxBodyBytes: 16 * 1024 * 1024,
  requestTimeoutMs: 60_000,
  headersTimeoutMs: 10_000,
  maxConnections: 2_000,
  maxConnectionsPerAddress: 1_000,
  compressResponses: true,
  watch: true,
  dev: false,
  allowedHosts: [] as string[],
  cors: {
    origins: [] as string[],
  },
  plugins: {
    directories: [] as string[],
    builtIns: true,
    memoryMb: 128,
    cpuTimeMs: 10_000,
    cpuTimeMsPerFile: 2,
    wallTimeMs: 60_000,
    wallTimeMsPerFile: 4,
    loadTimeMs: 5_000,
    maxCapabilityCalls: 1_000_000,
    gitCommitGraph: true,
  },
  layout: {
    backend: 'auto',
    maxIterations: 10_000,
  },
  index: {
    maxFileBytes: 2 * 1024 * 1024,
    cache: true,
  },
} as const;

/** The configuration the host runs with: every setting decided, paths absolute. */
export interface StrataConfig {
  /** Absolute path of the repository being served. */
  readonly repositoryRoot: string;
  /** Absolute path of the data directory. */
  readonly dataDir: string;
  readonly port: number;
  readonly host: string;
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** Text or JSON log lines; `auto`: text when the log goes to a terminal. */
  readonly logFormat: (typeof LOG_FORMATS)[number];
  readonly maxBodyBytes: number;
  readonly requestTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly maxConnections: number;
  readonly maxConnectionsPerAddress: number;
  readonly compressResponses: boolean;
  readonly authToken: string | undefined;
  readonly watch: boolean;
  readonly dev: boolean;
  /** Host names answered besides loopback names, IP addresses and `host` (a leading dot: a domain and its subdomains). */
  readonly allowedHosts: readonly string[];
  /** Origins of pages elsewhere that may use the API (CORS), lower-cased. */
  readonly cors: { readonly origins: readonly string[] };
  readonly plugins: {
    /** Absolute paths of the configured plugin folders. */
    readonly directories: readonly string[];
    /** Whether the built-in overlay plugins are loaded. */
    readonly builtIns: boolean;
    readonly memoryMb: number;
    /** CPU time of an apply: cpuTimeMs + cpuTimeMsPerFile for each file of the graph. */
    readonly cpuTimeMs: number;
    readonly cpuTimeMsPerFile: number;
    /** Wall time of an apply outside capability calls: wallTimeMs + wallTimeMsPerFile for each file of the graph. */
    readonly wallTimeMs: number;
    readonly wallTimeMsPerFile: number;
    readonly loadTimeMs: number;
    readonly maxCapabilityCalls: number;
    readonly gitCommitGraph: boolean;
  };
  readonly layout: { readonly backend: 'auto' | 'tensorflow-gpu' | 'tensorflow' | 'webgpu' | 'wasm' | 'cpu'; readonly maxIterations: number };
  readonly index: { readonly maxFileBytes: number; readonly cache: boolean };
  /** The architecture rules of the configuration file (`rules`), unchecked, and that file's path; undefined when it has none. */
  readonly rules: { readonly value: unknown; readonly source: string } | undefined;
}

/** Injection token of the `StrataConfig`. */
export const StrataConfig = Symbol('StrataConfig');
