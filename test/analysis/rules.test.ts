import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { IMPORT_CYCLES_REPO } from '../helpers/import-cycles-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';
import { until } from '../helpers/until.ts';

interface Violation {
  rule: string;
  severity: string;
  from: string;
  to: string | null;
  edge: string | null;
  cycle?: string[];
}

/** Rules of every kind `strata check` reads, on IMPORT_CYCLES_REPO plus an orphan. */
const RULES = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'cycles make change hard', from: { path: '^src/(core|ring)/' }, to: { circular: true } },
    { name: 'no-orphans', severity: 'warn', from: { orphan: true, pathNot: '\\.d\\.ts$' }, to: {} },
    { name: 'left-not-right', severity: 'info', from: { path: '^src/left' }, to: { path: ['^src/right/r1', '^src/right/nothing'] } },
    { name: 'types-stay-home', severity: 'warn', from: { path: '^src/([^/]+)/' }, to: { path: '^src/', pathNot: '^src/$1/', dependencyTypes: ['type-only'] } },
    { name: 'no-node-core', severity: 'error', from: {}, to: { dependencyTypes: ['core'] } },
    { name: 'static-only', severity: 'info', from: { path: '^src/lazy' }, to: { dependencyTypesNot: ['dynamic-import'] } },
    { name: 'switched-off', severity: 'ignore', from: {}, to: {} },
  ],
};

const REPO = {
  ...IMPORT_CYCLES_REPO,
  'src/orphan.ts': 'export const alone = 1;\n',
  'src/types.d.ts': 'declare const x: number;\n',
  'src/left/peek.ts': "import type { X } from '../types/x.js';\nexport type P = X;\n",
};

const key = (v: Violation) => `${v.rule} ${v.severity} ${v.from} ${v.to}`;

t.test('GET /api/graph/violations: the rules of strata.config.json, each kind of rule', async (t) => {
  const repo = await makeRepo(t, { ...REPO, 'strata.config.json': JSON.stringify({ rules: RULES }) });
  const server = await startTestServer(t, repo);
  const { status, body } = await server.api('/api/graph/violations');
  t.equal(status, 200, JSON.stringify(body.error));
  t.match(body.data.source, /strata\.config\.json \(rules\)$/);
  t.same(body.data.notes, []);
  t.same(
    body.data.rules.map((rule: { name: string }) => rule.name),
    RULES.forbidden.map((rule) => rule.name),
  );
  t.same(body.data.violations.map(key), [
    'no-circular error file:src/core/a.ts file:src/core/b.ts',
    'no-circular error file:src/core/b.ts file:src/core/a.ts',
    'no-circular error file:src/core/b.ts file:src/core/c.ts',
    'no-circular error file:src/core/c.ts file:src/core/a.ts',
    'no-circular error file:src/ring/one.ts file:src/ring/two.ts',
    'no-circular error file:src/ring/three.ts file:src/ring/one.ts',
    'no-circular error file:src/ring/two.ts file:src/ring/three.ts',
    'no-orphans warn file:src/orphan.ts null',
    'left-not-right info file:src/left/l1.ts file:src/right/r1.ts',
    'types-stay-home warn file:src/left/peek.ts file:src/types/x.ts',
    'no-node-core error file:src/app.ts pkg:node:fs',
    'static-only info file:src/lazy/q.ts file:src/lazy/p.ts',
  ]);
  const ring = body.data.violations.find((v: Violation) => v.from === 'file:src/ring/one.ts');
  t.same(ring.cycle, ['file:src/ring/two.ts', 'file:src/ring/three.ts', 'file:src/ring/one.ts'], 'a shortest way back from the target');
  t.equal(ring.edge, 'imports:file:src/ring/one.ts->file:src/ring/two.ts');
  t.same(body.data.counts, { error: 8, warn: 2, info: 2 });
  t.equal(body.data.total, 12);

  const page = await server.api('/api/graph/violations?offset=10&limit=5');
  t.same(page.body.data.violations.map(key), ['no-node-core error file:src/app.ts pkg:node:fs', 'static-only info file:src/lazy/q.ts file:src/lazy/p.ts']);
  t.equal(page.body.data.truncated, false);
});

