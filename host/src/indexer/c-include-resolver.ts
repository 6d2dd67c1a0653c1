import { C_FAMILY_SOURCE } from './c-family-source-analyzer.js';
import { CIncludeDirectories, COMPILATION_DATABASES } from './c-include-directories.js';
import { C_STANDARD_HEADERS } from './c-standard-headers.js';
import type { ImportTarget, LanguageImportResolver, RepositoryFiles, ResolvedReference } from './language-import-resolver.js';
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
 * the guesses miss).
 */
export class CIncludeResolver implements LanguageImportResolver {
  private constructor(
    private readonly root: string,
    private directories: CIncludeDirectories,
  ) {}

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
    const searched = angled ? includePath.angle : [directoryOf(file), ...includePath.quote, ...includePath.angle];
    for (const directory of searched) {
      const candidate = joinPath(directory, header);
      if (candidate !== undefined && repository.isFile(candidate)) return [{ specifier, target: { kind: 'file', path: candidate } }];
    }
    const builtin = C_STANDARD_HEADERS.has(header);
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

function directoryOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash === -1 ? '' : file.slice(0, slash);
}

/** `header` in `directory`, with `.` and `..` settled; undefined when it leads outside the repository. */
function joinPath(directory: string, header: string): string | undefined {
  const segments = directory === '' ? [] : directory.split('/');
  for (const segment of header.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  return segments.join('/');
}
