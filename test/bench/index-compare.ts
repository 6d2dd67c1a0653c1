/**
 * Agreement of file -> file import edges between Strata and a peer, for
 * index-repos.bench.ts. Edges are compared only from files both tools read
 * for imports; each edge one tool found and the other did not is put in a
 * category saying what the other tool did with the same specifier.
 */
import { TOOL_LABELS, type ToolOutput, type ToolReference } from './index-common.ts';

/** An edge one tool found, with what made it. */
export interface EdgeDifference {
  source: string;
  target: string;
  /** The specifiers that made the edge (for madge, which records none: the likeliest one Strata saw in the same file, marked `?`). */
  specifiers: string[];
  /** How the finding tool says it was referenced. */
  kinds: string[];
  /** Why the other tool has no such edge, in a few words; the grouping key. */
  category: string;
  /** What the other tool did with the same specifier, in detail. */
  other: string;
}

export interface EdgeComparison {
  peer: ToolOutput['tool'];
  /** JavaScript and TypeScript files both tools read. */
  parsedBoth: number;
  both: number;
  onlyStrata: EdgeDifference[];
  onlyPeer: EdgeDifference[];
  /** Peer edges to files that are not Strata nodes (ignored, skipped, outside): left out of the counts above. */
  peerTargetsNotStrataFiles: EdgeDifference[];
}

interface Edge {
  source: string;
  target: string;
  specifiers: string[];
  kinds: Set<string>;
}

export function compareEdges(strata: ToolOutput, peer: ToolOutput): EdgeComparison {
  const peerParsed = new Set(peer.parsed);
  const parsedBoth = new Set(strata.parsed.filter((file) => peerParsed.has(file)));
  const strataFiles = new Set(strata.files);
  const strataEdges = edgesOf(strata, parsedBoth);
  const peerEdges = edgesOf(peer, parsedBoth);
  const strataBySpecifier = indexBySpecifier(strata.references);
  const peerBySpecifier = indexBySpecifier(peer.references);
  const strataBySource = groupBySource(strata.references);
  const peerBySource = groupBySource(peer.references);
  const label = TOOL_LABELS[peer.tool];

  let both = 0;
  const onlyStrata: EdgeDifference[] = [];
  for (const [key, edge] of strataEdges) {
    if (peerEdges.has(key)) {
      both++;
      continue;
    }
    const kinds = [...edge.kinds].sort();
    if (edge.specifiers.length === 0 || peer.tool === 'madge') {
      const listed = peerBySource.get(edge.source)?.filter((reference) => reference.status === 'file').length ?? 0;
      onlyStrata.push({
        ...edge,
        kinds,
        category: `${label} has no such edge (${kinds.join('+')})`,
        other: `${label} lists ${listed} file edges from this file`,
      });
      continue;
    }
    const views = edge.specifiers.map((specifier) => describe(peerBySpecifier.get(`${edge.source}\n${specifier}`), edge.target));
    onlyStrata.push({
      ...edge,
      kinds,
      category: views[0]!.category.replace('$KINDS', kinds.join('+')).replace('$TOOL', label),
      other: views.map((view) => view.detail).join('; '),
    });
  }

  const onlyPeer: EdgeDifference[] = [];
  const peerTargetsNotStrataFiles: EdgeDifference[] = [];
  for (const [key, edge] of peerEdges) {
    if (strataEdges.has(key)) continue;
    const kinds = [...edge.kinds].sort();
    let specifiers = edge.specifiers;
    if (specifiers.length === 0) specifiers = guessSpecifiers(strataBySource.get(edge.source) ?? [], edge.target);
    const views = specifiers.map((specifier) => describe(strataBySpecifier.get(`${edge.source}\n${specifier.replace(/\?$/, '')}`), edge.target));
    const view = views[0] ?? { category: `Strata has no such edge`, detail: 'no Strata reference in this file looks like it' };
    let category = view.category.replace('$TOOL', 'Strata');
    if (category.startsWith('Strata has no such reference') && kinds.some((kind) => kind.startsWith('triple-slash')))
      category = 'Strata does not read /// <reference> directives';
    else if (category.startsWith('Strata has no such reference') && kinds.some((kind) => kind.startsWith('jsdoc')))
      category = 'Strata does not read JSDoc imports';
    else category = category.replace('$KINDS', kinds.join('+') || 'unknown kind');
    const difference = { ...edge, specifiers, kinds, category, other: views.map((entry) => entry.detail).join('; ') || view.detail };
    (strataFiles.has(edge.target) ? onlyPeer : peerTargetsNotStrataFiles).push(difference);
  }
  return { peer: peer.tool, parsedBoth: parsedBoth.size, both, onlyStrata, onlyPeer, peerTargetsNotStrataFiles };
}

