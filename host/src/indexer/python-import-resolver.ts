import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ImportTarget, LanguageImportResolver, RepositoryFiles, ResolvedReference } from './language-import-resolver.js';
import { PYTHON_SOURCE } from './python-source-analyzer.js';
import { PYTHON_PROJECT_FILE, PythonSourceRoots } from './python-source-roots.js';
import { PYTHON_STDLIB_MODULES } from './python-stdlib-modules.generated.js';
import { joinPath, parentOf } from './repository-paths.js';
import type { ImportReference } from './source-analyzer.js';

/** What a dotted name is found to be. */
type PythonModule =
  /** A module file (`a/b.py`), or a stub (`a/b.pyi`). */
  | { kind: 'module'; file: string }
  /** A regular package: a directory with an `__init__.py` (or `__init__.pyi`). */
  | { kind: 'package'; file: string; directory: string }
  /** A namespace package (PEP 420): directories of that name without `__init__.py`, in every root that has one. */
  | { kind: 'namespace'; directories: string[] };

/** A file looked for in a directory of the search path: the package's `__init__` (in the directory of the name) or the module file, with an extension. */
type Candidate = readonly [init: boolean, extension: '.py' | '.pyi'];

/** What Python's import system looks for, in its order: a package's `__init__.py` before a module of the same name. */
const RUNTIME: readonly Candidate[] = [
  [true, '.py'],
  [false, '.py'],
];
/** Stubs, where nothing runs: a compiled extension's or a generated module's declarations. */
const STUBS: readonly Candidate[] = [
  [true, '.pyi'],
  [false, '.pyi'],
];
/** What type checkers look for (PEP 561, mypy's order): a stub before the module beside it. */
const STUBS_FIRST: readonly Candidate[] = [
  [true, '.pyi'],
  [true, '.py'],
  [false, '.pyi'],
  [false, '.py'],
];

const INIT_FILE = /^__init__\.pyi?$/;

/**
 * Resolves Python imports as Python's import system does, over the
 * repository's files (nothing is executed, nothing outside the repository is
 * read): absolute names along the search path (the directory the importing
 * file is run from, as `python dir/script.py` and pytest put it first; then
 * the source roots of `PythonSourceRoots`), each
 * directory trying a package (`a/__init__.py`) before a module (`a.py`),
 * and directories without `__init__.py` gathered into a namespace package
 * when nothing else is found; relative names from the importing file's
 * package, never past the top of its source root. `import a.b.c` leads to
 * `a/b/c.py` (or `a/b/c/__init__.py`) alone: Python runs the parents'
 * `__init__.py` too, but an edge to each would make every package's
 * `__init__` a hub that says nothing about the importing file. In
 * `from a.b import name`, a submodule `name` is the edge's target, else the
 * attribute's module (`a/b/__init__.py`). A `.pyi` stub is taken where a
 * `.py` is missing (a compiled extension's, a generated module's), and
 * first for a stub's own imports and for imports under `if TYPE_CHECKING:`,
 * as type checkers take them. A first name not found in the repository is
 * a package node `python:<name>`: built-in when the standard library has it
 * (a namespace directory of the repository does not hide a standard
 * library module, as Python prefers a regular package or module anywhere
 * on its path). A namespace package (no file) gets no edge.
 */
export class PythonImportResolver implements LanguageImportResolver {
  private constructor(
    /** The repository's absolute path (to tell, for an unresolved reason, a file that exists but is not indexed). */
    private readonly root: string,
    private roots: PythonSourceRoots,
  ) {}

  /** A resolver for the repository at `root` (absolute) whose files and directories are `repository`'s. */
  static discover(root: string, repository: RepositoryFiles): PythonImportResolver {
    return new PythonImportResolver(root, PythonSourceRoots.discover(root, repository));
  }

  resolves(file: string): boolean {
    return PYTHON_SOURCE.test(file);
  }

