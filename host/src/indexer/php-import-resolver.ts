import { type AutoloadRule, ComposerAutoload, normalize } from './composer-autoload.js';
import type { ImportTarget, LanguageImportResolver, RepositoryFiles, ResolvedReference } from './language-import-resolver.js';
import { builtinPackageOfClass } from './php-builtin-classes.js';
import { PHP_SOURCE } from './php-source-analyzer.js';
import { specifierStem } from './repository-graph-model.js';
import { parentOf } from './repository-paths.js';
import type { ImportReference } from './source-analyzer.js';

/** An include from the file's directory as the analyzer writes it: `__DIR__ . '/x.php'`, `dirname(__DIR__, 2) . '/x.php'`. */
const ANCHORED = /^(?:__DIR__|dirname\(__DIR__, (\d+)\)) \. '(.*)'$/s;
/** Paths whose change may change the autoload rules: the manifests, and an installed vendor's list when the graph holds it. */
const AUTOLOAD_FILES = /(?:^|\/)(?:composer\.json|installed\.json)$/;

/**
 * Resolves PHP's includes and `use` declarations over the repository's
 * files (PHP is not run). An include of `__DIR__ . '/x.php'` (or
 * `dirname(__FILE__)`, `dirname(__DIR__, n)`) leads to that path from the
 * file's directory; a literal relative path (`x.php`, `./x.php`,
 * `../x.php`), which PHP looks up along `include_path` and in the working
 * directory, is looked for in the file's directory, then from the
 * repository's root (where a front controller usually runs); not found,
 * or absolute, or through a stream wrapper (`phar://`), it is unresolved,
 * as is a computed path (a variable, a constant). `use A\B\C` leads to the
 * class's file by Composer's autoload rules (`ComposerAutoload`): PHP's own
 * classes first (PHP never autoloads them: `pkg:php:ext-date`, built in),
 * then PSR-4 (the longest prefix first: `A\B\` → `src/` means
 * `src/C.php`) and PSR-0 (`A\B_C` → `<dir>/A/B/C.php`), then a directory
 * the name maps to (`use App\Models;` imports a namespace), then the
 * installed package whose prefix it has (`pkg:php:monolog/monolog`), or
 * without a `vendor/`, the required package its namespace names
 * (`GuzzleHttp\Psr7\Uri`: `pkg:php:guzzlehttp/psr7`); a name under one of
 * the repository's own prefixes that has no file is unresolved, and any
 * other is a package node named by its first segment (`pkg:php:Symfony`). `use function A\f` and `use const A\C` lead to the
 * autoload `files` of the manifests whose prefixes cover `A\` (Composer
 * does not autoload functions), else to a package as a class would; a
 * global function or constant (`use function strlen`) is PHP's
 * (`pkg:php:php`, built in).
 */
export class PhpImportResolver implements LanguageImportResolver {
  /** Namespace directories that `use` declarations looked up → the files whose declarations did. */
  private readonly importersByDirectory = new Map<string, Set<string>>();

  private constructor(
    private readonly root: string,
    private autoload: ComposerAutoload,
  ) {}

  static discover(root: string, repository: RepositoryFiles): PhpImportResolver {
    return new PhpImportResolver(root, ComposerAutoload.discover(root, repository));
  }

  resolves(file: string): boolean {
    return PHP_SOURCE.test(file);
  }

  resolve(file: string, reference: ImportReference, repository: RepositoryFiles): ResolvedReference[] {
    const specifier = reference.specifier;
    if (reference.kind === 'dynamic') return [{ specifier, target: { kind: 'unresolved', reason: `the path is computed when the code runs (${specifier})` } }];
    if (reference.kind !== 'static') return [{ specifier, target: this.include(file, specifier, repository) }];
    if (specifier.startsWith('function ') || specifier.startsWith('const ')) {
      return this.functionOrConstant(specifier, specifier.slice(specifier.indexOf(' ') + 1), repository).map((target) => ({ specifier, target }));
    }
    return [{ specifier, target: this.useClass(file, specifier, repository) }];
  }

  dependencyStems(_file: string, reference: ImportReference): string[] {
    const specifier = reference.specifier;
    if (reference.kind === 'dynamic') return [];
    if (reference.kind !== 'static') return [specifierStem((ANCHORED.exec(specifier)?.[2] ?? specifier).replaceAll('\\', '/'))];
    const name = specifier.slice(specifier.indexOf(' ') + 1);
    if (name !== specifier) return this.filesFor(name).map((file) => specifierStem(file));
    const last = name.slice(name.lastIndexOf('\\') + 1);
    // PSR-0 turns `_` in the class name into directories.
    return [...new Set([last, last.slice(last.lastIndexOf('_') + 1)])].filter((stem) => stem !== '');
  }

  afterChange(changedPaths: readonly string[], repository: RepositoryFiles): 'all' | string[] {
    if (changedPaths.some((changed) => AUTOLOAD_FILES.test(changed))) {
      const autoload = ComposerAutoload.discover(this.root, repository);
      if (!autoload.equals(this.autoload)) {
        this.autoload = autoload;
        return 'all';
      }
    }
    const again = new Set<string>();
    for (const changed of changedPaths) {
      const importers = this.importersByDirectory.get(changed);
      for (const importer of importers ?? []) {
        if (repository.isFile(importer)) again.add(importer);
        else importers!.delete(importer);
      }
    }
    return [...again];
  }

