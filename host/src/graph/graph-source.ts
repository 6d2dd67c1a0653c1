import type { CodeGraph, GraphBuildInfo } from './code-graph.js';
import type { GraphDelta } from './graph-delta.js';

/** How far a graph build has come. */
export interface BuildProgress {
  phase: 'listing' | 'reading' | 'resolving';
  /** Items done in this phase. */
  done: number;
  /** Items in this phase, when known. */
  total?: number;
}

/** What a refresh produced: a change to apply, or (when too much changed) a whole new graph. */
export type GraphRefresh =
  | { kind: 'delta'; delta: GraphDelta; build: GraphBuildInfo; readFiles: number; reresolvedFiles: number }
  | { kind: 'rebuilt'; graph: CodeGraph };

/**
 * Produces the code graph of the served repository. The host depends only on
 * this interface; the indexer behind it can change without the API noticing.
 */
export interface GraphSource {
  /**
   * Builds the whole graph. `beforeListing` (the watch being set up) is
   * awaited before the repository's files are listed or read for a graph
   * made from them; a source that serves a graph it kept without listing
   * awaits it before it makes what later refreshes work on (so that
   * `stalePaths` then knows whether what it served still holds).
   */
  build(onProgress?: (progress: BuildProgress) => void, beforeListing?: () => Promise<void>): Promise<CodeGraph>;
  /**
   * Whether the last `build` served a graph it kept without listing the files
   * before `beforeListing` resolved: `stalePaths` tells once it has whether
   * what changed before the watch held is in it.
   */
  readonly servedKeptGraph?: boolean;
  /**
   * Brings the graph up to date after the given repository-relative paths
   * were added, changed or removed. Only valid after `build`.
   */
  refresh(changedPaths: readonly string[]): Promise<GraphRefresh>;
  /**
   * A check for changes nobody reported: the paths that differ between the
   * repository now and what the graph was built from (files and directories
   * listed now and not in the graph or the other way round, and files
   * changed since they were read). Pass them to `refresh`. Undefined before
   * the first build. Cheap once after a build made after `beforeListing`:
   * nothing can have been missed before the watch then.
   */
  stalePaths(): Promise<string[] | undefined>;
  /** Releases threads and caches. */
  close(): Promise<void>;
}

/** Injection token of the `GraphSource`. */
export const GraphSource = Symbol('GraphSource');
