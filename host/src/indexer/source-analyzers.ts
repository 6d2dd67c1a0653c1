import { plainName } from '../graph/file-names.js';
import { CFamilySourceAnalyzer } from './c-family-source-analyzer.js';
import { CSharpSourceAnalyzer } from './csharp-source-analyzer.js';
import { GoSourceAnalyzer } from './go-source-analyzer.js';
import { JavaSourceAnalyzer } from './java-source-analyzer.js';
import { JAVASCRIPT_SOURCE_ANALYZER } from './javascript-source-analyzer.js';
import { KotlinSourceAnalyzer } from './kotlin-source-analyzer.js';
import { PhpSourceAnalyzer } from './php-source-analyzer.js';
import { PythonSourceAnalyzer } from './python-source-analyzer.js';
import { RubySourceAnalyzer } from './ruby-source-analyzer.js';
import { RustSourceAnalyzer } from './rust-source-analyzer.js';
import type { SourceAnalyzer } from './source-analyzer.js';

/**
 * The parsers of source files, one per language family: the one list a new
 * language joins (its imports become edges through a `LanguageImportResolver`,
 * listed in `repository-indexer.ts`). One instance of each per thread: a
 * tree-sitter grammar is loaded into each reading thread that meets its files.
 */
const SOURCE_ANALYZERS: readonly SourceAnalyzer[] = [
  JAVASCRIPT_SOURCE_ANALYZER,
  new PythonSourceAnalyzer(),
  new GoSourceAnalyzer(),
  new RustSourceAnalyzer(),
  new CFamilySourceAnalyzer(),
  new JavaSourceAnalyzer(),
  new KotlinSourceAnalyzer(),
  new CSharpSourceAnalyzer(),
  new RubySourceAnalyzer(),
  new PhpSourceAnalyzer(),
];

/** The analyzer of files named `filename`, if they are parsed at all. */
export function sourceAnalyzerFor(filename: string): SourceAnalyzer | undefined {
  const name = plainName(filename);
  for (const analyzer of SOURCE_ANALYZERS) if (analyzer.reads(name)) return analyzer;
  return undefined;
}

/** Whether files with this name are parsed for imports and symbols. */
export function isParsedSource(filename: string): boolean {
  return sourceAnalyzerFor(filename) !== undefined;
}

/** Loads, on this thread, the analyzers of `files` (repository paths) that are not loaded yet. */
export async function loadAnalyzersOf(files: readonly string[]): Promise<void> {
  const loading = new Set<SourceAnalyzer>();
  for (const file of files) {
    const analyzer = sourceAnalyzerFor(file.slice(file.lastIndexOf('/') + 1));
    if (analyzer && !analyzer.loaded) loading.add(analyzer);
  }
  await Promise.all([...loading].map((analyzer) => analyzer.load()));
}
