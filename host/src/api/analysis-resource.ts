import { Type } from '@sinclair/typebox';
import { inject, injectable } from 'tsyringe';
import { MAX_RULES, parseRuleSet, RulesError } from '../analysis/dependency-rules.js';
import { GraphAnalysis, METRIC_SORTS, referenceKindsOf } from '../analysis/graph-analysis.js';
import { REFERENCE_KINDS } from '../analysis/import-graph.js';
import type { ReachDirection } from '../analysis/import-reach.js';
import { repositoryRuleSet } from '../analysis/repository-rules.js';
import { StrataConfig } from '../config/strata-config.js';
import { StrataError } from '../errors/strata-error.js';
import { GraphStore } from '../graph/graph-store.js';
import { type ApiResource, type ApiRoute, defineRoute } from '../http/api-route.js';
import { StringEnum } from '../validation/string-enum.js';
import { EdgeGroupingQuery, edgeGroupingOf, groupedOverlayEdges, OverlayEdgeSchema, UnplacedSchema } from './edge-overlays.js';

/** Most components, nodes or edges one page of an analysis answer holds. */
export const MAX_PAGE = 100_000;

const EXCLUDE = Type.Optional(
  Type.String({
    maxLength: 200,
    description: `Reference kinds to leave out, comma-separated (${REFERENCE_KINDS.join(', ')}); an import counts while one of its kinds is not left out. Example: \`type-only\`.`,
  }),
);
const OFFSET = Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description: 'Entries to skip (paging; default 0).' }));
const limit = (fallback: number) =>
  Type.Optional(
    Type.String({ pattern: '^[0-9]{1,9}$', description: `Most entries in the answer (default ${fallback}, at most ${MAX_PAGE.toLocaleString('en-US')}).` }),
  );
const PAGE_META = {
  offset: Type.Integer({ minimum: 0 }),
  limit: Type.Integer({ minimum: 1 }),
  truncated: Type.Boolean({ description: 'Whether entries after this page were left out (ask again with a larger `offset`).' }),
};
const EXCLUDED = Type.Array(StringEnum(REFERENCE_KINDS), { description: 'The reference kinds left out.' });

const CycleSchema = Type.Object({
  members: Type.Array(Type.String(), { description: 'Ids of the files (or directories) in the component, sorted.' }),
  edgeCount: Type.Integer({ description: 'Imports between members (at directory level, links between directories).' }),
  edges: Type.Array(
    Type.Object({
      source: Type.String(),
      target: Type.String(),
      count: Type.Integer({ description: 'File imports behind the link: 1 at file level.' }),
      edges: Type.Array(Type.String(), { description: 'Ids of the graph edges behind it (at most 20).' }),
    }),
    { description: 'The first `edgeLimit` of the imports between members.' },
  ),
  cycle: Type.Array(Type.String(), {
    description: 'A shortest cycle in the component: each member imports the next, and the last imports the first. It starts at its least id.',
  }),
  cycleIsShortest: Type.Boolean({
    description:
      'False when the search for the shortest cycle of a very large component ran out of its budget: `cycle` is then a cycle, not known to be a shortest.',
  }),
});

const ReachSchema = Type.Object({
  node: Type.String(),
  direction: StringEnum(['dependents', 'dependencies'] as const),
  startCount: Type.Integer({ description: "Files the question started from: the node's file (a symbol's), the files below a directory, or the package." }),
  maxDepth: Type.Union([Type.Integer(), Type.Null()], { description: 'The depth asked for; null: no limit.' }),
  excluded: EXCLUDED,
  total: Type.Integer({ description: 'Nodes reached in all.' }),
  byDepth: Type.Array(Type.Integer(), { description: 'Nodes reached at each depth: entry 0 at depth 1 (directly), entry 1 at depth 2, ...' }),
  nodes: Type.Array(
    Type.Object({
      id: Type.String(),
      depth: Type.Integer({ minimum: 1, description: 'Imports away from the node asked about.' }),
      edge: Type.String({ description: 'The import edge that reached it first (for an import of a directory, the edge to the directory).' }),
      from: Type.String({ description: 'The node one depth nearer (or of the node asked about) that the edge joins it to.' }),
    }),
    { description: 'Nearest first, then by id.' },
  ),
  ...PAGE_META,
});

