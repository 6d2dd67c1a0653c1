/**
 * Strata's answers against madge's and dependency-cruiser's: import cycles
 * and what reaches a file, on real repositories, with the same components
 * checked; and impact queries on a generated graph of 100,000 files.
 *
 *   npm run bench:analysis -- [<repository>...] [--runs N] [--generated FILES] [--history <repository>]
 *
 * For each repository:
 * - "strata cycles, cold": the CLI with no server and an empty data
 *   directory (it indexes the repository, then answers); "warm": again on
 *   the data directory it left (its facts cache read);
 * - "served": `GET /api/graph/cycles` of a `strata serve` that has the graph
 *   (the first query makes the import graph; a second, `exclude=type-only`,
 *   reuses it), and `GET .../dependents` of the file most imported;
 * - madge's `circular()` and dependency-cruiser with a `no-circular` rule,
 *   each in a process of its own (test/bench/analysis-tool-run.ts), whole
 *   runs from process start to the call's end, as a user waits for them;
 * - dependency-cruiser's `--reaches` on the same file as the impact query.
 *
 * Runs take turns; with --runs N the medians. The components are compared
 * as sets of files: dependency-cruiser's circular imports are grouped into
 * strongly connected components; madge's cycles are matched to the
 * component holding them.
 *
 * --history REPOSITORY (any number of times): change-coupling applied over
 * the repository's whole history on a running server, against one
 * `git log --numstat` pass over the same commits (floor: under 3 times it).
 *
 * --generated FILES (default 100,000; 0 for none): a generated repository
 * of that many files (as bench:serve writes it), served, then 20 impact
 * queries (dependents, no depth limit) on the file most imported and on a
 * file deep in the tree: median and 95th percentile against the floor of
 * 100 ms; and the first cycles query.
 */
import { execFileSync, fork, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateRepo } from './generate-repo.ts';
import { referenceSortMs } from './machine-speed.ts';
import { STRATA_BIN, startServeProcess } from './serve-process.ts';

/**
 * The rules of the `strata check` comparison, the kind a team starts with
 * (dependency-cruiser's `--init` writes the first two): no cycles, no
 * orphans, and nothing outside tests importing a test.
 */
const CHECK_RULES = {
  forbidden: [
    { name: 'no-circular', severity: 'warn', from: {}, to: { circular: true } },
    {
      name: 'no-orphans',
      severity: 'info',
      from: { orphan: true, pathNot: ['(^|/)\\.[^/]+\\.(js|cjs|mjs|ts|json)$', '\\.d\\.ts$', '(^|/)tsconfig\\.json$'] },
      to: {},
    },
    {
      name: 'not-to-test',
      severity: 'error',
      from: { pathNot: '(^|/)(test|tests|__tests__)/|\\.(spec|test)\\.[cm]?[jt]sx?$' },
      to: { path: '(^|/)(test|tests|__tests__)/|\\.(spec|test)\\.[cm]?[jt]sx?$' },
    },
  ],
};

const RUNNER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'analysis-tool-run.ts');
const IMPACT_FLOOR_MS = 100;

const { repositories, runs, generated, histories } = parseArguments(process.argv.slice(2));
process.stdout.write(`machine: reference sort ${referenceSortMs().toFixed(0)} ms (test/bench/machine-speed.ts)\n`);
const rows: string[][] = [];
for (const repository of repositories) rows.push(...(await benchRepository(repository)));
if (rows.length > 0) {
  process.stdout.write('\n## cycles and reaches: Strata against madge and dependency-cruiser\n\n');
  printTable(['repository', 'files', 'what', 'Strata', 'madge', 'dependency-cruiser', 'faster peer / Strata', 'same answer'], rows);
}
if (generated > 0) await benchGenerated(generated);
for (const history of histories) await benchChangeCoupling(history, runs);

interface Timed<T> {
  ms: number;
  value: T;
}

