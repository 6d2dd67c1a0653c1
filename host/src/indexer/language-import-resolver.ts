import type { ImportReference } from './source-analyzer.js';

/** Where a reference leads, in graph terms. */
export type ImportTarget =
  | { kind: 'file'; path: string }
  /** A directory of the graph that is a package as a whole (a Go package): the edge goes to the directory's node. */
  | { kind: 'directory'; path: string }
  | { kind: 'package'; name: string; builtin: boolean }
  | { kind: 'unresolved'; reason: string }
  /** A module that exists but has no file to point to (a Python namespace package: a directory without `__init__.py`): no edge. */
  | { kind: 'no-file' };

/** One place a reference leads, with the specifier that led there (a `from` import of several names may lead to several). */
export interface ResolvedReference {
  specifier: string;
  target: ImportTarget;
}

/** The repository as the graph knows it (during a full build: as listed), by repository-relative paths. */
export interface RepositoryFiles {
  isFile(file: string): boolean;
  /** Whether a directory is in the graph; `''` and `.` are the root. */
  isDirectory(directory: string): boolean;
  /** Every file path. */
  filePaths(): Iterable<string>;
}

/**
 * Resolves the imports of one language's files into targets. JavaScript
 * and TypeScript are resolved by the graph model itself (oxc-resolver and the
 * workspace packages); a language that plugs in gives one of these (made in
 * `repository-indexer.ts` from the listing) beside its `SourceAnalyzer`.
 */
export interface LanguageImportResolver {
  /** Whether the imports of `file` (a repository path) are this resolver's. */
  resolves(file: string): boolean;
  /** Where `reference`, written in `file`, leads. */
  resolve(file: string, reference: ImportReference, repository: RepositoryFiles): ResolvedReference[];
  /**
   * Stems of the files whose coming or going may change what `reference`
   * of `file` resolves to (`x` for `x.py`; the directory's name for an
   * `__init__.py`, see `fileStems` in the graph model): after such a change,
   * the file's imports are resolved again.
   */
  dependencyStems(file: string, reference: ImportReference): string[];
  /**
   * Told of the paths that changed (files read, files and directories
   * added or removed) once the repository's state has them: the files
   * whose imports must be resolved again beyond those the stems select, or
   * `'all'` of this resolver's files (when its configuration changed: for
   * Python, the source roots).
   */
  afterChange(changedPaths: readonly string[], repository: RepositoryFiles): 'all' | string[];
}
