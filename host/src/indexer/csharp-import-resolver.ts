import { fileSystemPath } from '../graph/file-names.js';
import { CSHARP_SOURCE, discoverCSharpNamespaces, NamespacePrefixes, namesUsedIn } from './csharp-namespaces.js';
import { CSHARP_PROJECT, CSharpProjects } from './csharp-projects.js';
import { type DeclaredNames, readHead } from './declared-names.js';
import type { ImportTarget, LanguageImportResolver, RepositoryFiles, ResolvedReference } from './language-import-resolver.js';
import type { ImportReference } from './source-analyzer.js';

/**
 * The most files one `using A.B;` leads to as a whole namespace; a
 * namespace with more leads only to its files that declare a type the
 * using file names or an extension method it calls. Bounds the edges of
 * huge namespaces (`using System;` in a runtime's own sources: hundreds of
 * files, thousands of importers).
 */
export const WHOLE_NAMESPACE_FILES = 200;

/** How much of a C# file is read for the names it uses, when a using of a namespace above `WHOLE_NAMESPACE_FILES` asks. */
const NAMES_USED_BYTES = 1024 * 1024;

/**
 * Resolves C# `using` directives by the namespaces the repository's files
 * declare (namespace-level: C# names no file). `using A.B;` leads to the
 * files that declare namespace `A.B`; above `WHOLE_NAMESPACE_FILES` of
 * them, to those declaring a type or extension method whose name the file
 * uses. `using static A.B.C;` and `using X = A.B.C;` to the files of namespace `A.B`
 * that declare a type `C` (or, for an alias of a namespace, to that
 * namespace's files). Found nowhere: a package node named by the first two
 * segments (`csharp:System.Collections`), built in for `System`, external
 * for `Microsoft.` and the others; a type missing from a namespace the
 * repository declares is unresolved. Within a solution, a file sees only
 * the namespaces' files of its own project and of the projects it
 * references (`CSharpProjects`, from the `.csproj` files): those of other
 * projects are as if the repository did not declare them. A using written
 * inside namespaces (its `scope`) is bound as the compiler binds it: its
 * first name is looked up in the enclosing namespaces, innermost first (in
 * `namespace A.B { using C.D; }`, `A.B.C` then `A.C`: the first that is a
 * namespace the file sees, declared or holding declared ones, or a type of
 * that namespace), then from the top.
 */
export class CSharpImportResolver implements LanguageImportResolver {
  private readonly importersOf = new Map<string, Set<string>>();
  /** Namespaces a scoped using looked for in its enclosing ones: a namespace declared under one of them may bind it now. */
  private readonly scopedImportersOf = new Map<string, Set<string>>();
  /**
   * The names the last file asked about uses, read for its usings of namespaces above `WHOLE_NAMESPACE_FILES` (a
   * file's usings are resolved one after another; one file's kept, not every file's: a runtime's sources have tens
   * of thousands). Forgotten when that file changes.
   */
  private namesUsed: { file: string; names: ReadonlySet<string> } | undefined;

  private constructor(
    private readonly root: string,
    private readonly namespaces: DeclaredNames,
    private readonly prefixes: NamespacePrefixes,
    private projects: CSharpProjects,
  ) {}

  static discover(root: string, repository: RepositoryFiles): CSharpImportResolver {
    const prefixes = new NamespacePrefixes();
    return new CSharpImportResolver(root, discoverCSharpNamespaces(root, repository, prefixes), prefixes, CSharpProjects.discover(root, repository));
  }

  resolves(file: string): boolean {
    return CSHARP_SOURCE.test(file);
  }