async function benchRepository(repository: string): Promise<string[][]> {
  const name = path.basename(repository);
  process.stdout.write(`\n=== ${name} (${repository}) ===\n`);
  warmPageCache(repository);
  const cold: number[] = [];
  const warm: number[] = [];
  const madgeRuns: number[] = [];
  const cruiserRuns: number[] = [];
  const reachesRuns: number[] = [];
  const checkCold: number[] = [];
  const checkWarm: number[] = [];
  const cruiserCheckRuns: number[] = [];
  let strataViolations: CheckViolation[] = [];
  let cruiserViolations: CheckViolation[] = [];
  const rulesFile = path.join(mkdtempSync(path.join(tmpdir(), 'strata-analysis-rules-')), 'rules.json');
  writeFileSync(rulesFile, JSON.stringify(CHECK_RULES));
  let strataCycles: CycleAnswer | undefined;
  let madgeCycles: string[][] = [];
  let cruiserEdges: Array<[string, string]> = [];
  let cruiserGraph: Array<[string, string]> = [];
  let cruiserReaches: string[] = [];
  let served: Awaited<ReturnType<typeof askServed>> | undefined;
  for (let run = 0; run < runs; run++) {
    const dataDirectory = mkdtempSync(path.join(tmpdir(), 'strata-analysis-bench-'));
    try {
      const first = await strataCli(repository, dataDirectory);
      cold.push(first.ms);
      strataCycles = first.value;
      warm.push((await strataCli(repository, dataDirectory)).ms);
      served = await askServed(repository, dataDirectory);
    } finally {
      rmSync(dataDirectory, { recursive: true, force: true });
    }
    const checkDirectory = mkdtempSync(path.join(tmpdir(), 'strata-analysis-bench-'));
    try {
      const first = await strataCheck(repository, checkDirectory, rulesFile);
      checkCold.push(first.ms);
      strataViolations = first.value;
      checkWarm.push((await strataCheck(repository, checkDirectory, rulesFile)).ms);
    } finally {
      rmSync(checkDirectory, { recursive: true, force: true });
    }
    const cruiserCheck = await peer<{ violations: CheckViolation[] }>('depcruise-check', repository, rulesFile);
    cruiserCheckRuns.push(cruiserCheck.ms);
    cruiserViolations = cruiserCheck.value.violations;
    const madge = await peer<{ cycles: string[][] }>('madge-circular', repository);
    madgeRuns.push(madge.ms);
    madgeCycles = madge.value.cycles;
    const cruiser = await peer<{ circularEdges: Array<[string, string]>; edges: Array<[string, string]> }>('depcruise-circular', repository);
    cruiserRuns.push(cruiser.ms);
    cruiserEdges = cruiser.value.circularEdges;
    cruiserGraph = cruiser.value.edges;
    const reaches = await peer<{ modules: string[] }>('depcruise-reaches', repository, `^${escapeRegExp(served.impact.target.slice('file:'.length))}$`);
    reachesRuns.push(reaches.ms);
    cruiserReaches = reaches.value.modules;
    process.stderr.write(
      `${name} run ${run + 1}: strata cold ${seconds(cold.at(-1)!)} s, warm ${seconds(warm.at(-1)!)} s, served ${served.cyclesFirstMs.toFixed(0)} ms; ` +
        `madge ${seconds(madge.ms)} s, dependency-cruiser ${seconds(cruiser.ms)} s, --reaches ${seconds(reaches.ms)} s; ` +
        `check ${seconds(checkCold.at(-1)!)} s (warm ${seconds(checkWarm.at(-1)!)} s), dependency-cruiser ${seconds(cruiserCheck.ms)} s\n`,
    );
  }
  const ours = strataCycles!.components.map((component) => new Set(component.members.map((id) => id.slice('file:'.length))));
  const agreement = compareCycles(ours, madgeCycles, cruiserEdges, cruiserGraph);
  process.stdout.write(`Strata: ${ours.length} components, ${ours.reduce((n, c) => n + c.size, 0)} files in them\n`);
  for (const line of agreement.summary) process.stdout.write(`${line}\n`);
  for (const line of agreement.details) process.stdout.write(`  ${line}\n`);
  const target = served!.impact.target.slice('file:'.length);
  const cruiserReaching = new Set(cruiserReaches.filter((module) => module !== target));
  const ourReaching = new Set(served!.impact.dependents);
  const onlyOurs = [...ourReaching].filter((file) => !cruiserReaching.has(file));
  const onlyCruiser = [...cruiserReaching].filter((file) => !ourReaching.has(file));
  const ownReaching = reachingIn(cruiserGraph, target);
  process.stdout.write(
    `impact of ${target}: Strata ${ourReaching.size} dependents, dependency-cruiser --reaches ${cruiserReaching.size} ` +
      `(${ownReaching.size} by its own graph); only Strata: ${onlyOurs.length} ${sample(onlyOurs)}; only dependency-cruiser: ${onlyCruiser.length} ${sample(onlyCruiser)}\n`,
  );
  for (const file of onlyOurs.slice(0, 3)) {
    const way = served!.impact.paths.get(file);
    const missing = way?.filter(([a, b]) => !cruiserGraph.some(([x, y]) => x === a && y === b));
    process.stdout.write(
      `  ${file} reaches it by ${[...(way?.map(([a]) => a) ?? []), target].join(' -> ')}; imports dependency-cruiser did not resolve: ${missing?.map(([a, b]) => `${a} -> ${b}`).join(', ') || 'none'}\n`,
    );
  }
  rmSync(path.dirname(rulesFile), { recursive: true, force: true });
  const checkAgreement = compareChecks(strataViolations, cruiserViolations);
  for (const line of checkAgreement.lines) process.stdout.write(`${line}\n`);
  const files = served!.fileCount;
  const fasterCycles = Math.min(median(madgeRuns), median(cruiserRuns));
  return [
    [
      name,
      String(files),
      'cycles, cold CLI',
      `${seconds(median(cold))} s`,
      `${seconds(median(madgeRuns))} s`,
      `${seconds(median(cruiserRuns))} s`,
      ratio(fasterCycles, median(cold)),
      agreement.verdict,
    ],
    [name, String(files), 'cycles, warm CLI', `${seconds(median(warm))} s`, '', '', ratio(fasterCycles, median(warm)), ''],
    [
      name,
      String(files),
      'cycles, served (first; exclude=type-only)',
      `${served!.cyclesFirstMs.toFixed(0)} ms; ${served!.cyclesAgainMs.toFixed(0)} ms`,
      '',
      '',
      ratio(fasterCycles, served!.cyclesFirstMs),
      '',
    ],
    [
      name,
      String(files),
      `reaches ${target} (served; cold CLI)`,
      `${served!.impact.ms.toFixed(0)} ms; ${seconds(median(cold))} s`,
      '',
      `${seconds(median(reachesRuns))} s`,
      `${ratio(median(reachesRuns), served!.impact.ms)}; ${ratio(median(reachesRuns), median(cold))}`,
      onlyOurs.length === 0 && onlyCruiser.length === 0 ? 'yes' : `${onlyOurs.length} + ${onlyCruiser.length} files differ`,
    ],
    [
      name,
      String(files),
      'strata check, 3 rules (cold; warm)',
      `${seconds(median(checkCold))} s; ${seconds(median(checkWarm))} s`,
      '',
      `${seconds(median(cruiserCheckRuns))} s`,
      `${ratio(median(cruiserCheckRuns), median(checkCold))}; ${ratio(median(cruiserCheckRuns), median(checkWarm))}`,
      checkAgreement.verdict,
    ],
  ];
}

