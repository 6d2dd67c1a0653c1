/**
 * Precision of the import edges of the languages other than JavaScript and
 * TypeScript, against each language's own resolver, on real repositories
 * fetched for the purpose (never committed), in the same run as Strata's
 * index. Python: file -> file edges against python3's import system
 * (`python-import-reference.py`: `ast` for the imports,
 * `importlib.machinery.PathFinder` for where they lead, no code of the
 * repository run). Go: package -> package edges against `go list` (see
 * `benchGo`; needs a go command, Debian's golang-go). Rust: file -> file
 * edges against rustc's module tree and resolution of `use` paths
 * (`rust-import-reference.py`). Java: against javac's attribution of each
 * import (`JavaImportReference.java`), and jdeps on the modules javac can
 * build. C and C++: against where `gcc -M` finds each `#include` with the
 * project's flags (`c-include-reference.py`). Ruby: file -> file edges of
 * `require` and `require_relative` against Ruby's own loader
 * (`ruby-require-reference.rb`: Ripper, `$LOAD_PATH.resolve_feature_path`).
 * PHP: file -> file edges of `use` declarations against Composer's own
 * `ClassLoader::findFile`, and of includes with a static path against PHP's
 * `realpath` (`php-import-reference.php`, after `composer dump-autoload`
 * in a scratch copy). Kotlin: file -> file edges of `.kt` files against the
 * Kotlin compiler's resolution of each import (`polyglot-kotlin.ts`,
 * `KotlinImportReference.java`: each module's source sets analyzed by
 * kotlin-compiler.jar's front end). The README's polyglot section
 * says what each reference checks and what it does not.
 *
 * C#: file -> file edges of `using` directives against the C# compiler's
 * binding of each (`polyglot-csharp.ts`, `CSharpUsingReference.cs`: Mono's
 * mcs, as a library, on the command line xbuild gives it for each project).
 *
 *   npm run bench:polyglot -- <repository> [<repository> ...]
 *
 * Python's search path for the reference (python-import-reference.py):
 * each file's project (the nearest folder with a `pyproject.toml`,
 * `setup.py` or `setup.cfg`, or the repository) gives its roots, `src/` and
 * the folder itself; a module under `src/` is imported by its name from
 * there, any other file as a script or test runs (its base first). Edges are compared file -> file, one per pair; the differences
 * are printed with the specifiers that led to them, up to 10 of each kind.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { indexRepository } from '@strata/host';
import { compared, fileEdges, SAMPLES, type StrataGraph } from './polyglot-compare.ts';
import { benchCSharp } from './polyglot-csharp.ts';
import { benchKotlin } from './polyglot-kotlin.ts';

const REFERENCE = fileURLToPath(new URL('./python-import-reference.py', import.meta.url));
const RUST_REFERENCE = fileURLToPath(new URL('./rust-import-reference.py', import.meta.url));
const JAVA_REFERENCE = fileURLToPath(new URL('./JavaImportReference.java', import.meta.url));
const C_REFERENCE = fileURLToPath(new URL('./c-include-reference.py', import.meta.url));
const RUBY_REFERENCE = fileURLToPath(new URL('./ruby-require-reference.rb', import.meta.url));
const RUBY_FILE = /(?:\.rb|\.rake|\.gemspec|(?:^|\/)Rakefile|(?:^|\/)Gemfile)$/;
const PHP_REFERENCE = fileURLToPath(new URL('./php-import-reference.php', import.meta.url));
const PHP_FILE = /(?<!\.blade)\.(?:php[345]?|phtml)$/;
const C_FAMILY = /\.(c|h|cc|cpp|cxx|c\+\+|hpp|hh|hxx|h\+\+|inl|ipp|tpp|tcc|C|H)$/;

interface PythonReference {
  files: number;
  syntaxErrors: number;
  edges: Array<[source: string, target: string, specifier: string]>;
  outside: number;
  namespace: number;
  missing: Array<[source: string, specifier: string]>;
}

/** The repository's Python projects: folders with a `pyproject.toml`, `setup.py` or `setup.cfg` (repository-relative). */
function pythonProjects(repository: string): string[] {
  const manifests = execFileSync('git', ['-C', repository, 'ls-files', '-z', '--', '*pyproject.toml', '*setup.py', '*setup.cfg'], { encoding: 'utf8' })
    .split('\0')
    .filter((file) => ['pyproject.toml', 'setup.py', 'setup.cfg'].includes(path.posix.basename(file)));
  return [...new Set(manifests.map((file) => path.posix.dirname(file)).map((dir) => (dir === '.' ? '' : dir)))];
}

