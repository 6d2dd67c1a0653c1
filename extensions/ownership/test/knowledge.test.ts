/**
 * ownership's knowledge overlays (main-author, knowledge-spread,
 * truck-factor) in the sandbox (PluginTester), on a graph, a blame and a
 * log written by hand; every expected figure is worked out below.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BlameRange, GitCommit, GraphNode } from '@strata/sdk';
import { PluginTestError, PluginTester } from '@strata/sdk-testing';
import t from 'tap';
import { authorsFor80Percent, truckFactor } from '../src/knowledge.ts';

const pluginFolder = fileURLToPath(new URL('..', import.meta.url));
const strataRoot = path.resolve(pluginFolder, '../..');
// The sandbox loads the built bundle.
execFileSync(process.execPath, [path.join(strataRoot, 'host/bin/strata.js'), 'plugin', 'build', pluginFolder], { stdio: ['ignore', 'pipe', 'pipe'] });
const tester = new PluginTester(pluginFolder);

// The commits: author, e-mail, author date. Ada's 2026 commit rewrote lines someone rewrote again: none of its lines
// is current, so only the log shows she is active. Eve and Cy have no commit since 2025.
const COMMITS = {
  ada2024: { authorName: 'Ada', authorEmail: 'ada@example.com', date: '2024-03-01T10:00:00.000Z' },
  eve2023: { authorName: 'Eve', authorEmail: 'Eve@Example.com', date: '2023-05-01T10:00:00.000Z' },
  cy2025: { authorName: 'Cy', authorEmail: 'cy@example.com', date: '2025-01-01T10:00:00.000Z' },
  ada2026: { authorName: 'Ada', authorEmail: 'ada@example.com', date: '2026-02-01T10:00:00.000Z' },
  bob2026: { authorName: 'Bob', authorEmail: 'bob@example.com', date: '2026-04-01T10:00:00.000Z' },
  dee2026: { authorName: 'Dee', authorEmail: 'dee@example.com', date: '2026-05-01T10:00:00.000Z' },
} as const;
type CommitName = keyof typeof COMMITS;
const hashOf = (name: CommitName) => Object.keys(COMMITS).indexOf(name).toString(16).padStart(40, 'a');

// Current lines per file, by the commit that wrote them (in line order).
const BLAME: Record<string, Array<[CommitName | 'uncommitted', number]>> = {
  // Ada 6, Bob 3, Cy 1 (and 2 lines not committed yet, which count for nobody): 10.
  'src/core/a.ts': [
    ['ada2024', 4],
    ['bob2026', 3],
    ['ada2024', 2],
    ['cy2025', 1],
    ['uncommitted', 2],
  ],
  // Cy 4, Ada 1: 5.
  'src/core/b.ts': [
    ['cy2025', 4],
    ['ada2024', 1],
  ],
  // Ada 1, Bob 4, Dee 7: 12.
  'src/ui.ts': [
    ['ada2024', 1],
    ['bob2026', 4],
    ['dee2026', 7],
  ],
  // Cy 9, Ada 1: 10.
  'lib/old.ts': [
    ['cy2025', 9],
    ['ada2024', 1],
  ],
  // Bob 2, Dee 2: a tie, 4.
  'lib/tie.ts': [
    ['dee2026', 2],
    ['bob2026', 2],
  ],
  // Eve 1.
  'lib/eve.ts': [['eve2023', 1]],
};

function blameOf(file: string): BlameRange[] {
  let startLine = 1;
  return (BLAME[file] ?? []).map(([commit, lineCount]) => {
    const who =
      commit === 'uncommitted'
        ? { hash: '0'.repeat(40), authorName: 'Not Committed Yet', authorEmail: 'not.committed.yet', date: '2026-05-30T00:00:00.000Z' }
        : { hash: hashOf(commit), ...COMMITS[commit] };
    const run = { startLine, lineCount, ...who };
    startLine += lineCount;
    return run;
  });
}

/** git.log of the commits above, newest first, as git filters them (`since` and `until` inclusive). */
function gitLog(options: { since?: string; until?: string; maxCommits?: number } = {}): GitCommit[] {
  const since = options.since === undefined ? Number.NEGATIVE_INFINITY : Date.parse(options.since);
  const until = options.until === undefined ? Number.POSITIVE_INFINITY : Date.parse(options.until);
  return (Object.keys(COMMITS) as CommitName[])
    .map((name) => ({ hash: hashOf(name), ...COMMITS[name], subject: name, files: [] }))
    .filter((commit) => Date.parse(commit.date) >= since && Date.parse(commit.date) <= until)
    .sort((a, b) => b.date.localeCompare(a.date))
    .slice(0, options.maxCommits);
}

