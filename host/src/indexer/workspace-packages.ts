import path from 'node:path';
import { readOptional } from './read-optional.js';

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
}

interface WorkspacePackage {
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
/** Conditions of `exports` tried in order: sources first, then what TypeScript and Node pick. */
const CONDITIONS = ['source', 'development', 'types', 'import', 'module', 'node', 'require', 'default'];

/**
 * The npm, yarn and pnpm workspace packages of a repository (and the root
 * package, which may import itself by name). An import of one resolves to its
 * source file in the repository, even when its `main` or `exports` name built
 * output that is not there (a fresh clone) or is ignored.
 */
export class WorkspacePackages {
  private constructor(private readonly byName: Map<string, WorkspacePackage>) {}

  get size(): number {
    return this.byName.size;
  }

  /**
   * Finds the workspace packages among the repository's directories. The
   * YAML and glob libraries are loaded only for a repository that needs them.
   */
  static async discover(root: string, directories: readonly string[], hasFile: (file: string) => boolean): Promise<WorkspacePackages> {
    const byName = new Map<string, WorkspacePackage>();
    const rootManifest = readJson<Manifest>(path.join(root, 'package.json'));
    const patterns: string[] = [];
    const declared = rootManifest?.workspaces;
    if (Array.isArray(declared)) patterns.push(...declared);
    else if (declared && Array.isArray(declared.packages)) patterns.push(...declared.packages);
    const pnpm = readOptional(path.join(root, 'pnpm-workspace.yaml'));
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
    if (rootManifest?.name) candidates.unshift('');
    for (const directory of candidates) {
      const manifest = directory === '' ? rootManifest! : readJson<Manifest>(path.join(root, directory, 'package.json'));
      if (!manifest?.name || (byName.has(manifest.name) && directory === '')) continue;
      const tsconfig = readJson<{ compilerOptions?: { outDir?: string; rootDir?: string } }>(path.join(root, directory, 'tsconfig.json'));
      const options = tsconfig?.compilerOptions;
      const buildMapping = options?.outDir && options.rootDir ? { outDir: clean(options.outDir), rootDir: clean(options.rootDir) } : undefined;
      byName.set(manifest.name, { name: manifest.name, directory, manifest, ...(buildMapping && { buildMapping }) });
    }
    return new WorkspacePackages(byName);
  }

  /** Whether `name` is a workspace package. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /**
   * The repository file an import of workspace package `name` stands for, or
   * a reason when there is none. `subpath` is what follows the name (`''`, `'utils/x'`).
   */
  resolve(name: string, subpath: string, hasFile: (file: string) => boolean): { file: string } | { reason: string } {
    const workspace = this.byName.get(name)!;
    const entries = entryCandidates(workspace.manifest, subpath);
    for (const entry of entries) {
      const file = this.toSource(workspace, entry, hasFile);
      if (file) return { file };
    }
    return { reason: `workspace package ${name} has no source file for ${subpath === '' ? 'its main entry' : `"${subpath}"`} (tried ${entries.slice(0, 6).join(', ')})` };
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

/** The entry paths a package offers for `subpath`, most source-like first. */
function entryCandidates(manifest: Manifest, subpath: string): string[] {
  const candidates: string[] = [];
  const key = subpath === '' ? '.' : `./${subpath}`;
  const exported = manifest.exports;
  if (typeof exported === 'string' || Array.isArray(exported)) {
    if (key === '.') collectTargets(exported, candidates, '');
  } else if (exported && typeof exported === 'object') {
    const map = exported as Record<string, unknown>;
    const hasSubpaths = Object.keys(map).some((k) => k.startsWith('.'));
    if (!hasSubpaths) {
      if (key === '.') collectTargets(map, candidates, '');
    } else if (key in map) {
      collectTargets(map[key], candidates, '');
    } else {
      // Patterns: "./*": "./dist/*.js"; the longest matching prefix wins, as in Node.
      const patterns = Object.keys(map).filter((k) => k.includes('*')).sort((a, b) => b.length - a.length);
      for (const pattern of patterns) {
        const [prefix, suffix] = pattern.split('*') as [string, string];
        if (key.startsWith(prefix) && key.endsWith(suffix) && key.length >= prefix.length + suffix.length) {
          collectTargets(map[pattern], candidates, key.slice(prefix.length, key.length - suffix.length));
          break;
        }
      }
    }
  }
  if (subpath === '') {
    for (const field of [manifest.source, manifest.module, manifest.main, manifest.types, manifest.typings]) if (typeof field === 'string') candidates.push(field);
    candidates.push('src/index', 'index');
  } else {
    candidates.push(subpath, `src/${subpath}`);
  }
  return [...new Set(candidates.map(clean))];
}

function collectTargets(target: unknown, into: string[], star: string): void {
  if (typeof target === 'string') into.push(target.replace(/\*/g, star));
  else if (Array.isArray(target)) for (const item of target) collectTargets(item, into, star);
  else if (target && typeof target === 'object') {
    const conditions = target as Record<string, unknown>;
    for (const condition of CONDITIONS) if (condition in conditions) collectTargets(conditions[condition], into, star);
    for (const [condition, value] of Object.entries(conditions)) if (!CONDITIONS.includes(condition)) collectTargets(value, into, star);
  }
}

function clean(p: string): string {
  return path.posix.normalize(p.replace(/\\/g, '/')).replace(/^\.\//, '').replace(/\/$/, '');
}

/** A JSON file's value, or undefined when it cannot be read or parsed. */
function readJson<T>(file: string): T | undefined {
  const text = readOptional(file);
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
  const matchers = (negated: boolean) => patterns
    .filter((p) => p.startsWith('!') === negated)
    .map((p) => new Minimatch((negated ? p.slice(1) : p).replace(/^\.\//, '').replace(/\/$/, '')));
  const includes = matchers(false);
  const excludes = matchers(true);
  return (directory) => includes.some((m) => m.match(directory)) && !excludes.some((m) => m.match(directory));
}
