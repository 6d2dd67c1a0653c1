import type { DeclaredNames } from './declared-names.js';
import { JavaPackages } from './java-packages.js';
import { discoverKotlinPackages, KOTLIN_SOURCE } from './kotlin-packages.js';
import type { ImportTarget, LanguageImportResolver, RepositoryFiles, ResolvedReference } from './language-import-resolver.js';
import type { ImportReference } from './source-analyzer.js';

/** Packages of the Java platform: built in, the same package nodes as Java's imports lead to. */
const JVM_PLATFORM = /^(?:java|javax|jdk)\./;
/** Kotlin's standard library: built in. */
const KOTLIN_STDLIB = /^kotlin\./;

/**
 * Resolves Kotlin imports by the packages the repository's Kotlin and Java
 * files declare (not by their directories). `import a.b.C` (or `… as D`)
 * leads to the Kotlin files of package `a.b` that declare `C` at their top
 * level (a class, object, interface, function, property or type alias; so
 * `import a.b.foo` leads to the file declaring the top-level function `foo`)
 * and to `C.java` of package `a.b` (a nested `a.b.C.D` is `C`'s; the longest
 * package wins); of several such files the nearest the importing file. `import
 * a.b.*` leads to every Kotlin and Java file of package `a.b`. Found nowhere:
 * `java.`, `javax.` and `jdk.` are Java's built-in package nodes
 * (`java:java.util`), `kotlin.` is built in (`kotlin:kotlin.collections`),
 * and the others are external package nodes named by their first two
 * segments (`kotlin:kotlinx.coroutines`, `kotlin:com.google`). A name missing
 * from a package the repository declares is unresolved.
 */
export class KotlinImportResolver implements LanguageImportResolver {
  /** Package → files whose imports looked it up. */
  private readonly importersOf = new Map<string, Set<string>>();

  private constructor(
    private readonly kotlin: DeclaredNames,
    private readonly java: JavaPackages,
  ) {}

  static discover(root: string, repository: RepositoryFiles): KotlinImportResolver {
    return new KotlinImportResolver(discoverKotlinPackages(root, repository), JavaPackages.discover(root, repository));
  }

  resolves(file: string): boolean {
    return KOTLIN_SOURCE.test(file);
  }

  resolve(file: string, reference: ImportReference, _repository: RepositoryFiles): ResolvedReference[] {
    const specifier = reference.specifier;
    const onDemand = specifier.endsWith('.*');
    const name = onDemand ? specifier.slice(0, -2) : specifier;
    const segments = name.split('.');
    if (onDemand) {
      this.note(name, file);
      const files = [...(this.kotlin.filesOf(name) ?? []), ...[...(this.java.directoriesOf(name)?.values() ?? [])].flatMap((set) => [...set])];
      if (files.length > 0) return [...new Set(files)].sort().map((path) => ({ specifier, target: { kind: 'file', path } }));
    }
    let declared: string | undefined;
    for (let length = segments.length - 1; length >= 1; length--) {
      const packageName = segments.slice(0, length).join('.');
      this.note(packageName, file);
      const member = segments[length]!;
      const candidates: string[] = [];
      const kotlinFiles = this.kotlin.filesOf(packageName);
      for (const candidate of kotlinFiles ?? []) if (this.kotlin.declares(candidate, member)) candidates.push(candidate);
      const javaDirectories = this.java.directoriesOf(packageName);
      for (const [directory, files] of javaDirectories ?? []) {
        const candidate = directory === '' ? `${member}.java` : `${directory}/${member}.java`;
        if (files.has(candidate)) candidates.push(candidate);
      }
      if (kotlinFiles || javaDirectories) declared ??= packageName;
      const found = nearest(file, candidates);
      if (found !== undefined) return [{ specifier, target: { kind: 'file', path: found } }];
    }
    return [{ specifier, target: outside(segments, declared) }];
  }

  dependencyStems(_file: string, reference: ImportReference): string[] {
    // A Java file of any segment's name may come; Kotlin files are followed through their packages (`afterChange`).
    return reference.specifier.split('.').filter((segment) => segment !== '*');
  }

  afterChange(changedPaths: readonly string[], repository: RepositoryFiles): 'all' | string[] {
    const changed = this.kotlin.update(changedPaths, repository);
    for (const name of this.java.update(changedPaths, repository)) changed.add(name);
    const again = new Set<string>();
    for (const name of changed) for (const importer of this.importersOf.get(name) ?? []) again.add(importer);
    return [...again];
  }

  private note(name: string, file: string): void {
    let importers = this.importersOf.get(name);
    if (!importers) this.importersOf.set(name, (importers = new Set()));
    importers.add(file);
  }
}

/** Where a name the repository does not have leads. */
function outside(segments: readonly string[], declared: string | undefined): ImportTarget {
  const name = `${segments.join('.')}.`;
  const top = segments.slice(0, 2).join('.');
  if (JVM_PLATFORM.test(name)) return { kind: 'package', name: `java:${top}`, builtin: true };
  if (KOTLIN_STDLIB.test(name)) return { kind: 'package', name: `kotlin:${top}`, builtin: true };
  if (declared !== undefined)
    return { kind: 'unresolved', reason: `no file declares ${segments.join('.')}: package ${declared} has no ${segments[declared.split('.').length]}` };
  return { kind: 'package', name: `kotlin:${top}`, builtin: false };
}

/** Of `candidates`, the one sharing the longest leading path with `file` (then the first in path order). */
function nearest(file: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestShared = -1;
  for (const candidate of [...candidates].sort()) {
    const shared = sharedLength(file, candidate);
    if (shared > bestShared) {
      best = candidate;
      bestShared = shared;
    }
  }
  return best;
}

function sharedLength(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  let shared = 0;
  while (shared < left.length - 1 && shared < right.length - 1 && left[shared] === right[shared]) shared++;
  return shared;
}
