/**
 * What every language of `npm run bench:polyglot` shares: Strata's file -> file
 * edges of a language, and the comparison of two edge sets with the table's row.
 */
import type { indexRepository } from '@strata/host';

/** Differences shown per list (`STRATA_BENCH_SAMPLES` for more). */
export const SAMPLES = Number(process.env.STRATA_BENCH_SAMPLES ?? 10);

export type StrataGraph = Awaited<ReturnType<typeof indexRepository>>;

/** Prints the differences of two edge sets (key -> specifiers that led there) and gives the table's row. */
export function compared(name: string, language: string, files: number, strata: Map<string, string[]>, expected: Map<string, string[]>): string {
  const both = [...expected.keys()].filter((key) => strata.has(key));
  const onlyStrata = [...strata.keys()].filter((key) => !expected.has(key));
  const onlyReference = [...expected.keys()].filter((key) => !strata.has(key));
  for (const [label, keys, from] of [
    ['only Strata', onlyStrata, strata],
    ['only the reference', onlyReference, expected],
  ] as const) {
    if (keys.length === 0) continue;
    console.log(`  ${language}, ${label} (${keys.length}):`);
    for (const key of keys.slice(0, SAMPLES)) console.log(`    ${key}  ${JSON.stringify([...new Set(from.get(key))])}`);
  }
  const found = expected.size === 0 ? 1 : both.length / expected.size;
  return `| ${name} | ${language} | ${files} | ${expected.size} | ${strata.size} | ${both.length} | ${onlyStrata.length} | ${onlyReference.length} | ${(100 * found).toFixed(1)} % |`;
}

/** The imports edges between two files of the repository whose source matches `language` (a pattern of paths), one per pair. */
export function fileEdges(graph: StrataGraph, language: RegExp): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const edge of graph.edges) {
    if (edge.kind !== 'imports' || !edge.source.startsWith('file:') || !edge.target.startsWith('file:') || !language.test(edge.source)) continue;
    const key = `${edge.source.slice(5)} -> ${edge.target.slice(5)}`;
    edges.set(key, [...(edges.get(key) ?? []), ...(edge.specifiers ?? [])]);
  }
  return edges;
}