interface CycleAnswer {
  componentCount: number;
  components: Array<{ members: string[] }>;
}

/** `strata <args>` with no server, on a data directory: the whole run's time and what it printed, as JSON (exit 0, or 1 for a check that found errors). */
async function strataJson<T>(args: string[], repository: string, dataDirectory: string): Promise<Timed<T>> {
  const started = performance.now();
  const child = spawn(process.execPath, [STRATA_BIN, ...args, '--server', 'http://127.0.0.1:9', '--repo', repository], {
    env: { ...process.env, STRATA_DATA_DIR: dataDirectory },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const ms = performance.now() - started;
  if (code !== 0 && !(code === 1 && args[0] === 'check')) throw new Error(`strata ${args[0]} exited ${code}: ${err}`);
  return { ms, value: JSON.parse(out) as T };
}

/** `strata cycles --json`: the whole run's time and its answer. */
function strataCli(repository: string, dataDirectory: string): Promise<Timed<CycleAnswer>> {
  return strataJson(['cycles', '--json', '--limit', '100000'], repository, dataDirectory);
}

interface CheckViolation {
  rule: string;
  from: string;
  to: string | null;
  cycle?: string[];
}

/** `strata check --format json`: the whole run's time and its violations (paths, as dependency-cruiser names them). */
async function strataCheck(repository: string, dataDirectory: string, rulesFile: string): Promise<Timed<CheckViolation[]>> {
  const { ms, value } = await strataJson<{ violations: Array<{ rule: string; from: string; to: string | null }> }>(
    ['check', '--rules', rulesFile, '--format', 'json'],
    repository,
    dataDirectory,
  );
  const strip = (id: string | null): string | null => (id === null ? null : id.replace(/^(file|dir|pkg):/, ''));
  return { ms, value: value.violations.map((v) => ({ rule: v.rule, from: strip(v.from)!, to: strip(v.to) })) };
}

/**
 * Strata's violations against dependency-cruiser's, rule by rule. A circular
 * rule is one violation per import on a cycle for Strata, one per cycle found
 * for dependency-cruiser: the imports of its cycles are compared. An orphan
 * is `to: null` for Strata, `to` the file itself for dependency-cruiser.
 */
function compareChecks(ours: CheckViolation[], theirs: CheckViolation[]): { lines: string[]; verdict: string } {
  const lines: string[] = [];
  const verdicts: string[] = [];
  for (const rule of CHECK_RULES.forbidden.map((r) => r.name)) {
    const mine = new Set(ours.filter((v) => v.rule === rule).map((v) => `${v.from} -> ${v.to ?? v.from}`));
    const other = new Set<string>();
    for (const v of theirs.filter((v) => v.rule === rule)) {
      if (!v.cycle) other.add(`${v.from} -> ${v.to ?? v.from}`);
      else {
        const files = [v.from, ...v.cycle];
        for (let i = 0; i + 1 < files.length; i++) other.add(`${files[i]} -> ${files[i + 1]}`);
      }
    }
    const onlyMine = [...mine].filter((x) => !other.has(x));
    const onlyOther = [...other].filter((x) => !mine.has(x));
    lines.push(
      `check ${rule}: Strata ${mine.size}, dependency-cruiser ${other.size}; only Strata ${onlyMine.length} ${sample(onlyMine)}; only dependency-cruiser ${onlyOther.length} ${sample(onlyOther)}`,
    );
    verdicts.push(`${rule} ${mine.size}/${other.size}`);
  }
  return { lines, verdict: verdicts.join(', ') };
}

/** The served queries: a `strata serve` on the data directory, asked once it listens and has the graph. */
async function askServed(repository: string, dataDirectory: string) {
  const server = await startServeProcess(repository, 'warn', 'pipe', ['--data-dir', dataDirectory, '--no-built-ins'], () => undefined);
  try {
    const get = async (query: string): Promise<Timed<any>> => {
      const started = performance.now();
      const response = await fetch(server.url + query);
      const body = await response.json();
      const ms = performance.now() - started;
      if (!response.ok) throw new Error(`${query}: ${response.status} ${JSON.stringify(body)}`);
      return { ms, value: body };
    };
    const graph = await get('/api/graph/metrics?kind=directory&sort=id&limit=1');
    const cyclesFirst = await get('/api/graph/cycles?limit=1&edgeLimit=0');
    const cyclesAgain = await get('/api/graph/cycles?limit=1&edgeLimit=0&exclude=type-only');
    const top = await get('/api/graph/metrics?sort=fanIn&limit=1');
    const target = top.value.data.nodes[0].id as string;
    const impact = await get(`/api/graph/nodes/${encodeURIComponent(target)}/dependents?limit=100000`);
    const root = await get(`/api/graph/nodes/${encodeURIComponent('dir:.')}/metrics`);
    void graph;
    return {
      fileCount: root.value.data.files as number,
      cyclesFirstMs: cyclesFirst.ms,
      cyclesAgainMs: cyclesAgain.ms,
      impact: {
        target,
        ms: impact.ms,
        dependents: (impact.value.data.nodes as Array<{ id: string }>).map((node) => node.id.slice(node.id.indexOf(':') + 1)),
        paths: waysTo(impact.value.data.nodes as Array<{ id: string; from: string }>),
      },
    };
  } finally {
    await server.stop();
  }
}

/** For each node a reach reached, the imports from it back to the start (each node's `from`, in turn). */
function waysTo(nodes: Array<{ id: string; from: string }>): Map<string, Array<[string, string]>> {
  const strip = (id: string): string => id.slice(id.indexOf(':') + 1);
  const from = new Map(nodes.map((node) => [strip(node.id), strip(node.from)]));
  const ways = new Map<string, Array<[string, string]>>();
  for (const node of nodes) {
    const way: Array<[string, string]> = [];
    for (let at = strip(node.id); from.has(at); at = from.get(at)!) way.push([at, from.get(at)!]);
    ways.set(strip(node.id), way);
  }
  return ways;
}

/** A peer in a process of its own: from its start to its call's end. */
async function peer<T>(tool: string, repository: string, pattern?: string): Promise<Timed<T>> {
  const output = path.join(mkdtempSync(path.join(tmpdir(), 'strata-analysis-peer-')), 'out.json');
  const started = performance.now();
  const child = fork(RUNNER, [tool, repository, output, ...(pattern ? [pattern] : [])], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    execArgv: ['--max-old-space-size=8192'],
  });
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk));
  let ms = 0;
  child.on('message', () => (ms = performance.now() - started));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`${tool} exited ${code}: ${err.slice(-2000)}`);
  const value = JSON.parse(readFileSync(output, 'utf8')) as T;
  rmSync(path.dirname(output), { recursive: true, force: true });
  return { ms, value };
}

