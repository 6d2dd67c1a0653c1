import { GO_MODULE_FILE, type GoModule, GoModules } from './go-modules.js';
import { GO_SOURCE } from './go-source-analyzer.js';
import type { ImportTarget, LanguageImportResolver, RepositoryFiles, ResolvedReference } from './language-import-resolver.js';
import { parentOf } from './repository-paths.js';
import type { ImportReference } from './source-analyzer.js';

/** Hosts whose module paths have three elements (`github.com/owner/repo`), for naming an external module no `require` names. */
const THREE_ELEMENT_HOSTS = new Set(['github.com', 'gitlab.com', 'bitbucket.org', 'golang.org', 'google.golang.org', 'go.googlesource.com', 'codeberg.org']);

/**
 * Resolves Go imports as the go command finds packages in module mode, over
 * the repository's files (nothing is downloaded, `go` is not run). An import
 * path names a package, which is a directory: the edge goes to the
 * directory's node, not to each of its files. The path is looked up in the
 * main modules of the importing file (its `go.mod`'s module, or every
 * module of the `go.work` that uses it) and the local directories of their
 * `replace` directives, the longest module path first; it must lie in that
 * module (not in a nested one with a `go.mod` of its own) and hold a Go file
 * that is not a test (`_test.go`) and not ignored (`_x.go`, `.x.go`), else it
 * is unresolved with the reason. Build constraints are not evaluated. Any
 * other path is a package node: built in (`go:fmt`, `go:net/http`, by its
 * import path) when its first element has no dot, as the go command tells
 * the standard library; else the external module that holds it
 * (`go:github.com/spf13/cobra`), the longest module path the `go.mod` (or
 * the workspace) requires that prefixes it, else its first three elements
 * on the well-known hosts, else the path itself. With a `vendor/modules.txt`
 * beside the main module's `go.mod` (or the workspace's `go.work`), a
 * package the vendor directory holds is its directory there, as the go
 * command builds it.
 */
export class GoImportResolver implements LanguageImportResolver {
  /** Non-test Go files of the repository, and their count per directory: a directory with one is a package. */
  private readonly packageFiles = new Set<string>();
  private readonly packageFileCounts = new Map<string, number>();
  /** Directories that imports looked up (found or not) → the files whose imports did, to resolve again when the directory becomes or stops being a package. */
  private readonly importersByDirectory = new Map<string, Set<string>>();

  private constructor(
    private readonly root: string,
    private modules: GoModules,
    repository: RepositoryFiles,
  ) {
    for (const file of repository.filePaths()) if (isPackageFile(file)) this.countFile(file, 1);
  }

  /** A resolver for the repository at `root` (absolute) whose files and directories are `repository`'s. */
  static discover(root: string, repository: RepositoryFiles): GoImportResolver {
    return new GoImportResolver(root, GoModules.discover(root, repository), repository);
  }

  resolves(file: string): boolean {
    return GO_SOURCE.test(file);
  }

  resolve(file: string, reference: ImportReference, repository: RepositoryFiles): ResolvedReference[] {
    return [{ specifier: reference.specifier, target: this.target(file, reference.specifier, repository) }];
  }

  dependencyStems(): string[] {
    // What an import leads to depends on directories, not on file names: `afterChange` follows them.
    return [];
  }

  afterChange(changedPaths: readonly string[], repository: RepositoryFiles): 'all' | string[] {
    if (changedPaths.some((changed) => GO_MODULE_FILE.test(changed))) {
      const modules = GoModules.discover(this.root, repository);
      if (!modules.equals(this.modules)) {
        this.modules = modules;
        this.recount(changedPaths, repository);
        return 'all';
      }
    }
    const flipped = this.recount(changedPaths, repository);
    const again = new Set<string>();
    for (const directory of flipped) {
      const importers = this.importersByDirectory.get(directory);
      for (const importer of importers ?? []) {
        if (repository.isFile(importer)) again.add(importer);
        else importers!.delete(importer);
      }
    }
    return [...again];
  }