const ViolationsSchema = Type.Object({
  source: Type.Union([Type.String(), Type.Null()], { description: 'Where the rules came from; null when there are none.' }),
  notes: Type.Array(Type.String(), { description: 'What was read and is not checked (an `extends`, `allowed` rules), or why there are no rules.' }),
  rules: Type.Array(
    Type.Object({ name: Type.String(), severity: StringEnum(['error', 'warn', 'info', 'ignore'] as const), comment: Type.Optional(Type.String()) }),
  ),
  counts: Type.Object({ error: Type.Integer(), warn: Type.Integer(), info: Type.Integer() }),
  checked: Type.Object({ files: Type.Integer(), imports: Type.Integer() }),
  total: Type.Integer(),
  violations: Type.Array(
    Type.Object({
      rule: Type.String(),
      severity: StringEnum(['error', 'warn', 'info'] as const),
      comment: Type.Optional(Type.String()),
      from: Type.String({ description: 'The importing file (for an orphan rule, the orphan).' }),
      to: Type.Union([Type.String(), Type.Null()], { description: 'What it imports; null for an orphan.' }),
      edge: Type.Union([Type.String(), Type.Null()], { description: 'The import edge; null for an orphan.' }),
      specifiers: Type.Optional(Type.Array(Type.String())),
      cycle: Type.Optional(Type.Array(Type.String(), { description: 'For a circular rule: a shortest way back, from `to` to `from`.' })),
    }),
  ),
  ...PAGE_META,
});

const RULES_DESCRIPTION =
  "Rules in dependency-cruiser's `forbidden` shape: `name`, `severity` (`error`, `warn`, `info`, `ignore`), `comment`, `from` (`path`, `pathNot`, `orphan`) and `to` (`path`, `pathNot`, `circular`, `dependencyTypes`, `dependencyTypesNot`), paths as regular expressions (a `$1` in `to` is the first group of `from.path`'s match). " +
  'A field Strata does not check is a mistake, named, never ignored.';

const MetricsSchema = Type.Object({
  id: Type.String(),
  files: Type.Integer({ description: 'Files below it (1 for a file, 0 for a package).' }),
  fanIn: Type.Integer({
    description: 'Afferent couplings (Ca): for a file, the files importing it; for a directory, summed over its files, the files outside it importing each.',
  }),
  fanOut: Type.Integer({
    description:
      'Efferent couplings (Ce): what a file imports (files, packages, directories); for a directory, summed over its files, what each imports outside it.',
  }),
  instability: Type.Number({ minimum: 0, maximum: 1, description: "Ce / (Ca + Ce), 0 when both are 0; as dependency-cruiser's metrics reporter computes it." }),
  depth: Type.Integer({
    minimum: 0,
    description: 'The longest chain of imports from it to files that import no file (the files of one cycle share a depth); a directory: its deepest file.',
  }),
});

/** The rule set `read` gives, its mistakes answered 422 `RULES_INVALID`. */
export function rulesOrThrow<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof RulesError) throw new StrataError('RULES_INVALID', error.message);
    throw error;
  }
}

/** Parses a page's `offset` and `limit`. */
function pageOf(query: { offset?: string; limit?: string }, fallback: number): { offset: number; limit: number } {
  const offset = query.offset === undefined ? 0 : Number(query.offset);
  const limit = query.limit === undefined ? fallback : Number(query.limit);
  if (limit < 1 || limit > MAX_PAGE) throw new StrataError('INVALID_PARAMETER', `query.limit: must be from 1 to ${MAX_PAGE}, not ${limit}`);
  return { offset, limit };
}

/**
 * The questions the import graph answers (`GET /api/graph/cycles`,
 * `.../nodes/{id}/dependents`, `.../dependencies`, `.../path`,
 * `.../metrics`, `.../edges`): exact, from the current graph, paged.
 */
@injectable()
export class AnalysisResource implements ApiResource {
  constructor(
    @inject(GraphAnalysis) private readonly analysis: GraphAnalysis,
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(StrataConfig) private readonly config: StrataConfig,
  ) {}

