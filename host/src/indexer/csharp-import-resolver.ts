import { CSHARP_SOURCE, discoverCSharpNamespaces } from './csharp-namespaces.js';
import type { DeclaredNames } from './declared-names.js';
import type { ImportTarget, LanguageImportResolver, RepositoryFiles, ResolvedReference } from './language-import-resolver.js';
import type { ImportReference } from './source-analyzer.js';

/** The most files one `using A.B;` leads to (in path order). */
export const MAX_NAMESPACE_FILES = 50;

/**
 * Resolves C# `using` directives by the namespaces the repository's files
 * declare (namespace-level: C# names no file). `using A.B;` leads to the
 * files that declare namespace `A.B` (at most 50, in path order); `using
 * static A.B.C;` and `using X = A.B.C;` to the files of namespace `A.B`
 * that declare a type `C` (or, for an alias of a namespace, to that
 * namespace's files). Found nowhere: a package node named by the first two
 * segments (`csharp:System.Collections`), built in for `System`, external
 * for `Microsoft.` and the others; a type missing from a namespace the
 * repository declares is unresolved. Project references (`.csproj`) are
 * not read.
 */
export class CSharpImportResolver implements LanguageImportResolver {
  private readonly importersOf = new Map<string, Set<string>>();

  private constructor(private readonly namespaces: DeclaredNames) {}

  static discover(root: string, repository: RepositoryFiles): CSharpImportResolver {
    return new CSharpImportResolver(discoverCSharpNamespaces(root, repository));
  }

  resolves(file: string): boolean {
    return CSHARP_SOURCE.test(file);
  }

  resolve(file: string, reference: ImportReference, _repository: RepositoryFiles): ResolvedReference[] {
    const specifier = reference.specifier;
    const isStatic = specifier.startsWith('static ');
    const alias = /^[^=\s]+ = /.exec(specifier);
    const name = isStatic ? specifier.slice('static '.length) : alias ? specifier.slice(alias[0].length) : specifier;
    const segments = name.split('.');
    if (!isStatic) {
      this.note(name, file);
      const files = [...(this.namespaces.filesOf(name) ?? [])].filter((path) => path !== file).sort();
      if (files.length > 0) return files.slice(0, MAX_NAMESPACE_FILES).map((path) => ({ specifier, target: { kind: 'file', path } }));
      if (this.namespaces.filesOf(name) && !alias) return [];
    }
    let declared: string | undefined;
    if (isStatic || alias) {
      for (let length = segments.length - 1; length >= 1; length--) {
        const namespace = segments.slice(0, length).join('.');
        this.note(namespace, file);
        const files = this.namespaces.filesOf(namespace);
        if (!files) continue;
        declared ??= namespace;
        const found = [...files].filter((path) => this.namespaces.declares(path, segments[length]!)).sort();
        if (found.length > 0) return [{ specifier, target: { kind: 'file', path: found[0]! } }];
      }
    }
    return [{ specifier, target: outside(segments, declared) }];
  }

  dependencyStems(_file: string, _reference: ImportReference): string[] {
    // C# files are followed through their namespaces (`afterChange`).
    return [];
  }

  afterChange(changedPaths: readonly string[], repository: RepositoryFiles): 'all' | string[] {
    const again = new Set<string>();
    for (const name of this.namespaces.update(changedPaths, repository)) for (const importer of this.importersOf.get(name) ?? []) again.add(importer);
    return [...again];
  }

  private note(name: string, file: string): void {
    let importers = this.importersOf.get(name);
    if (!importers) this.importersOf.set(name, (importers = new Set()));
    importers.add(file);
  }
}

function outside(segments: readonly string[], declared: string | undefined): ImportTarget {
  const name = segments.join('.');
  if (declared !== undefined)
    return { kind: 'unresolved', reason: `no file declares ${name}: namespace ${declared} has no ${segments[declared.split('.').length]}` };
  return { kind: 'package', name: `csharp:${segments.slice(0, 2).join('.')}`, builtin: segments[0] === 'System' };
}