const capabilities = {
  'git:blame': (paths: string | string[], many?: string) =>
    many === 'many' ? (paths as string[]).map((file) => ({ path: file, ranges: blameOf(file) })) : blameOf(paths as string),
  'git:log': gitLog,
};

const dir = (p: string, parent?: string): GraphNode => ({ id: `dir:${p}`, kind: 'directory', name: path.basename(p), path: p, ...(parent && { parent }) });
const file = (p: string, parent: string, language = 'typescript'): GraphNode => ({
  id: `file:${p}`,
  kind: 'file',
  name: path.basename(p),
  path: p,
  parent,
  language,
});
const graph: { nodes: GraphNode[] } = {
  nodes: [
    dir('.'),
    dir('src', 'dir:.'),
    dir('src/core', 'dir:src'),
    file('src/core/a.ts', 'dir:src/core'),
    file('src/core/b.ts', 'dir:src/core'),
    file('src/ui.ts', 'dir:src'),
    dir('lib', 'dir:.'),
    file('lib/old.ts', 'dir:lib'),
    file('lib/tie.ts', 'dir:lib'),
    file('lib/eve.ts', 'dir:lib'),
    // No language: not blamed.
    { id: 'file:LICENSE', kind: 'file', name: 'LICENSE', path: 'LICENSE', parent: 'dir:.' },
  ],
};

// Lines per author, added up:
//   src/core = a.ts + b.ts:            Ada 7, Bob 3, Cy 5                 = 15
//   src      = src/core + ui.ts:       Ada 8, Bob 7, Cy 5, Dee 7          = 27
//   lib      = old + tie + eve:        Ada 1, Bob 2, Cy 9, Dee 2, Eve 1   = 15
//   .        = src + lib:              Ada 9, Bob 9, Cy 14, Dee 9, Eve 1  = 42
// The repository's ranking (lines, then e-mail): Cy 14, Ada 9, Bob 9, Dee 9, Eve 1.
//
// until 2026-06-01 and 6 months: the window is 2025-12-01..2026-06-01. Active: Ada (the log's commit of
// 2026-02-01; her current lines are of 2024), Bob and Dee (current lines of 2026). Inactive: Cy, Eve.
const UNTIL = '2026-06-01';