  routes(): ApiRoute[] {
    const meta = () => ({ revision: this.graph.revision });
    const reachRoute = (direction: ReachDirection): ApiRoute =>
      defineRoute({
        method: 'GET',
        path: `/api/graph/nodes/:id/${direction}`,
        operationId: direction === 'dependents' ? 'getDependents' : 'getDependencies',
        summary: direction === 'dependents' ? 'What depends on a node, transitively (impact)' : 'What a node depends on, transitively',
        description:
          (direction === 'dependents'
            ? 'The files that import the node, directly (depth 1) or through other files, each with its depth and the import that reached it, nearest first. '
            : 'The files and packages the node imports, directly (depth 1) or through other files, each with its depth and the import that reached it, nearest first. ') +
          "A symbol's are its file's; a directory's are those of the files below it (those files themselves are not listed); an import of a directory counts as an import of each file directly in it. " +
          '`byDepth` counts them at each depth.',
        tags: ['analysis'],
        params: Type.Object({ id: Type.String({ minLength: 1, description: 'Node id, encoded with `encodeURIComponent`.' }) }),
        query: Type.Object({
          depth: Type.Optional(Type.String({ pattern: '^[0-9]{1,9}$', description: 'Most imports away to follow (at least 1; default: no limit).' })),
          exclude: EXCLUDE,
          offset: OFFSET,
          limit: limit(1000),
        }),
        response: ReachSchema,
        errors: ['NOT_FOUND', 'INVALID_PARAMETER'],
        handle: async ({ params, query }) => {
          const excluded = referenceKindsOf(query.exclude, 'query.exclude');
          let maxDepth: number | null = null;
          if (query.depth !== undefined) {
            maxDepth = Number(query.depth);
            if (maxDepth < 1) throw new StrataError('INVALID_PARAMETER', 'query.depth: must be at least 1');
          }
          return { data: this.analysis.reach(params.id, direction, { maxDepth, excluded, ...pageOf(query, 1000) }), meta: meta() };
        },
      });

    return [
      defineRoute({
        method: 'GET',
        path: '/api/graph/cycles',
        operationId: 'getCycles',
        summary: 'Import cycles',
        description:
          'The strongly connected components of the import graph: groups of files (or directories, with `level=directory`) that each reach every other by imports. ' +
          'Each comes with its members, the imports between them and one shortest cycle through it; largest first. ' +
          'At directory level a directory imports another when a file directly in it imports a file directly in the other. Paged: `componentCount` says how many there are in all.',
        tags: ['analysis'],
        query: Type.Object({
          level: Type.Optional(StringEnum(['file', 'directory'] as const, { description: 'What the members are (default `file`).' })),
          exclude: EXCLUDE,
          offset: OFFSET,
          limit: limit(100),
          edgeLimit: Type.Optional(
            Type.String({ pattern: '^[0-9]{1,9}$', description: 'Most imports between members listed per component (default 1,000; 0 lists none).' }),
          ),
        }),
        response: Type.Object({
          level: StringEnum(['file', 'directory'] as const),
          excluded: EXCLUDED,
          componentCount: Type.Integer(),
          memberCount: Type.Integer({ description: 'Files (or directories) in some cycle.' }),
          components: Type.Array(CycleSchema),
          edgeLimit: Type.Integer(),
          ...PAGE_META,
        }),
        errors: ['INVALID_PARAMETER'],
        handle: async ({ query }) => {
          const excluded = referenceKindsOf(query.exclude, 'query.exclude');
          const edgeLimit = query.edgeLimit === undefined ? 1000 : Number(query.edgeLimit);
          if (edgeLimit > MAX_PAGE) throw new StrataError('INVALID_PARAMETER', `query.edgeLimit: must be at most ${MAX_PAGE}`);
          return { data: this.analysis.cycles({ level: query.level ?? 'file', excluded, edgeLimit, ...pageOf(query, 100) }), meta: meta() };
        },
      }),
      reachRoute('dependents'),
      reachRoute('dependencies'),
      defineRoute({
        method: 'GET',
        path: '/api/graph/path',
        operationId: 'getImportPath',
        summary: 'The shortest chain of imports from one node to another',
        description:
          '`nodes` from `from` to `to`, each importing the next, with the import `edges` between them; `found: false` when `from` does not reach `to`. ' +
          'A directory stands for the files below it (the path starts at one of them and ends at one of them); a symbol for its file.',
        tags: ['analysis'],
        query: Type.Object({
          from: Type.String({ minLength: 1, description: 'Node id.' }),
          to: Type.String({ minLength: 1, description: 'Node id.' }),
          exclude: EXCLUDE,
        }),
        response: Type.Object({
          from: Type.String(),
          to: Type.String(),
          excluded: EXCLUDED,
          found: Type.Boolean(),
          nodes: Type.Array(Type.String()),
          edges: Type.Array(Type.String()),
        }),
        errors: ['NOT_FOUND', 'INVALID_PARAMETER'],
        handle: async ({ query }) => ({
          data: this.analysis.path(query.from, query.to, referenceKindsOf(query.exclude, 'query.exclude')),
          meta: meta(),
        }),
      }),
      defineRoute({
        method: 'GET',
        path: '/api/graph/violations',
        operationId: 'getViolations',
        summary: "The imports that break the repository's architecture rules",
        description:
          "The rules are `rules` in the repository's strata.config.json, else the `forbidden` rules of its .dependency-cruiser.json (read as JSON, never run), read again at each request. " +
          `${RULES_DESCRIPTION} Violations rule by rule, paged; \`counts\` by severity. 422 \`RULES_INVALID\` names each mistake of the rules.`,
        tags: ['analysis'],
        query: Type.Object({ offset: OFFSET, limit: limit(1000) }),
        response: ViolationsSchema,
        errors: ['INVALID_PARAMETER', 'RULES_INVALID'],
        handle: async ({ query }) => {
          const { offset, limit } = pageOf(query, 1000);
          return {
            data: this.analysis.violations(
              rulesOrThrow(() => repositoryRuleSet(this.config)),
              offset,
              limit,
            ),
            meta: meta(),
          };
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/api/graph/violations/edges',
        operationId: 'getViolationEdges',
        summary: 'The violations as edges, in the shape of an edge overlay',
        description:
          "The imports of GET /api/graph/violations as GET /api/overlays/{id}/edges gives an edge overlay's: one overlay per severity (`error`, `warn`, `info`), each edge an import that breaks a rule, " +
          'weight 1, label the rule (the rules, when several); orphans, which are no edge, are left out. With `level` or `parent`, summed between directories as overlay edges are (`count`: the imports each stands for). ' +
          'A client that draws edge overlays draws these the same way.',
        tags: ['analysis'],
        query: Type.Object(EdgeGroupingQuery),
        response: Type.Object({
          source: Type.Union([Type.String(), Type.Null()]),
          overlays: Type.Array(
            Type.Object({
              id: StringEnum(['error', 'warn', 'info'] as const),
              legend: Type.Record(Type.String(), Type.String()),
              edges: Type.Array(OverlayEdgeSchema),
              unplaced: UnplacedSchema,
            }),
          ),
        }),
        errors: ['NOT_FOUND', 'INVALID_PARAMETER', 'RULES_INVALID'],
        handle: async ({ query }) => {
          const grouping = edgeGroupingOf(query);
          const answer = this.analysis.violations(
            rulesOrThrow(() => repositoryRuleSet(this.config)),
            0,
            MAX_PAGE,
          );
          const colors = { error: '#d7301f', warn: '#fc8d59', info: '#9ecae1' } as const;
          const overlays = (['error', 'warn', 'info'] as const).map((severity) => {
            const byEdge = new Map<string, { source: string; target: string; weight: number; label: string }>();
            for (const violation of answer.violations) {
              if (violation.severity !== severity || violation.to === null) continue;
              const key = `${violation.from}\u0000${violation.to}`;
              const seen = byEdge.get(key);
              if (seen) seen.label = seen.label.split(', ').includes(violation.rule) ? seen.label : `${seen.label}, ${violation.rule}`;
              else byEdge.set(key, { source: violation.from, target: violation.to, weight: 1, label: violation.rule });
            }
            return { id: severity, legend: { [severity]: colors[severity] }, edges: [...byEdge.values()] };
          });
          return { data: { source: answer.source, overlays: groupedOverlayEdges(this.analysis, overlays, grouping) }, meta: meta() };
        },
      }),
      defineRoute({
        method: 'POST',
        path: '/api/graph/violations',
        operationId: 'checkRules',
        summary: 'The imports that break the rules sent',
        description: `The same as GET, for the rules in the body (\`{"forbidden": [...]}\`; what \`strata check --rules\` sends). ${RULES_DESCRIPTION} Changes nothing.`,
        tags: ['analysis'],
        query: Type.Object({ offset: OFFSET, limit: limit(1000) }),
        body: Type.Object({ forbidden: Type.Array(Type.Unknown(), { maxItems: MAX_RULES }) }, { additionalProperties: true }),
        bodyRequired: true,
        response: ViolationsSchema,
        errors: ['INVALID_PARAMETER', 'RULES_INVALID'],
        handle: async ({ query, body }) => {
          const { offset, limit } = pageOf(query, 1000);
          return {
            data: this.analysis.violations(
              rulesOrThrow(() => parseRuleSet(body, 'body')),
              offset,
              limit,
            ),
            meta: meta(),
          };
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/api/graph/metrics',
        operationId: 'getMetrics',
        summary: 'Coupling metrics: fan-in, fan-out, instability, depth',
        description:
          "Per file, directory or package: afferent and efferent couplings (fan-in, fan-out) and instability Ce/(Ca+Ce) as dependency-cruiser's `metrics` reporter defines them, " +
          'and the depth in the import graph. Sorted largest first by `sort` (by id for `id`), paged.',
        tags: ['analysis'],
        query: Type.Object({
          kind: Type.Optional(StringEnum(['file', 'directory', 'package'] as const, { description: 'Which nodes (default `file`).' })),
          sort: Type.Optional(StringEnum(METRIC_SORTS, { description: 'Order (default `fanIn`).' })),
          exclude: EXCLUDE,
          offset: OFFSET,
          limit: limit(1000),
        }),
        response: Type.Object({
          kind: Type.String(),
          excluded: EXCLUDED,
          total: Type.Integer(),
          nodes: Type.Array(MetricsSchema),
          ...PAGE_META,
        }),
        errors: ['INVALID_PARAMETER'],
        handle: async ({ query }) => ({
          data: this.analysis.metrics({
            kind: query.kind ?? 'file',
            sort: query.sort ?? 'fanIn',
            excluded: referenceKindsOf(query.exclude, 'query.exclude'),
            ...pageOf(query, 1000),
          }),
          meta: meta(),
        }),
      }),
      defineRoute({
        method: 'GET',
        path: '/api/graph/nodes/:id/metrics',
        operationId: 'getNodeMetrics',
        summary: "One node's coupling metrics",
        description: "As GET /api/graph/metrics gives them; a symbol's are its file's.",
        tags: ['analysis'],
        params: Type.Object({ id: Type.String({ minLength: 1, description: 'Node id, encoded with `encodeURIComponent`.' }) }),
        query: Type.Object({ exclude: EXCLUDE }),
        response: MetricsSchema,
        errors: ['NOT_FOUND', 'INVALID_PARAMETER'],
        handle: async ({ params, query }) => ({
          data: this.analysis.metricsOfNode(params.id, referenceKindsOf(query.exclude, 'query.exclude')),
          meta: meta(),
        }),
      }),
      defineRoute({
        method: 'GET',
        path: '/api/graph/edges',
        operationId: 'getAggregatedEdges',
        summary: 'Imports summed between directories',
        description:
          'Each file stands for its directory `level` below the root (`dir:.` is level 0; a file less deep stands for itself), or with `parent`, for the child of that directory holding it (files outside it are left out). ' +
          'Imports within one group are left out, and imports of packages. Each edge: the two groups, the file imports between them and how many carry each reference kind; largest first, paged. ' +
          'A client draws a graph of 100,000 files as a few hundred such edges.',
        tags: ['analysis'],
        query: Type.Object({
          level: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: 'Directory depth to sum at (1: the directories in the root).' })),
          parent: Type.Optional(Type.String({ minLength: 1, description: 'A directory id: sum between its children.' })),
          exclude: EXCLUDE,
          offset: OFFSET,
          limit: limit(10_000),
        }),
        response: Type.Object({
          total: Type.Integer(),
          edges: Type.Array(
            Type.Object({
              source: Type.String(),
              target: Type.String(),
              count: Type.Integer({ minimum: 1 }),
              references: Type.Record(Type.String(), Type.Integer(), { description: 'Reference kind -> how many of the imports carry it.' }),
            }),
          ),
          ...PAGE_META,
        }),
        errors: ['NOT_FOUND', 'INVALID_PARAMETER'],
        handle: async ({ query }) => {
          if ((query.level === undefined) === (query.parent === undefined))
            throw new StrataError('INVALID_PARAMETER', 'query: give one of `level` (a directory depth) and `parent` (a directory id)');
          const grouping = query.level !== undefined ? { level: Number(query.level) } : { parent: query.parent! };
          const { offset, limit } = pageOf(query, 10_000);
          return { data: this.analysis.aggregatedEdges(grouping, referenceKindsOf(query.exclude, 'query.exclude'), offset, limit), meta: meta() };
        },
      }),
    ];
  }
}
