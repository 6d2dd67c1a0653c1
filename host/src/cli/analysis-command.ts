import path from 'node:path';
import { Command, Option } from 'commander';
import type { CyclesAnswer, GraphAnalysis, NodeMetrics, ReachAnswer } from '../analysis/graph-analysis.js';
import { ask, NodeNotFound, type Question, type AskOptions as ServerOrRepository } from './graph-question.js';
import { OperationError } from './overlay-command.js';
import { UsageError } from './usage-error.js';
import { writeLine } from './write-line.js';

export const DEFAULT_SERVER = 'http://localhost:5050';
export const REFERENCE_KINDS = ['static', 'dynamic', 'require', 're-export', 'type-only'];

export interface AskOptions extends ServerOrRepository {
  json?: boolean;
}

/** The options every question takes. */
export function withCommonOptions(command: Command): Command {
  return command
    .option('--server <url>', 'server to ask', DEFAULT_SERVER)
    .option('--repo <dir>', 'repository to index and ask when no server answers', '.')
    .option('--json', 'print the answer as JSON, as the HTTP API gives it')
    .addOption(new Option('--token <token>', 'bearer token for a server that requires one').env('STRATA_AUTH_TOKEN'));
}

/** `--exclude` as the API takes it, checked here so that a mistake is told before any indexing. */
export function excludeOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  for (const kind of value.split(',')) {
    if (!REFERENCE_KINDS.includes(kind.trim()))
      throw new UsageError(`--exclude: ${JSON.stringify(kind)} is not a reference kind (one of ${REFERENCE_KINDS.join(', ')})`);
  }
  return value;
}

export function positiveInteger(value: string | undefined, flag: string, minimum: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,9}$/.test(value) || Number(value) < minimum)
    throw new UsageError(`${flag}: must be a whole number of at least ${minimum}, not ${JSON.stringify(value)}`);
  return Number(value);
}