t.test('the same violations as dependency-cruiser with the same rules', async (t) => {
  const repo = await makeRepo(t, REPO);
  const server = await startTestServer(t, repo);
  const { body } = await server.api('/api/graph/violations', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(RULES),
  });
  const ours = (body.data.violations as Violation[])
    .map((v) => `${v.rule} ${v.from.slice(5)} ${v.to === null ? v.from.slice(5) : v.to.replace(/^(file|pkg):/, '')}`)
    .sort();

  const cwd = process.cwd();
  process.chdir(repo);
  t.teardown(() => process.chdir(cwd));
  const { cruise } = await import('dependency-cruiser');
  const cruised = await cruise(
    ['src'],
    { tsPreCompilationDeps: true, tsConfig: { fileName: 'tsconfig.json' }, validate: true, ruleSet: RULES as never },
    {},
    {},
  );
  const output = cruised.output;
  if (typeof output === 'string') throw new Error('expected the result object');
  // dependency-cruiser reports a circular rule once per cycle it finds, Strata once per import on a cycle: the imports
  // of the cycles it reports are compared. It names a Node.js built-in without `node:`.
  const theirs = new Set<string>();
  for (const v of output.summary.violations) {
    if (!v.cycle) {
      theirs.add(`${v.rule.name} ${v.from} ${v.to}`);
      continue;
    }
    const files = [v.from, ...v.cycle.map((step) => step.name)];
    for (let i = 0; i + 1 < files.length; i++) theirs.add(`${v.rule.name} ${files[i]} ${files[i + 1]}`);
  }
  t.same(
    ours.map((v) => v.replace(' node:fs', ' fs')),
    [...theirs].sort(),
    'rule, importing file, imported module',
  );
  t.ok(
    output.summary.violations.some((v) => v.cycle),
    'dependency-cruiser found the cycles',
  );
});

t.test('.dependency-cruiser.json is read when strata.config.json has no rules; read again when it changes', async (t) => {
  const repo = await makeRepo(t, {
    ...REPO,
    '.dependency-cruiser.json': JSON.stringify({
      extends: 'dependency-cruiser/configs/recommended',
      forbidden: [RULES.forbidden[2]],
      allowed: [{ from: {}, to: {} }],
      options: { doNotFollow: 'node_modules' },
    }),
  });
  const server = await startTestServer(t, repo);
  const { body } = await server.api('/api/graph/violations');
  t.equal(body.data.source, '.dependency-cruiser.json');
  t.match(body.data.notes, [/"extends" is not read/, /"allowed" rules are not checked/]);
  t.same(body.data.violations.map(key), ['left-not-right info file:src/left/l1.ts file:src/right/r1.ts']);

  await writeFile(path.join(repo, '.dependency-cruiser.json'), JSON.stringify({ forbidden: [RULES.forbidden[4]] }));
  const again = await server.api('/api/graph/violations');
  t.same(again.body.data.violations.map(key), ['no-node-core error file:src/app.ts pkg:node:fs']);

  await writeFile(path.join(repo, 'src/left/l2.ts'), "import { r2 } from '../right/r2.js';\nexport const l2 = r2;\n");
  await until(async () => (await server.api('/api/graph/cycles')).body.data.componentCount === 7, 'the new cycle left <-> right is in the graph');
  await writeFile(
    path.join(repo, '.dependency-cruiser.json'),
    JSON.stringify({ forbidden: [{ name: 'no-circular', severity: 'error', to: { circular: true }, from: { path: '^src/(left|right)' } }] }),
  );
  const live = await server.api('/api/graph/violations');
  t.same(live.body.data.violations.map(key), [
    'no-circular error file:src/left/l2.ts file:src/right/r2.ts',
    'no-circular error file:src/right/r2.ts file:src/left/l2.ts',
  ]);
});

t.test('no rules: an empty answer that says where rules go; a configuration in JavaScript is never run', async (t) => {
  const repo = await makeRepo(t, { ...REPO, '.dependency-cruiser.cjs': 'require("fs").writeFileSync("ran", "yes"); module.exports = { forbidden: [] };\n' });
  const server = await startTestServer(t, repo);
  const { status, body } = await server.api('/api/graph/violations');
  t.equal(status, 200);
  t.equal(body.data.source, null);
  t.match(body.data.notes, [/\.dependency-cruiser\.cjs is JavaScript, which Strata does not run/]);
  t.same(body.data.violations, []);
});

