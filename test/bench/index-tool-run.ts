/**
 * Runs one tool on one repository, in a process of its own, for
 * index-repos.bench.ts:
 *
 *   node test/bench/index-tool-run.ts <strata|strata-warm|depcruise|depcruise-warm|madge> <repository> <output.json> [<peer exclude regex>]
 *
 * The optional regular expression is added to what dependency-cruiser and
 * madge exclude (Strata has no such setting): for repositories with files the
 * peers crash on.
 * The tool is loaded with a dynamic import so that each process loads only
 * its own tool. The moment the tool's call returns, the process reads its
 * own peak memory (VmHWM) and tells its parent over IPC (the parent's clock
 * stops there); only then is the result reduced to a `ToolOutput` and written
 * to the output file.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  CACHE_DIRECTORY_VARIABLE,
  type DoneMessage,
  depcruiseOptions,
  isSourceFile,
  SOURCE_EXTENSIONS,
  strataToolOutput,
  type ToolName,
  type ToolOutput,
  type ToolReference,
} from './index-common.ts';

const [toolArgument, repositoryArgument, outputFile, peerExclude] = process.argv.slice(2);
if (!toolArgument || !repositoryArgument || !outputFile) {
  process.stderr.write(
    'usage: node test/bench/index-tool-run.ts <strata|strata-warm|depcruise|depcruise-warm|madge> <repository> <output.json> [<peer exclude regex>]\n',
  );
  process.exit(2);
}
const tool = toolArgument as ToolName;
const repository = path.resolve(repositoryArgument);
// dependency-cruiser reports paths relative to the working directory; madge to its base directory; Strata to the repository.
process.chdir(repository);

/** Where Strata keeps its data (and so its cache) and dependency-cruiser its cache: a fresh directory for a cold run, the one an earlier run filled for a warm run. */
const cacheDirectory = process.env[CACHE_DIRECTORY_VARIABLE];
if (!cacheDirectory && tool !== 'madge') throw new Error(`${CACHE_DIRECTORY_VARIABLE} is not set`);

const runners: Record<Exclude<ToolName, 'strata-serve-warm'>, () => Promise<() => ToolOutput>> = {
  strata: runStrata,
  'strata-warm': runStrata,
  depcruise: runDepcruise,
  'depcruise-warm': runDepcruise,
  madge: runMadge,
};
const runner = runners[tool as keyof typeof runners];
if (!runner) throw new Error(`unknown tool ${tool}`);
/** Set by each runner once its tool is loaded, just before the call. */
let callStarted = performance.now();
const reduce = await runner();
const done: DoneMessage = { kind: 'done', callMs: performance.now() - callStarted, peakKb: peakKb() };
if (process.send) await new Promise<void>((resolve) => process.send!(done, () => resolve()));
writeFileSync(outputFile, JSON.stringify({ ...reduce(), timing: done }));
process.exit(0);

/** Strata: `indexRepository` of `@strata/host`, with no configuration but its defaults and the data directory (outside the repository). */
async function runStrata(): Promise<() => ToolOutput> {
  const { indexRepository } = await import('@strata/host');
  callStarted = performance.now();
  const graph = await indexRepository({ repository, env: { STRATA_DATA_DIR: cacheDirectory } });
  return () => strataToolOutput(tool, graph);
}

/**
 * dependency-cruiser's `cruise` on `.`, configured as its `--init` does for a
 * TypeScript project: pre-compilation (type-only) dependencies, the
 * repository's tsconfig.json for parsing and for `paths`/`baseUrl`, package
 * `exports` with the import/require/node/default/types conditions, and
 * node_modules neither scanned nor followed.
 */
