import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { RepositoryFiles } from './language-import-resolver.js';
import { readOptional } from './read-optional.js';
import { contains, joinPath, parentOf } from './repository-paths.js';

/** Cargo's manifest. */
export const CARGO_MANIFEST = /(?:^|\/)Cargo\.toml$/;

/** A Cargo package of the repository: a directory with a `Cargo.toml` that has a `[package]`. */
interface RustPackage {
  directory: string;
  /** The name of its library crate, as code names it (`-` as `_`; `[lib] name` when given). */
  crateName: string;
  /** Its library's root file (`[lib] path`, else `src/lib.rs`), when it has one in the repository. */
  lib: string | undefined;
  /** The root files of its other crates: binaries, tests, examples, benches, the build script. */
  others: string[];
}

/**
 * The Cargo packages of a repository, from its `Cargo.toml` files (read from
 * disk; cargo is not run) and its file layout, as Cargo finds targets: the
 * library at `[lib] path` or `src/lib.rs`; binaries at `[[bin]] path`,
 * `src/main.rs`, `src/bin/*.rs` and `src/bin/* /main.rs`; `tests/`,
 * `examples/` and `benches/` files (and their `* /main.rs`); `build.rs`.
 * Every package is visible to every other by its crate name, as workspace
 * members and path dependencies are (a name Cargo renames a dependency to
 * is not followed).
 */
export class RustCrates {
  private constructor(private readonly packages: RustPackage[]) {}

  static discover(root: string, repository: RepositoryFiles): RustCrates {
    const files = [...repository.filePaths()];
    const packages: RustPackage[] = [];
    for (const manifest of files.filter((file) => CARGO_MANIFEST.test(file)).sort()) {
      let data: unknown;
      try {
        data = parseToml(readOptional(root, path.join(root, manifest)) ?? '');
      } catch {
        continue;
      }
      const packageName = field(field(data, 'package'), 'name');
      if (typeof packageName !== 'string') continue;
      const directory = parentOf(manifest);
      const lib = field(data, 'lib');
      const libName = field(lib, 'name');
      const libPath = field(lib, 'path');
      const libFile = joinPath(directory, typeof libPath === 'string' ? normalize(libPath) : 'src/lib.rs');
      const others: string[] = [];
      for (const bin of Array.isArray(field(data, 'bin')) ? (field(data, 'bin') as unknown[]) : []) {
        const binPath = field(bin, 'path');
        if (typeof binPath === 'string') others.push(joinPath(directory, normalize(binPath)));
      }
      const prefix = directory === '' ? '' : `${directory}/`;
      for (const file of files) {
        if (!file.startsWith(prefix) || !file.endsWith('.rs')) continue;
        const relative = file.slice(prefix.length);
        if (
          /^(?:src\/main|build)\.rs$|^src\/bin\/[^/]+\.rs$|^src\/bin\/[^/]+\/main\.rs$|^(?:tests|examples|benches)\/(?:[^/]+\.rs|[^/]+\/main\.rs)$/.test(
            relative,
          )
        )
          others.push(file);
      }
      packages.push({
        directory,
        crateName: (typeof libName === 'string' ? libName : packageName).replace(/-/g, '_'),
        lib: repository.isFile(libFile) ? libFile : undefined,
        others: [...new Set(others.filter((file) => repository.isFile(file)))].sort(),
      });
    }
    return new RustCrates(packages);
  }

  equals(other: RustCrates): boolean {
    return JSON.stringify(this.packages) === JSON.stringify(other.packages);
  }

  /** The library root of the crate named `name`, if the repository has one. */
  libraryOf(name: string): string | undefined {
    return this.packages.find((candidate) => candidate.crateName === name && candidate.lib !== undefined)?.lib;
  }

  /**
   * The root file of the crate `file` belongs to: the file itself when it is
   * a crate root; else, in its package (the nearest `Cargo.toml` with a
   * `[package]` above it), the root whose directory is the nearest above the
   * file (the library first); else the file itself (a file of no package).
   */
  crateRootOf(file: string): string {
    const directory = parentOf(file);
    let owner: RustPackage | undefined;
    for (const candidate of this.packages) {
      if (contains(candidate.directory, directory) && (!owner || candidate.directory.length > owner.directory.length)) owner = candidate;
    }
    if (!owner) return file;
    const roots = [...(owner.lib ? [owner.lib] : []), ...owner.others];
    if (roots.includes(file)) return file;
    let best: string | undefined;
    for (const root of roots) {
      const rootDirectory = parentOf(root);
      if (contains(rootDirectory, directory) && (best === undefined || rootDirectory.length > parentOf(best).length)) best = root;
    }
    return best ?? file;
  }
}

function field(value: unknown, key: string): unknown {
  return value && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

function normalize(written: string): string {
  return path.posix.normalize(written.replace(/\\/g, '/')).replace(/^\.\//, '');
}
