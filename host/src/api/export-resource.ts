import { Type } from '@sinclair/typebox';
import { inject, injectable } from 'tsyringe';
import { GraphAnalysis, referenceKindsOf } from '../analysis/graph-analysis.js';
import { REFERENCE_KINDS } from '../analysis/import-graph.js';
import { repositoryRuleSet } from '../analysis/repository-rules.js';
import { StrataConfig } from '../config/strata-config.js';
import { StrataError } from '../errors/strata-error.js';
import { DOT_CLUSTER_MAX_NODES } from '../export/dot-writer.js';
import { EXPORT_NODE_KINDS } from '../export/export-selection.js';
import { EXPORT_FORMATS, type ExportFormat, GraphExporter } from '../export/graph-exporter.js';
import { CSV_LISTS, cyclesCsv, reachCsv, violationsCsv } from '../export/list-csv.js';
import { MERMAID_MAX_EDGES } from '../export/mermaid-writer.js';
import { type ApiResource, type ApiRoute, DownloadedFile, defineRoute } from '../http/api-route.js';
import { StringEnum } from '../validation/string-enum.js';
import { MAX_PAGE, rulesOrThrow } from './analysis-resource.js';

const EXCLUDE = Type.Optional(
  Type.String({
    maxLength: 200,
    description: `Reference kinds to leave out, comma-separated (${REFERENCE_KINDS.join(', ')}); an import counts while one of its kinds is not left out.`,
  }),
);
const CSV_MEDIA_TYPE = 'text/csv; charset=utf-8; header=present';

/**
 * Downloads of the graph and of the analysis lists: `GET /api/graph/export`
 * (GraphML, DOT, Mermaid, JSON, CodeCharta's cc.json) and
 * `GET /api/graph/export/{list}` (cycles, dependents, dependencies,
 * violations as CSV).
 */
@injectable()
export class ExportResource implements ApiResource {
  constructor(
    @inject(GraphExporter) private readonly exporter: GraphExporter,
    @inject(GraphAnalysis) private readonly analysis: GraphAnalysis,
    @inject(StrataConfig) private readonly config: StrataConfig,
  ) {}

