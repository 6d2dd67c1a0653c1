/**
 * Runs one peer's analysis on one repository, in a process of its own, for
 * analysis.bench.ts:
 *
 *   node test/bench/analysis-tool-run.ts <madge-circular|depcruise-circular|depcruise-reaches|depcruise-check> <repository> <output.json> [<reaches pattern | rules file>]
 *
 * madge and dependency-cruiser are configured as index-tool-run.ts configures
 * them (every source extension, the repository's tsconfig.json, type imports
 * kept, node_modules neither scanned nor followed). The moment the call
 * returns the process tells its parent (whose clock stops there), then writes
 * what the tool found.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { depcruiseOptions, SOURCE_EXTENSIONS } from './index-common.ts';

const [tool, repositoryArgument, outputFile, pattern] = process.argv.slice(2);
if (!tool || !repositoryArgument || !outputFile) {
  process.stderr.write(
    'usage: node test/bench/analysis-tool-run.ts <madge-circular|depcruise-circular|depcruise-reaches> <repository> <output.json> [<pattern>]\n',
  );
  process.exit(2);
}
const repository = path.resolve(repositoryArgument);
process.chdir(repository);
const tsConfigFile = path.join(repository, 'tsconfig.json');

let callStarted = performance.now();
let result: unknown;
if (tool === 'madge-circular') {
  const require = createRequire(import.meta.url);
  const madge = require('madge') as (path: string, config: object) => Promise<{ circular(): string[][] }>;
  callStarted = performance.now();
  const detective = { skipTypeImports: false, mixedImports: true };
  const found = await madge(repository, {
    baseDir: repository,
    fileExtensions: [...SOURCE_EXTENSIONS],
    excludeRegExp: [/(^|\/)node_modules\//],
    ...(existsSync(tsConfigFile) ? { tsConfig: tsConfigFile } : {}),
    detectiveOptions: { ts: detective, tsx: detective, es6: detective },
  });
  result = { cycles: found.circular() };
} else if (tool === 'depcruise-circular' || tool === 'depcruise-reaches' || tool === 'depcruise-check') {
  const { cruise } = await import('dependency-cruiser');
  callStarted = performance.now();
  let tsConfig: object | undefined;
  if (existsSync(tsConfigFile)) {
    const { default: extractTSConfig } = await import('dependency-cruiser/config-utl/extract-ts-config');
    try {
      tsConfig = extractTSConfig(tsConfigFile);
    } catch {
      tsConfig = undefined;
    }
  }
  const cruised = await cruise(
    ['.'],
    {
      ...depcruiseOptions(),
      ...(tsConfig ? { tsConfig: { fileName: 'tsconfig.json' } } : {}),
      ...(tool === 'depcruise-circular'
        ? { validate: true, ruleSet: { forbidden: [{ name: 'no-circular', severity: 'error' as const, from: {}, to: { circular: true } }] } }
        : tool === 'depcruise-check'
          ? { validate: true, ruleSet: JSON.parse(readFileSync(pattern!, 'utf8')) }
          : { reaches: { path: pattern! } }),
    },
    {},
    tsConfig ? { tsConfig } : {},
  );
  const output = cruised.output;
  if (typeof output === 'string') throw new Error('dependency-cruiser returned a string; expected the result object');
  result =
    tool === 'depcruise-circular'
      ? {
          circularEdges: output.modules.flatMap((module) =>
            module.dependencies.filter((dependency) => dependency.circular).map((dependency) => [module.source, dependency.resolved]),
          ),
          // Every import it resolved to a module of the repository: its own graph, to tell its search's misses from differences of resolution.
          edges: output.modules.flatMap((module) =>
            module.dependencies
              .filter((dependency) => !dependency.coreModule && !dependency.couldNotResolve && !/(^|\/)node_modules\//.test(dependency.resolved))
              .map((dependency) => [module.source, dependency.resolved]),
          ),
        }
      : tool === 'depcruise-check'
        ? { violations: output.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to, cycle: v.cycle?.map((step) => step.name) })) }
        : { modules: [...new Set(output.modules.map((module) => module.source))] };
} else {
  throw new Error(`unknown tool ${tool}`);
}
const done = {
  kind: 'done',
  callMs: performance.now() - callStarted,
  peakKb: Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0),
};
if (process.send) await new Promise<void>((resolve) => process.send!(done, () => resolve()));
writeFileSync(outputFile, JSON.stringify({ ...(result as object), timing: done }));
process.exit(0);
