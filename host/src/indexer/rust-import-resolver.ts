import path from 'node:path';
import type { ImportTarget, LanguageImportResolver, RepositoryFiles, ResolvedReference } from './language-import-resolver.js';
import { joinPath, parentOf } from './repository-paths.js';
import { CARGO_MANIFEST, RustCrates } from './rust-crates.js';
import { EXTERN_CRATE, MOD_DECLARATION, RUST_SOURCE } from './rust-source-analyzer.js';
import type { ImportReference } from './source-analyzer.js';

/** The crates that come with the compiler. */
const BUILTIN_CRATES = new Set(['std', 'core', 'alloc', 'proc_macro', 'test']);

/** A module found on the way along a path: the file that defines it, and the directory its `mod` children are in. */
interface ModuleAt {
  file: string;
  directory: string;
}

/**
 * Resolves Rust's module references as rustc finds module files, over the
 * repository's files (nothing is compiled; cargo is not run). `mod name;`
 * leads to `name.rs` or `name/mod.rs` in the declaring module's directory:
 * a crate root's or a `mod.rs`'s own directory, else (the 2018 rule) the
 * directory named after the file (`a.rs` declaring `mod b;` means
 * `a/b.rs`), with the inline modules around the declaration as directories
 * below it; `#[path = "p"]` is relative to the file's directory (to the
 * inline modules' directory inside one). A `use` path leads to the file of
 * the module it names, the last segment with a module file: `crate::a::b::Name`
 * to `a/b.rs` (or `a/b/mod.rs`), or to `a.rs` when `b` is an item (or an
 * inline module) of it; `crate` starts at the crate's root (`src/lib.rs`,
 * `src/main.rs`, the target's file), `self` and `super` at the file's
 * module and its parent. A first name that is a child module of the file's
 * module is that module (2018's uniform paths), and one starting with an
 * upper-case letter an item of it (`use Kind::*` of an enum: crate names
 * are snake case); else a crate of the
 * repository by its name (`-` as `_`) leads to its library's root, and
 * any other crate is a package node `rust:<name>`, built in for `std`,
 * `core`, `alloc`, `proc_macro` and `test`. Modules are found by the
 * default layout: a `use` through a module that a `#[path]` put elsewhere
 * stops at the last module file the layout finds.
 */
export class RustImportResolver implements LanguageImportResolver {
  private constructor(
    private readonly root: string,
    private crates: RustCrates,
  ) {}

  static discover(root: string, repository: RepositoryFiles): RustImportResolver {
    return new RustImportResolver(root, RustCrates.discover(root, repository));
  }

  resolves(file: string): boolean {
    return RUST_SOURCE.test(file);
  }

  resolve(file: string, reference: ImportReference, repository: RepositoryFiles): ResolvedReference[] {
    return [{ specifier: reference.specifier, target: this.target(file, reference, repository) }];
  }

  dependencyStems(_file: string, reference: ImportReference): string[] {
    const declared = MOD_DECLARATION.exec(reference.specifier);
    // A module's file may be `name.rs` or `name/mod.rs`; crate roots (`lib.rs`, `main.rs`) start `crate::` paths.
    if (declared) return declared[1] !== undefined ? [path.posix.basename(declared[1]).replace(/\.rs$/, '')] : [declared[2]!, 'mod'];
    const crate = EXTERN_CRATE.exec(reference.specifier);
    if (crate) return [crate[1]!, 'lib'];
    return [...reference.specifier.split('::').filter((segment) => segment !== ''), 'mod', 'lib', 'main'];
  }

  afterChange(changedPaths: readonly string[], repository: RepositoryFiles): 'all' | string[] {
    // A crate's targets are files: one that comes or goes (a src/lib.rs, a src/bin/x.rs) may change which root a file has.
    if (
      changedPaths.some(
        (changed) => CARGO_MANIFEST.test(changed) || /(?:^|\/)(?:lib|main|build)\.rs$|\/(?:bin|tests|examples|benches)\/[^/]+(?:\.rs)?$/.test(changed),
      )
    ) {
      const crates = RustCrates.discover(this.root, repository);
      if (!crates.equals(this.crates)) {
        this.crates = crates;
        return 'all';
      }
    }
    return [];
  }