  routes(): ApiRoute[] {
    return [
      defineRoute({
        method: 'GET',
        path: '/api/graph/export',
        operationId: 'exportGraph',
        summary: 'The graph, or the part around one node, as GraphML, DOT, Mermaid, JSON or cc.json',
        description:
          'The current graph revision as a file to download (`Content-Disposition: attachment`). ' +
          '`graphml`: nodes with the data keys id, kind, name, path, language, lines, loc, files; edges with kind, count, references. ' +
          `\`dot\`: a Graphviz digraph; at file level with at most ${DOT_CLUSTER_MAX_NODES.toLocaleString('en-US')} nodes each directory a cluster. ` +
          `\`mermaid\`: a \`flowchart LR\`; refused (400) above Mermaid's own limits, ${MERMAID_MAX_EDGES} edges or 50,000 characters: ask level=directory or a focus. ` +
          '`json`: `{level, nodes, edges}`, nodes as GET /api/graph gives them, edges as GET /api/graph/edges sums them with their `kind`. ' +
          "`cc.json`: CodeCharta's format (API version 1.3): the files in a tree of folders with lines, loc, bytes, complexity and the value of each overlay applied; the imports as edges with the attribute `imports`. " +
          "`level=directory` collapses each file into the directory holding it and sums the imports between directories (as dependency-cruiser's `--collapse`); " +
          '`focus` keeps a node (a directory: the files below it) and what reaches it or it reaches within `depth` imports (`direction`). ' +
          'Node and file names are escaped for each format.',
        tags: ['export'],
        query: Type.Object({
          format: StringEnum(Object.keys(EXPORT_FORMATS) as ExportFormat[], { description: 'The file format.' }),
          level: Type.Optional(StringEnum(['file', 'directory'] as const, { description: 'Files, or the directories holding them (default `file`).' })),
          include: Type.Optional(
            Type.String({
              maxLength: 100,
              description: `Node kinds to write, comma-separated (${EXPORT_NODE_KINDS.join(', ')}); default \`file,package\` (level=directory: \`directory,package\`). At file level \`directory\` adds the directories with \`contains\` edges, \`symbol\` the symbols of the files. cc.json holds files alone.`,
            }),
          ),
          focus: Type.Optional(Type.String({ minLength: 1, description: 'A node id: export it and the nodes around it.' })),
          depth: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description: 'With `focus`: most imports away (at least 1; default 1).' })),
          direction: Type.Optional(
            StringEnum(['dependents', 'dependencies', 'both'] as const, { description: 'With `focus`: what imports it, what it imports, or both (default).' }),
          ),
          exclude: EXCLUDE,
        }),
        response: Type.String({ description: 'The file, in the format asked for.' }),
        envelope: false,
        responseMediaType: 'application/octet-stream',
        errors: ['NOT_FOUND', 'INVALID_PARAMETER'],
        handle: async ({ query }) => {
          const file = await this.exporter.export({
            format: query.format,
            ...(query.level !== undefined && { level: query.level }),
            ...(query.include !== undefined && { include: query.include }),
            ...(query.focus !== undefined && { focus: query.focus }),
            ...(query.depth !== undefined && { depth: Number(query.depth) }),
            ...(query.direction !== undefined && { direction: query.direction }),
            excluded: referenceKindsOf(query.exclude, 'query.exclude'),
          });
          return new DownloadedFile(file.chunks, file.mediaType, file.filename);
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/api/graph/export/:list',
        operationId: 'exportList',
        summary: 'An analysis list as CSV',
        description:
          "A list as a CSV file (RFC 4180: a header line, CRLF, quoted fields; a cell starting with `=`, `+`, `-` or `@` prefixed with `'` so that no spreadsheet runs it). " +
          '`cycles` (GET /api/graph/cycles, `level`, `exclude`): component, size, file (or directory), shortest_cycle, a row per member. ' +
          '`dependents` and `dependencies` (of `node`, `depth`, `exclude`): node, depth, via (the node one depth nearer), edge. ' +
          "`violations` (the repository's rules, as GET /api/graph/violations): rule, severity, from, to. " +
          `At most ${MAX_PAGE.toLocaleString('en-US')} components, nodes or violations.`,
        tags: ['export'],
        params: Type.Object({ list: StringEnum(CSV_LISTS, { description: 'Which list.' }) }),
        query: Type.Object({
          level: Type.Optional(StringEnum(['file', 'directory'] as const, { description: 'cycles: what the members are (default `file`).' })),
          node: Type.Optional(Type.String({ minLength: 1, description: 'dependents, dependencies: the node id.' })),
          depth: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description: 'dependents, dependencies: most imports away (default: no limit).' })),
          exclude: EXCLUDE,
        }),
        response: Type.String({ description: 'The CSV file.' }),
        envelope: false,
        responseMediaType: 'text/csv',
        errors: ['NOT_FOUND', 'INVALID_PARAMETER', 'RULES_INVALID'],
        handle: async ({ params, query }) => {
          const excluded = referenceKindsOf(query.exclude, 'query.exclude');
          const page = { offset: 0, limit: MAX_PAGE };
          let text: string;
          if (params.list === 'cycles') {
            text = cyclesCsv(this.analysis.cycles({ level: query.level ?? 'file', excluded, edgeLimit: 0, ...page }));
          } else if (params.list === 'violations') {
            const rules = rulesOrThrow(() => repositoryRuleSet(this.config));
            text = violationsCsv(this.analysis.violations(rules, page.offset, page.limit));
          } else {
            if (query.node === undefined) throw new StrataError('INVALID_PARAMETER', `query.node: is required for ${params.list} (a node id)`);
            const maxDepth = query.depth === undefined ? null : Number(query.depth);
            if (maxDepth !== null && maxDepth < 1) throw new StrataError('INVALID_PARAMETER', 'query.depth: must be at least 1');
            text = reachCsv(this.analysis.reach(query.node, params.list, { maxDepth, excluded, ...page }));
          }
          return new DownloadedFile([text], CSV_MEDIA_TYPE, `strata-${params.list}.csv`);
        },
      }),
    ];
  }
}
