import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { type FixtureFiles, makeRepo, writeFiles } from '../helpers/fixture-repo.ts';
import { matchesColdIndex, nextGraph, nodeIds } from '../helpers/live-graph.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const PHP_REPO: FixtureFiles = {
  'composer.json': JSON.stringify({ autoload: { 'psr-4': { 'App\\': 'src/' } } }),
  'public/index.php': "<?php\nrequire __DIR__ . '/../bootstrap.php';\nuse App\\Kernel;\nuse Acme\\Billing\\Invoice;\n",
  'src/Kernel.php': '<?php\nnamespace App;\n\nuse App\\Http\\Router;\nuse App\\Models;\n\nclass Kernel\n{\n    public function handle() {}\n}\n',
  'src/Http/Router.php': '<?php\nnamespace App\\Http;\n\nclass Router {}\n',
  'packages/billing/src/Invoice.php': '<?php\nnamespace Acme\\Billing;\n\nclass Invoice {}\n',
};

const edgeIds = (graph: any): Set<string> => new Set(graph.data.edges.map((edge: { id: string }) => edge.id));

t.test('an edited PHP file is re-read: its uses and symbols change, and the graph equals a cold index', async (t) => {
  const repo = await makeRepo(t, PHP_REPO);
  const server = await startTestServer(t, repo);
  const before = (await server.api('/api/graph')).body;
  t.ok(nodeIds(before).has('sym:src/Kernel.php#Kernel.handle'));
  await writeFile(
    path.join(repo, 'src/Kernel.php'),
    '<?php\nnamespace App;\n\nuse App\\Http\\Router;\nuse DateTime;\n\nclass Kernel\n{\n    public function handle() {}\n\n    private function boot() {}\n}\n',
  );
  const after = await nextGraph(server, before.meta.revision, (g) => nodeIds(g).has('sym:src/Kernel.php#Kernel.boot'));
  t.ok(edgeIds(after).has('imports:file:src/Kernel.php->pkg:php:ext-date'), 'the new use is an edge');
  await matchesColdIndex(t, after, repo);
});

t.test('files that come and go change where includes and uses lead, as a cold index does', async (t) => {
  const repo = await makeRepo(t, PHP_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.equal(graph.meta.unresolvedCount, 2, 'bootstrap.php is missing, and so is App\\Models');

  await writeFiles(repo, { 'bootstrap.php': "<?php\nrequire_once 'vendor/autoload.php';\n" });
  // Its own include (of a vendor/ that is not there) is read too: the whole file, not a truncated read.
  graph = await nextGraph(
    server,
    graph.meta.revision,
    (g) => edgeIds(g).has('imports:file:public/index.php->file:bootstrap.php') && g.meta.unresolvedCount === 2,
  );
  t.pass('a new file resolves the include that led nowhere');
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'src/Http/Router.php'));
  graph = await nextGraph(server, graph.meta.revision, (g) => !nodeIds(g).has('file:src/Http/Router.php'));
  t.notOk(edgeIds(graph).has('imports:file:src/Kernel.php->file:src/Http/Router.php'));
  await matchesColdIndex(t, graph, repo);

  await writeFiles(repo, { 'src/Http/Router.php': '<?php\nnamespace App\\Http;\n\nclass Router {}\n' });
  graph = await nextGraph(
    server,
    graph.meta.revision,
    (g) => edgeIds(g).has('imports:file:src/Kernel.php->file:src/Http/Router.php') && nodeIds(g).has('sym:src/Http/Router.php#Router'),
  );
  await matchesColdIndex(t, graph, repo);
});

t.test('a namespace directory that comes or goes changes where `use App\\Models;` leads', async (t) => {
  const repo = await makeRepo(t, PHP_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.notOk(edgeIds(graph).has('imports:file:src/Kernel.php->dir:src/Models'));

  await mkdir(path.join(repo, 'src/Models'));
  await writeFiles(repo, { 'src/Models/User.php': '<?php\nnamespace App\\Models;\n\nclass User {}\n' });
  graph = await nextGraph(
    server,
    graph.meta.revision,
    (g) => edgeIds(g).has('imports:file:src/Kernel.php->dir:src/Models') && nodeIds(g).has('sym:src/Models/User.php#User'),
  );
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'src/Models'), { recursive: true });
  graph = await nextGraph(server, graph.meta.revision, (g) => !nodeIds(g).has('dir:src/Models'));
  t.notOk(edgeIds(graph).has('imports:file:src/Kernel.php->dir:src/Models'));
  await matchesColdIndex(t, graph, repo);
});

t.test('a composer.json that comes, changes or goes changes the autoload rules and resolves every use again', async (t) => {
  const repo = await makeRepo(t, PHP_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.ok(edgeIds(graph).has('imports:file:public/index.php->pkg:php:Acme'), 'packages/billing has no composer.json yet');

  await writeFiles(repo, { 'packages/billing/composer.json': JSON.stringify({ autoload: { 'psr-4': { 'Acme\\Billing\\': 'src/' } } }) });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:public/index.php->file:packages/billing/src/Invoice.php'));
  t.notOk(nodeIds(graph).has('pkg:php:Acme'), 'the package node goes with its last user');
  await matchesColdIndex(t, graph, repo);

  await writeFiles(repo, { 'composer.json': JSON.stringify({ autoload: { 'psr-4': { 'App\\': 'lib/' } } }) });
  // A truncated read of composer.json (no rules) would lead App\\Kernel to a package instead.
  graph = await nextGraph(
    server,
    graph.meta.revision,
    (g) => !edgeIds(g).has('imports:file:public/index.php->file:src/Kernel.php') && !edgeIds(g).has('imports:file:public/index.php->pkg:php:App'),
  );
  t.ok(graph.meta.unresolvedCount >= 1, 'App\\Kernel has no file under lib/');
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'composer.json'));
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:public/index.php->pkg:php:App'));
  await matchesColdIndex(t, graph, repo);
});
