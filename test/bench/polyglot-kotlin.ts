/**
 * Kotlin in `npm run bench:polyglot`: Strata's file -> file edges of `.kt`
 * files against the Kotlin compiler's own resolution of each import
 * (`KotlinImportReference.java`, run by the JDK's source launcher against
 * kotlin-compiler.jar: each module's source sets analyzed by the compiler's
 * front end, as `kotlinc` does before generating code, and each import
 * directive's resolved declarations taken to the files declaring them).
 * Needs java and a Kotlin compiler (Debian's `kotlin`, 1.3.31, in
 * `/usr/share/kotlin/kotlinc`; `STRATA_BENCH_KOTLIN_HOME` for another);
 * `STRATA_BENCH_KOTLIN_CLASSPATH` adds jars to what the analyzed code sees
 * (its dependencies; without them their imports lead nowhere, which changes
 * no edge between the repository's files).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compared, fileEdges, SAMPLES, type StrataGraph } from './polyglot-compare.ts';

const KOTLIN_REFERENCE = fileURLToPath(new URL('./KotlinImportReference.java', import.meta.url));

interface KotlinReference {
  compilations: number;
  /** The `.kt` files some compilation owns (repository-relative): the files whose imports are compared. */
  files: string[];
  /** `.kt` files in no source set of Gradle's layout: not compiled. */
  unowned: number;
  errors: number;
  edges: Array<[source: string, target: string, imported: string]>;
  outside: number;
  unresolved: number;
}

/** Kotlin: file -> file edges of the imports of `.kt` files against the Kotlin compiler's (KotlinImportReference.java). */
export function benchKotlin(repository: string, graph: StrataGraph): string {
  const name = path.basename(repository);
  const kotlinFiles = graph.nodes.filter((node) => node.kind === 'file' && node.path.endsWith('.kt')).length;
  const home = process.env.STRATA_BENCH_KOTLIN_HOME ?? '/usr/share/kotlin/kotlinc';
  const lib = (jar: string) => path.join(home, 'lib', jar);
  if (!existsSync(lib('kotlin-compiler.jar'))) throw new Error(`no Kotlin compiler at ${home} (apt-get install -y kotlin, or set STRATA_BENCH_KOTLIN_HOME)`);
  // The compiler and what it runs on (kotlin-compiler.jar's manifest names them; the source launcher does not follow it).
  const compiler = ['kotlin-compiler.jar', 'trove4j.jar', 'annotations-13.0.jar', 'kotlin-stdlib.jar', 'kotlin-reflect.jar', 'kotlin-script-runtime.jar'].map(
    lib,
  );
  // What the analyzed code sees: Kotlin's standard library (the JDK is the running one), then the jars given.
  const classPath = [
    ...['kotlin-stdlib.jar', 'kotlin-stdlib-jdk7.jar', 'kotlin-stdlib-jdk8.jar'].map(lib).filter((jar) => existsSync(jar)),
    ...(process.env.STRATA_BENCH_KOTLIN_CLASSPATH ?? '').split(':').filter((entry) => entry !== ''),
  ];
  const referenceStarted = performance.now();
  const output = execFileSync('java', ['-cp', compiler.join(':'), KOTLIN_REFERENCE, repository, classPath.join(':')], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const referenceMs = performance.now() - referenceStarted;
  const reference = JSON.parse(output) as KotlinReference;
  console.log(
    `  Kotlin: ${kotlinFiles} files, ${reference.files.length} in ${reference.compilations} compilations (${reference.unowned} in no source set, not compiled; ${reference.errors} errors the compiler reports: dependencies missing); the reference ${referenceMs.toFixed(0)} ms`,
  );
  console.log(`  reference: ${reference.outside} imports lead outside the repository, ${reference.unresolved} to nothing the compiler has`);
  const compiledFiles = new Set(reference.files);
  const strata = new Map<string, string[]>();
  const notCompared: string[] = [];
  for (const [key, specifiers] of fileEdges(graph, /\.kt$/)) {
    if (compiledFiles.has(key.split(' -> ')[0]!)) strata.set(key, specifiers);
    else notCompared.push(key);
  }
  if (notCompared.length > 0)
    console.log(`  not compared: ${notCompared.length} edges of Strata's from files no compilation has (${notCompared.slice(0, SAMPLES).join(', ')})`);
  const expected = new Map<string, string[]>();
  for (const [source, target, imported] of reference.edges) {
    const key = `${source} -> ${target}`;
    expected.set(key, [...(expected.get(key) ?? []), imported]);
  }
  return compared(name, 'Kotlin', kotlinFiles, strata, expected);
}
