import path from 'node:path';
import type { RepositoryFiles } from './language-import-resolver.js';
import { readOptional } from './read-optional.js';
import { contains, joinPath, parentOf } from './repository-paths.js';

/** Files that declare Go modules and workspaces, and the list of a vendor directory (whose presence turns vendoring on). */
export const GO_MODULE_FILE = /(?:^|\/)(?:go\.(?:mod|work)|vendor\/modules\.txt)$/;

/** A module of the repository: a directory with a `go.mod`. */
export interface GoModule {
  /** Its path, as `module` declares it (`example.com/app`). */
  path: string;
  /** Its directory ('' for the repository's root). */
  directory: string;
  /** The module paths it requires (`require`), for naming the module an external import belongs to. */
  requires: string[];
  /** Its `replace` directives with a local directory (inside the repository) on the right: module path → directory. */
  replaces: Array<[modulePath: string, directory: string]>;
  /** Its `vendor/` directory, when `vendor/modules.txt` is there: the go command builds the other modules' packages from it. */
  vendor: string | undefined;
}

/** A workspace: a directory with a `go.work`, and the module directories it `use`s. */
interface GoWorkspace {
  directory: string;
  uses: string[];
  replaces: Array<[modulePath: string, directory: string]>;
  vendor: string | undefined;
}

/** A place an import path may be found: a module path and the directory that holds it. */
export interface ModuleRoot {
  modulePath: string;
  directory: string;
}

/**
 * The Go modules and workspaces of a repository, from its `go.mod` and
 * `go.work` files (read from disk; nothing is downloaded, the go command is
 * not run). A file belongs to the module of the nearest `go.mod` above it;
 * it is built in workspace mode when the nearest `go.work` above its module
 * `use`s that module (the go command finds `go.work` the same way), and then
 * every module the workspace uses is a main module; else in module mode, its
 * own module alone. The `replace` directives of the main modules (and of the
 * `go.work`) that name a local directory map a module path to that directory.
 */
export class GoModules {
  private readonly byDirectory: ReadonlyMap<string, GoModule>;
  /** Where import paths are looked up from a module's files, by its directory (longest module path first). */
  private readonly rootsByModule = new Map<string, ModuleRoot[]>();

  private constructor(
    private readonly modules: GoModule[],
    private readonly workspaces: GoWorkspace[],
  ) {
    this.byDirectory = new Map(modules.map((module) => [module.directory, module]));
  }

  static discover(root: string, repository: RepositoryFiles): GoModules {
    const modules: GoModule[] = [];
    const workspaces: GoWorkspace[] = [];
    for (const file of repository.filePaths()) {
      if (!GO_MODULE_FILE.test(file) || file.endsWith('.txt')) continue;
      const text = readOptional(root, path.join(root, file));
      if (text === undefined) continue;
      const directory = parentOf(file);
      const directives = directivesOf(text);
      const vendor = repository.isFile(joinPath(directory, 'vendor/modules.txt')) ? joinPath(directory, 'vendor') : undefined;
      if (file.endsWith('.mod')) {
        const modulePath = directives.find(([verb]) => verb === 'module')?.[1][0];
        if (modulePath === undefined) continue;
        modules.push({
          path: modulePath,
          directory,
          requires: directives.filter(([verb, args]) => verb === 'require' && args.length > 0).map(([, args]) => args[0]!),
          replaces: replacesOf(directory, directives),
          vendor,
        });
      } else {
        const uses = directives.filter(([verb, args]) => verb === 'use' && args.length > 0).map(([, args]) => withinRepository(directory, args[0]!));
        workspaces.push({ directory, uses: uses.filter((use): use is string => use !== undefined), replaces: replacesOf(directory, directives), vendor });
      }
    }
    const byPath = (a: { directory: string }, b: { directory: string }): number => (a.directory < b.directory ? -1 : a.directory > b.directory ? 1 : 0);
    return new GoModules(modules.sort(byPath), workspaces.sort(byPath));
  }

  /** Whether these are the same modules and workspaces as `other`'s. */
  equals(other: GoModules): boolean {
    return JSON.stringify([this.modules, this.workspaces]) === JSON.stringify([other.modules, other.workspaces]);
  }

  /** The module of a file or directory: the nearest `go.mod` at or above it. */
  moduleOf(directory: string): GoModule | undefined {
    for (let at = directory; ; at = parentOf(at)) {
      const module = this.byDirectory.get(at);
      if (module || at === '') return module;
    }
  }