t.test('main author, authors for 80 % and truck factor, as worked out by hand', async (t) => {
  const result = await tester.run({ graph, params: { until: UNTIL }, capabilities });
  const blamed = result.calls.filter((call) => call.capability === 'git:blame');
  t.same(
    blamed.map((call) => call.args),
    [[['src/core/a.ts', 'src/core/b.ts', 'src/ui.ts', 'lib/old.ts', 'lib/tie.ts', 'lib/eve.ts'], 'many']],
    'one blameMany of the files with a language',
  );
  t.same(
    result.calls.filter((call) => call.capability === 'git:log').map((call) => call.args),
    [[{ since: '2025-12-01T00:00:00.000Z', until: UNTIL }]],
    'one git log of the activity window, 6 months up to until',
  );

  // main-author. Legend: the active top authors in rank order (Ada, Bob, Dee), then the inactive (Cy, Eve), then others.
  const legend = result.overlays['main-author']!.legend;
  t.same(Object.keys(legend), ['Ada', 'Bob', 'Dee', 'inactive: Cy', 'inactive: Eve', 'others', 'others (inactive)'], 'names, inactive apart');
  t.equal(new Set(Object.values(legend)).size, 7, 'distinct colors');
  const main = (id: string) => result.style('main-author', id);
  // Share: the main author's lines / the node's committed lines; ties go to the first e-mail.
  const expectedMain: Record<string, [string, number, string]> = {
    'file:src/core/a.ts': ['Ada', 60, 'Ada 60 %'], // 6 / 10: the 2 lines not committed count for nobody
    'file:src/core/b.ts': ['inactive: Cy', 80, 'inactive: Cy 80 %'], // 4 / 5
    'file:src/ui.ts': ['Dee', 58.3, 'Dee 58 %'], // 7 / 12
    'file:lib/old.ts': ['inactive: Cy', 90, 'inactive: Cy 90 %'], // 9 / 10
    'file:lib/tie.ts': ['Bob', 50, 'Bob 50 %'], // 2 / 4, Bob and Dee tied: bob@ comes first
    'file:lib/eve.ts': ['inactive: Eve', 100, 'inactive: Eve 100 %'], // 1 / 1
    'dir:src/core': ['Ada', 46.7, 'Ada 47 %'], // 7 / 15
    'dir:src': ['Ada', 29.6, 'Ada 30 %'], // 8 / 27
    'dir:lib': ['inactive: Cy', 60, 'inactive: Cy 60 %'], // 9 / 15
    'dir:.': ['inactive: Cy', 33.3, 'inactive: Cy 33 %'], // 14 / 42
  };
  for (const [id, [label, value, badge]] of Object.entries(expectedMain)) t.same(main(id), { color: legend[label], value, badge }, `${id}: ${badge}`);
  t.equal(main('file:LICENSE'), undefined, 'a file without a language is not blamed, not painted');

  // knowledge-spread: lines sorted down, the fewest whose sum is at least 80 %.
  const expectedSpread: Record<string, number> = {
    'file:src/core/a.ts': 2, // 6 (60 %), 6 + 3 (90 %)
    'file:src/core/b.ts': 1, // 4 of 5: exactly 80 %
    'file:src/ui.ts': 2, // 7 (58 %), 11 (92 %)
    'file:lib/old.ts': 1, // 9 (90 %)
    'file:lib/tie.ts': 2, // 2 (50 %), 4
    'file:lib/eve.ts': 1,
    'dir:src/core': 2, // 7 (47 %), 12 of 15: exactly 80 %
    'dir:src': 3, // 8 (30 %), 15 (56 %), 22 (81 %)
    'dir:lib': 3, // 9 (60 %), 11 (73 %), 13 (87 %)
    'dir:.': 4, // 14 (33 %), 23 (55 %), 32 (76 %), 41 (98 %)
  };
  const spreadLegend = result.overlays['knowledge-spread']!.legend;
  const spreadLabel = (n: number) => Object.keys(spreadLegend)[n === 1 ? 0 : n === 2 ? 1 : n <= 4 ? 2 : 3]!;
  for (const [id, n] of Object.entries(expectedSpread)) {
    t.same(
      result.style('knowledge-spread', id),
      { color: spreadLegend[spreadLabel(n)], value: n, badge: `${n} author${n === 1 ? ' holds' : 's hold'} 80 %` },
      `${id}: ${n} for 80 %`,
    );
  }
  t.same(Object.keys(spreadLegend), ['1 author holds 80 % of the lines', '2 authors hold 80 %', '3–4 authors hold 80 %', '5 or more authors hold 80 %']);

  // truck-factor, directories only. Inactive lines have no active author from the start; the active author with the
  // most lines leaves first, until more than half the lines have none.
  const expectedTruck: Record<string, number> = {
    'dir:src/core': 1, // Cy 5 of 15 orphaned; Ada (7) leaves: 12 > 7.5
    'dir:src': 2, // Cy 5 of 27; Ada (8) leaves: 13, not > 13.5; Bob or Dee (7) leaves: 20
    'dir:lib': 0, // Cy 9 + Eve 1 = 10 of 15 orphaned already
    'dir:.': 1, // Cy 14 + Eve 1 = 15 of 42; Ada, Bob or Dee (9) leaves: 24 > 21
  };
  const truckLegend = result.overlays['truck-factor']!.legend;
  t.same(Object.keys(truckLegend), [
    'truck factor 0 (most lines: no active author)',
    'truck factor 1',
    'truck factor 2',
    'truck factor 3–4',
    'truck factor 5 or more',
  ]);
  for (const [id, n] of Object.entries(expectedTruck))
    t.same(result.style('truck-factor', id), { color: Object.values(truckLegend)[n]!, value: n, badge: `truck factor ${n}` }, `${id}: truck factor ${n}`);
  t.same(Object.keys(result.overlays['truck-factor']!.styles).sort(), ['dir:.', 'dir:lib', 'dir:src', 'dir:src/core'], 'files get no truck factor');

  t.match(result.summary, {
    files: 6,
    filesBlamed: 6,
    authors: 5,
    activeSince: '2025-12-01T00:00:00.000Z',
    activeUntil: UNTIL,
    commitsInActiveWindow: 3,
    activeAuthors: 3,
    inactiveAuthors: 2,
    repositoryTruckFactor: 1, // as dir:.
    repositoryAuthorsFor80Percent: 4,
    // 14 / 42, 9 / 42, ...
    topAuthor1: 'Cy <cy@example.com>: 33.3 % of the lines (14), inactive',
    topAuthor2: 'Ada <ada@example.com>: 21.4 % of the lines (9)',
    topAuthor3: 'Bob <bob@example.com>: 21.4 % of the lines (9)',
    topAuthor4: 'Dee <dee@example.com>: 21.4 % of the lines (9)',
    topAuthor5: 'Eve <eve@example.com>: 2.4 % of the lines (1), inactive',
    topInactiveAuthor1: 'Cy <cy@example.com>: 33.3 % of the lines (14), newest line 2025-01-01',
    topInactiveAuthor2: 'Eve <eve@example.com>: 2.4 % of the lines (1), newest line 2023-05-01',
    // Lowest truck factor first, then the most lines.
    lowestTruckFactor1: 'lib: truck factor 0 (15 lines, 3 of 5 authors active)',
    lowestTruckFactor2: '.: truck factor 1 (42 lines, 3 of 5 authors active)',
    lowestTruckFactor3: 'src/core: truck factor 1 (15 lines, 2 of 3 authors active)',
    lowestTruckFactor4: 'src: truck factor 2 (27 lines, 3 of 4 authors active)',
  });
  t.equal(result.summary?.topInactiveAuthor3, undefined);
  t.equal(result.summary?.lowestTruckFactor5, undefined);
  t.ok(Object.keys(result.summary ?? {}).length <= 50, 'at most 50 figures');
});

