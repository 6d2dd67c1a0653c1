import { colorScale, definePlugin, rollUp, scaleLegend } from '@strata/sdk';

/** Markers per 100 lines of code at which the color is darkest. */
const HIGH_DENSITY = 5;

const scale = colorScale(['#e8f5e9', '#fff176', '#e53935'], [0, HIGH_DENSITY]);

function escapeRegExp(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export default definePlugin({
  // Declared once: the host checks requests against it and fills in the defaults; ctx.params is typed from it
  // ({ markers: string[]; languages: string[] }).
  parameters: {
    type: 'object',
    properties: {
      markers: {
        type: 'array',
        items: { type: 'string', minLength: 1, maxLength: 40 },
        minItems: 1,
        maxItems: 20,
        default: ['TODO', 'FIXME', 'XXX', 'HACK'],
        description: 'Words that mark work left to do.',
      },
      languages: {
        type: 'array',
        items: { type: 'string' },
        default: ['typescript', 'javascript'],
        description: 'Languages of the files read.',
      },
    },
    additionalProperties: false,
  },
  overlays: [
    {
      id: 'density',
      name: 'TODO density',
      type: 'color',
      description: 'Markers per 100 lines of code; the badge is the count.',
      legend: scaleLegend(scale, [0, HIGH_DENSITY], 6, (value) => `${value}/100 loc`),
    },
  ],
  async apply(ctx) {
    const markers = ctx.params.markers;
    const languages = new Set(ctx.params.languages);
    const pattern = new RegExp(`\\b(${markers.map(escapeRegExp).join('|')})\\b`, 'g');
    const graph = ctx.graph;
    const { language, languageNames, loc } = graph.nodes;
    const density = ctx.overlay('density');

    // Counts per file (NaN: not counted); directories add up their files.
    const countsPerFile = new Float64Array(graph.nodeCount).fill(Number.NaN);
    const linesPerFile = new Float64Array(graph.nodeCount).fill(Number.NaN);
    const files = [...graph.nodesOfKind('file')].filter((i) => languages.has(languageNames[language[i]!]!));
    const texts = await Promise.all(files.map((i) => ctx.files.read(graph.nodes.path[i]!)));
    files.forEach((file, k) => {
      const found = texts[k]!.match(pattern)?.length ?? 0;
      const code = Number.isNaN(loc[file]!) ? 0 : loc[file]!;
      countsPerFile[file] = found;
      linesPerFile[file] = code;
    });
    const counts = rollUp(graph, countsPerFile);
    const lines = rollUp(graph, linesPerFile);
    for (let node = 0; node < graph.nodeCount; node++) {
      // Not counted (NaN), or nothing to say (0 and 0).
      if (!(lines[node]! > 0) && !(counts[node]! > 0)) continue;
      const perHundred = lines[node]! > 0 ? (100 * counts[node]!) / lines[node]! : 0;
      density.set(node, { color: scale(perHundred), value: Math.round(perHundred * 100) / 100, ...(counts[node]! > 0 && { badge: counts[node]! }) });
    }
  },
});