  /**
   * Where the import paths of `module`'s files may be found in the
   * repository: the main modules (the workspace's, or `module` alone) and
   * the local directories of their `replace` directives (the workspace's
   * first), longest module path first.
   */
  rootsOf(module: GoModule): ModuleRoot[] {
    let roots = this.rootsByModule.get(module.directory);
    if (roots) return roots;
    const workspace = this.workspaceOf(module);
    const mains = workspace ? workspace.uses.map((use) => this.byDirectory.get(use)).filter((main): main is GoModule => main !== undefined) : [module];
    const found = new Map<string, string>();
    for (const [modulePath, directory] of workspace?.replaces ?? []) if (!found.has(modulePath)) found.set(modulePath, directory);
    for (const main of mains) if (!found.has(main.path)) found.set(main.path, main.directory);
    for (const main of mains) for (const [modulePath, directory] of main.replaces) if (!found.has(modulePath)) found.set(modulePath, directory);
    roots = [...found].map(([modulePath, directory]) => ({ modulePath, directory })).sort((a, b) => b.modulePath.length - a.modulePath.length);
    this.rootsByModule.set(module.directory, roots);
    return roots;
  }

  /** The modules `module` sees as required: its own `require`s, and in a workspace every used module's. */
  requiresOf(module: GoModule): string[] {
    const workspace = this.workspaceOf(module);
    if (!workspace) return module.requires;
    return workspace.uses.flatMap((use) => this.byDirectory.get(use)?.requires ?? []);
  }

  /** The vendor directory the packages of other modules are built from, for `module`'s files: its own, or its workspace's. */
  vendorOf(module: GoModule): string | undefined {
    const workspace = this.workspaceOf(module);
    return workspace ? workspace.vendor : module.vendor;
  }

  /** The workspace `module` is built in: the nearest `go.work` above it, when that uses it. */
  private workspaceOf(module: GoModule): GoWorkspace | undefined {
    let nearest: GoWorkspace | undefined;
    for (const workspace of this.workspaces) {
      if (!contains(workspace.directory, module.directory)) continue;
      if (!nearest || workspace.directory.length > nearest.directory.length) nearest = workspace;
    }
    return nearest?.uses.includes(module.directory) ? nearest : undefined;
  }
}

/**
 * The directives of a `go.mod` or `go.work` as verb and arguments, blocks
 * (`require ( ... )`) opened into one directive per line; comments removed,
 * quoted arguments unquoted.
 */
function directivesOf(text: string): Array<[verb: string, args: string[]]> {
  const directives: Array<[string, string[]]> = [];
  let block: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const words = wordsOf(raw);
    if (words.length === 0) continue;
    if (block !== undefined) {
      if (words[0] === ')') block = undefined;
      else directives.push([block, words]);
    } else if (words[1] === '(' && words.length === 2) {
      block = words[0]!;
    } else {
      directives.push([words[0]!, words.slice(1)]);
    }
  }
  return directives;
}

/** The words of a line, without its `//` comment; `"..."` and `` `...` `` strings as one word each. */
function wordsOf(line: string): string[] {
  const words: string[] = [];
  const word = /"((?:[^"\\]|\\.)*)"|`([^`]*)`|(\/\/.*)|([^\s"`]+)/g;
  for (let match = word.exec(line); match; match = word.exec(line)) {
    if (match[3] !== undefined) break;
    if (match[1] !== undefined) words.push(match[1].replace(/\\(.)/g, '$1'));
    else words.push(match[2] ?? match[4]!);
  }
  return words;
}

/** The `replace` directives whose right side is a local directory inside the repository (`old [v] => ./dir`), as module path → directory. */
function replacesOf(directory: string, directives: Array<[string, string[]]>): Array<[string, string]> {
  const replaces: Array<[string, string]> = [];
  for (const [verb, args] of directives) {
    if (verb !== 'replace') continue;
    const arrow = args.indexOf('=>');
    const target = args[arrow + 1];
    // A local path starts with ./ or ../ (or is absolute); anything else is a module path and version.
    if (arrow < 1 || target === undefined || !/^\.\.?(?:\/|$)/.test(target)) continue;
    const resolved = withinRepository(directory, target);
    if (resolved !== undefined) replaces.push([args[0]!, resolved]);
  }
  return replaces;
}

/** A directory written relative to `directory`, as a repository path ('' for the root); undefined when it leads outside. */
function withinRepository(directory: string, written: string): string | undefined {
  const normalized = path.posix.normalize(path.posix.join(directory || '.', written.replace(/\\/g, '/'))).replace(/\/+$/, '');
  if (normalized === '..' || normalized.startsWith('../') || path.posix.isAbsolute(normalized)) return undefined;
  return normalized === '.' ? '' : normalized;
}
