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
  /** Builds the whole graph. */
  build(onProgress?: (progress: BuildProgress) => void): Promise<CodeGraph>;
  /**
   * Brings the graph up to date after the given repository-relative paths
   * were added, changed or removed. Only valid after `build`.
   */
  refresh(changedPaths: readonly string[]): Promise<GraphRefresh>;
  /** Releases threads and caches. */
  close(): Promise<void>;
}

/** Injection token of the `GraphSource`. */
export const GraphSource = Symbol('GraphSource');