t.test('rules with mistakes: 422 RULES_INVALID naming each with its rule and field, nothing checked', async (t) => {
  const repo = await makeRepo(t, REPO);
  const server = await startTestServer(t, repo);
  const bad = {
    forbidden: [
      { name: 'ok', from: {}, to: { circular: true } },
      { name: 'bad-severity', severity: 'fatal', from: {}, to: {} },
      { name: 'bad-regex', from: { path: '([' }, to: {} },
      { name: 'unknown-field', from: { via: 'x' }, to: { reachable: true } },
      { name: 'bad-types', to: { dependencyTypes: ['npm-dev'] } },
      { name: 'ok', from: {}, to: {} },
      'not a rule',
      { name: 'orphan-with-to', from: { orphan: true }, to: { path: 'x' } },
    ],
  };
  const { status, body } = await server.api('/api/graph/violations', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(bad),
  });
  t.equal(status, 422);
  t.equal(body.error.code, 'RULES_INVALID');
  const message: string = body.error.message;
  for (const expected of [
    /forbidden\[1\] "bad-severity": severity: must be one of error, warn, info, ignore, not "fatal"/,
    /forbidden\[2\] "bad-regex": from\.path: not a regular expression Strata runs/,
    /forbidden\[3\] "unknown-field": from\.via: not checked by Strata/,
    /forbidden\[3\] "unknown-field": to\.reachable: not checked by Strata/,
    /forbidden\[4\] "bad-types": to\.dependencyTypes: "npm-dev" is not a dependency type Strata tells/,
    /forbidden\[5\] "ok": name: "ok" is the name of an earlier rule too/,
    /forbidden\[6\]: must be an object/,
    /forbidden\[7\] "orphan-with-to": to: an orphan rule has an empty "to"/,
  ])
    t.match(message, expected);
  t.notMatch(message, /forbidden\[0\]/, 'the good rule is not named');

  const notRules = await server.api('/api/graph/violations', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"forbidden": 3}' });
  t.equal(notRules.status, 400, 'a body not of the shape: 400 naming the field');
  t.match(notRules.body.error.message, /body\.forbidden/);

  const repoWithBadFile = await makeRepo(t, { ...REPO, '.dependency-cruiser.json': '{ "forbidden": [ ' });
  const other = await startTestServer(t, repoWithBadFile);
  const unreadable = await other.api('/api/graph/violations');
  t.equal(unreadable.status, 422);
  t.match(unreadable.body.error.message, /^\.dependency-cruiser\.json: not valid JSON/);
});

t.test('a hostile rule from the repository cannot stall the server: rules run on RE2, a pattern it cannot run is named', async (t) => {
  const long = `src/${'a'.repeat(40)}!.ts`;
  const repo = await makeRepo(t, {
    ...REPO,
    [long]: "import { one } from './ring/one.js';\nexport const x = one;\n",
    // With JavaScript's backtracking, (a+)+$ on 40 a's and a "!" takes about 2^40 steps.
    '.dependency-cruiser.json': JSON.stringify({ forbidden: [{ name: 'nested', severity: 'warn', from: { path: '(a+)+$' }, to: {} }] }),
  });
  const server = await startTestServer(t, repo);
  const { status, body } = await server.api('/api/graph/violations');
  t.equal(status, 200);
  t.same(body.data.violations, [], 'no path ends in a run of a');

  await writeFile(path.join(repo, '.dependency-cruiser.json'), JSON.stringify({ forbidden: [{ name: 'ahead', from: { path: '^src/(?=ring)' }, to: {} }] }));
  const refused = await server.api('/api/graph/violations');
  t.equal(refused.status, 422);
  t.match(
    refused.body.error.message,
    /forbidden\[0\] "ahead": from\.path: not a regular expression Strata runs .*rules run on RE2, in time linear in the path: no lookaround, no backreferences/,
  );
});

t.test('GET /api/graph/violations/edges: the violating imports in the shape of an edge overlay, by severity, summed to directories', async (t) => {
  const repo = await makeRepo(t, { ...REPO, 'strata.config.json': JSON.stringify({ rules: RULES }) });
  const server = await startTestServer(t, repo);
  const { status, body } = await server.api('/api/graph/violations/edges');
  t.equal(status, 200);
  t.same(
    body.data.overlays.map((overlay: { id: string; edges: unknown[] }) => [overlay.id, overlay.edges.length]),
    [
      ['error', 8],
      ['warn', 1],
      ['info', 2],
    ],
    'the 12 violations but the orphan, which is no edge',
  );
  const error = body.data.overlays[0];
  t.same(error.legend, { error: '#d7301f' });
  t.same(
    error.edges.find((edge: { source: string }) => edge.source === 'file:src/app.ts'),
    { source: 'file:src/app.ts', target: 'pkg:node:fs', weight: 1, label: 'no-node-core' },
  );
  const summed = await server.api('/api/graph/violations/edges?level=2');
  t.same(
    summed.body.data.overlays[2].edges,
    [{ source: 'dir:src/left', target: 'dir:src/right', weight: 1, count: 1 }],
    'info at directory level: left-not-right; static-only stays inside src/lazy',
  );
  const both = await server.api('/api/graph/violations/edges?level=1&parent=dir%3Asrc');
  t.equal(both.status, 400);
});