t.test('a shorter window makes more authors inactive; fewer top authors leave "others"', async (t) => {
  // 3 months: 2026-03-01..2026-06-01. Active: Bob and Dee. Inactive: Ada too (her 2026-02-01 commit is before).
  const result = await tester.run({ graph, params: { until: UNTIL, inactiveMonths: 3, topAuthors: 2 }, capabilities });
  t.match(result.summary, { activeSince: '2026-03-01T00:00:00.000Z', activeAuthors: 2, inactiveAuthors: 3 });
  const expectedTruck: Record<string, number> = {
    'dir:src/core': 0, // Ada 7 + Cy 5 = 12 of 15 orphaned
    'dir:src': 1, // Ada 8 + Cy 5 = 13 of 27, not > 13.5; Bob or Dee (7) leaves: 20
    'dir:lib': 0, // Ada 1 + Cy 9 + Eve 1 = 11 of 15
    'dir:.': 0, // Ada 9 + Cy 14 + Eve 1 = 24 of 42 > 21
  };
  for (const [id, n] of Object.entries(expectedTruck)) t.match(result.style('truck-factor', id), { value: n }, `${id}: truck factor ${n}`);

  // The top 2 of the repository: Cy (14) and Ada (9, first of the three with 9 by e-mail), both inactive now.
  const legend = result.overlays['main-author']!.legend;
  t.same(Object.keys(legend), ['inactive: Cy', 'inactive: Ada', 'others', 'others (inactive)']);
  t.same(result.style('main-author', 'file:src/ui.ts'), { color: legend.others, value: 58.3, badge: 'Dee 58 %' }, 'Dee: active, not a top author');
  t.same(result.style('main-author', 'file:lib/tie.ts'), { color: legend.others, value: 50, badge: 'Bob 50 %' });
  t.same(
    result.style('main-author', 'file:lib/eve.ts'),
    { color: legend['others (inactive)'], value: 100, badge: 'inactive: Eve 100 %' },
    'Eve: inactive, not a top author',
  );
  t.same(result.style('main-author', 'dir:src'), { color: legend['inactive: Ada'], value: 29.6, badge: 'inactive: Ada 30 %' });
  t.match(result.summary, { topInactiveAuthor1: /^Cy /, topInactiveAuthor2: /^Ada /, topInactiveAuthor3: /^Eve / });
});

t.test('current lines written in the window count as a commit in it, where the log falls short', async (t) => {
  // A log cut short (the host returns at most 50,000 commits, newest first): only Dee's commit. Bob is active all
  // the same (his current lines are of 2026-04-01), Ada is not (her 2026 commit is not in the answer).
  const short = { ...capabilities, 'git:log': (options: { since?: string; until?: string }) => gitLog(options).slice(0, 1) };
  const result = await tester.run({ graph, params: { until: UNTIL }, capabilities: short });
  t.match(result.summary, { commitsInActiveWindow: 1, activeAuthors: 2, inactiveAuthors: 3 });
  t.same(Object.keys(result.overlays['main-author']!.legend), ['Bob', 'Dee', 'inactive: Cy', 'inactive: Ada', 'inactive: Eve', 'others', 'others (inactive)']);
});

