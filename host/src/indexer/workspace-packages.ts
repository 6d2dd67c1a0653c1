import { isBuiltin } from 'node:module';
import path from 'node:path';
import type { ModuleSystem } from './import-resolver.js';
import { readOptional } from './read-optional.js';
import { parentOf } from './repository-paths.js';

/** The parts of a package.json that say where its code is. */
interface Manifest {
  name?: string;
  exports?: unknown;
  source?: string;
  module?: string;
  main?: string;
  types?: string;
  typings?: string;
  workspaces?: string[] | { packages?: string[] };
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
  peerDependencies?: Record<string, unknown>;
  optionalDependencies?: Record<string, unknown>;
}

/** The fields of a manifest that declare dependencies, in the order a package manager reads them. */
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;
/** A dependency installed from a directory: `file:../x`, `link:./x`, `portal:x`, and yarn's `workspace:./x`. */
const DIRECTORY_DEPENDENCY = /^(?:file|link|portal|workspace(?=:\.)):(.+)$/;
/** pnpm's and yarn's alias of a workspace package: `"alias": "workspace:real-name@*"`. */
const WORKSPACE_ALIAS = /^workspace:((?:@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*)@/i;

export interface WorkspacePackage {
  name: string;
  /** Repository-relative directory ('' for the root package). */
  directory: string;
  manifest: Manifest;
  /** `outDir` → `rootDir` of the package's tsconfig.json, when both are set. */
  buildMapping?: { outDir: string; rootDir: string };
}

/** Extensions tried for a source file, in TypeScript's order. */
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
/** Extensions of built output that stand for a source file. */
const OUTPUT_EXTENSION = /(\.d)?\.(m|c)?(js|ts)x?$/;
/** Directory names build output usually goes to. */
const OUTPUT_DIRECTORIES = new Set(['dist', 'build', 'lib', 'out', 'esm', 'cjs', 'es', 'types', 'dts']);
/**
 * Conditions of `exports` tried in order, for each way of loading: sources
 * first, then what TypeScript and Node pick; the other system's last, for an
 * entry that only has those.
 */
const CONDITIONS: Record<ModuleSystem, string[]> = {
  import: ['source', 'development', 'types', 'import', 'module', 'node', 'default', 'require'],
  require: ['source', 'development', 'types', 'require', 'node', 'default', 'import', 'module'],
};

/**
 * The npm, yarn and pnpm workspace packages of a repository (and the root
 * package, which may import itself by name). An import of one resolves to its
 * source file in the repository, even when its `main` or `exports` name built
 * output that is not there (a fresh clone) or is ignored.
 */
export class WorkspacePackages {
  /** The package each directory belongs to (the nearest package.json at or above it; null: none), found on demand. */
  private readonly ownerOf = new Map<string, WorkspacePackage | null>();
  /** The package in each directory (null: none): the workspace packages, and others read on demand. */
  private readonly byDirectory: Map<string, WorkspacePackage | null>;

  private constructor(
    private readonly root: string,
    /** Every package of each name, in the order found: names can repeat (test fixtures, examples). */
    private readonly byName: Map<string, WorkspacePackage[]>,
    packages: WorkspacePackage[],
  ) {
    this.byDirectory = new Map(packages.map((workspace) => [workspace.directory, workspace]));
  }

  get size(): number {
    return this.byName.size;
  }

  /**
   * Finds the workspace packages among the repository's directories. The
   * YAML and glob libraries are loaded only for a repository that needs them.
   */
  static async discover(root: string, directories: readonly string[], hasFile: (file: string) => boolean): Promise<WorkspacePackages> {
    const rootManifest = readJson<Manifest>(root, path.join(root, 'package.json'));
    const patterns: string[] = [];
    const declared = rootManifest?.workspaces;
    if (Array.isArray(declared)) patterns.push(...declared);
    else if (declared && Array.isArray(declared.packages)) patterns.push(...declared.packages);
    const pnpm = readOptional(root, path.join(root, 'pnpm-workspace.yaml'));
    if (pnpm !== undefined) {
      try {
        const { parse: parseYaml } = await import('yaml');
        const parsed = parseYaml(pnpm) as { packages?: unknown } | null;
        if (Array.isArray(parsed?.packages)) patterns.push(...parsed.packages.filter((p): p is string => typeof p === 'string'));
      } catch {
        // A broken pnpm-workspace.yaml declares nothing.
      }
    }
    const isWorkspace = await workspaceMatcher(patterns);
    const candidates = directories.filter((d) => isWorkspace(d) && hasFile(`${d}/package.json`));
    const packages: WorkspacePackage[] = [];
    if (rootManifest?.name) packages.push(workspacePackage(root, '', rootManifest.name, rootManifest));
    for (const directory of candidates) {
      const manifest = readJson<Manifest>(root, path.join(root, directory, 'package.json'));
      if (manifest?.name) packages.push(workspacePackage(root, directory, manifest.name, manifest));
    }
    const byName = new Map<string, WorkspacePackage[]>();
    for (const workspace of packages) {
      const named = byName.get(workspace.name);
      if (named) named.push(workspace);
      else byName.set(workspace.name, [workspace]);
    }
    return new WorkspacePackages(root, byName, packages);
  }

  /**
   * The package of the repository an import of package `name` from the file
   * `importer` (a repository path) leads to, or undefined when it is not one
   * of them. What the nearest package.json above the importer that declares
   * the name says decides (as Node looks in each `node_modules` up from the
   * importer): a directory dependency (`"name": "file:../x"`, under any
   * name) leads to that directory's package, a workspace alias
   * (`"workspace:other@*"`) to the workspace package `other`, an npm alias
   * (`"npm:other@1"`) to no workspace package. Otherwise the package of that
   * name; when several packages share it, the one nearest to the importer.
   * Node's own modules (`fs`, `stream`) are never packages of the repository.
   */
  find(importer: string, name: string, hasFile: (file: string) => boolean): WorkspacePackage | undefined {
    // Node loads its own module before any package of that name.
    if (isBuiltin(name)) return undefined;
    // As Node looks in each node_modules from the importer up: the nearest package.json that declares the name.
    const above = (directory: string): WorkspacePackage | undefined => (directory === '' ? undefined : this.owner(parentOf(directory), hasFile));
    for (let owner = this.owner(parentOf(importer), hasFile); owner; owner = above(owner.directory)) {
      const declared = declaredDependency(owner.manifest, name);
      if (declared === undefined) continue;
      if (typeof declared === 'string') {
        const directory = DIRECTORY_DEPENDENCY.exec(declared)?.[1];
        const aliased = WORKSPACE_ALIAS.exec(declared)?.[1];
        if (directory !== undefined) {
          const found = this.packageAt(clean(path.posix.join(owner.directory, directory)), hasFile);
          if (found) return found;
        } else if (aliased !== undefined) {
          return this.nearestNamed(aliased, importer);
        } else if (declared.startsWith('npm:')) {
          return undefined;
        }
      }
      break;
    }
    return this.nearestNamed(name, importer);
  }

  /** The workspace package named `name`; when several are, the one nearest to the importer. */
  private nearestNamed(name: string, importer: string): WorkspacePackage | undefined {
    const named = this.byName.get(name);
    if (!named) return undefined;
    if (named.length === 1) return named[0];
    let nearest = named[0]!;
    let shared = -1;
    for (const candidate of named) {
      const length = sharedDirectoryLength(candidate.directory, importer);
      if (length > shared) {
        shared = length;
        nearest = candidate;
      }
    }
    return nearest;
  }

  /**
   * The repository file an import of `workspace` stands for, or a reason
   * when there is none. `subpath` is what follows the package name (`''`,
   * `'utils/x'`); `system` decides between its `import` and `require` entries.
   */
  resolve(workspace: WorkspacePackage, subpath: string, system: ModuleSystem, hasFile: (file: string) => boolean): { file: string } | { reason: string } {
    const entries = entryCandidates(workspace.manifest, subpath, system);
    for (const entry of entries) {
      const file = this.toSource(workspace, entry, hasFile);
      if (file) return { file };
    }
    const at = workspace.directory === '' ? 'the repository root' : workspace.directory;
    return {
      reason: `workspace package ${workspace.name} (${at}) has no source file for ${subpath === '' ? 'its main entry' : `"${subpath}"`} (tried ${entries.slice(0, 6).join(', ')})`,
    };
  }

  /** The package whose package.json is nearest at or above a directory: its dependencies are the ones installed for it. */
  private owner(directory: string, hasFile: (file: string) => boolean): WorkspacePackage | undefined {
    const known = this.ownerOf.get(directory);
    if (known !== undefined) return known ?? undefined;
    const found = this.packageAt(directory, hasFile) ?? (directory === '' ? undefined : this.owner(parentOf(directory), hasFile));
    this.ownerOf.set(directory, found ?? null);
    return found;
  }

  /** The package whose package.json is in a repository directory, read once. */
  private packageAt(directory: string, hasFile: (file: string) => boolean): WorkspacePackage | undefined {
    if (directory.startsWith('../')) return undefined;
    const known = this.byDirectory.get(directory);
    if (known !== undefined) return known ?? undefined;
    const manifest = hasFile(directory === '' ? 'package.json' : `${directory}/package.json`)
      ? readJson<Manifest>(this.root, path.join(this.root, directory, 'package.json'))
      : undefined;
    const found = manifest ? workspacePackage(this.root, directory, typeof manifest.name === 'string' ? manifest.name : directory, manifest) : undefined;
    this.byDirectory.set(directory, found ?? null);
    return found;
  }

  /** Maps an entry of a package (maybe built output) to an indexed source file. */
  private toSource(workspace: WorkspacePackage, entry: string, hasFile: (file: string) => boolean): string | undefined {
    const join = (relative: string): string => path.posix.join(workspace.directory, relative);
    const withoutExtension = entry.replace(OUTPUT_EXTENSION, '');
    const bases = [withoutExtension];
    const mapping = workspace.buildMapping;
    if (mapping && (withoutExtension === mapping.outDir || withoutExtension.startsWith(`${mapping.outDir}/`))) {
      bases.unshift(path.posix.join(mapping.rootDir, withoutExtension.slice(mapping.outDir.length)));
    }
    const [first, ...rest] = withoutExtension.split('/');
    if (first && OUTPUT_DIRECTORIES.has(first)) bases.push(['src', ...rest].join('/'), rest.join('/'));
    // A source file is preferred over the built file the entry names.
    for (const base of bases) {
      for (const extension of SOURCE_EXTENSIONS) if (hasFile(join(base + extension))) return join(base + extension);
      for (const extension of SOURCE_EXTENSIONS) if (hasFile(join(`${base}/index${extension}`))) return join(`${base}/index${extension}`);
    }
    return hasFile(join(entry)) ? join(entry) : undefined;
  }
}

function workspacePackage(root: string, directory: string, name: string, manifest: Manifest): WorkspacePackage {
  const tsconfig = readJson<{ compilerOptions?: { outDir?: string; rootDir?: string } }>(root, path.join(root, directory, 'tsconfig.json'));
  const options = tsconfig?.compilerOptions;
  const buildMapping = options?.outDir && options.rootDir ? { outDir: clean(options.outDir), rootDir: clean(options.rootDir) } : undefined;
  return { name, directory, manifest, ...(buildMapping && { buildMapping }) };
}

/** What a manifest declares for dependency `name` (a version range, `workspace:*`, `file:../x`), if anything. */
function declaredDependency(manifest: Manifest, name: string): unknown {
  for (const field of DEPENDENCY_FIELDS) {
    const dependencies = manifest[field];
    if (dependencies && typeof dependencies === 'object' && Object.hasOwn(dependencies, name)) return dependencies[name];
  }
  return undefined;
}

/** How many leading path segments two repository paths share. */
function sharedDirectoryLength(directory: string, file: string): number {
  if (directory === '') return 0;
  const a = directory.split('/');
  const b = file.split('/');
  let shared = 0;
  while (shared < a.length && shared < b.length - 1 && a[shared] === b[shared]) shared++;
  return shared;
}

/** The entry paths a package offers for `subpath`, most source-like first. */
function entryCandidates(manifest: Manifest, subpath: string, system: ModuleSystem): string[] {
  const candidates: string[] = [];
  const key = subpath === '' ? '.' : `./${subpath}`;
  const exported = manifest.exports;
  if (typeof exported === 'string' || Array.isArray(exported)) {
    if (key === '.') collectTargets(exported, candidates, '', system);
  } else if (exported && typeof exported === 'object') {
    const map = exported as Record<string, unknown>;
    const hasSubpaths = Object.keys(map).some((k) => k.startsWith('.'));
    if (!hasSubpaths) {
      if (key === '.') collectTargets(map, candidates, '', system);
    } else if (key in map) {
      collectTargets(map[key], candidates, '', system);
    } else {
      // Patterns: "./*": "./dist/*.js"; the longest matching prefix wins, as in Node.
      const patterns = Object.keys(map)
        .filter((k) => k.includes('*'))
        .sort((a, b) => b.length - a.length);
      for (const pattern of patterns) {
        const [prefix, suffix] = pattern.split('*') as [string, string];
        if (key.startsWith(prefix) && key.endsWith(suffix) && key.length >= prefix.length + suffix.length) {
          collectTargets(map[pattern], candidates, key.slice(prefix.length, key.length - suffix.length), system);
          break;
        }
      }
    }
  }
  if (subpath === '') {
    for (const field of [manifest.source, manifest.module, manifest.main, manifest.types, manifest.typings])
      if (typeof field === 'string') candidates.push(field);
    candidates.push('src/index', 'index');
  } else {
    candidates.push(subpath, `src/${subpath}`);
  }
  return [...new Set(candidates.map(clean))];
}

function collectTargets(target: unknown, into: string[], star: string, system: ModuleSystem): void {
  if (typeof target === 'string') into.push(target.replace(/\*/g, star));
  else if (Array.isArray(target)) for (const item of target) collectTargets(item, into, star, system);
  else if (target && typeof target === 'object') {
    const conditions = target as Record<string, unknown>;
    const order = CONDITIONS[system];
    for (const condition of order) if (condition in conditions) collectTargets(conditions[condition], into, star, system);
    for (const [condition, value] of Object.entries(conditions)) if (!order.includes(condition)) collectTargets(value, into, star, system);
  }
}

function clean(p: string): string {
  return path.posix.normalize(p.replace(/\\/g, '/')).replace(/^\.\//, '').replace(/\/$/, '');
}

/** A JSON file's value, or undefined when it cannot be read or parsed. */
function readJson<T>(root: string, file: string): T | undefined {
  const text = readOptional(root, file);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** Whether a directory is one the workspace patterns name (patterns starting with `!` exclude). */
async function workspaceMatcher(patterns: readonly string[]): Promise<(directory: string) => boolean> {
  if (patterns.length === 0) return () => false;
  const { Minimatch } = await import('minimatch');
  const matchers = (negated: boolean) =>
    patterns.filter((p) => p.startsWith('!') === negated).map((p) => new Minimatch((negated ? p.slice(1) : p).replace(/^\.\//, '').replace(/\/$/, '')));
  const includes = matchers(false);
  const excludes = matchers(true);
  return (directory) => includes.some((m) => m.match(directory)) && !excludes.some((m) => m.match(directory));
}