  resolve(file: string, reference: ImportReference, repository: RepositoryFiles): ResolvedReference[] {
    const specifier = reference.specifier;
    const stubsFirst = file.endsWith('.pyi') || reference.kind === 'type-only';
    const dots = leadingDots(specifier);
    const segments = specifier.length > dots ? specifier.slice(dots).split('.') : [];
    let module: PythonModule;
    let next = 0;
    if (dots > 0) {
      const base = this.relativeBase(file, dots);
      if (typeof base !== 'string') return [{ specifier, target: base }];
      module = this.packageAt(base, stubsFirst, repository);
    } else {
      const top = segments[0]!;
      const found = this.findIn(this.searchPathOf(file, repository), top, stubsFirst, repository);
      if (!found || (found.kind === 'namespace' && PYTHON_STDLIB_MODULES.has(top))) return [{ specifier, target: packageTarget(top) }];
      module = found;
      next = 1;
    }
    for (; next < segments.length; next++) {
      const found = this.submodule(module, segments[next]!, stubsFirst, repository);
      if (!found) return [{ specifier, target: this.missing(module, specifier, segments[next]!, dots === 0 ? segments[0] : undefined) }];
      module = found;
    }
    if (!reference.names) return [{ specifier, target: fileTarget(module) }];
    const resolved: ResolvedReference[] = [];
    for (const name of reference.names) {
      const submodule = this.submodule(module, name, stubsFirst, repository);
      const named = specifier.endsWith('.') ? specifier + name : `${specifier}.${name}`;
      if (submodule) resolved.push({ specifier: named, target: fileTarget(submodule) });
      // Not a submodule: an attribute of the module (its `__init__.py`), which Python looks up first at run time.
      else if (module.kind !== 'namespace') resolved.push({ specifier, target: { kind: 'file', path: module.file } });
      else resolved.push({ specifier: named, target: this.missing(module, named, name, dots === 0 ? segments[0] : undefined) });
    }
    return resolved;
  }

  dependencyStems(file: string, reference: ImportReference): string[] {
    const dots = leadingDots(reference.specifier);
    const stems = reference.specifier.length > dots ? reference.specifier.slice(dots).split('.') : [];
    if (reference.names) stems.push(...reference.names);
    if (dots > 0) {
      // `from . import x`: the package itself may gain or lose its `__init__.py`.
      const base = this.relativeBase(file, dots);
      if (typeof base === 'string' && base !== '') stems.push(base.slice(base.lastIndexOf('/') + 1));
    }
    return stems;
  }

  afterChange(changedPaths: readonly string[], repository: RepositoryFiles): 'all' | string[] {
    let rootsMayChange = false;
    /** Directories that gained or lost their `__init__.py`: where the files at or below them are run from changes (`searchPathOf`). */
    const packagesChanged = new Set<string>();
    for (const changed of changedPaths) {
      const name = changed.slice(changed.lastIndexOf('/') + 1);
      const directory = parentOf(changed);
      if (INIT_FILE.test(name)) packagesChanged.add(directory);
      if (PYTHON_PROJECT_FILE.test(changed) || name === 'src' || (INIT_FILE.test(name) && (directory === 'src' || directory.endsWith('/src'))))
        rootsMayChange = true;
    }
    if (rootsMayChange) {
      const roots = PythonSourceRoots.discover(this.root, repository);
      if (!roots.equals(this.roots)) {
        this.roots = roots;
        return 'all';
      }
    }
    if (packagesChanged.size === 0) return [];
    const again: string[] = [];
    const below = [...packagesChanged].map((directory) => (directory === '' ? '' : `${directory}/`));
    for (const file of repository.filePaths()) if (PYTHON_SOURCE.test(file) && below.some((prefix) => file.startsWith(prefix))) again.push(file);
    return again;
  }

  /**
   * Where absolute names of `file` are looked up: first the directory above
   * its topmost regular package (its own directory when it is in none),
   * where it is run from (`python dir/script.py`, `python -m pkg.mod`) and
   * which pytest puts first for a test (its rootdir-based `prepend` mode),
   * then the source roots. Not for a stub, which is never run, nor inside a
   * package root (src/, a configured one), where a directory without
   * `__init__.py` is a namespace package, imported from the root.
   */
  private searchPathOf(file: string, repository: RepositoryFiles): string[] {
    const directory = parentOf(file);
    const roots = this.roots.searchPathFor(directory);
    if (file.endsWith('.pyi')) return roots;
    let base = directory;
    while (base !== '' && this.isPackage(base, repository)) base = parentOf(base);
    const root = this.roots.rootOf(file);
    if (this.roots.isPackageRoot(root) && base !== root && base.startsWith(`${root}/`)) return roots;
    return roots[0] === base ? roots : [base, ...roots.filter((entry) => entry !== base)];
  }

  /** The directory of the package that `dots` leading dots name from `file`, or why there is none (Python's own words). */
  private relativeBase(file: string, dots: number): string | ImportTarget {
    const directory = parentOf(file);
    const root = this.roots.rootOf(file);
    const packagePath = directory === root ? [] : (root === '' ? directory : directory.slice(root.length + 1)).split('/');
    if (packagePath.length === 0) {
      return { kind: 'unresolved', reason: `attempted relative import with no known parent package (${file} is at the top of the source root ${root || '.'})` };
    }
    if (dots > packagePath.length) {
      return { kind: 'unresolved', reason: `attempted relative import beyond top-level package ${joinPath(root, packagePath[0]!)}` };
    }
    return directory
      .split('/')
      .slice(0, directory.split('/').length - (dots - 1))
      .join('/');
  }