t.test('the two counts at their boundaries', async (t) => {
  // Exactly half without an active author is not more than half: the second author must leave too.
  t.equal(truckFactor([5, 5], 0), 2);
  t.equal(truckFactor([5, 4], 1), 1, '1 + 5 = 6 of 10');
  t.equal(truckFactor([3, 2], 5), 1, '5 of 10 orphaned is not yet more than half');
  t.equal(truckFactor([3], 4), 0, '4 of 7');
  t.equal(truckFactor([], 0), 0, 'no lines');
  // Exactly 80 % is enough.
  t.equal(authorsFor80Percent([1, 4]), 1);
  t.equal(authorsFor80Percent([3, 1, 1]), 2, '3 of 5 is 60 %, 4 of 5 is 80 %');
  t.equal(authorsFor80Percent([1, 1, 1, 1, 1]), 4);
  t.equal(authorsFor80Percent([]), 0);
});

t.test('with a teams file: authors carry their team; the teams overlay keeps doing teams', async (t) => {
  const teams = JSON.stringify({ teams: { core: ['ada@example.com', 'bob@example.com'], web: ['dee@example.com'] } });
  const result = await tester.run({ graph, params: { until: UNTIL }, inputs: { teams }, capabilities });
  const legend = result.overlays['main-author']!.legend;
  t.same(
    Object.keys(legend),
    ['Ada (core)', 'Bob (core)', 'Dee (web)', 'inactive: Cy', 'inactive: Eve', 'others', 'others (inactive)'],
    'mapped authors say their team; Cy and Eve are in none',
  );
  t.same(result.style('main-author', 'file:src/ui.ts'), { color: legend['Dee (web)'], value: 58.3, badge: 'Dee 58 %' });
  t.match(result.style('truck-factor', 'dir:src'), { value: 2 }, 'the truck factor is by author, whatever the teams');
  t.match(result.summary, {
    unmappedAuthors: 2,
    unmapped: 'cy@example.com, eve@example.com',
    topAuthor2: 'Ada <ada@example.com> (core): 21.4 % of the lines (9)',
  });
  // Teams of dir:src: core = Ada 8 + Bob 7 = 15, web = Dee 7, unmapped Cy 5: 15 / 27 = 55.6 %, 3 teams.
  t.match(result.style('teams', 'dir:src'), { value: 55.6, badge: '3' });
  t.same(Object.keys(result.overlays.teams!.legend), ['core', 'unmapped: cy@example.com', 'unmapped: eve@example.com', 'web', 'no recent commits']);
});

t.test('without a teams file the teams overlay has one team per author, as before', async (t) => {
  const result = await tester.run({ graph, params: { until: UNTIL }, capabilities });
  t.same(Object.keys(result.overlays.teams!.legend), [
    'ada@example.com',
    'bob@example.com',
    'cy@example.com',
    'dee@example.com',
    'eve@example.com',
    'no recent commits',
  ]);
  // dir:src: Ada 8 of 27 = 29.6 %, four authors.
  t.match(result.style('teams', 'dir:src'), { value: 29.6, badge: '4' });
});

t.test('bad parameters are refused with a 400 naming the field', async (t) => {
  const refused = async (params: Record<string, unknown>) => {
    try {
      await tester.run({ graph, params, capabilities });
    } catch (error) {
      if (error instanceof PluginTestError) return { code: error.code, message: error.message };
      throw error;
    }
    return undefined;
  };
  t.match(await refused({ inactiveMonths: 0 }), { code: 'INVALID_PARAMETER', message: /body\.inactiveMonths: must be >= 1/ });
  t.match(await refused({ inactiveMonths: 1.5 }), { code: 'INVALID_PARAMETER', message: /body\.inactiveMonths: must be integer/ });
  t.match(await refused({ topAuthors: 13 }), { code: 'INVALID_PARAMETER', message: /body\.topAuthors: must be <= 12/ });
  t.match(await refused({ until: 'yesterday' }), { code: 'INVALID_PARAMETER', message: /body\.until/ });
  t.match(await refused({ until: '2026-02-30' }), { code: 'INVALID_PARAMETER', message: /until: "2026-02-30" is not a valid date/ });
});
