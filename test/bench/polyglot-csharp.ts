/**
 * C# for `npm run bench:polyglot`: Strata's `using` edges against the C#
 * compiler's own binding of each using directive.
 *
 * The repository is copied to a scratch folder (`.git` left out) and each
 * `.csproj` built there by MSBuild (Mono's `xbuild`, `/p:Configuration=Debug`),
 * which evaluates the project (its `<Compile>` items, `DefineConstants`,
 * references and project references, building those first) and runs Mono's C#
 * compiler, mcs; the command line of each mcs run is read from xbuild's log.
 * `CSharpUsingReference.cs` (compiled here against mcs.exe) then runs mcs's
 * own parse, reference loading and definition on that command line and
 * reports, per file, its namespace declarations (full names, in the code the
 * project's defines leave active), its top-level types, and what each using
 * directive bound to. Edges, one per pair: `using N;` (and an alias of a
 * namespace) to every file of the compilation, or of a project whose
 * assembly it references, that declares namespace N; `using static T;` and an
 * alias of a type to the files declaring T (its parts). Each project's
 * configurations are their own `.csproj` (Newtonsoft.Json has one per target
 * framework): the edges of all that build are the reference. A project whose
 * build never reaches mcs (reference assemblies not installed, a referenced
 * project failing) is said so, and Strata's edges from files no compilation
 * saw are left out of the comparison (counted). Needs mono and xbuild
 * (Debian's `mono-devel`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WHOLE_NAMESPACE_FILES } from '../../host/dist/indexer/csharp-import-resolver.js';
import { compared, fileEdges, SAMPLES, type StrataGraph } from './polyglot-compare.ts';

const REFERENCE = fileURLToPath(new URL('./CSharpUsingReference.cs', import.meta.url));
const MCS_EXE = '/usr/lib/mono/4.5/mcs.exe';

interface CSharpReference {
  defined: boolean;
  parseErrors: number;
  sources: string[];
  errors: Record<string, number>;
  errorSamples: string[];
  namespaces: Array<[file: string, namespace: string, types: number]>;
  types: Array<[file: string, type: string]>;
  usings: Array<[file: string, line: number, kind: 'namespace' | 'static' | 'alias', written: string, result: string]>;
}

interface Compilation {
  project: string;
  folder: string;
  args: string;
  reference?: CSharpReference;
}

export function benchCSharp(repository: string, graph: StrataGraph): string {
  const name = path.basename(repository);
  const csharpFiles = graph.nodes.filter((node) => node.kind === 'file' && node.path.endsWith('.cs')).length;
  const strata = fileEdges(graph, /\.cs$/);
  const scratch = mkdtempSync(path.join(tmpdir(), 'strata-bench-csharp-'));
  const referenceStarted = performance.now();
  try {
    const tool = path.join(scratch, '.reference');
    mkdirSync(tool);
    execFileSync('mcs', [`-r:${MCS_EXE}`, `-out:${path.join(tool, 'CSharpUsingReference.exe')}`, REFERENCE], { stdio: ['ignore', 'pipe', 'pipe'] });
    const copy = path.join(scratch, 'repository');
    cpSync(repository, copy, { recursive: true, filter: (source) => !/(^|\/)\.git$/.test(path.relative(repository, source)) });
    const projects = execFileSync('git', ['-C', repository, 'ls-files', '-z', '--', '*.csproj'], { encoding: 'utf8' })
      .split('\0')
      .filter((file) => file.endsWith('.csproj'))
      .sort();

    // MSBuild's evaluation of each project: the command lines of mcs it ran (the projects it references built first).
    const compilations = new Map<string, Compilation>();
    const failures = new Map<string, string>();
    for (const project of projects) {
      if (compilations.has(project)) continue;
      const built = spawnSync('xbuild', ['/nologo', '/v:detailed', '/p:Configuration=Debug', path.basename(project)], {
        cwd: path.join(copy, path.dirname(project)),
        encoding: 'utf8',
        maxBuffer: 1024 * 1024 * 1024,
        timeout: 600_000,
      });
      const stack: string[] = [];
      for (const line of built.stdout.split('\n')) {
        const started = /^\s*Project "([^"]+)" \(/.exec(line);
        if (started) stack.push(path.relative(copy, started[1]!));
        else if (/^\s*Done building project "/.test(line)) stack.pop();
        const tool = /^\s*Tool \S*mcs\.exe execution started with arguments: (.*)$/.exec(line);
        const current = stack.at(-1);
        if (tool && current && !compilations.has(current)) compilations.set(current, { project: current, folder: path.dirname(current), args: tool[1]! });
      }
      if (!compilations.has(project)) {
        const error = built.stdout.split('\n').find((line) => /:\s*error\b/.test(line));
        failures.set(project, (error ?? `xbuild exited with ${built.status}`).trim());
      }
    }

    // The compiler's binding of each project's using directives.
    const outputs = new Map<string, string>();
    for (const compilation of compilations.values()) {
      const responseFile = path.join(tool, `${compilation.project.replaceAll('/', '_')}.rsp`);
      writeFileSync(responseFile, compilation.args);
      const output = execFileSync('mono', [path.join(tool, 'CSharpUsingReference.exe'), path.join(copy, compilation.folder), responseFile], {
        encoding: 'utf8',
        maxBuffer: 1024 * 1024 * 1024,
        env: { ...process.env, MONO_PATH: path.dirname(MCS_EXE) },
      });
      compilation.reference = JSON.parse(output) as CSharpReference;
      const out = /(?:^|\s)[/-]out:("[^"]+"|\S+)/.exec(compilation.args)?.[1]?.replaceAll('"', '');
      const built = out && path.resolve(copy, compilation.folder, out);
      if (built && existsSync(built)) outputs.set(hashOf(built), compilation.project);
    }
    const referenceMs = performance.now() - referenceStarted;

    const tracked = new Set(execFileSync('git', ['-C', repository, 'ls-files', '-z', '--', '*.cs'], { encoding: 'utf8' }).split('\0'));
    /** The repository path of a file the compiler read; undefined for one outside the repository or generated by the build (`obj/`). */
    const repositoryPath = (file: string): string | undefined => {
      const relative = path.relative(copy, file).split(path.sep).join('/');
      return tracked.has(relative) ? relative : undefined;
    };
    /** Per project: its compiled files, namespace -> declaring files, type -> declaring files (repository paths; generated files left out). */
    const declared = new Map<string, { files: Set<string>; namespaces: Map<string, Set<string>>; types: Map<string, Set<string>> }>();
    for (const { project, reference } of compilations.values()) {
      const files = new Set(reference!.sources.map(repositoryPath).filter((file) => file !== undefined));
      const namespaces = new Map<string, Set<string>>();
      const types = new Map<string, Set<string>>();
      for (const [file, namespace] of reference!.namespaces) {
        const at = repositoryPath(file);
        if (at !== undefined && namespace !== '') add(namespaces, namespace, at);
      }
      for (const [file, type] of reference!.types) {
        const at = repositoryPath(file);
        if (at !== undefined) add(types, type, at);
      }
      declared.set(project, { files, namespaces, types });
    }

    const expected = new Map<string, string[]>();
    /** `source specifier` (the using as Strata writes it) -> how each compilation that saw it bound it, and the projects it sees. */
    const bindings = new Map<string, Array<{ result: string; visible: string[] }>>();
    /** `source specifier` -> the files it reaches in the compilations that bound it. */
    const reaches = new Map<string, { source: string; specifier: string; namespace: string | undefined; targets: Set<string> }>();
    const compiled = new Set<string>();
    let unresolved = 0;
    const unresolvedNames = new Map<string, number>();
    for (const compilation of compilations.values()) {
      const reference = compilation.reference!;
      const referenced = [...compilation.args.matchAll(/(?:^|\s)[/-](?:r|reference):("[^"]+"|\S+)/g)]
        .map((match) => path.resolve(copy, compilation.folder, match[1]!.replaceAll('"', '')))
        .filter((file) => existsSync(file))
        .map((file) => outputs.get(hashOf(file)))
        .filter((project): project is string => project !== undefined);
      const visible = [compilation.project, ...referenced];
      console.log(
        `  C#: ${compilation.project}: ${reference.sources.length} files compiled, ${reference.usings.length} using directives, references ${JSON.stringify(referenced)}; errors ${JSON.stringify(reference.errors)}${reference.defined ? '' : ' (not defined: predefined types missing)'}`,
      );
      for (const file of declared.get(compilation.project)!.files) compiled.add(file);
      for (const [file, , kind, written, result] of reference.usings) {
        const source = repositoryPath(file);
        if (source === undefined) continue;
        // As Strata writes it: `global::` left out (the using is then not looked up in the enclosing namespaces).
        const specifier = (kind === 'static' ? `static ${written}` : written).replace(/(^|static |= )global::/, '$1');
        const at = `${source} ${specifier}`;
        bindings.set(at, [...(bindings.get(at) ?? []), { result, visible }]);
        if (result === '') {
          unresolved++;
          const prefix = written
            .replace(/^\S+ = /, '')
            .split('.')
            .slice(0, 2)
            .join('.');
          unresolvedNames.set(prefix, (unresolvedNames.get(prefix) ?? 0) + 1);
          continue;
        }
        const [what, named] = [result.slice(0, result.indexOf(':')), result.slice(result.indexOf(':') + 1)];
        const targets = new Set<string>();
        for (const project of visible)
          for (const target of (what === 'namespace' ? declared.get(project)!.namespaces : declared.get(project)!.types).get(named) ?? []) targets.add(target);
        targets.delete(source);
        let reached = reaches.get(at);
        if (!reached) reaches.set(at, (reached = { source, specifier, namespace: undefined, targets: new Set() }));
        if (what === 'namespace') reached.namespace = named;
        for (const target of targets) reached.targets.add(target);
      }
    }
    // Usings of namespaces above Strata's WHOLE_NAMESPACE_FILES: Strata links only the files declaring a type the file names.
    const aboveWhole = new Map<string, { usings: number; files: number }>();
    /** `source specifier` of the usings whose namespace the compiler found in more than WHOLE_NAMESPACE_FILES files. */
    const narrowed = new Set<string>();
    for (const [at, { source, specifier, namespace, targets }] of reaches) {
      for (const target of targets) addEdge(expected, `${source} -> ${target}`, specifier);
      if (namespace !== undefined && targets.size > WHOLE_NAMESPACE_FILES) {
        narrowed.add(at);
        const above = aboveWhole.get(namespace) ?? { usings: 0, files: 0 };
        aboveWhole.set(namespace, { usings: above.usings + 1, files: Math.max(above.files, targets.size) });
      }
    }
    for (const [project, reason] of failures) console.log(`  C#: ${project}: not compiled (${reason})`);
    console.log(
      `  reference: ${compilations.size} of ${projects.length} projects compiled, ${compiled.size} of ${csharpFiles} C# files, ${bindings.size} distinct using directives (${unresolved} bindings the compiler found nothing for: ${[
        ...unresolvedNames,
      ]
        .sort((a, b) => b[1] - a[1])
        .slice(0, SAMPLES)
        .map(([prefix, count]) => `${prefix} ${count}`)
        .join(', ')}); ${(referenceMs / 1000).toFixed(1)} s`,
    );
    const comparable = new Map([...strata].filter(([key]) => compiled.has(key.slice(0, key.indexOf(' -> ')))));
    console.log(
      `  namespaces of more than ${WHOLE_NAMESPACE_FILES} files (a using of one leads to those declaring a type its file names): ${JSON.stringify(Object.fromEntries([...aboveWhole].map(([namespace, { usings, files }]) => [namespace, `${usings} usings, up to ${files} files`])))}`,
    );
    const unseen = [...tracked].filter((file) => file.endsWith('.cs') && !compiled.has(file));
    console.log(
      `  not compared: ${strata.size - comparable.size} of Strata's edges from the ${unseen.length} C# files no compilation saw (${JSON.stringify(unseen.slice(0, SAMPLES))})`,
    );

    // Why an edge is on one side only, where the comparison can tell; undefined: unexplained.
    const onlyStrataWhy = (key: string, specifiers: string[]): string | undefined => {
      const [source, target] = key.split(' -> ') as [string, string];
      const bound = specifiers.flatMap((specifier) => (bindings.get(`${source} ${specifier}`) ?? []).map((binding) => ({ specifier, ...binding })));
      if (bound.length === 0) return 'the using is in a branch of #if no configuration built compiles';
      if (!compiled.has(target)) return 'the target is compiled by no project built';
      const sameName = bound.filter(({ specifier, result }) => namesAlike(specifier, result));
      if (sameName.some(({ visible }) => visible.some((project) => declared.get(project)!.files.has(target))))
        return "the target's declaration is in a branch of #if the configurations compiling the using leave out";
      if (sameName.length > 0) return "the target's project is not one the using's project references";
      return undefined;
    };
    const onlyReferenceWhy = (key: string, specifiers: string[]): string | undefined => {
      const source = key.slice(0, key.indexOf(' -> '));
      if (specifiers.some((specifier) => narrowed.has(`${source} ${specifier}`)))
        return `the using's namespace has more than ${WHOLE_NAMESPACE_FILES} files, and the target declares no type the file names`;
      return undefined;
    };
    const row = compared(name, 'C#', compiled.size, comparable, expected);
    explain(
      'only Strata',
      [...comparable].filter(([key]) => !expected.has(key)),
      onlyStrataWhy,
    );
    explain(
      'only the reference',
      [...expected].filter(([key]) => !comparable.has(key)),
      onlyReferenceWhy,
    );
    return row;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Counts the differences by their explanation, with samples of each, and prints the unexplained ones. */
function explain(label: string, edges: Array<[string, string[]]>, why: (key: string, specifiers: string[]) => string | undefined): void {
  const byReason = new Map<string, Array<[string, string[]]>>();
  for (const [key, specifiers] of edges) {
    const reason = why(key, specifiers) ?? 'unexplained';
    let list = byReason.get(reason);
    if (!list) byReason.set(reason, (list = []));
    list.push([key, specifiers]);
  }
  for (const [reason, list] of byReason) {
    console.log(`    ${label}, ${reason}: ${list.length}`);
    for (const [key, specifiers] of list.slice(0, reason === 'unexplained' ? SAMPLES : Math.min(SAMPLES, 3)))
      console.log(`      ${key}  ${JSON.stringify([...new Set(specifiers)])}`);
  }
}

/** Whether the compiler bound a using to the name Strata reads in it (`A.B`: namespace A.B; `static A.B.C`: type A.B.C; `X = A.B`: either). */
function namesAlike(specifier: string, result: string): boolean {
  const name = specifier.replace(/^static /, '').replace(/^\S+ = /, '');
  const bound = result.slice(result.indexOf(':') + 1).replace(/`\d+$/, '');
  if (specifier.startsWith('static ')) return result.startsWith('type:') && bound === name;
  return bound === name && (result.startsWith('namespace:') || / = /.test(specifier));
}

function add(map: Map<string, Set<string>>, key: string, value: string): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

function addEdge(edges: Map<string, string[]>, key: string, specifier: string): void {
  edges.set(key, [...(edges.get(key) ?? []), specifier]);
}

function hashOf(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}
