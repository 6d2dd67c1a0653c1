import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { IMPORT_CYCLES_REPO } from '../helpers/import-cycles-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';

interface Reached {
  id: string;
  depth: number;
  edge: string;
  from: string;
}

const pathOf = (id: string): string => id.slice(id.indexOf(':') + 1);
const node = (id: string): string => encodeURIComponent(id);

t.test('dependents: every file that imports a node, directly or not, with its depth and the import that reached it', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  const { status, body } = await server.api(`/api/graph/nodes/${node('file:src/core/c.ts')}/dependents`);
  t.equal(status, 200);
  t.same(body.data.nodes, [
    { id: 'file:src/core/b.ts', depth: 1, edge: 'imports:file:src/core/b.ts->file:src/core/c.ts', from: 'file:src/core/c.ts' },
    { id: 'file:src/core/a.ts', depth: 2, edge: 'imports:file:src/core/a.ts->file:src/core/b.ts', from: 'file:src/core/b.ts' },
    { id: 'file:src/app.ts', depth: 3, edge: 'imports:file:src/app.ts->file:src/core/a.ts', from: 'file:src/core/a.ts' },
  ]);
  t.same(body.data.byDepth, [1, 1, 1]);
  t.equal(body.data.total, 3);
  t.equal(body.data.startCount, 1);
  t.equal(body.data.maxDepth, null);
  t.equal(body.data.truncated, false);

  const limited = await server.api(`/api/graph/nodes/${node('file:src/core/c.ts')}/dependents?depth=2`);
  t.same(
    limited.body.data.nodes.map((reached: Reached) => reached.id),
    ['file:src/core/b.ts', 'file:src/core/a.ts'],
    'depth limits how far it goes',
  );
  t.equal(limited.body.data.maxDepth, 2);
});

t.test('dependencies: files and packages a node imports, transitively; reference kinds can be left out', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  const all = await server.api(`/api/graph/nodes/${node('file:src/app.ts')}/dependencies`);
  t.equal(all.status, 200);
  const byDepth = (reached: Reached[]) => reached.map((r) => `${r.depth} ${r.id}`);
  t.same(byDepth(all.body.data.nodes), [
    '1 file:src/core/a.ts',
    '1 file:src/lazy/q.ts',
    '1 file:src/left/l1.ts',
    '1 file:src/mixed/m.ts',
    '1 file:src/right/r2.ts',
    '1 file:src/ring/one.ts',
    '1 file:src/types/x.ts',
    '1 pkg:node:fs',
    '2 file:src/core/b.ts',
    '2 file:src/lazy/p.ts',
    '2 file:src/left/l2.ts',
    '2 file:src/mixed/n.ts',
    '2 file:src/right/r1.ts',
    '2 file:src/ring/two.ts',
    '2 file:src/types/y.ts',
    '3 file:src/core/c.ts',
    '3 file:src/ring/three.ts',
  ]);
  const runtime = await server.api(`/api/graph/nodes/${node('file:src/app.ts')}/dependencies?exclude=type-only`);
  const ids = runtime.body.data.nodes.map((r: Reached) => r.id);
  t.notOk(ids.includes('file:src/types/x.ts'), 'a type-only import is left out');
  t.notOk(ids.includes('file:src/mixed/n.ts'), 'and what only it reached');
  t.ok(ids.includes('file:src/mixed/m.ts'));
  t.same(runtime.body.data.excluded, ['type-only']);
});

t.test('a directory counts its files (not listing them), a symbol its file; counts by depth; paged', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  const directory = await server.api(`/api/graph/nodes/${node('dir:src/ring')}/dependents`);
  t.same(
    directory.body.data.nodes.map((r: Reached) => r.id),
    ['file:src/app.ts'],
  );
  t.equal(directory.body.data.startCount, 3);

  const graph = await server.api('/api/graph');
  const symbol = graph.body.data.nodes.find((n: { id: string }) => n.id.startsWith('sym:src/core/c.ts#'));
  t.ok(symbol, 'the fixture has a symbol in src/core/c.ts');
  const ofSymbol = await server.api(`/api/graph/nodes/${node(symbol.id)}/dependents`);
  const ofFile = await server.api(`/api/graph/nodes/${node('file:src/core/c.ts')}/dependents`);
  t.same(ofSymbol.body.data.nodes, ofFile.body.data.nodes);

  const page = await server.api(`/api/graph/nodes/${node('file:src/app.ts')}/dependencies?limit=3&offset=7`);
  t.same(
    page.body.data.nodes.map((r: Reached) => r.id),
    ['pkg:node:fs', 'file:src/core/b.ts', 'file:src/lazy/p.ts'],
  );
  t.equal(page.body.data.total, 17);
  t.same(page.body.data.byDepth, [8, 7, 2], 'byDepth counts them all, not the page');
  t.equal(page.body.data.truncated, true);

  const pkg = await server.api(`/api/graph/nodes/${node('pkg:node:fs')}/dependents`);
  t.same(
    pkg.body.data.nodes.map((r: Reached) => r.id),
    ['file:src/app.ts'],
    'a package has dependents too',
  );
});