/**
 * Strata's components against the peers'. dependency-cruiser's `no-circular`
 * marks imports it finds on a cycle; grouped into strongly connected
 * components they are the components it reports. Its own graph (every import
 * it resolved) is grouped too: where its marks miss imports that lie on a
 * cycle of that very graph, the difference is its search, not its graph;
 * where its graph's components differ from Strata's, the imports one has and
 * the other lacks say why. Each of madge's cycles is matched to the
 * component of Strata's holding all its files.
 */
function compareCycles(ours: Array<Set<string>>, madgeCycles: string[][], cruiserEdges: Array<[string, string]>, cruiserGraph: Array<[string, string]>) {
  const key = (files: Iterable<string>): string => [...files].sort().join('\n');
  const ourKeys = new Set(ours.map(key));
  const flagged = componentsOf(cruiserEdges);
  const own = componentsOf(cruiserGraph);
  const equal = (components: Array<Set<string>>): number => components.filter((component) => ourKeys.has(key(component))).length;
  const ownKeys = new Set(own.map(key));
  const details: string[] = [];
  // Imports inside a component of its own graph that no-circular did not mark.
  const componentOf = new Map<string, number>();
  own.forEach((component, i) => {
    for (const file of component) componentOf.set(file, i);
  });
  const marked = new Set(cruiserEdges.map(([a, b]) => `${a} -> ${b}`));
  const unmarked = [...new Set(cruiserGraph.map(([a, b]) => `${a} -> ${b}`))].filter((edge) => {
    const [a, b] = edge.split(' -> ') as [string, string];
    return componentOf.has(a) && componentOf.get(a) === componentOf.get(b) && !marked.has(edge);
  });
  if (unmarked.length > 0)
    details.push(
      `imports on a cycle of dependency-cruiser's own graph that its no-circular does not mark: ${unmarked.length} ${sample(unmarked)} ` +
        '(its search for a way back shares one visited set across branches: src/graph-utl/indexed-module-graph.mjs, #getCycle)',
    );
  for (const component of ours.filter((c) => !ownKeys.has(key(c))).slice(0, 3)) {
    details.push(`Strata's component of ${component.size} files (${sample([...component])}) is not one of dependency-cruiser's own graph`);
    const theirs = own.filter((c) => [...c].some((file) => component.has(file)));
    details.push(`  its files are in ${theirs.length} of dependency-cruiser's, of ${theirs.map((c) => c.size).join(', ') || 'no'} files`);
  }
  for (const component of own.filter((c) => !ourKeys.has(key(c))).slice(0, 3))
    details.push(`dependency-cruiser's component of ${component.size} files (${sample([...component])}) is not one of Strata's`);
  const ourFiles = new Set(ours.flatMap((component) => [...component]));
  const ownFiles = new Set(own.flatMap((component) => [...component]));
  const onlyOurs = [...ourFiles].filter((file) => !ownFiles.has(file));
  const onlyTheirs = [...ownFiles].filter((file) => !ourFiles.has(file));
  if (onlyOurs.length > 0) details.push(`in a cycle for Strata, in none of dependency-cruiser's own graph: ${onlyOurs.length} ${sample(onlyOurs)}`);
  if (onlyTheirs.length > 0) details.push(`in a cycle of dependency-cruiser's own graph, in none of Strata's: ${onlyTheirs.length} ${sample(onlyTheirs)}`);
  const madgeInside = madgeCycles.filter((cycle) => ours.some((component) => cycle.every((file) => component.has(file)))).length;
  const madgeFiles = new Set(madgeCycles.flat());
  const notMadge = [...ourFiles].filter((file) => !madgeFiles.has(file));
  const onlyMadge = [...madgeFiles].filter((file) => !ourFiles.has(file));
  if (onlyMadge.length > 0) details.push(`in a madge cycle but in none of Strata's components: ${onlyMadge.length} ${sample(onlyMadge)}`);
  const sameOwn = equal(own) === own.length && own.length === ours.length;
  const sameMadge = madgeInside === madgeCycles.length && onlyMadge.length === 0;
  return {
    summary: [
      `dependency-cruiser no-circular: ${flagged.length} components (${new Set(flagged.flatMap((c) => [...c])).size} files), equal to one of Strata's: ${equal(flagged)}`,
      `dependency-cruiser's own graph: ${own.length} components (${ownFiles.size} files), equal to one of Strata's: ${equal(own)}`,
      `madge: ${madgeCycles.length} cycles over ${madgeFiles.size} files; inside one of Strata's components: ${madgeInside}; files of Strata's components in no madge cycle: ${notMadge.length} (madge lists the cycles its walk meets, not every file on one)`,
    ],
    details,
    verdict: `dependency-cruiser's graph: ${sameOwn ? 'same components' : `${equal(own)}/${own.length} equal`}; no-circular: ${equal(flagged)}/${flagged.length}; madge: ${sameMadge ? 'every cycle inside one' : `${madgeInside}/${madgeCycles.length} inside`}`,
  };
}

