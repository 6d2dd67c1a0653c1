import { bandLegend, type ColorBand, colorBands, definePlugin, InvalidInputError, rollUp } from '@strata/sdk';

/** Importers per file, in bands (a colorblind-safe sequential blue scale). */
const BANDS: ColorBand[] = [
  { from: 0, color: '#f7fbff', label: 'not imported' },
  { from: 1, color: '#c6dbef', label: '1-2 importers' },
  { from: 3, color: '#6baed6', label: '3-9 importers' },
  { from: 10, color: '#2171b5', label: '10-29 importers' },
  { from: 30, color: '#08306b', label: '30 or more' },
];
const color = colorBands(BANDS);

/** The `exclude` input: paths whose imports are not counted (a folder ends in `/`). */
function excludedPaths(texts: string[]): { files: Set<string>; folders: string[] } {
  const files = new Set<string>();
  const folders: string[] = [];
  texts.forEach((text, index) => {
    text.split(/\r?\n/).forEach((raw, line) => {
      const entry = raw.trim().replace(/^\.\//, '');
      if (entry === '' || entry.startsWith('#')) return;
      if (entry.startsWith('/') || entry.split('/').includes('..')) {
        throw new InvalidInputError(`exclude ${index + 1}, line ${line + 1}: ${JSON.stringify(raw.trim())} is not a path inside the repository`);
      }
      if (entry.endsWith('/')) folders.push(entry);
      else files.add(entry);
    });
  });
  return { files, folders };
}

export default definePlugin({
  // Declared once: the host checks each apply against this schema and fills in the defaults, the UI makes its form
  // from it, and ctx.params is typed from it ({ hubThreshold: number; sameDirectory: boolean }).
  parameters: {
    type: 'object',
    properties: {
      hubThreshold: {
        type: 'integer',
        minimum: 1,
        maximum: 100000,
        default: 10,
        description: 'Files imported by at least this many files are hubs: they get a badge with the count.',
      },
      sameDirectory: {
        type: 'boolean',
        default: true,
        description: 'Count importers in the same directory as the file (off: only imports from elsewhere count).',
      },
    },
    additionalProperties: false,
  },
  overlays: [
    {
      id: 'fan-in',
      name: 'Fan-in',
      type: 'color',
      description: 'How many files import each file; a directory shows the most imported of its files.',
      legend: bandLegend(BANDS),
    },
    {
      id: 'hubs',
      name: 'Import hubs',
      type: 'badge',
      description: 'Files imported by at least the hub threshold of files, with the count.',
    },
  ],
  apply(ctx) {
    const { hubThreshold, sameDirectory } = ctx.params;
    const excluded = excludedPaths(ctx.inputs.get('exclude'));
    const isExcluded = (path: string): boolean => excluded.files.has(path) || excluded.folders.some((folder) => path.startsWith(folder));

    const graph = ctx.graph;
    const { kind: nodeKind, kindNames: nodeKindNames, parent, path } = graph.nodes;
    const { source, kind: edgeKind, kindNames: edgeKindNames } = graph.edges;
    const FILE = nodeKindNames.indexOf('file');
    const IMPORTS = edgeKindNames.indexOf('imports');
    /** The file a node belongs to (itself for a file; a symbol's file up its parents), or -1. */
    const fileOf = (node: number): number => {
      let at = node;
      while (at >= 0 && nodeKind[at] !== FILE) at = parent[at]!;
      return at;
    };

    const fanIn = ctx.overlay('fan-in');
    const hubs = ctx.overlay('hubs');
    // Importers per file; each directory is colored by the most imported file below it.
    const importerCounts = new Float64Array(graph.nodeCount).fill(Number.NaN);
    const files = graph.nodesOfKind('file');
    let hubCount = 0;
    let excludedImports = 0;
    for (const file of files) {
      // Distinct importing files: an edge's index gives its source; a symbol's import counts for its file.
      const importers = new Set<number>();
      for (const edge of graph.incoming(file)) {
        if (edgeKind[edge] !== IMPORTS) continue;
        const importer = fileOf(source[edge]!);
        if (importer < 0 || importer === file) continue;
        if (isExcluded(path[importer]!)) {
          excludedImports += 1;
          continue;
        }
        if (!sameDirectory && parent[importer] === parent[file]) continue;
        importers.add(importer);
      }
      const count = importers.size;
      fanIn.set(file, { color: color(count)!, value: count });
      if (count >= hubThreshold) {
        hubs.set(file, { badge: count, value: count });
        hubCount += 1;
      }
      importerCounts[file] = count;
    }
    const most = rollUp(graph, importerCounts, 'max');
    for (const directory of graph.nodesOfKind('directory')) {
      if (!Number.isNaN(most[directory]!)) fanIn.set(directory, { color: color(most[directory]!)!, value: most[directory]! });
    }
    return { summary: { files: files.length, hubs: hubCount, excludedImports } };
  },
});
