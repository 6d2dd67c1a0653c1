import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { type FixtureFiles, makeRepo, writeFiles } from '../helpers/fixture-repo.ts';
import { matchesColdIndex, nextGraph, nodeIds } from '../helpers/live-graph.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const GO_REPO: FixtureFiles = {
  'go.mod': 'module example.com/shop\n\ngo 1.22\n',
  'main.go': 'package main\n\nimport (\n\t"example.com/shop/cart"\n\t"example.com/shop/reports"\n)\n\nfunc main() {}\n',
  'cart/cart.go': 'package cart\n\nimport "example.com/shop/pricing"\n\ntype Cart struct{}\n\nfunc (c *Cart) Total() int { return pricing.Sum() }\n',
  'cart/cart_test.go': 'package cart\n\nimport "testing"\n',
  'pricing/pricing.go': 'package pricing\n\nfunc Sum() int { return 0 }\n',
  'tools/go.mod': 'module example.com/tools\n',
  'tools/lint/lint.go': 'package lint\n\nimport "example.com/shop/cart"\n',
  'lib/go.mod': 'module example.com/lib\n',
  'lib/text/text.go': 'package text\n',
};

const edgeIds = (graph: any): Set<string> => new Set(graph.data.edges.map((edge: { id: string }) => edge.id));

t.test('an edited Go file is re-read: its imports and symbols change, and the graph equals a cold index', async (t) => {
  const repo = await makeRepo(t, GO_REPO);
  const server = await startTestServer(t, repo);
  const before = (await server.api('/api/graph')).body;
  t.ok(nodeIds(before).has('sym:cart/cart.go#Cart.Total'));
  await writeFile(
    path.join(repo, 'cart/cart.go'),
    'package cart\n\nimport (\n\t"encoding/json"\n\t"example.com/shop/pricing"\n)\n\ntype Cart struct{}\n\nfunc (c *Cart) Total() int { return pricing.Sum() }\n\nfunc (c *Cart) Export() ([]byte, error) { return json.Marshal(c) }\n',
  );
  const after = await nextGraph(server, before.meta.revision, (g) => nodeIds(g).has('sym:cart/cart.go#Cart.Export'));
  t.ok(edgeIds(after).has('imports:file:cart/cart.go->pkg:go:encoding/json'), 'the new import is an edge');
  await matchesColdIndex(t, after, repo);
});

t.test('packages that come, go and move change where imports lead, as a cold index does', async (t) => {
  const repo = await makeRepo(t, GO_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.notOk(edgeIds(graph).has('imports:file:main.go->dir:reports'), 'no reports package yet');
  t.equal(graph.meta.unresolvedCount, 1);

  await writeFiles(repo, { 'reports/monthly.go': 'package reports\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:main.go->dir:reports'));
  t.pass('a new package directory resolves the import that led nowhere');
  await matchesColdIndex(t, graph, repo);

  await writeFiles(repo, { 'pricing/pricing_test.go': 'package pricing\n' });
  await rm(path.join(repo, 'pricing/pricing.go'));
  graph = await nextGraph(server, graph.meta.revision, (g) => !nodeIds(g).has('file:pricing/pricing.go'));
  t.notOk(edgeIds(graph).has('imports:file:cart/cart.go->dir:pricing'), 'a directory with tests alone is no package');
  await matchesColdIndex(t, graph, repo);

  await writeFiles(repo, { 'pricing/pricing.go': 'package pricing\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:cart/cart.go->dir:pricing'));
  await matchesColdIndex(t, graph, repo);

  await rename(path.join(repo, 'reports'), path.join(repo, 'reporting'));
  graph = await nextGraph(server, graph.meta.revision, (g) => !edgeIds(g).has('imports:file:main.go->dir:reports') && nodeIds(g).has('dir:reporting'));
  t.notOk(nodeIds(graph).has('dir:reports'), 'the edge goes with the directory');
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'cart'), { recursive: true });
  graph = await nextGraph(server, graph.meta.revision, (g) => !nodeIds(g).has('dir:cart'));
  t.notOk(edgeIds(graph).has('imports:file:main.go->dir:cart'));
  await matchesColdIndex(t, graph, repo);
});

t.test('go.mod, go.work and replace directives that change resolve every Go import again', async (t) => {
  const repo = await makeRepo(t, GO_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.ok(edgeIds(graph).has('imports:file:tools/lint/lint.go->pkg:go:example.com/shop/cart'), 'tools is a module of its own: shop is external');

  await writeFile(path.join(repo, 'go.work'), 'go 1.22\n\nuse (\n\t.\n\t./tools\n)\n');
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:tools/lint/lint.go->dir:cart'));
  t.notOk(nodeIds(graph).has('pkg:go:example.com/shop/cart'), 'the package node goes with its last importer');
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'go.work'));
  await writeFile(path.join(repo, 'tools/go.mod'), 'module example.com/tools\n\nreplace example.com/shop => ../\n');
  graph = await nextGraph(
    server,
    graph.meta.revision,
    (g) => !nodeIds(g).has('file:go.work') && g.data.nodes.some((node: any) => node.id === 'file:tools/go.mod' && node.lines === 3),
  );
  t.ok(edgeIds(graph).has('imports:file:tools/lint/lint.go->dir:cart'), 'a replace with a local directory leads there');
  await matchesColdIndex(t, graph, repo);

  await writeFile(path.join(repo, 'go.mod'), 'module example.com/store\n');
  // The revision with the whole write (read while writeFile had just truncated it, the file says nothing either).
  graph = await nextGraph(
    server,
    graph.meta.revision,
    (g) =>
      !edgeIds(g).has('imports:file:main.go->dir:cart') &&
      g.data.nodes.find((n: { id: string }) => n.id === 'file:go.mod')?.bytes === Buffer.byteLength('module example.com/store\n'),
  );
  t.match(graph.meta, { unresolvedCount: 0 }, 'example.com/shop/... is another module now, external');
  t.ok(edgeIds(graph).has('imports:file:main.go->pkg:go:example.com/shop/cart'));
  await matchesColdIndex(t, graph, repo);

  await writeFiles(repo, { 'lib/vendor/modules.txt': '# example.com/shop v0.0.0\n', 'lib/vendor/example.com/shop/cart/cart.go': 'package cart\n' });
  await writeFiles(repo, { 'lib/text/text.go': 'package text\n\nimport "example.com/shop/cart"\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:lib/text/text.go->dir:lib/vendor/example.com/shop/cart'));
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'lib/vendor/modules.txt'));
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:lib/text/text.go->pkg:go:example.com/shop/cart'));
  t.pass('without vendor/modules.txt, vendoring is off');
  await matchesColdIndex(t, graph, repo);

  await mkdir(path.join(repo, 'lib/text/sub'));
  await writeFiles(repo, { 'lib/text/sub/sub.go': 'package sub\n\nimport "example.com/lib/text"\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:lib/text/sub/sub.go->dir:lib/text'));
  t.pass("a new directory's file resolves in the module of its nearest go.mod");
  await matchesColdIndex(t, graph, repo);
});