/** The files that reach `target` by the imports of `edges` (breadth-first backwards). */
function reachingIn(edges: Array<[string, string]>, target: string): Set<string> {
  const into = new Map<string, string[]>();
  for (const [from, to] of edges) {
    if (!into.has(to)) into.set(to, []);
    into.get(to)!.push(from);
  }
  const seen = new Set<string>([target]);
  const queue = [target];
  while (queue.length > 0) for (const from of into.get(queue.shift()!) ?? []) if (!seen.has(from)) seen.add(from), queue.push(from);
  seen.delete(target);
  return seen;
}

/** Strongly connected components (of more than one file) of a list of edges: Kosaraju, iterative. */
function componentsOf(edges: Array<[string, string]>): Array<Set<string>> {
  const out = new Map<string, string[]>();
  const into = new Map<string, string[]>();
  for (const [from, to] of edges) {
    if (!out.has(from)) out.set(from, []);
    if (!into.has(to)) into.set(to, []);
    out.get(from)!.push(to);
    into.get(to)!.push(from);
  }
  const nodes = new Set([...out.keys(), ...into.keys()]);
  const order: string[] = [];
  const seen = new Set<string>();
  for (const start of nodes) {
    if (seen.has(start)) continue;
    seen.add(start);
    const stack: Array<[string, number]> = [[start, 0]];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const next = out.get(top[0]) ?? [];
      if (top[1] < next.length) {
        const v = next[top[1]++]!;
        if (!seen.has(v)) {
          seen.add(v);
          stack.push([v, 0]);
        }
      } else {
        order.push(top[0]);
        stack.pop();
      }
    }
  }
  const assigned = new Set<string>();
  const components: Array<Set<string>> = [];
  for (const start of order.reverse()) {
    if (assigned.has(start)) continue;
    const component = new Set<string>([start]);
    assigned.add(start);
    const stack = [start];
    while (stack.length > 0) {
      for (const v of into.get(stack.pop()!) ?? []) {
        if (assigned.has(v)) continue;
        assigned.add(v);
        component.add(v);
        stack.push(v);
      }
    }
    if (component.size > 1) components.push(component);
  }
  return components;
}

