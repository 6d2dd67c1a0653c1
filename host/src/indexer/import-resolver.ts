import { statSync } from 'node:fs';
import path from 'node:path';
import { type NapiResolveOptions, ResolverFactory } from 'oxc-resolver';

/** Where a module specifier leads: a file's absolute path, or why nowhere (with paths relative to the repository). */
export type Resolution = { kind: 'file'; path: string } | { kind: 'builtin'; name: string } | { kind: 'unresolved'; reason: string };

const BASE_OPTIONS: NapiResolveOptions = {
  extensions: ['.ts', '.tsx', '.mts', '.cts', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.json', '.node'],
  mainFields: ['module', 'main'],
  builtinModules: true,
  // Keep paths as written, so that an import of a symbolic link leads to the link's node.
  symlinks: false,
};

/**
 * A resolver that looks at the tsconfig's `paths` and `baseUrl` alone: no `node_modules`, no `exports` (a package
 * importing itself by name), no `imports`, no built-ins.
 */
const MAPPED_ONLY: NapiResolveOptions = { modules: [], nodePath: false, exportsFields: [], importsFields: [], builtinModules: false };

/** How a reference loads its module, which decides the `exports` and `imports` conditions that apply. */
export type ModuleSystem = 'import' | 'require';

/** The conditions Node matches for each way of loading; the object's key order in `exports` decides among them. */
const CONDITIONS: Record<ModuleSystem, string[]> = {
  import: ['node', 'import', 'default'],
  require: ['node', 'require', 'default'],
};

/** TypeScript: `./x.js` names the source `x.ts` when there is one. */
const TYPESCRIPT_ALIASES = {
  '.js': ['.ts', '.tsx', '.d.ts', '.js', '.jsx'],
  '.jsx': ['.tsx', '.jsx'],
  '.mjs': ['.mts', '.d.mts', '.mjs'],
  '.cjs': ['.cts', '.d.cts', '.cjs'],
};

/** JavaScript runs on Node: `./x.js` is `x.js` when it exists, its TypeScript source otherwise. */
const JAVASCRIPT_ALIASES = {
  '.js': ['.js', '.jsx', '.ts', '.tsx'],
  '.jsx': ['.jsx', '.tsx'],
  '.mjs': ['.mjs', '.mts'],
  '.cjs': ['.cjs', '.cts'],
};

const JAVASCRIPT_FILE = /\.(c|m)?jsx?$/;

/**
 * An absolute path in one of oxc's messages (`in package /srv/repo/package.json`, `path: "/srv/repo/x.json"`), after a
 * space, a quote or a parenthesis and up to the next of those: `/x` on POSIX, `C:\x` or `\\server\x` on Windows.
 */
const ABSOLUTE_PATH = path.sep === '/' ? /(?<=^|[\s'"(])\/[^\s'"()]*/g : /(?<=^|[\s'"(])(?:[A-Za-z]:|\\)[\\/][^\s'"()]*/g;

/**
 * Resolves module specifiers as TypeScript and Node do, with oxc's resolver:
 * extensions and `.js` specifiers naming `.ts` sources (for TypeScript
 * files), directory `index` files, `tsconfig.json` `paths`/`baseUrl` (the
 * tsconfig nearest the importing file, through `extends`), and `package.json`
 * `exports`/`imports`/`main`. A tsconfig that cannot be read (its `extends`
 * names a package that is not installed) does not stop resolution: the
 * import is resolved again without it. A file that no tsconfig includes
 * gets the `paths` and `baseUrl` of the tsconfig.json nearest to it (see
 * `resolveMappedByNearest`). The reasons it gives name paths
 * relative to the repository: they are served, and the server's own
 * directories are none of a client's business.
 */
export class ImportResolver {
  private readonly base = new ResolverFactory({ ...BASE_OPTIONS, conditionNames: CONDITIONS.import, tsconfig: 'auto', extensionAlias: TYPESCRIPT_ALIASES });
  /** One resolver per language of the importer, module system and use of tsconfig (or for `resolveMapped`); they share one cache. */
  private readonly resolvers = new Map<string, ResolverFactory>([[resolverKey(false, 'import', true), this.base]]);
  /**
   * The resolvers of `resolveMappedByNearest`, by the importer's language and the tsconfig's path. Each has a cache
   * of its own: oxc keeps a configured tsconfig, and the tsconfig found for each file, in its cache, where the
   * resolvers that find theirs would take them for their own.
   */
  private readonly nearestResolvers = new Map<string, ResolverFactory>();
  /** The nearest tsconfig.json at or above a directory of the repository (null: none up to the root). */
  private readonly nearestTsconfigs = new Map<string, string | null>();
  /**
   * What `resolveMappedByNearest` found, by resolver and specifier (null: nothing): a bare specifier's mapping
   * depends on the tsconfig alone, not on the importing file (`paths` and `baseUrl` are relative to the tsconfig,
   * and the resolver looks in no `node_modules`). A monorepo's files ask the same few specifiers thousands of times.
   */
  private readonly nearestMapped = new Map<string, string | null>();

  /** `root`: the repository's absolute path. */
  constructor(private readonly root: string) {}

  /** Forgets what the resolver learnt of the file system (after files were added or removed). */
  clearCache(): void {
    this.base.clearCache();
    this.nearestResolvers.clear();
    this.nearestTsconfigs.clear();
    this.nearestMapped.clear();
  }

  /**
   * Resolves `specifier` as written in the file at absolute path `fromFile`,
   * loaded with `system` (`require()` and `import x = require()`, or any
   * form of `import`). When the conditions of that system lead nowhere, the
   * other system's are tried: a TypeScript file compiled to CommonJS
   * requires what it imports.
   */
  resolve(fromFile: string, specifier: string, system: ModuleSystem = 'import'): Resolution {
    const javascript = JAVASCRIPT_FILE.test(fromFile);
    let tsconfig = true;
    let result = this.resolveWith(javascript, system, tsconfig, fromFile, specifier);
    if (!result.path && !result.builtin && result.error && /tsconfig/i.test(result.error)) {
      tsconfig = false;
      result = this.resolveWith(javascript, system, tsconfig, fromFile, specifier);
    }
    // Conditions apply only to packages and `#imports`, not to paths.
    if (!result.path && !result.builtin && !/^[./]/.test(specifier)) {
      const other = this.resolveWith(javascript, system === 'import' ? 'require' : 'import', tsconfig, fromFile, specifier);
      if (other.path || other.builtin) result = other;
    }
    if (result.builtin) return { kind: 'builtin', name: result.builtin.resolved };
    if (result.path) return { kind: 'file', path: result.path };
    const mapped = this.resolveMappedByNearest(fromFile, specifier);
    if (mapped !== undefined) return { kind: 'file', path: mapped };
    return { kind: 'unresolved', reason: result.error === undefined ? 'not found' : withRelativePaths(result.error, this.root, specifier) };
  }

  /**
   * The file that the `paths` or `baseUrl` of the tsconfig of the file at
   * `fromFile` map `specifier` to, if any. TypeScript tries them before any
   * package (moduleResolution bundler, node16 and nodenext alike), so they
   * win over what a workspace package's `exports` say.
   */
  resolveMapped(fromFile: string, specifier: string): string | undefined {
    const javascript = JAVASCRIPT_FILE.test(fromFile);
    const resolver = this.resolverFor(`${javascript ? 'js' : 'ts'} mapped`, () => ({
      ...BASE_OPTIONS,
      ...MAPPED_ONLY,
      tsconfig: 'auto',
      extensionAlias: javascript ? JAVASCRIPT_ALIASES : TYPESCRIPT_ALIASES,
    }));
    return resolver.resolveFileSync(fromFile, specifier).path ?? this.resolveMappedByNearest(fromFile, specifier);
  }

  /**
   * Where the `paths` and `baseUrl` of the tsconfig.json nearest to the
   * file at `fromFile` (in the repository) map a non-relative `specifier`.
   * oxc gives a file the settings of the nearest tsconfig that includes it,
   * and none when none does, as tsserver does; but such a file (payload's
   * root app/ folder, which Next.js builds beside a tsconfig that includes
   * src/; a .js file where allowJs is off) is built by bundlers with the
   * nearest tsconfig's settings, and editors resolve its imports so. Asked
   * only once what oxc found led nowhere, so a file that a tsconfig does
   * include keeps that one's settings.
   */
  private resolveMappedByNearest(fromFile: string, specifier: string): string | undefined {
    if (/^[./]/.test(specifier) || path.isAbsolute(specifier)) return undefined;
    const tsconfig = this.nearestTsconfig(path.dirname(fromFile));
    if (tsconfig === undefined) return undefined;
    const javascript = JAVASCRIPT_FILE.test(fromFile);
    const key = `${javascript ? 'js' : 'ts'} ${tsconfig}`;
    const known = this.nearestMapped.get(`${key}\0${specifier}`);
    if (known !== undefined) return known ?? undefined;
    let resolver = this.nearestResolvers.get(key);
    if (!resolver) {
      resolver = new ResolverFactory({
        ...BASE_OPTIONS,
        ...MAPPED_ONLY,
        tsconfig: { configFile: tsconfig },
        extensionAlias: javascript ? JAVASCRIPT_ALIASES : TYPESCRIPT_ALIASES,
      });
      this.nearestResolvers.set(key, resolver);
    }
    const found = resolver.resolveFileSync(fromFile, specifier).path;
    this.nearestMapped.set(`${key}\0${specifier}`, found ?? null);
    return found;
  }

  /** The tsconfig.json in `directory` (absolute, in the repository) or the nearest above it up to the root. */
  private nearestTsconfig(directory: string): string | undefined {
    const known = this.nearestTsconfigs.get(directory);
    if (known !== undefined) return known ?? undefined;
    const candidate = path.join(directory, 'tsconfig.json');
    let found: string | undefined;
    if (isFile(candidate)) found = candidate;
    else if (directory.startsWith(this.root + path.sep)) found = this.nearestTsconfig(path.dirname(directory));
    this.nearestTsconfigs.set(directory, found ?? null);
    return found;
  }

  private resolveWith(
    javascript: boolean,
    system: ModuleSystem,
    tsconfig: boolean,
    fromFile: string,
    specifier: string,
  ): ReturnType<ResolverFactory['resolveFileSync']> {
    const resolver = this.resolverFor(resolverKey(javascript, system, tsconfig), () => ({
      ...BASE_OPTIONS,
      conditionNames: CONDITIONS[system],
      extensionAlias: javascript ? JAVASCRIPT_ALIASES : TYPESCRIPT_ALIASES,
      ...(tsconfig && { tsconfig: 'auto' as const }),
    }));
    return resolver.resolveFileSync(fromFile, specifier);
  }

  /** The resolver kept under `key`, made from `options` the first time (sharing the cache of the others). */
  private resolverFor(key: string, options: () => NapiResolveOptions): ResolverFactory {
    let resolver = this.resolvers.get(key);
    if (!resolver) {
      resolver = this.base.cloneWithOptions(options());
      this.resolvers.set(key, resolver);
    }
    return resolver;
  }
}

function resolverKey(javascript: boolean, system: ModuleSystem, tsconfig: boolean): string {
  return `${javascript ? 'js' : 'ts'} ${system} ${tsconfig}`;
}

/**
 * `message` with the absolute paths in it relative to `root` (`/srv/repo/package.json` is `package.json`, the root
 * itself `.`, a path outside it `../x`). An absolute specifier is kept as written.
 */
function withRelativePaths(message: string, root: string, specifier: string): string {
  if (path.isAbsolute(specifier)) {
    return message
      .split(specifier)
      .map((part) => withRelativePaths(part, root, ''))
      .join(specifier);
  }
  // Paths inside the repository first, whose root may hold spaces, as oxc writes them: as they are, and escaped in a
  // quoted Debug string.
  const relative = message.replaceAll(root + path.sep, '').replaceAll(escaped(root + path.sep), '');
  // Then the others: the root itself, and paths outside the repository.
  return relative.replace(
    ABSOLUTE_PATH,
    (absolute) =>
      path
        .relative(root, absolute.replaceAll(escaped(path.sep), path.sep))
        .split(path.sep)
        .join('/') || '.',
  );
}

function isFile(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    // A directory it may not look into.
    return false;
  }
}

/** Text as it is inside a JSON string (and a Rust Debug one): backslashes and quotes escaped. */
function escaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
