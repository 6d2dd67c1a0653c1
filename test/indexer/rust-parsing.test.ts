import { setTimeout as sleep } from 'node:timers/promises';
import { type CodeGraph, indexRepository } from '@strata/host';
import type { GraphNode } from '@strata/sdk';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

/** Inputs that are hard on a parser: deep nesting, unclosed brackets, a long line, garbage, a huge file. */
const HOSTILE: FixtureFiles = {
  'Cargo.toml': '[package]\nname = "h"\nversion = "0.1.0"\n',
  'src/lib.rs': 'mod parens;\nmod blocks;\nmod unclosed;\nmod broken;\nmod garbage;\nmod nul;\nmod huge;\nmod uses;\nmod modules;\n',
  'src/parens.rs': `const X: i32 = ${'('.repeat(50_000)}1${')'.repeat(50_000)};\n\npub fn after() {}\n`,
  'src/blocks.rs': `pub fn deep() {\n${'{'.repeat(20_000)}${'}'.repeat(20_000)}\n}\n\nmod ${'m { mod '.repeat(5_000)}z;${' }'.repeat(5_000)}\n`,
  'src/unclosed.rs': `use std::io;\n\nconst Y: [i32; 1] = ${'['.repeat(300_000)}\n`,
  'src/broken.rs': 'use std::fmt;\nuse serde::Serialize;\n\npub fn before() {}\n\nfn broken( {\n\npub fn later() {}\n',
  'src/garbage.rs': Array.from({ length: 100_000 }, (_, i) => ')]}:=@\\`"#'[i % 10]).join(''),
  'src/nul.rs': Buffer.from('use std::io;\n\0\0\0fn f() {}\n'),
  'src/huge.rs': `use std::fmt;\n\n${Array.from({ length: 20_000 }, (_, i) => `pub fn f${i}() -> i32 { ${i} }\n`).join('')}`,
  'src/modules.rs': `${'mod m { pub fn f() {} use x::y; '.repeat(50_000)}${'}'.repeat(50_000)}\n`,
  'src/uses.rs': `use std::{${'a::{'.repeat(5_000)}b${'}'.repeat(5_000)}};\nuse core::{${'a::{x, '.repeat(50_000)}b${'}'.repeat(50_000)}};\n`,
};

const fileNode = (graph: CodeGraph, path: string): GraphNode => graph.nodes.find((node) => node.kind === 'file' && node.path === path)!;
const hasEdge = (graph: CodeGraph, id: string): boolean => graph.edges.some((edge) => edge.id === id);

for (const [label, extra] of [
  ['a small repository (Rust read on the standby thread)', {}],
  [
    'a larger one (read by the pool of threads)',
    Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`many/m${i}.rs`, `#[path = "m${(i + 1) % 400}.rs"]\nmod next;\n`])),
  ],
] as const) {
  t.test(`hostile Rust sources do not stop indexing: ${label}`, async (t) => {
    const repo = await makeRepo(t, { ...HOSTILE, ...extra });
    const graph = await indexRepository({ repository: repo, env: { STRATA_INDEX_CACHE: 'false' } });
    t.equal(fileNode(graph, 'src/parens.rs').error, undefined, '50,000 levels of parentheses parse');
    t.ok(graph.nodes.some((node) => node.id === 'sym:src/parens.rs#after'));
    t.equal(fileNode(graph, 'src/blocks.rs').error, undefined, '20,000 nested blocks and 5,000 nested inline modules parse');
    t.notOk(
      graph.build.unresolved.some((entry) => entry.file === 'src/blocks.rs'),
      'a mod declaration 5,000 inline modules deep is not followed (past 64 levels)',
    );
    t.match(fileNode(graph, 'src/unclosed.rs'), { error: /^syntax error: /, lines: 3 });
    t.ok(hasEdge(graph, 'imports:file:src/unclosed.rs->pkg:rust:std'), 'what comes before the error is kept');
    t.match(fileNode(graph, 'src/broken.rs'), { error: /^syntax error: .* at line 6$/ });
    t.ok(hasEdge(graph, 'imports:file:src/broken.rs->pkg:rust:serde'), "a broken function keeps the file's uses");
    t.ok(
      graph.nodes.some((node) => node.id === 'sym:src/broken.rs#before'),
      'and the items before it',
    );
    t.match(fileNode(graph, 'src/garbage.rs'), { error: /^syntax error/ });
    t.ok(fileNode(graph, 'src/nul.rs'), 'a file with NUL bytes is a node');
    t.equal(fileNode(graph, 'src/huge.rs').error, undefined);
    t.equal(graph.nodes.filter((node) => node.path === 'src/huge.rs' && node.kind === 'function').length, 20_000, '20,000 functions');
    const fromUses = graph.edges.filter((edge) => edge.source === 'file:src/uses.rs');
    t.same(
      fromUses.map((edge) => edge.target),
      ['pkg:rust:core'],
      'a path under use lists nested past 1,024 characters is not followed (std has none)',
    );
    const specifiers = fromUses[0]?.specifiers ?? [];
    t.equal(specifiers[0], 'core::a::x');
    t.ok(
      specifiers.length > 300 && specifiers.length < 400 && specifiers.every((specifier) => specifier.length < 1_100),
      `50,000 nested use lists with a name each give the paths up to 1,024 characters (${specifiers.length}), not 50,000 ever longer ones`,
    );
    t.ok(hasEdge(graph, 'imports:file:src/lib.rs->file:src/huge.rs'));
    t.equal(fileNode(graph, 'src/modules.rs').error, undefined, '50,000 nested inline modules parse');
    t.equal(
      graph.nodes.filter((node) => node.path === 'src/modules.rs' && node.kind === 'function').length,
      64,
      'items 64 inline modules deep are symbols, deeper ones not (each would carry its whole path)',
    );
    t.ok(hasEdge(graph, 'imports:file:src/modules.rs->pkg:rust:x'));
    if (Object.keys(extra).length > 0)
      t.equal(graph.edges.filter((edge) => edge.source.startsWith('file:many/') && edge.kind === 'imports').length, 400, 'every file of the pool is read');
  });
}

t.test("the facts cache keeps Rust files' facts: a second build reads none of them and gives the same graph", async (t) => {
  const repo = await makeRepo(t, {
    'Cargo.toml': '[package]\nname = "c"\nversion = "0.1.0"\n',
    'src/lib.rs': 'mod util;\nmod inner {\n    use super::util::run;\n}\n',
    'src/util.rs': '/// Runs.\npub fn run() {}\n',
  });
  // Files changed under two seconds before a build are not kept.
  await sleep(2_100);
  const first = await indexRepository({ repository: repo, env: {} });
  const second = await indexRepository({ repository: repo, env: {} });
  t.equal(second.build.cachedFiles, 3);
  t.same(second.nodes, first.nodes);
  t.same(second.edges, first.edges);
  t.ok(
    second.edges.some((edge) => edge.id === 'imports:file:src/lib.rs->file:src/util.rs' && edge.specifiers?.includes('super::util::run')),
    'the scope of a use survives the cache',
  );
});