/** A generated repository served; impact queries timed against the floor. */
async function benchGenerated(fileCount: number): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'strata-analysis-generated-'));
  try {
    const made = generateRepo(root, Math.round(fileCount * 1.05));
    process.stdout.write(`\n## impact on a generated repository: ${made.files} files, ${made.directories} directories\n\n`);
    const started = performance.now();
    const server = await startServeProcess(root, 'warn', 'pipe', ['--data-dir', path.join(root, '.strata'), '--no-built-ins'], () => undefined);
    process.stdout.write(`served in ${seconds(performance.now() - started)} s\n`);
    try {
      const get = async (query: string): Promise<Timed<any>> => {
        const t0 = performance.now();
        const response = await fetch(server.url + query);
        const body = await response.json();
        if (!response.ok) throw new Error(`${query}: ${response.status} ${JSON.stringify(body)}`);
        return { ms: performance.now() - t0, value: body };
      };
      const cyclesAtOnce = await get('/api/graph/cycles?limit=10&edgeLimit=100&exclude=require');
      // What the server does once it serves (the saved graph written, the watch settled) is over after a few seconds.
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      const cycles = await get('/api/graph/cycles?limit=10&edgeLimit=100');
      const top = await get('/api/graph/metrics?sort=fanIn&limit=1');
      const deep = await get('/api/graph/metrics?sort=depth&limit=1');
      const rows: string[][] = [
        [
          'cycles with exclude=require, asked as soon as the URL is printed (the import graph made while the server finishes its start)',
          `${cyclesAtOnce.ms.toFixed(0)} ms`,
          '',
          '',
        ],
        [
          'cycles, 10 s later (the import graph reused, components found)',
          `${cycles.ms.toFixed(0)} ms`,
          '',
          `${cycles.value.data.componentCount} components, ${cycles.value.data.memberCount} files`,
        ],
      ];
      for (const [what, id, direction] of [
        ['dependents of the file most imported', top.value.data.nodes[0].id, 'dependents'],
        ['dependencies of the deepest file', deep.value.data.nodes[0].id, 'dependencies'],
        ['dependents of the root directory', 'dir:.', 'dependents'],
      ] as const) {
        const times: number[] = [];
        let total = 0;
        for (let i = 0; i < 20; i++) {
          const answer = await get(`/api/graph/nodes/${encodeURIComponent(id)}/${direction}?limit=1000`);
          times.push(answer.ms);
          total = answer.value.data.total;
        }
        times.sort((a, b) => a - b);
        const p95 = times[Math.ceil(times.length * 0.95) - 1]!;
        rows.push([
          `${what} (${id}), 20 queries`,
          `${median(times).toFixed(1)} ms`,
          `${p95.toFixed(1)} ms`,
          `${total} nodes reached; floor ${IMPACT_FLOOR_MS} ms: ${p95 < IMPACT_FLOOR_MS ? 'met' : 'NOT met'}`,
        ]);
      }
      printTable(['query', 'median', 'p95', ''], rows);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function warmPageCache(repository: string): void {
  const stack = [repository];
  while (stack.length > 0) {
    const directory = stack.pop()!;
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === '.git' || entry.name === '.strata') continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else if (entry.isFile() && statSync(full).size < 5_000_000) readFileSync(full);
    }
  }
}

