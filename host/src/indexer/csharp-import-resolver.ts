import { CSHARP_SOURCE, discoverCSharpNamespaces } from './csharp-namespaces.js';
import { CSHARP_PROJECT, CSharpProjects } from './csharp-projects.js';
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
 * repository declares is unresolved. Within a solution, a file sees only
 * the namespaces' files of its own project and of the projects it
 * references (`CSharpProjects`, from the `.csproj` files): those of other
 * projects are as if the repository did not declare them.
 */
export class CSharpImportResolver implements LanguageImportResolver {
  private readonly importersOf = new Map<string, Set<string>>();

  private constructor(
    private readonly root: string,
    private readonly namespaces: DeclaredNames,
    private projects: CSharpProjects,
  ) {}

  static discover(root: string, repository: RepositoryFiles): CSharpImportResolver {
    return new CSharpImportResolver(root, discoverCSharpNamespaces(root, repository), CSharpProjects.discover(root, repository));
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
      const declaring = this.visibleFilesOf(name, file);
      const files = declaring.filter((path) => path !== file).sort();
      if (files.length > 0) return files.slice(0, MAX_NAMESPACE_FILES).map((path) => ({ specifier, target: { kind: 'file', path } }));
      if (declaring.length > 0 && !alias) return [];
    }
    let declared: string | undefined;
    if (isStatic || alias) {
      for (let length = segments.length - 1; length >= 1; length--) {
        const namespace = segments.slice(0, length).join('.');
        this.note(namespace, file);
        const files = this.visibleFilesOf(namespace, file);
        if (files.length === 0) continue;
        declared ??= namespace;
        const found = files.filter((path) => this.namespaces.declares(path, segments[length]!)).sort();
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
    const changedNamespaces = this.namespaces.update(changedPaths, repository);
    // A project came, went or changed its references (or a folder went, and projects with it).
    if (changedPaths.some((changed) => CSHARP_PROJECT.test(changed) || !repository.isFile(changed))) {
      const projects = CSharpProjects.discover(this.root, repository);
      if (!projects.equals(this.projects)) {
        this.projects = projects;
        return 'all';
      }
    }
    const again = new Set<string>();
    for (const name of changedNamespaces) for (const importer of this.importersOf.get(name) ?? []) again.add(importer);
    return [...again];
  }

  /** The files declaring namespace `name` that code in `file` sees. */
  private visibleFilesOf(name: string, file: string): string[] {
    return [...(this.namespaces.filesOf(name) ?? [])].filter((candidate) => this.projects.sees(file, candidate));
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