  private target(file: string, reference: ImportReference, repository: RepositoryFiles): ImportTarget {
    const scope = reference.scope ?? [];
    const declared = MOD_DECLARATION.exec(reference.specifier);
    if (declared) {
      const [, pathAttribute, name] = declared;
      if (pathAttribute !== undefined) {
        const base = scope.length === 0 ? parentOf(file) : joinPath(this.moduleDirectory(file), scope.join('/'));
        const target = path.posix.normalize(joinPath(base, pathAttribute));
        if (target.startsWith('../') || path.posix.isAbsolute(target))
          return { kind: 'unresolved', reason: `#[path = "${pathAttribute}"] leads outside the repository` };
        return repository.isFile(target) ? { kind: 'file', path: target } : { kind: 'unresolved', reason: `file not found for module ${name}: no ${target}` };
      }
      const directory = joinPath(this.moduleDirectory(file), scope.join('/'));
      const found = moduleFile(directory, name!, repository);
      if (found) return { kind: 'file', path: found.file };
      const shown = directory === '' ? '' : `${directory}/`;
      return { kind: 'unresolved', reason: `file not found for module ${name}: no ${shown}${name}.rs or ${shown}${name}/mod.rs` };
    }
    const crate = EXTERN_CRATE.exec(reference.specifier);
    if (crate) return this.crateTarget(crate[1]!, [], repository);
    const segments = reference.specifier.split('::');
    const crateRoot = this.crates.crateRootOf(file);
    const rootModule: ModuleAt = { file: crateRoot, directory: parentOf(crateRoot) };
    const current = [...this.modulePath(file, crateRoot), ...scope];
    const first = segments[0]!;
    if (first === '') return this.crateTarget(segments[1] ?? '', segments.slice(2), repository);
    if (first === 'crate') return { kind: 'file', path: walk(rootModule, segments.slice(1), repository).file };
    if (first === 'self' || first === 'super') {
      let supers = 0;
      while (segments[supers] === 'super') supers++;
      if (supers > current.length)
        return { kind: 'unresolved', reason: `there are too many leading super keywords (${file} is ${current.length} modules below its crate's root)` };
      const base = walk(rootModule, current.slice(0, current.length - supers), repository);
      return { kind: 'file', path: walk(base, segments.slice(supers === 0 ? 1 : supers), repository).file };
    }
    // 2018's uniform paths: a child module of the file's module comes before a crate of that name.
    const here = walk(rootModule, current, repository);
    if (moduleFile(here.directory, first, repository)) return { kind: 'file', path: walk(here, segments, repository).file };
    // A type's name (`use Kind::*` of an enum declared here): crate names are snake case, so an item of the module.
    if (/^\p{Lu}/u.test(first)) return { kind: 'file', path: here.file };
    return this.crateTarget(first, segments.slice(1), repository);
  }

  /** A crate by name: the repository's library of that name (and the path below it), else a package node. */
  private crateTarget(name: string, rest: string[], repository: RepositoryFiles): ImportTarget {
    const lib = this.crates.libraryOf(name);
    if (lib) return { kind: 'file', path: walk({ file: lib, directory: parentOf(lib) }, rest, repository).file };
    return { kind: 'package', name: `rust:${name}`, builtin: BUILTIN_CRATES.has(name) };
  }

  /** The directory where `file`'s `mod` declarations are found: its own for a crate root or a `mod.rs`, else the directory named after it. */
  private moduleDirectory(file: string): string {
    const name = file.slice(file.lastIndexOf('/') + 1);
    if (name === 'mod.rs' || this.crates.crateRootOf(file) === file) return parentOf(file);
    return joinPath(parentOf(file), name.replace(/\.rs$/, ''));
  }

  /** The module path of `file` in its crate, from the layout (`src/a/b.rs` and `src/a/b/mod.rs` are `a::b` of `src/lib.rs`). */
  private modulePath(file: string, crateRoot: string): string[] {
    if (file === crateRoot) return [];
    const rootDirectory = parentOf(crateRoot);
    const relative = (rootDirectory === '' ? file : file.slice(rootDirectory.length + 1)).replace(/\.rs$/, '').split('/');
    if (relative.at(-1) === 'mod') relative.pop();
    return relative;
  }
}

/** `name.rs`, else `name/mod.rs`, in `directory`: the module's file and the directory of its children. */
function moduleFile(directory: string, name: string, repository: RepositoryFiles): ModuleAt | undefined {
  const file = joinPath(directory, `${name}.rs`);
  if (repository.isFile(file)) return { file, directory: joinPath(directory, name) };
  const modRs = joinPath(directory, `${name}/mod.rs`);
  if (repository.isFile(modRs)) return { file: modRs, directory: joinPath(directory, name) };
  return undefined;
}

/**
 * Follows `segments` down from a module by the default layout: each segment
 * with a module file is that module; one with only a directory is an inline
 * module whose children may have files; one with neither is an item (or an
 * inline module without files), and the path stops at the last module file.
 */
function walk(start: ModuleAt, segments: readonly string[], repository: RepositoryFiles): ModuleAt {
  let found = start;
  let directory = start.directory;
  for (const segment of segments) {
    if (segment === 'self' || segment === '*') continue;
    const module = moduleFile(directory, segment, repository);
    if (module) {
      found = module;
      directory = module.directory;
    } else if (repository.isDirectory(joinPath(directory, segment))) {
      directory = joinPath(directory, segment);
    } else {
      break;
    }
  }
  return found;
}