/** `strata cycles`, `strata impact`, `strata path` and `strata metrics`: the questions of the import graph. */
export function analysisCommands(): Command[] {
  const cycles = withCommonOptions(
    new Command('cycles')
      .description('list the import cycles: groups of files (or directories) that import each other, largest first')
      .addOption(new Option('--level <level>', 'what the members are').choices(['file', 'directory']).default('file'))
      .option('--exclude <kinds>', `reference kinds to leave out, comma-separated (${REFERENCE_KINDS.join(', ')})`)
      .option('--limit <n>', 'most cycles to show', '20'),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ strata cycles                          cycles of files, as madge --circular
  $ strata cycles --exclude type-only      only cycles that remain at run time
  $ strata cycles --level directory        directories whose files import each other both ways`,
    )
    .action(async (options: AskOptions & { level: 'file' | 'directory'; exclude?: string; limit: string }) => {
      const exclude = excludeOf(options.exclude);
      const limit = positiveInteger(options.limit, '--limit', 1)!;
      const query = new URLSearchParams({ level: options.level, limit: String(limit), edgeLimit: '0', ...(exclude && { exclude }) });
      const answer = await ask<CyclesAnswer>(options, {
        path: `/api/graph/cycles?${query}`,
        offline: (analysis) => analysis.cycles({ level: options.level, excluded: excludedOf(exclude), offset: 0, limit, edgeLimit: 0 }),
      });
      if (options.json) return writeLine(process.stdout, JSON.stringify(answer, null, 2), { keepLineBreaks: true });
      const members = options.level === 'file' ? 'files' : 'directories';
      const left = answer.excluded.length > 0 ? ` (${answer.excluded.join(', ')} imports left out)` : '';
      if (answer.componentCount === 0)
        return writeLine(process.stdout, `No import cycles${options.level === 'directory' ? ' between directories' : ''}${left}.`);
      writeLine(
        process.stdout,
        `${plural(answer.componentCount, 'import cycle')}, ${answer.memberCount} ${members} in them${left}${answer.truncated ? `; the ${answer.components.length} largest:` : ':'}`,
      );
      for (const [i, component] of answer.components.entries()) {
        writeLine(process.stdout, '');
        writeLine(process.stdout, `${i + 1}. ${component.members.length} ${members}, ${plural(component.edgeCount, 'import')} between them`);
        const shortest = [...component.cycle, component.cycle[0]!].map(shown).join(' -> ');
        writeLine(process.stdout, `   ${component.cycleIsShortest ? 'shortest cycle' : 'a cycle'}: ${shortest}`);
        for (const member of component.members) writeLine(process.stdout, `   ${shown(member)}`);
      }
    });

  const impact = withCommonOptions(
    new Command('impact')
      .description('what depends on a file or directory, transitively (with --dependencies: what it depends on)')
      .argument('<path>', 'a file or directory of the repository (or a node id: file:..., dir:..., pkg:..., sym:...)')
      .option('--dependencies', 'what it depends on instead of what depends on it')
      .option('--depth <n>', 'most imports away to follow (default: no limit)')
      .option('--exclude <kinds>', `reference kinds to leave out, comma-separated (${REFERENCE_KINDS.join(', ')})`)
      .option('--limit <n>', 'most nodes to list', '100'),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ strata impact src/util/format.ts       every file a change to it can break
  $ strata impact src/db --depth 1         the files importing src/db directly
  $ strata impact src/app.ts --dependencies --exclude type-only`,
    )
    .action(async (target: string, options: AskOptions & { dependencies?: boolean; depth?: string; exclude?: string; limit: string }) => {
      const exclude = excludeOf(options.exclude);
      const depth = positiveInteger(options.depth, '--depth', 1);
      const limit = positiveInteger(options.limit, '--limit', 1)!;
      const direction = options.dependencies ? 'dependencies' : 'dependents';
      const answer = await askAboutNode<ReachAnswer>(options, target, (id) => ({
        path: `/api/graph/nodes/${encodeURIComponent(id)}/${direction}?${new URLSearchParams({
          limit: String(limit),
          ...(depth !== undefined && { depth: String(depth) }),
          ...(exclude && { exclude }),
        })}`,
        offline: (analysis) => analysis.reach(id, direction, { maxDepth: depth ?? null, excluded: excludedOf(exclude), offset: 0, limit }),
      }));
      if (options.json) return writeLine(process.stdout, JSON.stringify(answer, null, 2), { keepLineBreaks: true });
      const byDepth = answer.total > 0 ? ` (${answer.byDepth.map((count, d) => `${count} at depth ${d + 1}`).join(', ')})` : '';
      const reached =
        direction === 'dependents'
          ? `${plural(answer.total, 'file')} ${answer.total === 1 ? 'depends' : 'depend'} on it`
          : `it depends on ${plural(answer.total, 'file or package', 'files and packages')}`;
      writeLine(process.stdout, `${shown(answer.node)}: ${reached}${byDepth}`);
      for (const node of answer.nodes) writeLine(process.stdout, `  ${String(node.depth).padStart(3)}  ${shown(node.id)}`);
      if (answer.truncated) writeLine(process.stdout, `  ... and ${answer.total - answer.nodes.length} more (--limit)`);
    });

  const importPath = withCommonOptions(
    new Command('path')
      .description('the shortest chain of imports from one file or directory to another')
      .argument('<from>', 'a file or directory (or a node id)')
      .argument('<to>', 'a file or directory (or a node id)')
      .option('--exclude <kinds>', `reference kinds to leave out, comma-separated (${REFERENCE_KINDS.join(', ')})`),
  ).action(async (from: string, to: string, options: AskOptions & { exclude?: string }) => {
    const exclude = excludeOf(options.exclude);
    const answer = await askAboutNode(options, from, (fromId) =>
      askAboutNode(options, to, (toId) => ({
        path: `/api/graph/path?${new URLSearchParams({ from: fromId, to: toId, ...(exclude && { exclude }) })}`,
        offline: (analysis: GraphAnalysis) => analysis.path(fromId, toId, excludedOf(exclude)),
      })),
    );
    if (options.json) return writeLine(process.stdout, JSON.stringify(answer, null, 2), { keepLineBreaks: true });
    if (!answer.found) {
      writeLine(process.stdout, `${shown(answer.from)} does not reach ${shown(answer.to)} by imports.`);
      process.exitCode = 1;
      return;
    }
    writeLine(process.stdout, `${answer.nodes.map(shown).join(' -> ')}  (${plural(answer.edges.length, 'import')})`);
  });

  const metrics = withCommonOptions(
    new Command('metrics')
      .description('fan-in, fan-out, instability and depth of each file or directory, largest first')
      .addOption(new Option('--kind <kind>', 'which nodes').choices(['file', 'directory', 'package']).default('file'))
      .addOption(new Option('--sort <metric>', 'order, largest first').choices(['fanIn', 'fanOut', 'instability', 'depth', 'id']).default('fanIn'))
      .option('--exclude <kinds>', `reference kinds to leave out, comma-separated (${REFERENCE_KINDS.join(', ')})`)
      .option('--top <n>', 'most rows', '20'),
  ).action(
    async (
      options: AskOptions & {
        kind: 'file' | 'directory' | 'package';
        sort: 'fanIn' | 'fanOut' | 'instability' | 'depth' | 'id';
        exclude?: string;
        top: string;
      },
    ) => {
      const exclude = excludeOf(options.exclude);
      const limit = positiveInteger(options.top, '--top', 1)!;
      const answer = await ask<{ total: number; nodes: NodeMetrics[] }>(options, {
        path: `/api/graph/metrics?${new URLSearchParams({ kind: options.kind, sort: options.sort, limit: String(limit), ...(exclude && { exclude }) })}`,
        offline: (analysis) => analysis.metrics({ kind: options.kind, sort: options.sort, excluded: excludedOf(exclude), offset: 0, limit }),
      });
      if (options.json) return writeLine(process.stdout, JSON.stringify(answer, null, 2), { keepLineBreaks: true });
      writeLine(process.stdout, ' fan-in  fan-out  instability  depth  path');
      for (const node of answer.nodes) {
        writeLine(
          process.stdout,
          `${String(node.fanIn).padStart(7)}  ${String(node.fanOut).padStart(7)}  ${node.instability.toFixed(2).padStart(11)}  ${String(node.depth).padStart(5)}  ${shown(node.id)}`,
        );
      }
      if (answer.total > answer.nodes.length) writeLine(process.stdout, `(${answer.nodes.length} of ${answer.total}; --top for more)`);
    },
  );

  return [cycles, impact, importPath, metrics];
}

