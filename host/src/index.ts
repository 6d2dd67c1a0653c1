/**
 * `@strata/host` as a library: start a Strata host in a process of your own
 * (the CLI and the tests do exactly this).
 */
import 'reflect-metadata';
import type { DestinationStream } from 'pino';
import type { GraphAnalysis } from './analysis/graph-analysis.js';
import type { ServingAddress } from './app/strata-app.js';
import { type ConfigSources, loadConfig } from './config/config-loader.js';
import type { StrataConfig } from './config/strata-config.js';
import type { CodeGraph } from './graph/code-graph.js';
import type { BuildProgress } from './graph/graph-source.js';
import { FileFactsCache } from './indexer/file-facts-cache.js';
import { RepositoryIndexer } from './indexer/repository-indexer.js';
import { quietLogger } from './logging/quiet-logger.js';

export type { CyclesAnswer, GraphAnalysis, NodeMetrics, ReachAnswer, ReachedNode } from './analysis/graph-analysis.js';
export type { ImportCycle } from './analysis/import-cycles.js';
export type { ServingAddress } from './app/strata-app.js';
export { ConfigError, type ConfigSources, envVariableName, loadConfig } from './config/config-loader.js';
export type { StrataConfig, StrataSettings } from './config/strata-config.js';
export { ERROR_CODES, type ErrorCode } from './errors/error-codes.js';
export type { CodeGraph, GraphBuildInfo, SkippedEntry } from './graph/code-graph.js';
export type { BuildProgress } from './graph/graph-source.js';
export { HOST_VERSION } from './host-version.js';
export { ListenError } from './http/listen-error.js';
export { DataDirectoryError } from './storage/data-directory-error.js';
export { DataDirectoryLockedError } from './storage/data-directory-locked-error.js';

/** Options of `startStrata`. */
export interface StartOptions extends ConfigSources {
  /** Where logs go (default: standard error); JSON lines there unless `logFormat` is `text`. */
  logDestination?: DestinationStream;
  /** Called as indexing advances. */
  onProgress?: (progress: BuildProgress) => void;
}

/** A running host. */
export interface RunningStrata extends ServingAddress {
  config: StrataConfig;
  /** Stops serving and writes the store out. */
  stop(): Promise<void>;
}

/**
 * Indexes a repository once and returns its graph, without serving it (the
 * benchmarks and future CLI commands use this). With `index.cache` on (the
 * default) it reads the facts cache of the data directory and writes it
 * again before returning (`.strata/file-facts.json`, with a `.gitignore`);
 * a cache it cannot write is left alone, silently.
 */
export async function indexRepository(options: ConfigSources & { onProgress?: (progress: BuildProgress) => void }): Promise<CodeGraph> {
  const config = loadConfig(options);
  // No container and no pino here: indexing alone needs none of the server, and loading it costs half a second.
  const source = new RepositoryIndexer(config, quietLogger(), new FileFactsCache(config));
  try {
    return await source.build(options.onProgress);
  } finally {
    await source.close();
  }
}

/**
 * Indexes a repository once and returns the questions its import graph
 * answers (cycles, dependents, paths, metrics), without serving it: what
 * `strata cycles`, `strata impact` and `strata path` do when no server answers.
 */
export async function analyzeRepository(options: ConfigSources & { onProgress?: (progress: BuildProgress) => void }): Promise<GraphAnalysis> {
  const graph = await indexRepository(options);
  const [{ InMemoryGraphStore }, { GraphAnalysis }] = await Promise.all([import('./graph/graph-store.js'), import('./analysis/graph-analysis.js')]);
  const store = new InMemoryGraphStore();
  store.replace(graph);
  return new GraphAnalysis(store);
}

/**
 * Runs overlay operations on a repository without a server: loads its
 * plugins and stored overlays, calls `work` (which indexes the repository
 * with `session.buildGraph()` if it needs the graph), and writes the store
 * out (what `strata overlay` does when no server answers).
 */
export async function withOfflineOverlays<T>(
  options: ConfigSources & { logDestination?: DestinationStream; onProgress?: (progress: BuildProgress) => void; onlyPlugin?: string },
  work: (session: import('./app/offline-overlays.js').OfflineSession) => Promise<T>,
): Promise<T> {
  const config = loadConfig(options);
  // Plugins that cannot load are shown by `strata overlay list`; only errors are logged here.
  const [{ createContainer }, { OfflineOverlays }, { createLogger }] = await Promise.all([
    import('./composition-root.js'),
    import('./app/offline-overlays.js'),
    import('./logging/create-logger.js'),
  ]);
  const logger = createLogger('error', options.logDestination);
  return createContainer(config, logger).resolve(OfflineOverlays).run(work, options.onProgress, options.onlyPlugin);
}

/** Loads the configuration, indexes the repository and serves it. */
export async function startStrata(options: StartOptions): Promise<RunningStrata> {
  const config = loadConfig(options);
  const [{ createContainer }, { StrataApp }, { createLogger }] = await Promise.all([
    import('./composition-root.js'),
    import('./app/strata-app.js'),
    import('./logging/create-logger.js'),
  ]);
  const logger = createLogger(config.logLevel, options.logDestination, config.logFormat);
  const app = createContainer(config, logger).resolve(StrataApp);
  const address = await app.start(options.onProgress);
  return { ...address, config, stop: () => app.stop() };
}