  /** The package in `directory` (the base of a relative import): regular with its `__init__`, else a namespace package of that directory. */
  private packageAt(directory: string, stubsFirst: boolean, repository: RepositoryFiles): PythonModule {
    for (const extension of stubsFirst ? ['.pyi', '.py'] : ['.py', '.pyi']) {
      const init = joinPath(directory, `__init__${extension}`);
      if (repository.isFile(init)) return { kind: 'package', file: init, directory };
    }
    return { kind: 'namespace', directories: [directory] };
  }

  private isPackage(directory: string, repository: RepositoryFiles): boolean {
    return repository.isFile(joinPath(directory, '__init__.py')) || repository.isFile(joinPath(directory, '__init__.pyi'));
  }

  /** The submodule `name` of a package (none of a plain module). */
  private submodule(module: PythonModule, name: string, stubsFirst: boolean, repository: RepositoryFiles): PythonModule | undefined {
    if (module.kind === 'module') return undefined;
    return this.findIn(module.kind === 'package' ? [module.directory] : module.directories, name, stubsFirst, repository);
  }

  /** `name` looked up along `directories` as Python's path finder does: the first package or module, else a namespace package of every directory of that name. */
  private findIn(directories: readonly string[], name: string, stubsFirst: boolean, repository: RepositoryFiles): PythonModule | undefined {
    if (stubsFirst) return scan(directories, name, STUBS_FIRST, repository);
    const found = scan(directories, name, RUNTIME, repository);
    if (found && found.kind !== 'namespace') return found;
    const stub = scan(directories, name, STUBS, repository);
    return stub && stub.kind !== 'namespace' ? stub : found;
  }

  /**
   * Why `name` is not found in `module` (as `specifier`): a package node
   * when `module` is an absolute namespace package (installed distributions
   * may hold the rest of it: `google.protobuf` beside a repository's own
   * `google/`), else unresolved, naming a file that exists but is not
   * indexed (ignored, generated: `_version.py`).
   */
  private missing(module: PythonModule, specifier: string, name: string, absoluteTop: string | undefined): ImportTarget {
    if (module.kind === 'namespace' && absoluteTop !== undefined) return packageTarget(absoluteTop);
    if (module.kind === 'module') return { kind: 'unresolved', reason: `no module named '${specifier}': ${module.file} is a module, not a package` };
    const directories = module.kind === 'package' ? [module.directory] : module.directories;
    for (const directory of directories) {
      for (const candidate of [`${joinPath(directory, name)}.py`, joinPath(joinPath(directory, name), '__init__.py'), `${joinPath(directory, name)}.pyi`]) {
        if (existsSync(path.join(this.root, candidate))) return { kind: 'unresolved', reason: `${candidate} is not indexed (ignored or skipped)` };
      }
    }
    return {
      kind: 'unresolved',
      reason: `no module named '${specifier}': no ${name}.py, ${name}/__init__.py or ${name}/ in ${directories.map((directory) => directory || '.').join(', ')}`,
    };
  }
}

/** One pass over `directories` for `name`, trying `candidates` in each; directories of that name without one are a namespace package. */
function scan(directories: readonly string[], name: string, candidates: readonly Candidate[], repository: RepositoryFiles): PythonModule | undefined {
  const portions: string[] = [];
  for (const directory of directories) {
    const base = joinPath(directory, name);
    const isDirectory = repository.isDirectory(base);
    for (const [init, extension] of candidates) {
      if (init) {
        const file = joinPath(base, `__init__${extension}`);
        if (isDirectory && repository.isFile(file)) return { kind: 'package', file, directory: base };
      } else if (repository.isFile(base + extension)) {
        return { kind: 'module', file: base + extension };
      }
    }
    if (isDirectory) portions.push(base);
  }
  return portions.length > 0 ? { kind: 'namespace', directories: portions } : undefined;
}

function fileTarget(module: PythonModule): ImportTarget {
  return module.kind === 'namespace' ? { kind: 'no-file' } : { kind: 'file', path: module.file };
}

/** A module from outside the repository, by its top-level name: the standard library's are built in. */
function packageTarget(top: string): ImportTarget {
  return { kind: 'package', name: `python:${top}`, builtin: PYTHON_STDLIB_MODULES.has(top) };
}

function leadingDots(specifier: string): number {
  let dots = 0;
  while (specifier.charCodeAt(dots) === 0x2e) dots++;
  return dots;
}
