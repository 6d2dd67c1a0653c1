import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { IMPORT_CYCLES_REPO } from '../helpers/import-cycles-repo.ts';
import { runStrata } from '../helpers/strata-cli.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const NO_SERVER = 'http://127.0.0.1:9';

const RULES = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'cycles make change hard', from: { path: '^src/ring/' }, to: { circular: true } },
    { name: 'no-node-core', severity: 'warn', from: {}, to: { dependencyTypes: ['core'] } },
  ],
};

t.test('strata check: the rules of strata.config.json, a line per violation, exit 1 on an error', async (t) => {
  const repo = await makeRepo(t, { ...IMPORT_CYCLES_REPO, 'strata.config.json': JSON.stringify({ rules: RULES }) });
  const run = runStrata(t, ['check', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await run.exited, 1, run.stderr());
  t.equal(
    run.stdout(),
    [
      '  error no-circular: src/ring/one.ts -> src/ring/two.ts',
      '        cycle: src/ring/two.ts -> src/ring/three.ts -> src/ring/one.ts -> src/ring/two.ts',
      '  error no-circular: src/ring/three.ts -> src/ring/one.ts',
      '        cycle: src/ring/one.ts -> src/ring/two.ts -> src/ring/three.ts -> src/ring/one.ts',
      '  error no-circular: src/ring/two.ts -> src/ring/three.ts',
      '        cycle: src/ring/three.ts -> src/ring/one.ts -> src/ring/two.ts -> src/ring/three.ts',
      '  warn  no-node-core: src/app.ts -> package node:fs',
      '',
      `4 violations (3 errors, 1 warning, 0 informational) in 25 imports of 22 files, 2 rules from ${path.join(repo, 'strata.config.json')} (rules).`,
      '',
    ].join('\n'),
  );

  const warnOnly = await makeRepo(t, { ...IMPORT_CYCLES_REPO, 'rules.json': JSON.stringify({ forbidden: [RULES.forbidden[1]] }) });
  const passing = runStrata(t, ['check', '--rules', 'rules.json', '--format', 'json', '--server', NO_SERVER, '--repo', warnOnly], { cwd: warnOnly });
  t.equal(await passing.exited, 0, 'warnings alone pass');
  const answer = JSON.parse(passing.stdout());
  t.same(answer.counts, { error: 0, warn: 1, info: 0 });
  t.equal(answer.source, 'rules.json');
  t.same(answer.violations[0].specifiers, ['node:fs']);
});

t.test('--format sarif: SARIF 2.1.0 with a rule per rule and each result at the line of its import', async (t) => {
  const repo = await makeRepo(t, { ...IMPORT_CYCLES_REPO, '.dependency-cruiser.json': JSON.stringify(RULES) });
  const out = path.join(repo, 'strata.sarif');
  const run = runStrata(t, ['check', '--format', 'sarif', '-o', out, '--server', NO_SERVER, '--repo', repo]);
  t.equal(await run.exited, 1);
  t.equal(run.stdout(), '', 'written to the file, not standard output');
  const sarif = JSON.parse(readFileSync(out, 'utf8'));
  t.equal(sarif.version, '2.1.0');
  t.equal(sarif.$schema, 'https://json.schemastore.org/sarif-2.1.0.json');
  const [only] = sarif.runs;
  t.equal(only.tool.driver.name, 'strata');
  t.same(
    only.tool.driver.rules.map((rule: { id: string; defaultConfiguration: { level: string } }) => [rule.id, rule.defaultConfiguration.level]),
    [
      ['no-circular', 'error'],
      ['no-node-core', 'warning'],
    ],
  );
  t.equal(only.results.length, 4);
  const core = only.results.find((result: { ruleId: string }) => result.ruleId === 'no-node-core');
  const appLines = (IMPORT_CYCLES_REPO['src/app.ts'] as string).split('\n');
  t.same(core.locations[0].physicalLocation, {
    artifactLocation: { uri: 'src/app.ts', uriBaseId: 'REPOROOT' },
    region: { startLine: appLines.findIndex((line) => line.includes("'node:fs'")) + 1 },
  });
  t.equal(core.level, 'warning');
  t.equal(core.ruleIndex, 1);
  t.match(core.message.text, /^src\/app\.ts imports package node:fs, which rule no-node-core forbids$/);
  const ring = only.results.find((result: { message: { text: string } }) => result.message.text.startsWith('src/ring/two.ts'));
  t.equal(ring.locations[0].physicalLocation.region.startLine, 1, "two.ts's import of three.js is its first line");
  t.match(ring.message.text, /cycle: src\/ring\/three\.ts -> src\/ring\/one\.ts -> src\/ring\/two\.ts -> src\/ring\/three\.ts$/);
});

t.test('a running server checks the rules the CLI read, without indexing here', async (t) => {
  const repo = await makeRepo(t, { ...IMPORT_CYCLES_REPO, 'rules.json': JSON.stringify(RULES) });
  const server = await startTestServer(t, repo);
  const run = runStrata(t, ['check', '--rules', 'rules.json', '--format', 'json', '--server', server.url], { cwd: repo });
  t.equal(await run.exited, 1);
  t.equal(run.stderr(), '');
  const answer = JSON.parse(run.stdout());
  t.equal(answer.source, 'rules.json');
  t.same(answer.counts, { error: 3, warn: 1, info: 0 });
});

t.test('rules with mistakes, or in JavaScript: exit 2, each mistake named, nothing indexed', async (t) => {
  const repo = await makeRepo(t, {
    ...IMPORT_CYCLES_REPO,
    'bad.json': JSON.stringify({ forbidden: [{ name: 'x', severity: 'loud', from: { path: '(' } }] }),
    'rules.cjs': 'module.exports = {};\n',
  });
  const bad = runStrata(t, ['check', '--rules', 'bad.json', '--server', NO_SERVER, '--repo', repo], { cwd: repo });
  t.equal(await bad.exited, 2);
  t.match(
    bad.stderr(),
    /^strata: bad\.json: 2 problems:\n {2}forbidden\[0\] "x": severity: must be one of error, warn, info, ignore, not "loud"\n {2}forbidden\[0\] "x": from\.path: not a regular expression Strata runs/,
  );
  t.notMatch(bad.stderr(), /indexing/);

  const script = runStrata(t, ['check', '--rules', 'rules.cjs', '--server', NO_SERVER, '--repo', repo], { cwd: repo });
  t.equal(await script.exited, 2);
  t.match(script.stderr(), /--rules: rules\.cjs is JavaScript, which Strata does not run: give the rules as JSON/);

  const none = runStrata(t, ['check', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await none.exited, 0);
  t.match(none.stderr(), /strata check: no rules: put them in strata\.config\.json under "rules"/);
  t.match(none.stdout(), /^No violations in \d+ imports of \d+ files, no rules\.\n$/);
});
