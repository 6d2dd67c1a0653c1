import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { type FixtureFiles, makeRepo, writeFiles } from '../helpers/fixture-repo.ts';
import { matchesColdIndex, nextGraph, nodeIds } from '../helpers/live-graph.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const RUBY_REPO: FixtureFiles = {
  'bin/shop.rb': "require 'shop'\nrequire 'billing/invoice'\nrequire_relative '../config/boot'\n",
  'lib/shop.rb': "require 'shop/cart'\n\nmodule Shop\nend\n",
  'lib/shop/cart.rb': "require 'json'\n\nclass Cart\n  def total; 0; end\nend\n",
  'gems/billing/lib/billing/invoice.rb': 'class Invoice\nend\n',
};

const edgeIds = (graph: any): Set<string> => new Set(graph.data.edges.map((edge: { id: string }) => edge.id));

t.test('an edited Ruby file is re-read: its requires and symbols change, and the graph equals a cold index', async (t) => {
  const repo = await makeRepo(t, RUBY_REPO);
  const server = await startTestServer(t, repo);
  const before = (await server.api('/api/graph')).body;
  t.ok(nodeIds(before).has('sym:lib/shop/cart.rb#Cart.total'));
  await writeFile(path.join(repo, 'lib/shop/cart.rb'), "require 'json'\nrequire 'set'\n\nclass Cart\n  def total; 0; end\n\n  def items; []; end\nend\n");
  const after = await nextGraph(server, before.meta.revision, (g) => nodeIds(g).has('sym:lib/shop/cart.rb#Cart.items'));
  t.ok(edgeIds(after).has('imports:file:lib/shop/cart.rb->pkg:ruby:set'), 'the new require is an edge');
  await matchesColdIndex(t, after, repo);
});

t.test('files that come and go change where requires lead, as a cold index does', async (t) => {
  const repo = await makeRepo(t, RUBY_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.equal(graph.meta.unresolvedCount, 1, 'config/boot is missing');

  await writeFiles(repo, { 'config/boot.rb': "require 'bundler/setup'\n" });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:bin/shop.rb->file:config/boot.rb'));
  t.pass('a new file resolves the require_relative that led nowhere');
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'lib/shop/cart.rb'));
  graph = await nextGraph(server, graph.meta.revision, (g) => !nodeIds(g).has('file:lib/shop/cart.rb'));
  t.ok(edgeIds(graph).has('imports:file:lib/shop.rb->pkg:ruby:shop'), 'a feature gone from the load path is a package');
  await matchesColdIndex(t, graph, repo);

  await writeFiles(repo, { 'lib/shop/cart.rb': 'class Cart\nend\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:lib/shop.rb->file:lib/shop/cart.rb'));
  await matchesColdIndex(t, graph, repo);
});

t.test('a gemspec that comes or goes changes the load path and resolves every require again', async (t) => {
  const repo = await makeRepo(t, RUBY_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.ok(edgeIds(graph).has('imports:file:bin/shop.rb->pkg:ruby:billing'), 'gems/billing is no gem yet');

  await writeFiles(repo, { 'gems/billing/billing.gemspec': 'Gem::Specification.new\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:bin/shop.rb->file:gems/billing/lib/billing/invoice.rb'));
  t.notOk(nodeIds(graph).has('pkg:ruby:billing'), 'the package node goes with its last requirer');
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'gems/billing/billing.gemspec'));
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:bin/shop.rb->pkg:ruby:billing'));
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'lib'), { recursive: true });
  graph = await nextGraph(server, graph.meta.revision, (g) => !nodeIds(g).has('dir:lib'));
  t.ok(edgeIds(graph).has('imports:file:bin/shop.rb->pkg:ruby:shop'));
  await matchesColdIndex(t, graph, repo);
});
