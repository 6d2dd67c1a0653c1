import type { ImportTarget, LanguageImportResolver, RepositoryFiles, ResolvedReference } from './language-import-resolver.js';
import { parentOf, settledPath } from './repository-paths.js';
import { RUBY_SOURCE } from './ruby-source-analyzer.js';
import { RUBY_STDLIB_FEATURES } from './ruby-stdlib-features.js';
import type { ImportReference } from './source-analyzer.js';

const GEMSPEC = /(?:^|\/)[^/]+\.gemspec$/;

/**
 * Resolves Ruby's `require`, `require_relative` and `load` over the
 * repository's files (nothing is run). A relative feature (`./x`, `../x`:
 * every `require_relative`, and a `require` or `load` written so) counts
 * from the file's directory, `.rb` added when it has no extension. A
 * `require 'a/b'` is searched along the load path as Bundler sets it up:
 * the `lib/` directory of the repository's root and of every directory
 * holding a `*.gemspec` (each gem of a monorepo), shallowest first; not
 * found, it is a package node `ruby:<first segment>`, built in when Ruby
 * ships it (`RUBY_STDLIB_FEATURES`). A `load 'x.rb'` not on the load path
 * is looked for in the file's directory, and is unresolved if missing (no
 * package: `load` takes a file, not a gem).
 */
export class RubyImportResolver implements LanguageImportResolver {
  private constructor(private loadPath: string[]) {}

  static discover(_root: string, repository: RepositoryFiles): RubyImportResolver {
    return new RubyImportResolver(loadPathOf(repository));
  }

  resolves(file: string): boolean {
    return RUBY_SOURCE.test(file);
  }

  resolve(file: string, reference: ImportReference, repository: RepositoryFiles): ResolvedReference[] {
    const specifier = reference.specifier;
    const directory = parentOf(file);
    if (specifier.startsWith('./') || specifier.startsWith('../')) {
      const target = settledPath(directory, specifier);
      if (target === undefined) return [{ specifier, target: { kind: 'unresolved', reason: `${specifier} leads out of the repository` } }];
      return [{ specifier, target: fileOrMissing([target], specifier, reference, repository) }];
    }
    if (specifier.startsWith('/')) return [{ specifier, target: { kind: 'unresolved', reason: 'an absolute path is outside the repository' } }];
    for (const lib of this.loadPath) {
      const found = find(join(lib, specifier), reference, repository);
      if (found) return [{ specifier, target: { kind: 'file', path: found } }];
    }
    if (reference.kind === 'dynamic') {
      const local = settledPath(directory, `./${specifier}`);
      return [{ specifier, target: fileOrMissing(local === undefined ? [] : [local], specifier, reference, repository) }];
    }
    const first = specifier.split('/')[0]!;
    return [{ specifier, target: { kind: 'package', name: `ruby:${first}`, builtin: RUBY_STDLIB_FEATURES.has(first) } }];
  }

  dependencyStems(_file: string, reference: ImportReference): string[] {
    const last = reference.specifier.slice(reference.specifier.lastIndexOf('/') + 1);
    return [last.endsWith('.rb') ? last.slice(0, -3) : last];
  }

  afterChange(changedPaths: readonly string[], repository: RepositoryFiles): 'all' | string[] {
    if (!changedPaths.some((changed) => GEMSPEC.test(changed) || changed === 'lib' || changed.endsWith('/lib'))) return [];
    const loadPath = loadPathOf(repository);
    if (loadPath.join('\n') === this.loadPath.join('\n')) return [];
    this.loadPath = loadPath;
    return 'all';
  }
}

/** The repository's load path: `lib/` of the root and of each gem (a directory with a `*.gemspec`), when it exists, shallowest first. */
function loadPathOf(repository: RepositoryFiles): string[] {
  const gems = new Set<string>(['']);
  for (const file of repository.filePaths()) if (file.endsWith('.gemspec') && GEMSPEC.test(file)) gems.add(parentOf(file));
  return [...gems]
    .map((gem) => join(gem, 'lib'))
    .filter((lib) => repository.isDirectory(lib))
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

/** The file a feature names: for `require`, itself when it ends in `.rb`, else with `.rb` added; for `load`, the name as written. */
function find(base: string, reference: ImportReference, repository: RepositoryFiles): string | undefined {
  const file = fileName(base, reference);
  return repository.isFile(file) ? file : undefined;
}

function fileName(base: string, reference: ImportReference): string {
  return reference.kind === 'dynamic' || base.endsWith('.rb') ? base : `${base}.rb`;
}

function fileOrMissing(bases: string[], specifier: string, reference: ImportReference, repository: RepositoryFiles): ImportTarget {
  for (const base of bases) {
    const found = find(base, reference, repository);
    if (found) return { kind: 'file', path: found };
  }
  const tried = bases.map((base) => fileName(base, reference)).join(', ');
  return { kind: 'unresolved', reason: `cannot load such file -- ${specifier} (no ${tried || 'file'})` };
}

function join(directory: string, relative: string): string {
  return directory === '' ? relative : `${directory}/${relative}`;
}