async function benchRepository(repository: string): Promise<string[]> {
  const started = performance.now();
  const graph = await indexRepository({ repository, env: { STRATA_INDEX_CACHE: 'false' } });
  const strataMs = performance.now() - started;
  console.log(`\n${path.basename(repository)}: Strata's index ${strataMs.toFixed(0)} ms (every language)`);
  const rows: string[] = [];
  if (graph.nodes.some((node) => node.kind === 'file' && /\.pyi?$/.test(node.path))) rows.push(benchPython(repository, graph));
  if (goModules(repository).length > 0) rows.push(benchGo(repository, graph));
  if (graph.nodes.some((node) => node.kind === 'file' && node.path.endsWith('.rs'))) rows.push(benchRust(repository, graph));
  if (graph.nodes.some((node) => node.kind === 'file' && node.path.endsWith('.java'))) rows.push(benchJava(repository, graph));
  if (graph.nodes.some((node) => node.kind === 'file' && node.path.endsWith('.kt'))) rows.push(benchKotlin(repository, graph));
  if (graph.nodes.some((node) => node.kind === 'file' && C_FAMILY.test(node.path))) rows.push(await benchC(repository, graph));
  if (graph.nodes.some((node) => node.kind === 'file' && RUBY_FILE.test(node.path))) rows.push(benchRuby(repository, graph));
  if (graph.nodes.some((node) => node.kind === 'file' && PHP_FILE.test(node.path))) rows.push(benchPhp(repository, graph));
  if (graph.nodes.some((node) => node.kind === 'file' && node.path.endsWith('.cs'))) rows.push(benchCSharp(repository, graph));
  return rows;
}

