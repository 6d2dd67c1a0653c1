import type { GraphEdge, GraphNode } from '@strata/sdk';

/** Something that was not indexed, and why. */
export interface SkippedEntry {
  /** Repository-relative path. */
  path: string;
  /** Why it was skipped, for people (for example `symbolic link to a directory`). */
  reason: string;
}

/** An import the indexer could not follow. */
export interface UnresolvedImport {
  /** Repository-relative path of the importing file. */
  file: string;
  specifier: string;
  reason: string;
}

/** Facts about how a graph was built. */
export interface GraphBuildInfo {
  /** Name of the repository's root directory. */
  repository: string;
  /** When the build finished (ISO 8601). */
  indexedAt: string;
  /** How long the build took. */
  durationMs: number;
  /** Files whose facts the last full build took from the cache of an earlier one (`index.cache`) instead of reading them. */
  cachedFiles?: number;
  /** Files and directories left out, with the reason; ignored paths (`.gitignore`) are not listed. */
  skipped: SkippedEntry[];
  /** How many imports could not be resolved to a file or a package. */
  unresolvedCount: number;
  /** The first of them (at most `UNRESOLVED_SAMPLE`), to see why. */
  unresolved: UnresolvedImport[];
}

/** How many unresolved imports a graph's build info lists. */
export const UNRESOLVED_SAMPLE = 200;

/** A complete graph as a graph source produces it. */
export interface CodeGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  build: GraphBuildInfo;
}
