import type { CodeGraph } from './code-graph.js';

/** How far a graph build has come. */
export interface BuildProgress {
  phase: 'listing' | 'reading' | 'resolving';
  /** Items done in this phase. */
  done: number;
  /** Items in this phase, when known. */
  total?: number;
}

/**
 * Produces the code graph of the served repository. The host depends only on
 * this interface; the indexer behind it can change without the API noticing.
 */
export interface GraphSource {
  build(onProgress?: (progress: BuildProgress) => void): Promise<CodeGraph>;
}

/** Injection token of the `GraphSource`. */
export const GraphSource = Symbol('GraphSource');
