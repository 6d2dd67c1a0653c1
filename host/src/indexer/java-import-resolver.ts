import type { DeclaredNames } from './declared-names.js';
import { JavaPackages } from './java-packages.js';
import { JAVA_SOURCE } from './java-source-analyzer.js';
import { discoverKotlinPackages } from './kotlin-packages.js';
import type { ImportTarget, LanguageImportResolver, RepositoryFiles, ResolvedReference } from './language-import-resolver.js';
import type { ImportReference } from './source-analyzer.js';

/** A file of a test source set (Maven's and Gradle's `src/test/`), which main code does not see. */
const TEST_SOURCE = /(?:^|\/)src\/test\//;

/** Packages of the Java platform: built in. */
const PLATFORM_PACKAGES = /^(?:java|javax|jdk)\./;

/**
 * Resolves Java imports to the files that declare the imported types, by
 * the packages the repository's files declare (`JavaPackages`): a type
 * `a.b.C` is the file `C.java` in a directory whose files declare
 * `package a.b;` (a nested type `a.b.C.D` is `C.java`'s; the longest package
 * that has such a file wins). When several directories declare the package
 * (modules of a multi-module build, `src/main/java` and `src/test/java`),
 * the one nearest the importing file (the longest common path) is taken;
 * a test source set's files (under `src/test/`) are seen only from test
 * sources. `import a.b.*;` leads to every file of package `a.b` in the
 * repository (of `a.b.C`'s nested types: `C.java`, when no package `a.b.C` is);
 * `import static a.b.C.m;` and `import static a.b.C.*;` to `C`'s file. A
 * type found nowhere is a package node named by the import's first two
 * segments (`java:java.util`, `java:com.google`), built in for `java.`,
 * `javax.` and `jdk.`; an on-demand import of a package that no file
 * declares is one too. A type missing from a package that the repository
 * declares is unresolved (a generated class). References within a package
 * need no import and get no edge. A type no Java file declares may be a
 * Kotlin one (mixed builds): the Kotlin file of the package that declares
 * `C` at its top level, or, for `CKt` (the class holding a Kotlin file's
 * top-level functions), the file `C.kt` of the package; `import a.b.*;`
 * takes the package's Kotlin files too.
 */
export class JavaImportResolver implements LanguageImportResolver {
  /** Package → files whose imports named it (resolved again when the package's files change). */
  private readonly importersOf = new Map<string, Set<string>>();

  private constructor(
    private readonly packages: JavaPackages,
    private readonly kotlin: DeclaredNames,
  ) {}

  static discover(root: string, repository: RepositoryFiles): JavaImportResolver {
    return new JavaImportResolver(JavaPackages.discover(root, repository), discoverKotlinPackages(root, repository));
  }

  resolves(file: string): boolean {
    return JAVA_SOURCE.test(file);
  }

  resolve(file: string, reference: ImportReference, _repository: RepositoryFiles): ResolvedReference[] {
    const specifier = reference.specifier;
    const isStatic = specifier.startsWith('static ');
    let name = isStatic ? specifier.slice('static '.length) : specifier;
    const onDemand = name.endsWith('.*');
    if (onDemand) name = name.slice(0, -2);
    const segments = name.split('.');
    // `import static a.b.C.m;`: the member's type; `import a.b.*;`: the package's files.
    if (isStatic && !onDemand) segments.pop();
    if (onDemand && !isStatic) {
      this.note(name, file);
      const seesTests = TEST_SOURCE.test(file);
      const files = [...[...(this.packages.directoriesOf(name)?.values() ?? [])].flatMap((set) => [...set]), ...(this.kotlin.filesOf(name) ?? [])]
        .filter((path) => seesTests || !TEST_SOURCE.test(path))
        .sort();
      if (files.length > 0) return files.map((path) => ({ specifier, target: { kind: 'file', path } }));
      // No package of that name: the nested types of a type (`import a.b.C.*;`), or a package from elsewhere.
    }
    let declared: string | undefined;
    for (let length = segments.length - 1; length >= 1; length--) {
      const packageName = segments.slice(0, length).join('.');
      this.note(packageName, file);
      const directories = this.packages.directoriesOf(packageName);
      const kotlinFiles = this.kotlin.filesOf(packageName);
      if (!directories && !kotlinFiles) continue;
      declared ??= packageName;
      const seesTests = TEST_SOURCE.test(file);
      const found =
        (directories && nearest(file, directories, `${segments[length]}.java`, seesTests)) ??
        (kotlinFiles && this.kotlinFileOf(kotlinFiles, segments[length]!, seesTests));
      if (found !== undefined) return [{ specifier, target: { kind: 'file', path: found } }];
    }
    return [{ specifier, target: this.outside(segments, segments.join('.'), declared) }];
  }

