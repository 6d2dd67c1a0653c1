import { ResolverFactory } from 'oxc-resolver';

/** Where a module specifier leads. */
export type Resolution =
  | { kind: 'file'; path: string }
  | { kind: 'builtin'; name: string }
  | { kind: 'unresolved'; reason: string };

/**
 * Resolves module specifiers as TypeScript and Node do, with oxc's resolver:
 * extensions and `.js` specifiers naming `.ts` sources, directory `index`
 * files, `tsconfig.json` `paths`/`baseUrl` (found next to the importing file),
 * and `package.json` `exports`/`imports`/`main`.
 */
export class ImportResolver {
  private readonly resolver = new ResolverFactory({
    tsconfig: 'auto',
    extensions: ['.ts', '.tsx', '.mts', '.cts', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.json', '.node'],
    extensionAlias: {
      '.js': ['.ts', '.tsx', '.d.ts', '.js', '.jsx'],
      '.jsx': ['.tsx', '.jsx'],
      '.mjs': ['.mts', '.mjs'],
      '.cjs': ['.cts', '.cjs'],
    },
    conditionNames: ['node', 'import', 'require', 'default'],
    mainFields: ['module', 'main'],
    builtinModules: true,
  });

  /** Forgets what the resolver learnt of the file system (after files were added or removed). */
  clearCache(): void {
    this.resolver.clearCache();
  }

  /** Resolves `specifier` as written in the file at absolute path `fromFile`. */
  resolve(fromFile: string, specifier: string): Resolution {
    const result = this.resolver.resolveFileSync(fromFile, specifier);
    if (result.builtin) return { kind: 'builtin', name: result.builtin.resolved };
    if (result.path) return { kind: 'file', path: result.path };
    return { kind: 'unresolved', reason: result.error ?? 'not found' };
  }
}
