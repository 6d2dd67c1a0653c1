import { C_FAMILY_SOURCE } from './c-family-source-analyzer.js';
import { CIncludeDirectories, COMPILATION_DATABASES } from './c-include-directories.js';
import { C_STANDARD_HEADERS, C_SYSTEM_HEADER_FOLDERS, C_SYSTEM_HEADERS } from './c-standard-headers.js';
import type { ImportTarget, LanguageImportResolver, RepositoryFiles, ResolvedReference } from './language-import-resolver.js';
import { parentOf, settledPath } from './repository-paths.js';
import type { ImportReference } from './source-analyzer.js';

/**
 * Resolves `#include`s as GCC and Clang search for headers, over the
 * repository's files: `#include "a.h"` in the including file's directory,
 * then in its `-iquote` directories, then as `#include <a.h>`, which is
 * looked for in the include directories of `CIncludeDirectories` (a
 * compilation database's `-I` and `-isystem`, or the guesses). A header
 * found nowhere in the repository is a package node `c:<header>`
 * (`c:stdio.h`, `c:vector`, `c:sys/types.h`), built-in when the C or C++
 * standard names it; a quoted include found nowhere that is no standard
 * header is unresolved (a generated `config.h`, a header of a directory
 * the guesses miss). Without a compilation database, whose `-I` folders
 * the guesses cannot know (a vendored library's), an include that exactly
 * one file of the repository ends with (`hiredis.h`, `sub/x.h`) leads to
 * that file, unless a system provides a header of that name (POSIX's,
 * Windows's: `C_SYSTEM_HEADERS`).
 */
export class CIncludeResolver implements LanguageImportResolver {
  /** The repository's files by name, made on the first include the search paths miss. */
  private byName: FilesByName | undefined;

  private constructor(
    private readonly root: string,
    private directories: CIncludeDirectories,
  ) {}

  private headersNamed(repository: RepositoryFiles): FilesByName {
    this.byName ??= new FilesByName(repository);
    return this.byName;
  }

  static discover(root: string, repository: RepositoryFiles): CIncludeResolver {
    return new CIncludeResolver(root, CIncludeDirectories.discover(root, repository));
  }

  resolves(file: string): boolean {
    return C_FAMILY_SOURCE.test(file);
  }

  resolve(file: string, reference: ImportReference, repository: RepositoryFiles): ResolvedReference[] {
    const specifier = reference.specifier;
    const angled = specifier.startsWith('<');
    const header = angled ? specifier.slice(1, -1) : specifier;
    const includePath = this.directories.of(file);
    const searched = angled ? includePath.angle : [parentOf(file), ...includePath.quote, ...includePath.angle];
    for (const directory of searched) {
      const candidate = settledPath(directory, header);
      if (candidate !== undefined && repository.isFile(candidate)) return [{ specifier, target: { kind: 'file', path: candidate } }];
    }
    const builtin = C_STANDARD_HEADERS.has(header);
    if (!builtin && !this.directories.fromDatabase && !C_SYSTEM_HEADERS.has(header) && !C_SYSTEM_HEADER_FOLDERS.test(header)) {
      // Without a database the build's -I folders are unknown: a header that one file alone of the repository ends with is taken.
      const only = this.headersNamed(repository).uniqueEndingWith(header, repository);
      if (only !== undefined) return [{ specifier, target: { kind: 'file', path: only } }];
    }
    if (angled || builtin) return [{ specifier, target: { kind: 'package', name: `c:${header}`, builtin } }];
    const where = searched.map((directory) => directory || '.').join(', ');
    const target: ImportTarget = { kind: 'unresolved', reason: `no ${header} in ${where}` };
    return [{ specifier, target }];
  }

  dependencyStems(_file: string, reference: ImportReference): string[] {
    const header = reference.specifier.startsWith('<') ? reference.specifier.slice(1, -1) : reference.specifier;
    const last = header.slice(header.lastIndexOf('/') + 1);
    const dot = last.indexOf('.', 1);
    return [dot === -1 ? last : last.slice(0, dot)];
  }

  afterChange(changedPaths: readonly string[], repository: RepositoryFiles): 'all' | string[] {
    this.byName?.update(changedPaths, repository);
    const mayChange = changedPaths.some(
      (changed) => (COMPILATION_DATABASES as readonly string[]).includes(changed) || changed === 'build' || /(?:^|\/)include$/.test(changed),
    );
    if (!mayChange) return [];
    const directories = CIncludeDirectories.discover(this.root, repository);
    if (directories.equals(this.directories)) return [];
    this.directories = directories;
    return 'all';
  }
}

/** The repository's files by their last path segment, kept up to date with the changes. */
class FilesByName {
  private readonly files = new Map<string, Set<string>>();

  constructor(repository: RepositoryFiles) {
    for (const file of repository.filePaths()) this.add(file);
  }

  /** The one file of `repository` whose path ends with `header` (whole segments), or undefined when none or several do. */
  uniqueEndingWith(header: string, repository: RepositoryFiles): string | undefined {
    const normalized = settledPath('', header);
    if (!normalized) return undefined;
    let found: string | undefined;
    for (const file of this.files.get(normalized.slice(normalized.lastIndexOf('/') + 1)) ?? []) {
      // A file of a directory that went away as a whole is still listed here.
      if ((file !== normalized && !file.endsWith(`/${normalized}`)) || !repository.isFile(file)) continue;
      if (found !== undefined) return undefined;
      found = file;
    }
    return found;
  }

  update(changedPaths: readonly string[], repository: RepositoryFiles): void {
    for (const changed of changedPaths) if (repository.isFile(changed)) this.add(changed);
  }

  private add(file: string): void {
    const name = file.slice(file.lastIndexOf('/') + 1);
    const list = this.files.get(name);
    if (list) list.add(file);
    else this.files.set(name, new Set([file]));
  }
}