  resolve(file: string, reference: ImportReference, _repository: RepositoryFiles): ResolvedReference[] {
    const specifier = reference.specifier;
    const isStatic = specifier.startsWith('static ');
    const alias = /^[^=\s]+ = /.exec(specifier);
    const written = isStatic ? specifier.slice('static '.length) : alias ? specifier.slice(alias[0].length) : specifier;
    const name = this.bound(file, written, reference.scope);
    const segments = name.split('.');
    if (!isStatic) {
      this.note(name, file);
      const declaring = this.visibleFilesOf(name, file);
      const files = declaring.filter((path) => path !== file).sort();
      const linked = files.length > WHOLE_NAMESPACE_FILES ? this.declaringNamesUsed(files, file) : files;
      if (linked.length > 0) return linked.map((path) => ({ specifier, target: { kind: 'file', path } }));
      // A namespace whose types the file does not name (its own, or a large one's) leads nowhere, an alias of it too.
      if ((declaring.length > 0 && !alias) || files.length > 0) return [];
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

  /**
   * The full name a using's name binds to: `name` qualified by the innermost
   * of its enclosing namespaces in which its first segment is a namespace
   * (declared, or holding declared ones) or a type that `file` sees; `name`
   * itself when none is.
   */
  private bound(file: string, name: string, scope: readonly string[] | undefined): string {
    if (!scope || scope.length === 0) return name;
    const first = name.split('.', 1)[0]!;
    const enclosing = scope.join('.').split('.');
    for (let length = enclosing.length; length >= 1; length--) {
      const namespace = enclosing.slice(0, length).join('.');
      const candidate = `${namespace}.${first}`;
      this.note(candidate, file, this.scopedImportersOf);
      this.note(namespace, file);
      if (this.isNamespaceSeen(candidate, file) || this.isTypeSeen(namespace, first, file)) return `${namespace}.${name}`;
    }
    return name;
  }

  dependencyStems(_file: string, _reference: ImportReference): string[] {
    // C# files are followed through their namespaces (`afterChange`).
    return [];
  }

  afterChange(changedPaths: readonly string[], repository: RepositoryFiles): 'all' | string[] {
    if (this.namesUsed && changedPaths.includes(this.namesUsed.file)) this.namesUsed = undefined;
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
    for (const name of changedNamespaces) {
      for (const importer of this.importersOf.get(name) ?? []) again.add(importer);
      // A.B.C declared (or no longer) makes namespace A.B exist (or not) for the scoped usings that looked for it.
      for (let prefix = name; prefix !== ''; prefix = prefix.slice(0, Math.max(prefix.lastIndexOf('.'), 0)))
        for (const importer of this.scopedImportersOf.get(prefix) ?? []) again.add(importer);
    }
    return [...again];
  }

  /** Those of `files` that declare a type or extension method whose name `file` uses (its names read again unless it was the last file asked about). */
  private declaringNamesUsed(files: readonly string[], file: string): string[] {
    if (this.namesUsed?.file !== file) this.namesUsed = { file, names: namesUsedIn(readHead(this.root, fileSystemPath(this.root, file), NAMES_USED_BYTES)) };
    const used = this.namesUsed.names;
    return files.filter((candidate) => this.namespaces.declaresAny(candidate, used));
  }

  /** The files declaring namespace `name` that code in `file` sees. */
  private visibleFilesOf(name: string, file: string): string[] {
    return [...(this.namespaces.filesOf(name) ?? [])].filter((candidate) => this.projects.sees(file, candidate));
  }

  /** Whether namespace `name` exists for code in `file`: a file it sees declares it, or a namespace under it. */
  private isNamespaceSeen(name: string, file: string): boolean {
    for (const declared of this.prefixes.namesUnder(name))
      for (const candidate of this.namespaces.filesOf(declared) ?? []) if (this.projects.sees(file, candidate)) return true;
    return false;
  }

  /** Whether a file of namespace `namespace` that code in `file` sees declares a type `name`. */
  private isTypeSeen(namespace: string, name: string, file: string): boolean {
    for (const candidate of this.namespaces.filesOf(namespace) ?? [])
      if (this.namespaces.declares(candidate, name) && this.projects.sees(file, candidate)) return true;
    return false;
  }

  private note(name: string, file: string, importersOf = this.importersOf): void {
    let importers = importersOf.get(name);
    if (!importers) importersOf.set(name, (importers = new Set()));
    importers.add(file);
  }
}

function outside(segments: readonly string[], declared: string | undefined): ImportTarget {
  const name = segments.join('.');
  if (declared !== undefined)
    return { kind: 'unresolved', reason: `no file declares ${name}: namespace ${declared} has no ${segments[declared.split('.').length]}` };
  return { kind: 'package', name: `csharp:${segments.slice(0, 2).join('.')}`, builtin: segments[0] === 'System' };
}
