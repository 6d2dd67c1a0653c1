import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { type FixtureFiles, makeRepo, writeFiles } from '../helpers/fixture-repo.ts';
import { matchesColdIndex, nextGraph, nodeIds } from '../helpers/live-graph.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const PYTHON_REPO: FixtureFiles = {
  'pyproject.toml': '[project]\nname = "shop"\n',
  'shop/__init__.py': 'from .cart import Cart\n',
  'shop/cart.py': 'from . import pricing\n\nclass Cart:\n    def total(self):\n        return pricing.sum_up()\n',
  'shop/pricing.py': 'def sum_up():\n    return 0\n',
  'shop/views.py': 'from shop import reports\nfrom shop import cart\n',
  'tests/test_cart.py': 'import helpers\nfrom shop.cart import Cart\n',
  'tests/helpers.py': 'def make_cart(): pass\n',
  'helpers.py': 'a module at the root, which the tests reach once tests/ is a package\n',
  'tools/run.py': 'import toolkit.commands\n',
  'lib/toolkit/__init__.py': '',
  'lib/toolkit/commands.py': '',
  'examples/app/__init__.py': '',
  'examples/app/utils.py': '',
  'examples/app/views/__init__.py': '',
  'examples/app/views/page.py': 'import helpers\n',
  'examples/helpers.py': '',
};

const edgeIds = (graph: any): Set<string> => new Set(graph.data.edges.map((edge: { id: string }) => edge.id));

t.test('an edited Python file is re-read: its imports and symbols change, and the graph equals a cold index', async (t) => {
  const repo = await makeRepo(t, PYTHON_REPO);
  const server = await startTestServer(t, repo);
  const before = (await server.api('/api/graph')).body;
  t.ok(nodeIds(before).has('sym:shop/cart.py#Cart.total'));
  await writeFile(
    path.join(repo, 'shop/cart.py'),
    'from . import pricing\nimport json\n\nclass Cart:\n    def total(self):\n        return pricing.sum_up()\n\n    def export(self):\n        return json.dumps({})\n',
  );
  const after = await nextGraph(server, before.meta.revision, (g) => nodeIds(g).has('sym:shop/cart.py#Cart.export'));
  t.ok(edgeIds(after).has('imports:file:shop/cart.py->pkg:python:json'), 'the new import is an edge');
  t.ok(nodeIds(after).has('pkg:python:json'), 'to a new package node');
  await matchesColdIndex(t, after, repo);
});

t.test('added, removed and renamed Python modules change where imports lead, as a cold index does', async (t) => {
  const repo = await makeRepo(t, PYTHON_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.ok(edgeIds(graph).has('imports:file:shop/views.py->file:shop/__init__.py'), 'reports is no submodule yet: an attribute of the package');

  await writeFiles(repo, { 'shop/reports.py': 'def monthly(): pass\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:shop/views.py->file:shop/reports.py'));
  t.notOk(edgeIds(graph).has('imports:file:shop/views.py->file:shop/__init__.py'), 'a new submodule comes before the attribute');
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'shop/pricing.py'));
  graph = await nextGraph(server, graph.meta.revision, (g) => !nodeIds(g).has('file:shop/pricing.py'));
  t.ok(edgeIds(graph).has('imports:file:shop/cart.py->file:shop/__init__.py'), 'the importer of a removed module is resolved again');
  await matchesColdIndex(t, graph, repo);

  await rename(path.join(repo, 'shop/reports.py'), path.join(repo, 'shop/pricing.py'));
  graph = await nextGraph(server, graph.meta.revision, (g) => nodeIds(g).has('file:shop/pricing.py') && !nodeIds(g).has('file:shop/reports.py'));
  t.ok(edgeIds(graph).has('imports:file:shop/cart.py->file:shop/pricing.py'));
  await matchesColdIndex(t, graph, repo);
});

t.test('an __init__.py that comes or goes changes what a package is, and which directory a script has on its path', async (t) => {
  const repo = await makeRepo(t, PYTHON_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.ok(edgeIds(graph).has('imports:file:tests/test_cart.py->file:tests/helpers.py'), "a script's own directory first");

  await writeFiles(repo, { 'tests/__init__.py': '' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:tests/test_cart.py->file:helpers.py'));
  t.notOk(edgeIds(graph).has('imports:file:tests/test_cart.py->file:tests/helpers.py'), 'a module of the package tests is not run from its directory');
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'shop/__init__.py'));
  graph = await nextGraph(server, graph.meta.revision, (g) => !nodeIds(g).has('file:shop/__init__.py'));
  t.notOk(
    graph.data.edges.some((edge: { source: string; target: string }) => edge.source === 'file:shop/views.py' && edge.target === 'file:shop/__init__.py'),
    'without __init__.py, shop is a namespace package: nothing to point to',
  );
  await matchesColdIndex(t, graph, repo);

  t.ok(edgeIds(graph).has('imports:file:examples/app/views/page.py->file:examples/helpers.py'), 'run from examples/, above its topmost package');
  await rm(path.join(repo, 'examples/app/__init__.py'));
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:examples/app/views/page.py->file:helpers.py'));
  t.pass('an __init__.py gone from a parent directory changes where the files below it are run from');
  await matchesColdIndex(t, graph, repo);
});

t.test('a pyproject.toml, or a src/ directory, that changes the source roots resolves every Python import again', async (t) => {
  const repo = await makeRepo(t, PYTHON_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.ok(edgeIds(graph).has('imports:file:tools/run.py->pkg:python:toolkit'), 'lib/ is not a source root yet: toolkit looks third-party');

  await writeFile(path.join(repo, 'pyproject.toml'), '[project]\nname = "shop"\n\n[tool.setuptools.packages.find]\nwhere = ["lib", "."]\n');
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:tools/run.py->file:lib/toolkit/commands.py'));
  t.notOk(nodeIds(graph).has('pkg:python:toolkit'), 'the package node goes with its last importer');
  await matchesColdIndex(t, graph, repo);

  await writeFile(path.join(repo, 'pyproject.toml'), '[project]\nname = "shop"\n');
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:tools/run.py->pkg:python:toolkit'));
  await matchesColdIndex(t, graph, repo);

  await mkdir(path.join(repo, 'src/toolkit'), { recursive: true });
  await writeFiles(repo, { 'src/toolkit/__init__.py': '', 'src/toolkit/commands.py': '' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:tools/run.py->file:src/toolkit/commands.py'));
  t.pass('a new src/ directory is a source root');
  await matchesColdIndex(t, graph, repo);
});