async function runDepcruise(): Promise<() => ToolOutput> {
  const { cruise } = await import('dependency-cruiser');
  // Reading the tsconfig is part of the work, as it is for madge and Strata.
  callStarted = performance.now();
  const notes: string[] = [];
  const tsConfigFile = path.join(repository, 'tsconfig.json');
  let tsConfig: object | undefined;
  if (existsSync(tsConfigFile)) {
    const { default: extractTSConfig } = await import('dependency-cruiser/config-utl/extract-ts-config');
    try {
      tsConfig = extractTSConfig(tsConfigFile);
    } catch (error) {
      notes.push(`tsconfig.json not usable by dependency-cruiser, cruised without it: ${(error as Error).message.split('\n')[0]}`);
    }
  } else {
    notes.push('no tsconfig.json at the root');
  }
  const result = await cruise(
    ['.'],
    {
      ...depcruiseOptions(peerExclude ? [peerExclude] : []),
      ...(tsConfig ? { tsConfig: { fileName: 'tsconfig.json' } } : {}),
      ...(tool === 'depcruise-warm' ? { cache: { folder: cacheDirectory!, strategy: 'metadata' as const } } : {}),
    },
    {},
    tsConfig ? { tsConfig } : {},
  );
  return () => {
    const output = result.output;
    if (typeof output === 'string') throw new Error('dependency-cruiser returned a string; expected the result object');
    const inRepository = (file: string): boolean => !file.startsWith('..') && !path.isAbsolute(file) && !/(^|\/)node_modules\//.test(file);
    const files = output.modules
      .filter((module) => !module.coreModule && !module.couldNotResolve && inRepository(module.source) && existsSync(module.source))
      .map((module) => module.source);
    const fileSet = new Set(files);
    const references: ToolReference[] = [];
    let unresolved = 0;
    for (const module of output.modules) {
      if (!fileSet.has(module.source)) continue;
      for (const dependency of module.dependencies) {
        const kinds = [...dependency.dependencyTypes];
        if (dependency.coreModule) references.push({ source: module.source, specifier: dependency.module, status: 'core', kinds });
        else if (dependency.couldNotResolve) {
          unresolved++;
          references.push({ source: module.source, specifier: dependency.module, status: 'unresolved', kinds });
        } else {
          const target = dependency.resolved;
          references.push({
            source: module.source,
            specifier: dependency.module,
            status: fileSet.has(target) && inRepository(target) ? 'file' : 'outside',
            target,
            kinds,
          });
        }
      }
    }
    notes.push(`${unresolved} references it could not resolve (external packages among them: no node_modules)`);
    if (peerExclude) notes.push(`excluded paths matching ${peerExclude}`);
    return { tool, files, parsed: files.filter(isSourceFile), references, notes };
  };
}

/**
 * madge on the repository with every source extension, the repository's
 * tsconfig.json when there is one, type imports kept and mixed ES/CommonJS
 * imports detected.
 */
async function runMadge(): Promise<() => ToolOutput> {
  const require = createRequire(import.meta.url);
  const madge = require('madge') as (path: string, config: object) => Promise<{ obj(): Record<string, string[]>; warnings(): { skipped: string[] } }>;
  // Only madge's entry is loaded here; it loads its parsers and resolvers during the call.
  callStarted = performance.now();
  const tsConfigFile = path.join(repository, 'tsconfig.json');
  const detective = { skipTypeImports: false, mixedImports: true };
  const result = await madge(repository, {
    baseDir: repository,
    fileExtensions: [...SOURCE_EXTENSIONS],
    excludeRegExp: peerExclude ? [/(^|\/)node_modules\//, new RegExp(peerExclude)] : [/(^|\/)node_modules\//],
    ...(existsSync(tsConfigFile) ? { tsConfig: tsConfigFile } : {}),
    detectiveOptions: { ts: detective, tsx: detective, es6: detective },
  });
  return () => {
    const tree = result.obj();
    const files = Object.keys(tree).filter((file) => !file.startsWith('..') && existsSync(file));
    const fileSet = new Set(files);
    const references: ToolReference[] = [];
    for (const source of files) {
      for (const target of tree[source]!) references.push({ source, status: fileSet.has(target) ? 'file' : 'outside', target, kinds: [] });
    }
    const skipped = result.warnings().skipped.length;
    const notes = [`${skipped} specifiers it could not resolve (warnings().skipped)`];
    if (peerExclude) notes.push(`excluded paths matching ${peerExclude}`);
    return { tool, files, parsed: files.filter(isSourceFile), references, notes };
  };
}

function peakKb(): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
}
