import type { DeclaredNames } from './declared-names.js';
import { JavaPackages } from './java-packages.js';
import { callableEntry, discoverKotlinPackages, KOTLIN_SOURCE, typeEntry } from './kotlin-packages.js';
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
 * level and to `C.java` of package `a.b` (a nested `a.b.C.D` is `C`'s; the
 * longest package wins): a function or property to every file declaring it
 * (the compiler imports every overload, wherever in the package), a class,
 * object, interface or type alias to the nearest the importing file (a
 * platform's tests nearest to that platform's main code: its `actual`, not
 * common code's `expect`). `import a.b.*` leads to every Kotlin and Java file
 * of package `a.b`. Either way only the files the importer's Gradle source set
 * sees, where both are in one module's (`seenFrom`). Found nowhere:
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
      if (files.length > 0) return seenFrom(file, [...new Set(files)]).map((path) => ({ specifier, target: { kind: 'file', path } }));
    }
    let declared: string | undefined;
    for (let length = segments.length - 1; length >= 1; length--) {
      const packageName = segments.slice(0, length).join('.');
      this.note(packageName, file);
      const member = segments[length]!;
      const types: string[] = [];
      const callables: string[] = [];
      const kotlinFiles = this.kotlin.filesOf(packageName);
      for (const candidate of kotlinFiles ?? []) {
        if (this.kotlin.declares(candidate, typeEntry(member))) types.push(candidate);
        if (this.kotlin.declares(candidate, callableEntry(member))) callables.push(candidate);
      }
      const javaDirectories = this.java.directoriesOf(packageName);
      for (const [directory, files] of javaDirectories ?? []) {
        const candidate = directory === '' ? `${member}.java` : `${directory}/${member}.java`;
        if (files.has(candidate)) types.push(candidate);
      }
      if (kotlinFiles || javaDirectories) declared ??= packageName;
      const found = new Set(seenFrom(file, callables));
      const type = nearest(file, seenFrom(file, types));
      if (type !== undefined) found.add(type);
      if (found.size > 0) return [...found].sort().map((path) => ({ specifier, target: { kind: 'file', path } }));
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

/** A file's Gradle source set, `<module>/src/<set>/kotlin/` or `…/java/`: its module folder, platform (`''` for `main`, `test` and the like) and whether it holds tests. */
interface SourceSet {
  module: string;
  platform: string;
  test: boolean;
}

const SOURCE_SET = /^(?:(.*)\/)?src\/([^/]+)\/(?:kotlin|java)\//;

function sourceSetOf(file: string): SourceSet | undefined {
  const match = SOURCE_SET.exec(file);
  if (!match) return undefined;
  const module = match[1] ?? '';
  const set = match[2]!;
  if (set === 'main') return { module, platform: '', test: false };
  const platform = /^(.+)(Main|Test)$/.exec(set);
  // `commonMain`, `jvmTest`…; any other set (`test`, `jmh`, `integrationTest`) sees `main`, as a test set does.
  return platform ? { module, platform: platform[1]!, test: platform[2] === 'Test' } : { module, platform: '', test: true };
}

/**
 * Of `candidates` (sorted), those `file`'s source set sees where both are in
 * one module's: main code sees no tests, common code (`commonMain`,
 * `commonTest`) no platform's code, a platform's (`jvmMain`, `jvmTest`) its own
 * and common code's, not another platform's (a hierarchy of sets, `nativeMain`
 * under `linuxX64Main`, is not known). Files of other modules, or outside
 * Gradle's layout, are all seen. Every candidate when none is seen.
 */
function seenFrom(file: string, candidates: readonly string[]): string[] {
  const sorted = [...candidates].sort();
  const from = sourceSetOf(file);
  if (!from) return sorted;
  const seen = sorted.filter((candidate) => {
    const set = sourceSetOf(candidate);
    if (!set || set.module !== from.module) return true;
    if (set.test && !from.test) return false;
    return set.platform === from.platform || set.platform === 'common';
  });
  return seen.length > 0 ? seen : sorted;
}

/** Of `candidates`, the one sharing the longest leading path with `file` (then the first in path order), a test set's file taken for its main set's (`src/jvmTest/` as `src/jvmMain/`). */
function nearest(file: string, candidates: readonly string[]): string | undefined {
  const from = file.replace(/^((?:.*\/)?src\/)([^/]+)(\/(?:kotlin|java)\/)/, (_whole, head: string, set: string, tail: string) => {
    return `${head}${set === 'test' ? 'main' : set.replace(/Test$/, 'Main')}${tail}`;
  });
  let best: string | undefined;
  let bestShared = -1;
  for (const candidate of [...candidates].sort()) {
    const shared = sharedLength(from, candidate);
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
