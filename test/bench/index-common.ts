/**
 * What the processes of index-repos.bench.ts tell each other: one tool's
 * view of a repository, reduced to files and file -> file import edges with
 * repository-relative paths.
 */

/**
 * The tools compared. `strata` and `depcruise` run cold (no cache of an
 * earlier run); `strata-warm` and `depcruise-warm` run with the cache an
 * earlier run of theirs left (Strata's file facts, dependency-cruiser's
 * `cache` with its default `metadata` strategy), on an unchanged repository.
 */
export type ToolName = 'strata' | 'strata-warm' | 'depcruise' | 'depcruise-warm' | 'madge';

export const TOOL_NAMES: readonly ToolName[] = ['strata', 'strata-warm', 'depcruise', 'depcruise-warm', 'madge'];

export const TOOL_LABELS: Record<ToolName, string> = {
  strata: 'Strata',
  'strata-warm': 'Strata, warm cache',
  depcruise: 'dependency-cruiser',
  'depcruise-warm': 'dependency-cruiser, warm cache',
  madge: 'madge',
};

/** The environment variable that names the directory a tool keeps its cache in (Strata's data directory, dependency-cruiser's cache folder). */
export const CACHE_DIRECTORY_VARIABLE = 'INDEX_BENCH_CACHE_DIRECTORY';

/** The JavaScript and TypeScript source extensions every tool is asked to read (`.d.ts` and friends included). */
export const SOURCE_EXTENSIONS = ['ts', 'tsx', 'js', 'jsx', 'mjs', 'cjs', 'mts', 'cts'] as const;

const SOURCE_FILE = new RegExp(`\\.(${SOURCE_EXTENSIONS.join('|')})$`);

/** Whether a repository-relative path names a JavaScript or TypeScript source. */
export function isSourceFile(relativePath: string): boolean {
  return SOURCE_FILE.test(relativePath);
}

/** A module reference as one tool saw it, resolved or not. */
export interface ToolReference {
  /** Importing file, repository-relative. */
  source: string;
  /** As written; `undefined` when the tool does not record it (madge). */
  specifier?: string;
  /** `file`: resolved to `target`, a file in the repository; `outside`: resolved outside the repository or into node_modules. */
  status: 'file' | 'core' | 'unresolved' | 'outside';
  /** Repository-relative path of the resolved file (status `file` and `outside`). */
  target?: string;
  /** The tool's words for how it was referenced (Strata's `references`, dependency-cruiser's `dependencyTypes`). */
  kinds: string[];
}

/** What a tool made of a repository. */
export interface ToolOutput {
  tool: ToolName;
  /** Every file the tool reports as a node of its graph, repository-relative. */
  files: string[];
  /** The JavaScript and TypeScript files among them, which it read for imports. */
  parsed: string[];
  /** Every reference it recorded; file -> file edges are those with status `file`. */
  references: ToolReference[];
  /** Anything worth a line in the report (warnings, unresolved counts). */
  notes: string[];
  /** Strata: files whose facts came from its cache. */
  cachedFiles?: number;
}

/** Sent by the tool process the moment the tool's call returns, before anything is written out. */
export interface DoneMessage {
  kind: 'done';
  /** Time inside the process from just before the tool's call to its return (module loading excluded). */
  callMs: number;
  /** Peak resident set size of the process (VmHWM) when the call returned. */
  peakKb: number;
}