t.test('an import of a directory (a Go package) counts for each file in it', async (t) => {
  const repo = await makeRepo(t, {
    'go.mod': 'module example.com/m\n\ngo 1.22\n',
    'util/strings.go': 'package util\n\nfunc Upper(s string) string { return s }\n',
    'util/numbers.go': 'package util\n\nfunc Double(n int) int { return n * 2 }\n',
    'cmd/main.go': 'package main\n\nimport "example.com/m/util"\n\nfunc main() { util.Double(1) }\n',
  });
  const server = await startTestServer(t, repo);
  const { body } = await server.api(`/api/graph/nodes/${node('file:util/numbers.go')}/dependents`);
  t.same(body.data.nodes, [{ id: 'file:cmd/main.go', depth: 1, edge: 'imports:file:cmd/main.go->dir:util', from: 'file:util/numbers.go' }]);
});

t.test('GET /api/graph/path: the shortest chain of imports, or found: false', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  const query = (from: string, to: string, extra = '') => server.api(`/api/graph/path?from=${node(from)}&to=${node(to)}${extra}`);
  const found = await query('file:src/app.ts', 'file:src/core/c.ts');
  t.equal(found.status, 200);
  t.same(found.body.data.nodes, ['file:src/app.ts', 'file:src/core/a.ts', 'file:src/core/b.ts', 'file:src/core/c.ts']);
  t.same(found.body.data.edges, [
    'imports:file:src/app.ts->file:src/core/a.ts',
    'imports:file:src/core/a.ts->file:src/core/b.ts',
    'imports:file:src/core/b.ts->file:src/core/c.ts',
  ]);
  t.equal(found.body.data.found, true);

  const none = await query('file:src/core/c.ts', 'file:src/app.ts');
  t.equal(none.body.data.found, false, 'nothing imports app.ts');
  t.same(none.body.data.nodes, []);

  const directories = await query('dir:src/left', 'dir:src/right');
  t.same(directories.body.data.nodes, ['file:src/left/l1.ts', 'file:src/right/r1.ts'], 'between directories: from a file of one to a file of the other');

  const typeOnly = await query('file:src/types/x.ts', 'file:src/types/y.ts', '&exclude=type-only');
  t.equal(typeOnly.body.data.found, false, 'the only way is a type import');
});

/**
 * dependency-cruiser's `--reaches` on the same fixture: the modules that
 * reach the pattern's modules, with those modules themselves.
 */
t.test("dependents are what dependency-cruiser's --reaches finds", async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  const cwd = process.cwd();
  process.chdir(repo);
  t.teardown(() => process.chdir(cwd));
  const { cruise } = await import('dependency-cruiser');
  for (const [pattern, id] of [
    ['^src/core/c\\.ts$', 'file:src/core/c.ts'],
    ['^src/left/l2\\.ts$', 'file:src/left/l2.ts'],
    ['^src/ring/one\\.ts$', 'file:src/ring/one.ts'],
    ['^src/ring/', 'dir:src/ring'],
    ['^src/types/y\\.ts$', 'file:src/types/y.ts'],
    ['^src/app\\.ts$', 'file:src/app.ts'],
  ] as const) {
    const cruised = await cruise(['src'], { tsPreCompilationDeps: true, tsConfig: { fileName: 'tsconfig.json' }, reaches: { path: pattern } }, {}, {});
    const output = cruised.output;
    if (typeof output === 'string') throw new Error('expected the result object');
    const matches = new RegExp(pattern);
    const reaching = output.modules
      .map((module) => module.source)
      .filter((source) => !matches.test(source))
      .sort();
    const { body } = await server.api(`/api/graph/nodes/${node(id)}/dependents`);
    t.same(body.data.nodes.map((r: Reached) => pathOf(r.id)).sort(), reaching, `--reaches ${pattern}`);
  }
});