function parseArguments(args: string[]): { repositories: string[]; runs: number; generated: number; histories: string[] } {
  const repositories: string[] = [];
  const histories: string[] = [];
  let runs = 1;
  let generated = 100_000;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--runs') runs = Number(args[++i]);
    else if (args[i] === '--generated') generated = Number(args[++i]);
    else if (args[i] === '--history') histories.push(path.resolve(args[++i]!));
    else repositories.push(path.resolve(args[i]!));
  }
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs: a whole number of at least 1');
  if (!Number.isInteger(generated) || generated < 0) throw new Error('--generated: a whole number');
  return { repositories, runs, generated, histories };
}

/**
 * change-coupling over a repository's whole history, applied on a running
 * server (the apply's own time: its `git log` through the host, the
 * analysis, the edges checked and stored), against one `git log --numstat`
 * pass over the same commits (what any coupling analysis reads first: Code
 * Maat's input), with the peak memory of each (git's, and the server's RSS
 * growth for the apply).
 */
async function benchChangeCoupling(repository: string, runs: number): Promise<void> {
  const name = path.basename(repository);
  const since = '1970-01-01';
  const commits = Number(execFileSync('git', ['rev-list', '--count', 'HEAD'], { cwd: repository, encoding: 'utf8' }).trim());
  process.stdout.write(`\n## change coupling on ${name}'s history: ${commits.toLocaleString('en-US')} commits\n\n`);
  const dataDirectory = mkdtempSync(path.join(tmpdir(), 'strata-analysis-coupling-'));
  const server = await startServeProcess(repository, 'warn', 'pipe', ['--data-dir', dataDirectory], () => undefined);
  const applies: number[] = [];
  const passes: number[] = [];
  let status: any;
  let rssGrowthKb = 0;
  let passPeakKb = 0;
  try {
    for (let run = 0; run < runs; run++) {
      // One `git log --numstat` pass, with the options the host's git.log gives git (git-capabilities.ts).
      const started = performance.now();
      const pass = spawnSync(
        'git',
        ['log', '--no-color', '--numstat', '-z', '--find-renames', '--format=%x1e%H%x1f%aN%x1f%aE%x1f%aI%x1f%s', `--since=${since}`],
        {
          cwd: repository,
          stdio: ['ignore', 'ignore', 'pipe'],
          encoding: 'utf8',
        },
      );
      passes.push(performance.now() - started);
      if (pass.status !== 0) throw new Error(`git log failed: ${pass.stderr}`);
      passPeakKb = Math.max(passPeakKb, gitPeakKb(repository, since));
      const before = rssKb(server.child.pid!);
      const response = await fetch(`${server.url}/api/overlays/change-coupling/apply`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ since }),
      });
      const body = (await response.json()) as { data?: { durationMs: number; summary: Record<string, unknown> }; error?: unknown };
      if (!response.ok) throw new Error(`apply failed: ${JSON.stringify(body.error)}`);
      status = body.data;
      applies.push(body.data!.durationMs);
      rssGrowthKb = Math.max(rssGrowthKb, rssKb(server.child.pid!) - before);
      process.stderr.write(`${name} run ${run + 1}: apply ${seconds(applies.at(-1)!)} s, git log --numstat ${seconds(passes.at(-1)!)} s\n`);
    }
  } finally {
    await server.stop();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
  const ratioToPass = median(applies) / median(passes);
  printTable(
    ['what', 'time (median)', 'memory', ''],
    [
      ['`git log --numstat --find-renames` over the history', `${seconds(median(passes))} s`, `git peak ${Math.round(passPeakKb / 1024)} MB`, ''],
      [
        'change-coupling apply (its git log through the host, the analysis, the edges stored)',
        `${seconds(median(applies))} s`,
        `server RSS +${Math.round(rssGrowthKb / 1024)} MB`,
        `${ratioToPass.toFixed(2)} times the pass; floor 3: ${ratioToPass < 3 ? 'met' : 'NOT met'}`,
      ],
    ],
  );
  process.stdout.write(`summary: ${JSON.stringify(status?.summary)}\n`);
}

