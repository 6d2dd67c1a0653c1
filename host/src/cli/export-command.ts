import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command, Option } from 'commander';
import type { GraphAnalysis } from '../analysis/graph-analysis.js';
import { askAboutNode, DEFAULT_SERVER, excludedOf, excludeOf, positiveInteger, REFERENCE_KINDS } from './analysis-command.js';
import { type AskOptions, ask, type Question } from './graph-question.js';
import { UsageError } from './usage-error.js';

const FORMATS = ['graphml', 'dot', 'mermaid', 'json', 'cc.json'] as const;

interface ExportOptions {
  format: (typeof FORMATS)[number];
  level: 'file' | 'directory';
  include?: string;
  focus?: string;
  depth?: string;
  direction?: 'dependents' | 'dependencies' | 'both';
  exclude?: string;
  output?: string;
  server: string;
  token?: string;
}

/** The export's bytes, as the server's route or the same code here writes them. */
function exportQuestion(options: ExportOptions, repo: string, focus: string | undefined): Question<Buffer> {
  const exclude = excludeOf(options.exclude);
  const depth = positiveInteger(options.depth, '--depth', 1);
  const query = new URLSearchParams({
    format: options.format,
    level: options.level,
    ...(options.include !== undefined && { include: options.include }),
    ...(focus !== undefined && { focus }),
    ...(depth !== undefined && { depth: String(depth) }),
    ...(options.direction !== undefined && { direction: options.direction }),
    ...(exclude && { exclude }),
  });
  return {
    path: `/api/graph/export?${query}`,
    read: async (response) => Buffer.from(await response.arrayBuffer()),
    offline: async (analysis: GraphAnalysis) => {
      const { GraphExporter } = await import('../export/graph-exporter.js');
      const noOverlays = { anyServed: false, stylesOf: () => undefined };
      const exporter = new GraphExporter(analysis.graph, analysis, noOverlays, { repositoryRoot: path.resolve(repo) });
      const file = await exporter.export({
        format: options.format,
        level: options.level,
        ...(options.include !== undefined && { include: options.include }),
        ...(focus !== undefined && { focus }),
        ...(depth !== undefined && { depth }),
        ...(options.direction !== undefined && { direction: options.direction }),
        excluded: excludedOf(exclude),
      });
      return Buffer.concat(file.chunks);
    },
  };
}

/** `strata export`: the graph in a file format, from a running server or, when none answers, from the repository indexed here. */
export function exportCommand(): Command {
  return new Command('export')
    .description(
      'write the graph (or the part around one file) as GraphML, DOT, Mermaid, JSON or CodeCharta cc.json, from a running server or, when none answers, the repository',
    )
    .argument('[repo]', 'repository to index when no server answers', '.')
    .addOption(new Option('--format <format>', 'file format').choices(FORMATS).makeOptionMandatory())
    .addOption(new Option('--level <level>', 'files, or the directories holding them with imports summed').choices(['file', 'directory']).default('file'))
    .option('--include <kinds>', 'node kinds to write, comma-separated (file, directory, package, symbol; default file,package or directory,package)')
    .option('--focus <path>', 'only this file or directory (or node id) and the nodes around it')
    .option('--depth <n>', 'with --focus: most imports away (default 1)')
    .addOption(new Option('--direction <direction>', 'with --focus: what imports it, what it imports, or both').choices(['dependents', 'dependencies', 'both']))
    .option('--exclude <kinds>', `reference kinds to leave out, comma-separated (${REFERENCE_KINDS.join(', ')})`)
    .option('-o, --output <file>', 'write to this file instead of standard output')
    .option('--server <url>', 'server to ask', DEFAULT_SERVER)
    .addOption(new Option('--token <token>', 'bearer token for a server that requires one').env('STRATA_AUTH_TOKEN'))
    .addHelpText(
      'after',
      `
Formats: graphml (yEd, Gephi, Cytoscape), dot (Graphviz), mermaid (a flowchart
of at most 500 edges: use --level directory or --focus), json (the API's nodes
and edges), cc.json (CodeCharta: files in folders, imports as edges).

Examples:
  $ strata export --format dot --level directory | dot -Tsvg > deps.svg
  $ strata export ../app --format graphml --output app.graphml
  $ strata export --format mermaid --focus src/db/pool.ts --depth 2
  $ strata export --format cc.json --exclude type-only -o strata.cc.json`,
    )
    .action(async (repo: string, options: ExportOptions) => {
      if (options.focus === undefined && (options.depth !== undefined || options.direction !== undefined))
        throw new UsageError('--depth and --direction apply to the nodes around --focus; give --focus <path>');
      const where: AskOptions = { server: options.server, repo, ...(options.token !== undefined && { token: options.token }) };
      const bytes =
        options.focus === undefined
          ? await ask(where, exportQuestion(options, repo, undefined))
          : await askAboutNode(where, options.focus, (id) => exportQuestion(options, repo, id));
      if (options.output !== undefined) await writeFile(options.output, bytes);
      else process.stdout.write(bytes);
    });
}
