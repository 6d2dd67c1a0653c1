import { ResolverFactory, type NapiResolveOptions } from 'oxc-resolver';

/** Where a module specifier leads. */
export type Resolution =
  | { kind: 'file'; path: string }
  | { kind: 'builtin'; name: string }
  | { kind: 'unresolved'; reason: string };

const BASE_OPTIONS: NapiResolveOptions = {
  extensions: ['.ts', '.tsx', '.mts', '.cts', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.json', '.node'],
  conditionNames: ['node', 'import', 'require', 'default'],
  mainFields: ['module', 'main'],
  builtinModules: true,
  // Keep paths as written, so that an import of a symbolic link leads to the link's node.
  symlinks: false,
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
 * Resolves module specifiers as TypeScript and Node do, with oxc's resolver:
 * extensions and `.js` specifiers naming `.ts` sources (for TypeScript
 * files), directory `index` files, `tsconfig.json` `paths`/`baseUrl` (the
 * tsconfig nearest the importing file, through `extends`), and `package.json`
 * `exports`/`imports`/`main`. A tsconfig that cannot be read (its `extends`
 * names a package that is not installed) does not stop resolution: the
 * import is resolved again without it.
 */
export class ImportResolver {
  private readonly typescript = new ResolverFactory({ ...BASE_OPTIONS, tsconfig: 'auto', extensionAlias: TYPESCRIPT_ALIASES });
  private readonly javascript = this.typescript.cloneWithOptions({ ...BASE_OPTIONS, tsconfig: 'auto', extensionAlias: JAVASCRIPT_ALIASES });
  private readonly typescriptWithoutTsconfig = this.typescript.cloneWithOptions({ ...BASE_OPTIONS, extensionAlias: TYPESCRIPT_ALIASES });
  private readonly javascriptWithoutTsconfig = this.typescript.cloneWithOptions({ ...BASE_OPTIONS, extensionAlias: JAVASCRIPT_ALIASES });

  /** Forgets what the resolver learnt of the file system (after files were added or removed). */
  clearCache(): void {
    this.typescript.clearCache();
  }

  /** Resolves `specifier` as written in the file at absolute path `fromFile`. */
  resolve(fromFile: string, specifier: string): Resolution {
    const isJavaScript = JAVASCRIPT_FILE.test(fromFile);
    let result = (isJavaScript ? this.javascript : this.typescript).resolveFileSync(fromFile, specifier);
    if (!result.path && !result.builtin && result.error && /tsconfig/i.test(result.error)) {
      result = (isJavaScript ? this.javascriptWithoutTsconfig : this.typescriptWithoutTsconfig).resolveFileSync(fromFile, specifier);
    }
    if (result.builtin) return { kind: 'builtin', name: result.builtin.resolved };
    if (result.path) return { kind: 'file', path: result.path };
    return { kind: 'unresolved', reason: result.error ?? 'not found' };
  }
}