/** Python: file -> file edges against python-import-reference.py. */
function benchPython(repository: string, graph: StrataGraph): string {
  const name = path.basename(repository);
  const strata = new Map<string, string[]>();
  let pythonFiles = 0;
  for (const node of graph.nodes) if (node.kind === 'file' && /\.pyi?$/.test(node.path)) pythonFiles++;
  for (const edge of graph.edges) {
    if (edge.kind !== 'imports' || !/^file:.*\.py$/.test(edge.source) || !edge.target.startsWith('file:')) continue;
    strata.set(`${edge.source.slice(5)} -> ${edge.target.slice(5)}`, edge.specifiers ?? []);
  }
  const projects = pythonProjects(repository);
  const referenceStarted = performance.now();
  const output = execFileSync('python3', [REFERENCE, repository, ...projects], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  const referenceMs = performance.now() - referenceStarted;
  const reference = JSON.parse(output) as PythonReference;
  console.log(
    `  Python: ${pythonFiles} files (${reference.syntaxErrors} that python3 cannot parse), ${projects.length} project folders; the reference ${referenceMs.toFixed(0)} ms`,
  );
  console.log(
    `  reference: ${reference.outside} imports lead outside the repository, ${reference.namespace} to namespace packages, ${reference.missing.length} found nowhere`,
  );
  const expected = new Map<string, string[]>();
  for (const [source, target, specifier] of reference.edges) {
    const key = `${source} -> ${target}`;
    expected.set(key, [...(expected.get(key) ?? []), specifier]);
  }
  return compared(name, 'Python', pythonFiles, strata, expected);
}

/** The folders of the repository's Go modules (repository-relative), those under testdata/ and vendor/ left out. */
function goModules(repository: string): string[] {
  return execFileSync('git', ['-C', repository, 'ls-files', '-z', '--', '*go.mod'], { encoding: 'utf8' })
    .split('\0')
    .filter((file) => path.posix.basename(file) === 'go.mod' && !/(^|\/)(testdata|vendor)\//.test(file))
    .map((file) => path.posix.dirname(file));
}

/**
 * Go: package -> package edges (the importing file's directory -> the
 * imported package's directory) against `go list -e -json ./...` in each
 * module, imports of tests included. Nothing can be downloaded here: each
 * required module is replaced by an empty local one in a copy of go.mod
 * (`-modfile`), so that the module's own packages list their imports and
 * the external ones are simply not found.
 */
function benchGo(repository: string, graph: StrataGraph): string {
  const name = path.basename(repository);
  const strata = new Map<string, string[]>();
  let goFiles = 0;
  for (const node of graph.nodes) if (node.kind === 'file' && node.path.endsWith('.go')) goFiles++;
  for (const edge of graph.edges) {
    if (edge.kind !== 'imports' || !/^file:.*\.go$/.test(edge.source) || !edge.target.startsWith('dir:')) continue;
    const source = path.posix.dirname(edge.source.slice(5));
    // A package's external tests (package x_test) import it from its own directory: no edge between packages.
    if (source === edge.target.slice(4) || (source === '.' && edge.target === 'dir:.')) continue;
    const key = `${source} -> ${edge.target.slice(4)}`;
    strata.set(key, [...(strata.get(key) ?? []), ...(edge.specifiers ?? [])]);
  }
  const scratch = mkdtempSync(path.join(tmpdir(), 'strata-bench-go-'));
  const packages: Array<{ Dir: string; ImportPath: string; Imports?: string[]; TestImports?: string[]; XTestImports?: string[] }> = [];
  const referenceStarted = performance.now();
  try {
    for (const module of goModules(repository)) {
      const moduleDir = path.join(repository, module);
      const goMod = readFileSync(path.join(moduleDir, 'go.mod'), 'utf8');
      // Modules the go.mod replaces itself (by a local directory, as a monorepo's examples do) keep their replacement.
      const replaced = new Set([...goMod.matchAll(/^\s*(?:replace\s+)?(\S+)(?:\s+v\S+)?\s+=>/gm)].map((match) => match[1]!));
      const required = [...new Set([...goMod.matchAll(/^\s*(?:require\s+)?([\w.~-]+\.[\w.~/-]+)\s+v[^\s]+/gm)].map((match) => match[1]!))].filter(
        (module) => !replaced.has(module),
      );
      const modfile = path.join(scratch, `${packages.length}-${module.replace(/\//g, '_') || 'root'}.mod`);
      const replaces = required.map((required, i) => {
        const empty = path.join(scratch, `empty-${i}-${required.replace(/\//g, '_')}`);
        mkdirSync(empty, { recursive: true });
        writeFileSync(path.join(empty, 'go.mod'), `module ${required}\n`);
        return `replace ${required} => ${empty}`;
      });
      // The go command here may be older than the module asks for (Debian's 1.19 reads no `go 1.25.1` and no
      // `toolchain`): listing packages and imports needs nothing newer.
      const readable = goMod.replace(/^go\s+\d+\.\d+(\.\d+)?\s*$/m, 'go 1.19').replace(/^toolchain\s.*$/m, '');
      writeFileSync(modfile, `${readable}\n${replaces.join('\n')}\n`);
      let output: string;
      try {
        output = execFileSync('go', ['list', '-e', '-json', `-modfile=${modfile}`, './...'], {
          cwd: moduleDir,
          encoding: 'utf8',
          maxBuffer: 1024 * 1024 * 1024,
          env: { ...process.env, GOFLAGS: '', GOPROXY: 'off', GOWORK: 'off' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      } catch (error) {
        console.log(`  Go: go list failed in ${module || '.'}, left out: ${String((error as { stderr?: string }).stderr ?? error).split('\n')[0]}`);
        continue;
      }
      // Concatenated JSON objects, one per package.
      for (const text of output.split(/\n}\n/).filter((part) => part.trim() !== '')) packages.push(JSON.parse(`${text}\n}`));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const referenceMs = performance.now() - referenceStarted;
  const realRepository = realpathSync(repository);
  const dirOf = new Map<string, string>();
  for (const found of packages) {
    const relative = path.relative(realRepository, realpathSync(found.Dir)).split(path.sep).join('/');
    if (!relative.startsWith('..')) dirOf.set(found.ImportPath, relative === '' ? '.' : relative);
  }
  const expected = new Map<string, string[]>();
  for (const found of packages) {
    const source = dirOf.get(found.ImportPath);
    if (source === undefined) continue;
    for (const imported of new Set([...(found.Imports ?? []), ...(found.TestImports ?? []), ...(found.XTestImports ?? [])])) {
      const target = dirOf.get(imported);
      if (target === undefined || target === source) continue;
      const key = `${source} -> ${target}`;
      expected.set(key, [...(expected.get(key) ?? []), imported]);
    }
  }
  console.log(`  Go: ${goFiles} files, ${packages.length} packages in ${goModules(repository).length} modules; the reference ${referenceMs.toFixed(0)} ms`);
  return compared(name, 'Go', goFiles, strata, expected);
}

interface RustReference {
  targets: number;
  failed: Array<[target: string, reason: unknown]>;
  edges: Array<[source: string, target: string, kind: 'mod' | 'use', written: string]>;
  outside: number;
  unresolved: number;
  crossCrate: number;
}

/**
 * Rust: file -> file edges (`mod` declarations and `use` items) against
 * rustc's own module tree and name resolution (rust-import-reference.py:
 * `cargo metadata --offline --no-deps` for the targets, `rustc -Z
 * unpretty=hir-tree` on each crate root for the resolved `use` paths).
 */
function benchRust(repository: string, graph: StrataGraph): string {
  const name = path.basename(repository);
  const rustFiles = graph.nodes.filter((node) => node.kind === 'file' && node.path.endsWith('.rs')).length;
  const strata = fileEdges(graph, /\.rs$/);
  const referenceStarted = performance.now();
  const output = execFileSync('python3', [RUST_REFERENCE, repository], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  const referenceMs = performance.now() - referenceStarted;
  const reference = JSON.parse(output) as RustReference;
  console.log(
    `  Rust: ${rustFiles} files, ${reference.targets} cargo targets (${reference.failed.length} rustc could not read); the reference ${referenceMs.toFixed(0)} ms`,
  );
  for (const [target, reason] of reference.failed) console.log(`    not read: ${target} ${JSON.stringify(reason)}`);
  console.log(
    `  reference: ${reference.outside} uses lead to the standard library, ${reference.crossCrate} to another crate of the repository, ${reference.unresolved} to none of its files (other crates)`,
  );
  const expected = new Map<string, string[]>();
  for (const [source, target, kind, written] of reference.edges) {
    const key = `${source} -> ${target}`;
    expected.set(key, [...(expected.get(key) ?? []), kind === 'mod' ? `mod ${written}` : written]);
  }
  return compared(name, 'Rust', rustFiles, strata, expected);
}

interface JavaReference {
  modules: number;
  files: number;
  errors: number;
  edges: Array<[source: string, target: string, imported: string]>;
  outside: number;
  unresolved: number;
  types: Record<string, string>;
}

/**
 * Java: file -> file edges of import declarations against javac's own
 * attribution of them (JavaImportReference.java, run by the JDK's source
 * launcher: each module's main and test sources compiled together, the other
 * modules' main sources on the source path). `STRATA_BENCH_JAVA_CLASSPATH`, when
 * set, is javac's class path (jars of the repository's dependencies): the
 * edges between the repository's files do not depend on it.
 */
function benchJava(repository: string, graph: StrataGraph): string {
  const name = path.basename(repository);
  const javaFiles = graph.nodes.filter((node) => node.kind === 'file' && node.path.endsWith('.java')).length;
  const strata = fileEdges(graph, /\.java$/);
  const referenceStarted = performance.now();
  const output = execFileSync('java', [JAVA_REFERENCE, repository, process.env.STRATA_BENCH_JAVA_CLASSPATH ?? ''], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
  });
  const referenceMs = performance.now() - referenceStarted;
  const reference = JSON.parse(output) as JavaReference;
  console.log(
    `  Java: ${javaFiles} files, ${reference.modules} modules (${reference.files} files compiled, ${reference.errors} errors javac reports: classes of dependencies missing); the reference ${referenceMs.toFixed(0)} ms`,
  );
  console.log(`  reference: ${reference.outside} imports lead outside the repository, ${reference.unresolved} to nothing javac has`);
  const expected = new Map<string, string[]>();
  for (const [source, target, imported] of reference.edges) {
    const key = `${source} -> ${target}`;
    expected.set(key, [...(expected.get(key) ?? []), imported]);
  }
  const rows = [compared(name, 'Java', javaFiles, strata, expected)];
  rows.push(...benchJdeps(repository, strata, reference.types));
  return rows.join('\n');
}

/**
 * Java, where a build is possible: each module's main sources compiled by
 * javac (module-info.java left out: compiled on the class path), with the
 * classes of the modules already built and `STRATA_BENCH_JAVA_CLASSPATH` on
 * the class path (modules tried again while one more builds: the order of
 * their dependencies), then `jdeps -verbose:class` on each module's classes:
 * the class -> class dependencies of the bytecode, as file -> file edges (a
 * nested class as its top-level class's file), those between two packages
 * only (a class of the same package needs no import, and Strata draws no
 * edge for it). A module javac cannot build (a dependency missing) is left
 * out, and said so.
 */
function benchJdeps(repository: string, strata: Map<string, string[]>, types: Record<string, string>): string[] {
  const name = path.basename(repository);
  const javaSources = execFileSync('git', ['-C', repository, 'ls-files', '-z', '--', '*.java'], { encoding: 'utf8' }).split('\0');
  const modules = new Map<string, string[]>();
  for (const file of javaSources) {
    const module = /^(?:(.*)\/)?src\/main\/(?:java|java-templates)\//.exec(file)?.[1] ?? (/^src\/main\/(?:java|java-templates)\//.test(file) ? '' : undefined);
    if (module === undefined || file.endsWith('module-info.java')) continue;
    modules.set(module, [...(modules.get(module) ?? []), file]);
  }
  const packageOfFile = new Map(Object.entries(types).map(([type, file]) => [file, type.slice(0, Math.max(0, type.lastIndexOf('.')))]));
  const classPath = (process.env.STRATA_BENCH_JAVA_CLASSPATH ?? '').split(':').filter((entry) => entry !== '');
  const scratch = mkdtempSync(path.join(tmpdir(), 'strata-bench-jdeps-'));
  const built = new Map<string, string>();
  const failures = new Map<string, string>();
  try {
    for (let progress = true; progress; ) {
      progress = false;
      for (const [module, sources] of modules) {
        if (built.has(module)) continue;
        const out = path.join(scratch, `${built.size}-${failures.size}-${module.replace(/\//g, '_') || 'root'}`);
        try {
          execFileSync('javac', ['-d', out, '-proc:none', '-nowarn', '-cp', [...classPath, ...built.values()].join(':'), ...sources], {
            cwd: repository,
            stdio: ['ignore', 'pipe', 'pipe'],
            maxBuffer: 1024 * 1024 * 1024,
          });
          built.set(module, out);
          failures.delete(module);
          progress = true;
        } catch (error) {
          const stderr = String((error as { stderr?: string }).stderr ?? error);
          failures.set(module, `${stderr.match(/^\d+ errors?$/m)?.[0] ?? 'errors'}, the first: ${stderr.split('\n')[0]}`);
        }
      }
    }
    for (const [module, reason] of failures) console.log(`  Java, jdeps: ${module || '.'} not built by javac, left out (${reason})`);
    const rows: string[] = [];
    for (const [module, out] of built) {
      const output = execFileSync('jdeps', ['--multi-release', '17', '-verbose:class', '-cp', [...classPath, ...built.values()].join(':'), out], {
        encoding: 'utf8',
        maxBuffer: 1024 * 1024 * 1024,
      });
      const fileOf = (binary: string): string | undefined => types[binary.split('$')[0]!];
      const packageOf = (binary: string) => binary.slice(0, Math.max(0, binary.lastIndexOf('.')));
      const expected = new Map<string, string[]>();
      for (const match of output.matchAll(/^\s+(\S+)\s+->\s+(\S+)/gm)) {
        const [, from, to] = match as unknown as [string, string, string];
        const source = fileOf(from);
        const target = fileOf(to);
        if (source === undefined || target === undefined || source === target || packageOf(from) === packageOf(to)) continue;
        const key = `${source} -> ${target}`;
        expected.set(key, [...(expected.get(key) ?? []), `${from} -> ${to}`]);
      }
      const sources = new Set(modules.get(module));
      const fromModule = new Map(
        [...strata].filter(([key]) => {
          const [source, target] = key.split(' -> ') as [string, string];
          return sources.has(source) && packageOfFile.get(source) !== packageOfFile.get(target);
        }),
      );
      console.log(`  Java, jdeps: ${module || '.'} built (${sources.size} files); its classes' dependencies between packages as file -> file edges`);
      rows.push(compared(`${name} (${module || '.'}, jdeps)`, 'Java', sources.size, fromModule, expected));
    }
    return rows;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

interface CReference {
  database: string;
  entries: number;
  commands: Array<{ directory: string; file: string; arguments: string[] }>;
  files: number;
  includes: number;
  edges: Array<[source: string, target: string, written: string]>;
  outside: number;
  missing: Array<[source: string, written: string]>;
}

/**
 * C and C++: file -> file edges of `#include` lines against where gcc finds
 * each with the project's flags (c-include-reference.py: the include options
 * of a compilation database, the repository's own, else CMake's or `make -n`'s;
 * each include line handed alone to `gcc -M -MG`).
 */
async function benchC(repository: string, graph: StrataGraph): Promise<string> {
  const name = path.basename(repository);
  const cFiles = graph.nodes.filter((node) => node.kind === 'file' && C_FAMILY.test(node.path)).length;
  const strata = fileEdges(graph, C_FAMILY);
  const referenceStarted = performance.now();
  const output = execFileSync('python3', [C_REFERENCE, repository], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  const referenceMs = performance.now() - referenceStarted;
  const reference = JSON.parse(output) as CReference;
  console.log(
    `  C/C++: ${cFiles} files, ${reference.includes} include lines; flags from ${reference.database} (${reference.entries} compile commands); the reference ${referenceMs.toFixed(0)} ms`,
  );
  const missing = new Map<string, number>();
  for (const [, written] of reference.missing) missing.set(written, (missing.get(written) ?? 0) + 1);
  console.log(
    `  reference: ${reference.outside} includes lead to system headers, ${reference.missing.length} are found nowhere (${[...missing]
      .sort((a, b) => b[1] - a[1])
      .slice(0, SAMPLES)
      .map(([written, count]) => `${written} ${count}`)
      .join(', ')})`,
  );
  const expected = new Map<string, string[]>();
  for (const [source, target, written] of reference.edges) {
    const key = `${source} -> ${target}`;
    expected.set(key, [...(expected.get(key) ?? []), written]);
  }
  const rows = [compared(name, 'C/C++', cFiles, strata, expected)];
  // Without a compilation database of its own Strata guesses the include folders; given the one the reference
  // used (written to the checkout for the run, then removed), it should find what gcc finds.
  const database = path.join(repository, 'compile_commands.json');
  if (reference.commands.length > 0 && !existsSync(database) && !existsSync(path.join(repository, 'build/compile_commands.json'))) {
    writeFileSync(database, JSON.stringify(reference.commands));
    try {
      const given = await indexRepository({ repository, env: { STRATA_INDEX_CACHE: 'false' } });
      console.log(`  C/C++ with the reference's compilation database as compile_commands.json:`);
      rows.push(compared(`${name} (${reference.database})`, 'C/C++', cFiles, fileEdges(given, C_FAMILY), expected));
    } finally {
      rmSync(database, { force: true });
    }
  }
  return rows.join('\n');
}

interface RubyReference {
  files: number;
  syntaxErrors: number;
  loadPath: string[];
  edges: Array<[source: string, target: string, specifier: string]>;
  outside: number;
  missing: Array<[source: string, specifier: string]>;
  nonLiteral: number;
  autoloads: Array<[source: string, target: string, specifier: string]>;
}

/**
 * Ruby: file -> file edges of `require` and `require_relative` against
 * Ruby's own loader (ruby-require-reference.rb: Ripper for the calls,
 * `$LOAD_PATH.resolve_feature_path` for where they lead, no code of the
 * repository run), with the load path Strata's README says it uses: the
 * `lib/` of the root and of each folder holding a `*.gemspec`, shallowest
 * first. Strata's edges of `load` (not in the reference) are left out and
 * counted.
 */
function benchRuby(repository: string, graph: StrataGraph): string {
  const name = path.basename(repository);
  const rubyFiles = graph.nodes.filter((node) => node.kind === 'file' && RUBY_FILE.test(node.path)).length;
  const gems = execFileSync('git', ['-C', repository, 'ls-files', '-z', '--', '*.gemspec'], { encoding: 'utf8' })
    .split('\0')
    .filter((file) => file.endsWith('.gemspec'))
    .map((file) => path.posix.dirname(file));
  const loadPath = [...new Set(['.', ...gems])]
    .map((gem) => (gem === '.' ? 'lib' : `${gem}/lib`))
    .filter((lib) => existsSync(path.join(repository, lib)))
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
  const loads = new Map<string, string[]>();
  const strata = new Map<string, string[]>();
  for (const edge of graph.edges) {
    if (edge.kind !== 'imports' || !edge.source.startsWith('file:') || !edge.target.startsWith('file:') || !RUBY_FILE.test(edge.source)) continue;
    const key = `${edge.source.slice(5)} -> ${edge.target.slice(5)}`;
    // A `load` is a reference of kind `dynamic`; the reference reads requires only.
    (edge.references?.every((kind) => kind === 'dynamic') ? loads : strata).set(key, edge.specifiers ?? []);
  }
  const referenceStarted = performance.now();
  const output = execFileSync('ruby', ['--disable-gems', RUBY_REFERENCE, repository, ...loadPath], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  const referenceMs = performance.now() - referenceStarted;
  const reference = JSON.parse(output) as RubyReference;
  console.log(
    `  Ruby: ${rubyFiles} files (${reference.syntaxErrors} that Ripper cannot parse), load path ${JSON.stringify(loadPath)}; the reference ${referenceMs.toFixed(0)} ms`,
  );
  const missing = new Map<string, number>();
  for (const [, feature] of reference.missing) missing.set(feature, (missing.get(feature) ?? 0) + 1);
  console.log(
    `  reference: ${reference.outside} requires lead outside the repository (the standard library), ${reference.missing.length} are found nowhere on that load path (gems, test helpers: ${[
      ...missing,
    ]
      .sort((a, b) => b[1] - a[1])
      .slice(0, SAMPLES)
      .map(([feature, count]) => `${feature} ${count}`)
      .join(', ')}), ${reference.nonLiteral} name no string literal`,
  );
  console.log(`  not compared: ${loads.size} edges of Strata's from \`load\`; compared with the requires: ${reference.autoloads.length} \`autoload\` calls`);
  const expected = new Map<string, string[]>();
  for (const [source, target, specifier] of [...reference.edges, ...reference.autoloads]) {
    const key = `${source} -> ${target}`;
    expected.set(key, [...(expected.get(key) ?? []), specifier]);
  }
  return compared(name, 'Ruby', rubyFiles, strata, expected);
}

interface PhpReference {
  files: number;
  tokenErrors: number;
  loaders: string[];
  edges: Array<[source: string, target: string, specifier: string]>;
  outside: number;
  missing: Array<[source: string, specifier: string]>;
  notCompared: { computedIncludes: Array<[source: string, written: string]>; declaredNotAutoloaded: number };
}

/**
 * PHP: file -> file edges of `use` declarations (and fully qualified names
 * after `extends`, `implements`, `new`) against Composer's own autoloader,
 * and of includes with a static path against PHP's `realpath`
 * (php-import-reference.php, `token_get_all` for the names). The repository
 * is copied to a scratch folder (`.git` and `vendor/` left out) and
 * `composer dump-autoload --dev` run there in each folder with a `composer.json`
 * (no network, no scripts, no plugins): the reference builds Composer's
 * `ClassLoader` from what that wrote and asks it `findFile` of each class.
 * Needs php and composer (Debian's `php-cli`, `composer`).
 */
function benchPhp(repository: string, graph: StrataGraph): string {
  const name = path.basename(repository);
  const phpFiles = graph.nodes.filter((node) => node.kind === 'file' && PHP_FILE.test(node.path)).length;
  const strata = fileEdges(graph, PHP_FILE);
  const manifests = execFileSync('git', ['-C', repository, 'ls-files', '-z', '--', '*composer.json'], { encoding: 'utf8' })
    .split('\0')
    .filter((file) => path.posix.basename(file) === 'composer.json' && !/(^|\/)vendor\//.test(file))
    .map((file) => (path.posix.dirname(file) === '.' ? '' : path.posix.dirname(file)))
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
  const scratch = mkdtempSync(path.join(tmpdir(), 'strata-bench-php-'));
  const referenceStarted = performance.now();
  let output: string;
  try {
    cpSync(repository, scratch, { recursive: true, filter: (source) => !/(^|\/)(\.git|vendor)$/.test(path.relative(repository, source)) });
    for (const folder of manifests) {
      execFileSync(
        'composer',
        ['dump-autoload', '--dev', '--no-scripts', '--no-plugins', '--no-interaction', '--quiet', `--working-dir=${path.join(scratch, folder)}`],
        {
          env: { ...process.env, COMPOSER_DISABLE_NETWORK: '1', COMPOSER_ALLOW_SUPERUSER: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
    }
    output = execFileSync('php', [PHP_REFERENCE, repository, scratch, ...(manifests.length > 0 ? manifests : [''])], {
      encoding: 'utf8',
      maxBuffer: 1024 * 1024 * 1024,
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const referenceMs = performance.now() - referenceStarted;
  const reference = JSON.parse(output) as PhpReference;
  console.log(
    `  PHP: ${phpFiles} files (${reference.tokenErrors} that PHP cannot parse), ${manifests.length} composer.json (${JSON.stringify(manifests)}); the reference ${referenceMs.toFixed(0)} ms`,
  );
  const missing = new Map<string, number>();
  for (const [, specifier] of reference.missing) {
    const prefix = specifier.startsWith('require ') ? specifier : specifier.split('\\').slice(0, 2).join('\\');
    missing.set(prefix, (missing.get(prefix) ?? 0) + 1);
  }
  console.log(
    `  reference: ${reference.outside} names are PHP's own (or lead outside the repository), ${reference.missing.length} are found nowhere (not installed, or no such file: ${[
      ...missing,
    ]
      .sort((a, b) => b[1] - a[1])
      .slice(0, SAMPLES)
      .map(([prefix, count]) => `${prefix} ${count}`)
      .join(', ')})`,
  );
  const computed = reference.notCompared.computedIncludes;
  console.log(
    `  not compared: ${computed.length} includes of a computed path${computed.length > 0 ? ` (${JSON.stringify(computed.slice(0, SAMPLES))})` : ''}; ${reference.notCompared.declaredNotAutoloaded} functions or constants declared in a file Composer does not load`,
  );
  const expected = new Map<string, string[]>();
  for (const [source, target, specifier] of reference.edges) {
    const key = `${source} -> ${target}`;
    expected.set(key, [...(expected.get(key) ?? []), specifier]);
  }
  return compared(name, 'PHP', phpFiles, strata, expected);
}

const repositories = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
if (repositories.length === 0) {
  console.error('usage: npm run bench:polyglot -- <repository> [<repository> ...]');
  process.exit(2);
}
const rows: string[] = [];
for (const repository of repositories) rows.push(...(await benchRepository(path.resolve(repository))));
console.log('\n| repository | language | files | reference edges | Strata edges | both | only Strata | only reference | reference edges found |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) console.log(row);
process.exit(0);