export function excludedOf(exclude: string | undefined): Array<'static' | 'dynamic' | 'require' | 're-export' | 'type-only'> {
  return (exclude ? [...new Set(exclude.split(',').map((kind) => kind.trim()))] : []) as Array<'static' | 'dynamic' | 'require' | 're-export' | 'type-only'>;
}

/** A node id as a person reads it: a file's or directory's path, a package as `package <name>`. */
function shown(id: string): string {
  if (id.startsWith('file:') || id.startsWith('dir:')) return id.slice(id.indexOf(':') + 1);
  if (id.startsWith('pkg:')) return `package ${id.slice(4)}`;
  return id;
}

function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? noun : nouns}`;
}

/**
 * The ids a path argument may stand for, most likely first: a node id as
 * given, else the path as a file, then as a directory. The path is taken
 * from the working directory when it leads into the repository (--repo),
 * else as a path inside the repository (`src/a.ts` with `--repo ../app`).
 */
function candidateIds(argument: string, repo: string): string[] {
  if (/^(file|dir|pkg|sym):/.test(argument)) return [argument];
  const root = path.resolve(repo);
  const outside = (relative: string): boolean => relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
  let relative = path.relative(root, path.resolve(argument));
  if (outside(relative)) {
    relative = path.normalize(argument);
    if (outside(relative)) throw new UsageError(`${argument} is outside the repository (--repo ${root})`);
  }
  const repositoryPath = relative.split(path.sep).join('/').replace(/\/+$/, '');
  if (repositoryPath === '' || repositoryPath === '.') return ['dir:.'];
  return [`file:${repositoryPath}`, `dir:${repositoryPath}`];
}

/** Asks a question about the node a path names: as a file, then (not found) as a directory. */
export async function askAboutNode<T>(options: AskOptions, argument: string, question: (id: string) => Question<T> | Promise<T>): Promise<T> {
  const candidates = candidateIds(argument, options.repo);
  for (const [i, id] of candidates.entries()) {
    try {
      const asked = question(id);
      return asked instanceof Promise ? await asked : await ask(options, asked);
    } catch (error) {
      const notFound = error instanceof NodeNotFound && error.id === id;
      if (!notFound) throw error;
      if (i === candidates.length - 1)
        throw new OperationError(`${argument}: no ${candidates.length > 1 ? 'file or directory' : 'node'} of that name in the graph (NOT_FOUND)`);
    }
  }
  throw new Error('unreachable');
}