  dependencyStems(_file: string, reference: ImportReference): string[] {
    // The file of any segment may come: `C.java` for `a.b.C`, `Outer.java` for `a.b.Outer.Inner`.
    return reference.specifier
      .replace(/^static /, '')
      .split('.')
      .filter((segment) => segment !== '*');
  }

  afterChange(changedPaths: readonly string[], repository: RepositoryFiles): 'all' | string[] {
    const changed = this.packages.update(changedPaths, repository);
    for (const name of this.kotlin.update(changedPaths, repository)) changed.add(name);
    const again = new Set<string>();
    for (const name of changed) for (const importer of this.importersOf.get(name) ?? []) again.add(importer);
    return [...again];
  }

  /** The Kotlin file (of a package's `files`) that declares type `name` at its top level, or whose facade class `name` is (`UtilKt`: `Util.kt`); the first in path order. */
  private kotlinFileOf(files: ReadonlySet<string>, name: string, seesTests: boolean): string | undefined {
    const facade = name.endsWith('Kt') ? `${name.slice(0, -2)}.kt` : undefined;
    let found: string | undefined;
    for (const candidate of files) {
      if (!seesTests && TEST_SOURCE.test(candidate)) continue;
      const matches = this.kotlin.declares(candidate, name) || (facade !== undefined && (candidate === facade || candidate.endsWith(`/${facade}`)));
      if (matches && (found === undefined || candidate < found)) found = candidate;
    }
    return found;
  }

  /** Records that `file` looked `name` up, so that a change of its files resolves `file` again. */
  private note(name: string, file: string): void {
    let importers = this.importersOf.get(name);
    if (!importers) this.importersOf.set(name, (importers = new Set()));
    importers.add(file);
  }

  /** Where a type the repository does not have leads: the platform's or a library's package node, or unresolved in a package the repository declares. */
  private outside(segments: readonly string[], name: string, declared: string | undefined): ImportTarget {
    if (declared !== undefined && !PLATFORM_PACKAGES.test(`${name}.`)) {
      const next = segments[declared.split('.').length]!;
      // `a.b.C` with `a.b` declared: C is missing; `a.b.c.D` with only `a.b` declared: package a.b.c is (javac's words).
      const missing =
        /^\p{Lu}/u.test(next) || declared.split('.').length === segments.length - 1
          ? `package ${declared} has no ${next}.java`
          : `package ${declared}.${next} does not exist`;
      return { kind: 'unresolved', reason: `no file declares ${name}: ${missing}` };
    }
    const top = segments.slice(0, 2).join('.');
    return { kind: 'package', name: `java:${top}`, builtin: PLATFORM_PACKAGES.test(`${name}.`) };
  }
}

/** The `name` file (declaring the package) in the directory of `directories` nearest `file` (longest common path, then the first in path order). */
function nearest(file: string, directories: ReadonlyMap<string, ReadonlySet<string>>, name: string, seesTests: boolean): string | undefined {
  let best: string | undefined;
  let bestShared = -1;
  for (const [directory, files] of directories) {
    const candidate = directory === '' ? name : `${directory}/${name}`;
    if (!files.has(candidate) || (!seesTests && TEST_SOURCE.test(candidate))) continue;
    const shared = sharedLength(file, candidate);
    if (shared > bestShared || (shared === bestShared && best !== undefined && candidate < best)) {
      best = candidate;
      bestShared = shared;
    }
  }
  return best;
}

/** How many leading path segments two paths share. */
function sharedLength(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  let shared = 0;
  while (shared < left.length - 1 && shared < right.length - 1 && left[shared] === right[shared]) shared++;
  return shared;
}
