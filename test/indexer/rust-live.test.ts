import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { type FixtureFiles, makeRepo, writeFiles } from '../helpers/fixture-repo.ts';
import { matchesColdIndex, nextGraph, nodeIds } from '../helpers/live-graph.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const RUST_REPO: FixtureFiles = {
  'Cargo.toml': '[workspace]\nmembers = ["shop", "tools"]\n',
  'shop/Cargo.toml': '[package]\nname = "shop"\nversion = "0.1.0"\n',
  'shop/src/lib.rs': 'pub mod cart;\npub mod pricing;\nmod reports;\n',
  'shop/src/cart.rs': 'use crate::pricing::sum;\n\npub struct Cart;\n\nimpl Cart {\n    pub fn total(&self) -> i32 { sum() }\n}\n',
  'shop/src/pricing.rs': 'pub fn sum() -> i32 { 0 }\n',
  'tools/Cargo.toml': '[package]\nname = "tools"\nversion = "0.1.0"\n',
  'tools/src/main.rs': 'use shop_core::cart::Cart;\nuse shop::pricing;\n\nfn main() {}\n',
};

const edgeIds = (graph: any): Set<string> => new Set(graph.data.edges.map((edge: { id: string }) => edge.id));

t.test('an edited Rust file is re-read: its uses and symbols change, and the graph equals a cold index', async (t) => {
  const repo = await makeRepo(t, RUST_REPO);
  const server = await startTestServer(t, repo);
  const before = (await server.api('/api/graph')).body;
  t.ok(nodeIds(before).has('sym:shop/src/cart.rs#Cart.total'));
  await writeFile(
    path.join(repo, 'shop/src/cart.rs'),
    'use crate::pricing::sum;\nuse std::fmt;\n\npub struct Cart;\n\nimpl Cart {\n    pub fn total(&self) -> i32 { sum() }\n    pub fn export(&self) {}\n}\n',
  );
  const after = await nextGraph(server, before.meta.revision, (g) => nodeIds(g).has('sym:shop/src/cart.rs#Cart.export'));
  t.ok(edgeIds(after).has('imports:file:shop/src/cart.rs->pkg:rust:std'), 'the new use is an edge');
  await matchesColdIndex(t, after, repo);
});

t.test('module files that come, go and move change where mod and use lead, as a cold index does', async (t) => {
  const repo = await makeRepo(t, RUST_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.equal(graph.meta.unresolvedCount, 1, 'mod reports has no file yet');

  await writeFiles(repo, { 'shop/src/reports/mod.rs': 'pub fn monthly() {}\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:shop/src/lib.rs->file:shop/src/reports/mod.rs'));
  t.pass('a new mod.rs is the declared module');
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'shop/src/pricing.rs'));
  graph = await nextGraph(server, graph.meta.revision, (g) => !nodeIds(g).has('file:shop/src/pricing.rs'));
  t.ok(edgeIds(graph).has('imports:file:shop/src/cart.rs->file:shop/src/lib.rs'), 'crate::pricing::sum now stops at the crate root');
  await matchesColdIndex(t, graph, repo);

  await rename(path.join(repo, 'shop/src/reports/mod.rs'), path.join(repo, 'shop/src/pricing.rs'));
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:shop/src/cart.rs->file:shop/src/pricing.rs'));
  t.notOk(edgeIds(graph).has('imports:file:shop/src/lib.rs->file:shop/src/reports/mod.rs'));
  await matchesColdIndex(t, graph, repo);
});

t.test('a Cargo.toml or a crate root that changes the crates resolves every Rust file again', async (t) => {
  const repo = await makeRepo(t, RUST_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.ok(edgeIds(graph).has('imports:file:tools/src/main.rs->pkg:rust:shop_core'), 'no crate shop_core in the repository yet');

  await writeFile(path.join(repo, 'shop/Cargo.toml'), '[package]\nname = "shop"\nversion = "0.1.0"\n\n[lib]\nname = "shop_core"\n');
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:tools/src/main.rs->file:shop/src/cart.rs'));
  t.ok(edgeIds(graph).has('imports:file:tools/src/main.rs->pkg:rust:shop'), 'the library is named shop_core now');
  await matchesColdIndex(t, graph, repo);

  await rename(path.join(repo, 'shop/src/lib.rs'), path.join(repo, 'shop/src/core.rs'));
  graph = await nextGraph(
    server,
    graph.meta.revision,
    (g) => nodeIds(g).has('file:shop/src/core.rs') && edgeIds(g).has('imports:file:tools/src/main.rs->pkg:rust:shop_core'),
  );
  t.pass('without src/lib.rs the package has no library');
  await matchesColdIndex(t, graph, repo);

  await writeFile(path.join(repo, 'shop/Cargo.toml'), '[package]\nname = "shop"\nversion = "0.1.0"\n\n[lib]\nname = "shop_core"\npath = "src/core.rs"\n');
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:tools/src/main.rs->file:shop/src/cart.rs'));
  t.ok(edgeIds(graph).has('imports:file:shop/src/core.rs->file:shop/src/cart.rs'), '[lib] path names the root, whose mod declarations lead beside it');
  await matchesColdIndex(t, graph, repo);
});
