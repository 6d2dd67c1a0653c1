/**
 * What the processes of index-repos.bench.ts tell each other: one tool's
 * view of a repository, reduced to files and file -> file import edges with
 * repository-relative paths.
 */

/**
 * The tools compared. `strata` and `depcruise` run cold (no cache of an
 * earlier run); `strata-warm` and `depcruise-warm` run with the cache an
 * earlier run of theirs left (Strata's file facts, dependency-cruiser's
 * `cache` with its default `metadata` strategy), on an unchanged repository;
 * `strata-serve-warm` is `strata serve` restarted on the data directory an
 * earlier `strata serve` left, timed to its graph answered over HTTP.
 */
export type ToolName = 'strata' | 'strata-warm' | 'strata-serve-warm' | 'depcruise' | 'depcruise-warm' | 'madge';

export const TOOL_NAMES: readonly ToolName[] = ['strata', 'strata-warm', 'strata-serve-warm', 'depcruise', 'depcruise-warm', 'madge'];

export const TOOL_LABELS: Record<ToolName, string> = {
  strata: 'Strata',
  'strata-warm': 'Strata, warm cache',
  'strata-serve-warm': 'strata serve, warm restart',
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

/** A Strata graph (of `indexRepository`, or `GET /api/graph`'s nodes, edges and build info) as a `ToolOutput`. */
export function strataToolOutput(
  tool: ToolName,
  graph: {
    nodes: ReadonlyArray<{ kind: string; path: string }>;
    edges: ReadonlyArray<{ kind: string; source: string; target: string; references?: readonly unknown[]; specifiers?: readonly string[] }>;
    build: {
      cachedFiles?: number;
      skipped?: unknown[];
      unresolvedCount?: number;
      unresolved?: Array<{ file: string; specifier: string; reason: string }>;
    };
  },
): ToolOutput {
  const files: string[] = [];
  const references: ToolReference[] = [];
  for (const node of graph.nodes) if (node.kind === 'file') files.push(node.path);
  for (const edge of graph.edges) {
    if (edge.kind !== 'imports' || !edge.source.startsWith('file:')) continue;
    const source = edge.source.slice('file:'.length);
    const kinds = (edge.references ?? []).map(String);
    const specifiers = edge.specifiers ?? [];
    if (edge.target.startsWith('file:')) {
      for (const specifier of specifiers.length > 0 ? specifiers : [undefined]) {
        references.push({ source, specifier, status: 'file', target: edge.target.slice('file:'.length), kinds });
      }
    } else {
      // Package nodes (`pkg:`): not file -> file edges.
      const builtin = /^pkg:node:|^pkg:builtin:/.test(edge.target);
      for (const specifier of specifiers) references.push({ source, specifier, status: builtin ? 'core' : 'outside', target: edge.target, kinds });
    }
  }
  // The build info lists a sample of the imports it could not resolve, with the reason.
  const { build } = graph;
  for (const entry of build.unresolved ?? []) references.push({ source: entry.file, specifier: entry.specifier, status: 'unresolved', kinds: [entry.reason] });
  const notes = [`${build.skipped?.length ?? 0} paths skipped (build.skipped)`, `${build.cachedFiles ?? 0} files taken from the cache (build.cachedFiles)`];
  if (build.unresolvedCount !== undefined)
    notes.push(`${build.unresolvedCount} imports it could not resolve (build.unresolvedCount; ${build.unresolved?.length ?? 0} listed with a reason)`);
  return { tool, files, parsed: files.filter(isSourceFile), references, notes, cachedFiles: build.cachedFiles ?? 0 };
}

/**
 * What dependency-cruiser's `cruise` is given in every benchmark, as its
 * `--init` configures a TypeScript project: pre-compilation (type-only)
 * dependencies, package `exports` with the import/require/node/default/types
 * conditions, node_modules neither scanned nor followed (plus `exclude`).
 */
export function depcruiseOptions(exclude: string[] = []): Record<string, unknown> {
  return {
    tsPreCompilationDeps: true,
    exclude: { path: exclude.length > 0 ? ['(^|/)node_modules/', ...exclude] : '(^|/)node_modules/' },
    doNotFollow: { path: '(^|/)node_modules/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    progress: { type: 'none' },
  };
}