  /** Follows the package files that came or went; returns the directories that became, or stopped being, packages. */
  private recount(changedPaths: readonly string[], repository: RepositoryFiles): Set<string> {
    const flipped = new Set<string>();
    for (const changed of changedPaths) {
      if (!isPackageFile(changed)) continue;
      const now = repository.isFile(changed);
      if (now === this.packageFiles.has(changed)) continue;
      const directory = parentOf(changed);
      const before = this.packageFileCounts.get(directory) ?? 0;
      this.countFile(changed, now ? 1 : -1);
      if ((before === 0) !== ((this.packageFileCounts.get(directory) ?? 0) === 0)) flipped.add(directory);
    }
    return flipped;
  }

  private countFile(file: string, by: 1 | -1): void {
    const directory = parentOf(file);
    const count = (this.packageFileCounts.get(directory) ?? 0) + by;
    if (by === 1) this.packageFiles.add(file);
    else this.packageFiles.delete(file);
    if (count === 0) this.packageFileCounts.delete(directory);
    else this.packageFileCounts.set(directory, count);
  }

  private target(file: string, importPath: string, repository: RepositoryFiles): ImportTarget {
    if (importPath.startsWith('.') || importPath.startsWith('/')) {
      return { kind: 'unresolved', reason: `relative import paths are not supported in module mode ("${importPath}")` };
    }
    const module = this.modules.moduleOf(parentOf(file));
    if (module) {
      for (const { modulePath, directory } of this.modules.rootsOf(module)) {
        if (importPath !== modulePath && !importPath.startsWith(`${modulePath}/`)) continue;
        const packageDirectory = join(directory, importPath.slice(modulePath.length + 1));
        // A directory below a go.mod of its own is that module's, not this one's.
        if (this.modules.moduleOf(packageDirectory)?.directory !== directory) continue;
        this.noteImporter(packageDirectory, file);
        if (this.packageFileCounts.has(packageDirectory)) return { kind: 'directory', path: packageDirectory };
        const shown = packageDirectory || '.';
        return {
          kind: 'unresolved',
          reason: repository.isDirectory(packageDirectory)
            ? `${shown} has no Go files but tests (package ${importPath} of module ${modulePath})`
            : `no directory ${shown} for package ${importPath} of module ${modulePath}`,
        };
      }
    }
    const first = importPath.split('/', 1)[0]!;
    if (!first.includes('.')) return { kind: 'package', name: `go:${importPath}`, builtin: true };
    const vendor = module && this.modules.vendorOf(module);
    if (vendor !== undefined) {
      // Vendoring (`go mod vendor`): the go command builds the package from vendor/<import path>.
      const vendored = `${vendor}/${importPath}`;
      this.noteImporter(vendored, file);
      if (this.packageFileCounts.has(vendored)) return { kind: 'directory', path: vendored };
    }
    return { kind: 'package', name: `go:${this.externalModule(importPath, module)}`, builtin: false };
  }

  /** The module an external import path belongs to: the longest required module path that prefixes it, else a guess from its form. */
  private externalModule(importPath: string, module: GoModule | undefined): string {
    let found: string | undefined;
    for (const required of module ? this.modules.requiresOf(module) : []) {
      if ((importPath === required || importPath.startsWith(`${required}/`)) && (!found || required.length > found.length)) found = required;
    }
    if (found) return found;
    const elements = importPath.split('/');
    // gopkg.in/yaml.v3, and the major version suffix of a module on a well-known host (github.com/owner/repo/v2).
    if (elements[0] === 'gopkg.in') return elements.slice(0, 2).join('/');
    if (THREE_ELEMENT_HOSTS.has(elements[0]!) && elements.length >= 3) return elements.slice(0, /^v\d+$/.test(elements[3] ?? '') ? 4 : 3).join('/');
    return importPath;
  }

  private noteImporter(directory: string, file: string): void {
    let importers = this.importersByDirectory.get(directory);
    if (!importers) this.importersByDirectory.set(directory, (importers = new Set()));
    importers.add(file);
  }
}

/** Whether a file counts toward its directory's package: a Go file that is not a test and that the go command does not ignore (`_x.go`, `.x.go`). */
function isPackageFile(file: string): boolean {
  const name = file.slice(file.lastIndexOf('/') + 1);
  return GO_SOURCE.test(name) && !name.endsWith('_test.go') && !name.startsWith('_') && !name.startsWith('.');
}

function join(directory: string, relative: string): string {
  return directory === '' ? relative : relative === '' ? directory : `${directory}/${relative}`;
}