function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

/** git's own peak memory for the pass, as GNU time would tell it: read from /proc while it runs. */
function gitPeakKb(repository: string, since: string): number {
  const child = spawnSync(
    'bash',
    [
      '-c',
      `git log --numstat --find-renames --since=${since} > /dev/null & pid=$!; peak=0; while kill -0 $pid 2>/dev/null; do v=$(grep VmHWM /proc/$pid/status 2>/dev/null | tr -dc 0-9); [ -n "$v" ] && [ "$v" -gt "$peak" ] && peak=$v; sleep 0.05; done; echo $peak`,
    ],
    {
      cwd: repository,
      encoding: 'utf8',
    },
  );
  return Number(child.stdout.trim() || 0);
}

function printTable(header: string[], rows: string[][]): void {
  process.stdout.write(`| ${header.join(' | ')} |\n| ${header.map(() => '---').join(' | ')} |\n`);
  for (const row of rows) process.stdout.write(`| ${row.join(' | ')} |\n`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function ratio(peerMs: number, strataMs: number): string {
  return `${(peerMs / strataMs).toFixed(1)}×`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(2);
}

function sample(files: string[]): string {
  return files.length === 0 ? '' : `(${files.slice(0, 3).join(', ')}${files.length > 3 ? ', ...' : ''})`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