  private include(file: string, specifier: string, repository: RepositoryFiles): ImportTarget {
    const anchored = ANCHORED.exec(specifier);
    if (anchored) {
      const rest = anchored[2]!.replaceAll('\\', '/');
      if (!rest.startsWith('/')) return { kind: 'unresolved', reason: `${specifier} joins the directory and the name without a separator` };
      let directory: string | undefined = parentOf(file);
      for (let up = Number(anchored[1] ?? 0); up > 0 && directory !== undefined; up--) directory = directory === '' ? undefined : parentOf(directory);
      const target = directory === undefined ? undefined : normalize(directory, rest.slice(1));
      if (target === undefined) return { kind: 'unresolved', reason: `${specifier} leads out of the repository` };
      return repository.isFile(target) ? { kind: 'file', path: target } : { kind: 'unresolved', reason: `no such file: ${target}` };
    }
    const written = specifier.replaceAll('\\', '/');
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(written)) return { kind: 'unresolved', reason: `a stream wrapper (${specifier}) is not followed` };
    if (written.startsWith('/') || /^[a-z]:\//i.test(written)) return { kind: 'unresolved', reason: 'an absolute path is outside the repository' };
    const tried = [...new Set([normalize(parentOf(file), written), normalize('', written)])].filter((path) => path !== undefined);
    for (const path of tried) if (repository.isFile(path)) return { kind: 'file', path };
    if (tried.length === 0) return { kind: 'unresolved', reason: `${specifier} leads out of the repository` };
    return { kind: 'unresolved', reason: `no such file: ${tried.join(', ')}` };
  }

  private useClass(file: string, name: string, repository: RepositoryFiles): ImportTarget {
    const builtin = builtinPackageOfClass(name);
    if (builtin) return { kind: 'package', name: `php:${builtin}`, builtin: true };
    const tried: string[] = [];
    const matched = this.rulesFor(name);
    for (const rule of matched) {
      const candidate = join(rule.directory, `${classPath(rule, name)}.php`);
      if (repository.isFile(candidate)) return { kind: 'file', path: candidate };
      tried.push(candidate);
    }
    // A namespace (`use App\Models;`, for `new Models\User()`): its directory.
    for (const rule of matched) {
      if (rule.standard !== 'psr-4' || name.length === rule.prefix.length) continue;
      const directory = join(rule.directory, classPath(rule, name));
      this.noteImporter(directory, file);
      if (repository.isDirectory(directory)) return { kind: 'directory', path: directory };
    }
    const vendor = this.autoload.vendorPackageOf(name) ?? this.autoload.requiredPackageOf(name);
    if (vendor) return { kind: 'package', name: `php:${vendor}`, builtin: false };
    const own = matched.find((rule) => rule.prefix !== '');
    if (own) return { kind: 'unresolved', reason: `no file for ${name}: ${tried.join(', ')} (${own.standard} ${own.prefix} in ${own.manifest})` };
    return { kind: 'package', name: `php:${name.split('\\')[0]}`, builtin: false };
  }

  private functionOrConstant(specifier: string, name: string, repository: RepositoryFiles): ImportTarget[] {
    if (!name.includes('\\')) return [{ kind: 'package', name: 'php:php', builtin: true }];
    const listed = this.filesFor(name);
    const found = listed.filter((file) => repository.isFile(file));
    if (found.length > 0) return found.map((path) => ({ kind: 'file', path }));
    const own = this.rulesFor(name).find((rule) => rule.prefix !== '');
    if (own) {
      const why = listed.length > 0 ? `no such file: ${listed.join(', ')}` : `${own.manifest} lists no autoload files`;
      return [{ kind: 'unresolved', reason: `${specifier}: Composer autoloads classes only, and ${why}` }];
    }
    const vendor = this.autoload.vendorPackageOf(name) ?? this.autoload.requiredPackageOf(name);
    return [{ kind: 'package', name: `php:${vendor ?? name.split('\\')[0]}`, builtin: false }];
  }

  /** The autoload `files` of the manifests with a prefix (not the fallback) that covers `name`, in path order. */
  private filesFor(name: string): string[] {
    const manifests = new Set(this.rulesFor(name).flatMap((rule) => (rule.prefix === '' ? [] : [rule.manifest])));
    return [...new Set([...manifests].flatMap((manifest) => this.autoload.filesOf(manifest)))].sort();
  }

  /** The PSR-4 rules, then the PSR-0 rules, whose prefix `name` starts with, as Composer's loader tries them. */
  private rulesFor(name: string): AutoloadRule[] {
    return [...this.autoload.psr4, ...this.autoload.psr0].filter((rule) => name.startsWith(rule.prefix));
  }

  private noteImporter(directory: string, file: string): void {
    let importers = this.importersByDirectory.get(directory);
    if (!importers) this.importersByDirectory.set(directory, (importers = new Set()));
    importers.add(file);
  }
}

/** Where a rule puts class `name`, without `.php`: PSR-4 drops the prefix; PSR-0 keeps it and turns `_` in the class's own name into directories. */
function classPath(rule: AutoloadRule, name: string): string {
  if (rule.standard === 'psr-4') return name.slice(rule.prefix.length).replaceAll('\\', '/');
  const slash = name.lastIndexOf('\\');
  return `${name.slice(0, slash + 1).replaceAll('\\', '/')}${name.slice(slash + 1).replaceAll('_', '/')}`;
}

function join(directory: string, relative: string): string {
  return directory === '' ? relative : `${directory}/${relative}`;
}
