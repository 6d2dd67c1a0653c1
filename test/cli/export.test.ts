import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import t from 'tap';
import { fromDot } from 'ts-graphviz';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { IMPORT_CYCLES_REPO } from '../helpers/import-cycles-repo.ts';
import { runStrata } from '../helpers/strata-cli.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const NO_SERVER = 'http://127.0.0.1:9';

t.test('strata export: without a server it indexes the repository and writes the format to standard output', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const dot = runStrata(t, ['export', repo, '--format', 'dot', '--level', 'directory', '--server', NO_SERVER]);
  t.equal(await dot.exited, 0, dot.stderr());
  t.match(dot.stderr(), /No server answers at http:\/\/127\.0\.0\.1:9; indexing /);
  const model = fromDot(dot.stdout());
  const labels = model.nodes.map((node) => node.attributes.get('label'));
  t.ok(labels.includes('src/left') && labels.includes('src/right'), 'directories are the nodes');
  const index = (label: string) => model.nodes.find((node) => node.attributes.get('label') === label)!.id;
  t.ok(
    model.edges.some((edge) => {
      const [from, to] = edge.targets.map((target) => ('id' in target ? target.id : ''));
      return from === index('src/left') && to === index('src/right');
    }),
    'src/left imports src/right',
  );

  const focused = runStrata(t, [
    'export',
    repo,
    '--format',
    'json',
    '--focus',
    'src/core/c.ts',
    '--direction',
    'dependents',
    '--depth',
    '2',
    '--server',
    NO_SERVER,
  ]);
  t.equal(await focused.exited, 0, focused.stderr());
  t.same(
    JSON.parse(focused.stdout())
      .nodes.map((node: { id: string }) => node.id)
      .sort(),
    ['file:src/core/a.ts', 'file:src/core/b.ts', 'file:src/core/c.ts'],
    'the path is taken as a file, with what depends on it within two imports',
  );

  const missing = runStrata(t, ['export', repo, '--format', 'dot', '--focus', 'src/nope.ts', '--server', NO_SERVER]);
  t.equal(await missing.exited, 1);
  t.match(missing.stderr(), /strata: src\/nope\.ts: no file or directory of that name in the graph \(NOT_FOUND\)/);
});

t.test('strata export asks a running server, writes --output; mistakes are usage errors', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  // Outside the repository: a file written into it would join the live graph.
  const output = path.join(t.testdir({}), 'graph.graphml');
  const run = runStrata(t, ['export', '--format', 'graphml', '--output', output, '--server', server.url]);
  t.equal(await run.exited, 0, run.stderr());
  t.equal(run.stdout(), '', 'nothing on standard output');
  t.notMatch(run.stderr(), /indexing/, 'the server answered');
  const served = await (await fetch(`${server.url}/api/graph/export?format=graphml`)).text();
  t.equal(await readFile(output, 'utf8'), served, 'the file is what the server serves');
  const document = new XMLParser({ ignoreAttributes: false, isArray: (name, _path, _leaf, attribute) => !attribute && ['node', 'edge'].includes(name) }).parse(
    served,
  );
  const exported = (await server.api('/api/graph')).body.data.nodes.filter((node: { kind: string }) => node.kind === 'file' || node.kind === 'package');
  t.equal(document.graphml.graph.node.length, exported.length, 'one node per file and package');

  const mermaid = runStrata(t, ['export', '--format', 'mermaid', '--focus', 'src/core/a.ts', '--server', server.url], { cwd: repo });
  t.equal(await mermaid.exited, 0, mermaid.stderr());
  t.match(mermaid.stdout(), /^flowchart LR\n {2}n0\["src\//);

  const usage = runStrata(t, ['export', '--format', 'dot', '--depth', '2', '--server', server.url]);
  t.equal(await usage.exited, 2);
  t.match(usage.stderr(), /strata: --depth and --direction apply to the nodes around --focus/);
  const format = runStrata(t, ['export', '--format', 'svg', '--server', server.url]);
  t.equal(await format.exited, 1, 'commander refuses an unknown choice');
  t.match(format.stderr(), /argument 'svg' is invalid\. Allowed choices are graphml, dot, mermaid, json, cc\.json/);
  const refused = runStrata(t, ['export', '--format', 'cc.json', '--level', 'directory', '--server', server.url]);
  t.equal(await refused.exited, 1);
  t.match(refused.stderr(), /strata: query\.level: cc\.json holds files in their folders .*\(INVALID_PARAMETER, from http/);
});