/** File -> file edges from `sources`, one per (source, target). */
function edgesOf(output: ToolOutput, sources: ReadonlySet<string>): Map<string, Edge> {
  const edges = new Map<string, Edge>();
  for (const reference of output.references) {
    if (reference.status !== 'file' || !sources.has(reference.source) || reference.target === reference.source) continue;
    const key = `${reference.source}\n${reference.target}`;
    let edge = edges.get(key);
    if (!edge) edges.set(key, (edge = { source: reference.source, target: reference.target!, specifiers: [], kinds: new Set() }));
    if (reference.specifier !== undefined && !edge.specifiers.includes(reference.specifier)) edge.specifiers.push(reference.specifier);
    for (const kind of reference.kinds) edge.kinds.add(kind);
  }
  return edges;
}

function indexBySpecifier(references: readonly ToolReference[]): Map<string, ToolReference[]> {
  const index = new Map<string, ToolReference[]>();
  for (const reference of references) {
    if (reference.specifier === undefined) continue;
    const key = `${reference.source}\n${reference.specifier}`;
    const list = index.get(key);
    if (list) list.push(reference);
    else index.set(key, [reference]);
  }
  return index;
}

function groupBySource(references: readonly ToolReference[]): Map<string, ToolReference[]> {
  const index = new Map<string, ToolReference[]>();
  for (const reference of references) {
    const list = index.get(reference.source);
    if (list) list.push(reference);
    else index.set(reference.source, [reference]);
  }
  return index;
}

/** What the other tool ($TOOL) did with a specifier whose edge led to `target`. */
function describe(references: ToolReference[] | undefined, target: string): { category: string; detail: string } {
  if (!references || references.length === 0) return { category: '$TOOL has no such reference ($KINDS)', detail: 'no reference with this specifier' };
  const reference = references[0]!;
  switch (reference.status) {
    case 'unresolved': {
      const reason = reference.kinds.find((kind) => kind.includes(' ')) ?? '';
      return { category: `$TOOL could not resolve it${reason ? `: ${shortReason(reason)}` : ''}`, detail: `unresolved${reason ? ` (${reason})` : ''}` };
    }
    case 'core':
      return { category: '$TOOL took it for a built-in module', detail: `built-in ${reference.target ?? ''}`.trim() };
    case 'outside':
      return { category: '$TOOL resolved it to a package or outside the repository', detail: `-> ${reference.target}` };
    case 'file':
      return reference.target === target
        ? { category: '$TOOL has the edge', detail: 'same target' }
        : { category: '$TOOL resolved it to another file', detail: `-> ${reference.target}` };
  }
}

/** A reason without its paths, so that the same cause makes one category. */
function shortReason(reason: string): string {
  return reason
    .replace(/\(.*\)$/, '')
    .replace(/\S*\/\S*/g, '<path>')
    .replace(/"[^"]*"|'[^']*'/g, '<name>')
    .trim()
    .slice(0, 80);
}

/** For madge, which records no specifiers: the specifiers Strata saw in the same file that name the target's stem. */
function guessSpecifiers(strataReferences: readonly ToolReference[], target: string): string[] {
  const base = target.slice(target.lastIndexOf('/') + 1);
  const stem = base.slice(0, base.indexOf('.') === -1 ? undefined : base.indexOf('.'));
  const directory = target.split('/').at(-2) ?? '';
  const matches = new Set<string>();
  for (const reference of strataReferences) {
    const specifier = reference.specifier;
    if (specifier === undefined) continue;
    const last = specifier.replace(/\/$/, '').split('/').at(-1) ?? '';
    const lastStem = last.slice(0, last.indexOf('.', 1) === -1 ? undefined : last.indexOf('.', 1));
    if (lastStem === stem || (stem === 'index' && lastStem === directory)) matches.add(`${specifier}?`);
  }
  return [...matches];
}

/** Counts by category, largest first. */
export function categoryCounts(differences: readonly EdgeDifference[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const difference of differences) counts.set(difference.category, (counts.get(difference.category) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** Up to `limit` differences, taken in turn from each category so that the sample shows every kind. */
export function sampleAcrossCategories(differences: readonly EdgeDifference[], limit: number): EdgeDifference[] {
  const byCategory = new Map<string, EdgeDifference[]>();
  for (const [category] of categoryCounts(differences)) byCategory.set(category, []);
  for (const difference of differences) byCategory.get(difference.category)!.push(difference);
  const queues = [...byCategory.values()];
  const sample: EdgeDifference[] = [];
  for (let round = 0; sample.length < limit && queues.some((queue) => queue.length > round); round++) {
    for (const queue of queues) if (queue[round] && sample.length < limit) sample.push(queue[round]!);
  }
  return sample;
}
