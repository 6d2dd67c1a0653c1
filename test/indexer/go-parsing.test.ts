import { setTimeout as sleep } from 'node:timers/promises';
import { type CodeGraph, indexRepository } from '@strata/host';
import type { GraphNode } from '@strata/sdk';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

/** Inputs that are hard on a parser: deep nesting, unclosed brackets, a long line, garbage, a huge file. */
const HOSTILE: FixtureFiles = {
  'go.mod': 'module example.com/h\n',
  'hostile/parens.go': `package hostile\n\nvar x = ${'('.repeat(50_000)}1${')'.repeat(50_000)}\n\nfunc After() {}\n`,
  'hostile/blocks.go': `package hostile\n\nfunc Deep() {\n${'{'.repeat(20_000)}${'}'.repeat(20_000)}\n}\n`,
  'hostile/unclosed.go': `package hostile\n\nimport "os"\n\nvar y = ${'['.repeat(300_000)}\n`,
  'hostile/broken.go': 'package hostile\n\nimport (\n\t"fmt"\n\t"strings"\n)\n\nfunc Before() {}\n\nfunc broken( {\n\nfunc Later() {}\n',
  'hostile/long-line.go': `package hostile\n\nimport "os"\n\nvar z = "${'-'.repeat(200_000)}"\n`,
  'hostile/garbage.go': Array.from({ length: 100_000 }, (_, i) => ')]}:=@\\`"'[i % 9]).join(''),
  'hostile/nul.go': Buffer.from('package hostile\n\nimport "os"\n\0\0\0func F() {}\n'),
  'hostile/huge.go': `package hostile\n\nimport "strings"\n\n${Array.from({ length: 20_000 }, (_, i) => `func F${i}() int { return ${i} }\n`).join('')}`,
  'hostile/escapes.go': 'package hostile\n\nimport (\n\t"fmt\\n"\n\t"a b"\n\t`raw/ok`\n\t"\\u0066mt"\n)\n',
  'ok.go': 'package main\n\nimport "example.com/h/hostile"\n',
};

const fileNode = (graph: CodeGraph, path: string): GraphNode => graph.nodes.find((node) => node.kind === 'file' && node.path === path)!;
const hasEdge = (graph: CodeGraph, id: string): boolean => graph.edges.some((edge) => edge.id === id);

for (const [label, extra] of [
  ['a small repository (Go read on the standby thread)', {}],
  [
    'a larger one (read by the pool of threads)',
    Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`many/m${i}/m.go`, `package m${i}\n\nimport "example.com/h/many/m${(i + 1) % 400}"\n`])),
  ],
] as const) {
  t.test(`hostile Go sources do not stop indexing: ${label}`, async (t) => {
    const repo = await makeRepo(t, { ...HOSTILE, ...extra });
    const graph = await indexRepository({ repository: repo, env: { STRATA_INDEX_CACHE: 'false' } });
    t.equal(fileNode(graph, 'hostile/parens.go').error, undefined, '50,000 levels of parentheses parse');
    t.ok(graph.nodes.some((node) => node.id === 'sym:hostile/parens.go#After'));
    t.equal(fileNode(graph, 'hostile/blocks.go').error, undefined, '20,000 nested blocks parse');
    t.match(fileNode(graph, 'hostile/unclosed.go'), { error: /^syntax error: /, lines: 5 });
    t.ok(hasEdge(graph, 'imports:file:hostile/unclosed.go->pkg:go:os'), 'what comes before the error is kept');
    t.match(fileNode(graph, 'hostile/broken.go'), { error: /^syntax error: .* at line 10$/ });
    t.ok(hasEdge(graph, 'imports:file:hostile/broken.go->pkg:go:strings'), "a broken function keeps the file's imports");
    t.ok(
      graph.nodes.some((node) => node.id === 'sym:hostile/broken.go#Before'),
      'and the declarations before it',
    );
    t.ok(hasEdge(graph, 'imports:file:hostile/long-line.go->pkg:go:os'));
    t.match(fileNode(graph, 'hostile/garbage.go'), { error: /^syntax error/ });
    t.ok(fileNode(graph, 'hostile/nul.go'), 'a file with NUL bytes is a node');
    t.equal(fileNode(graph, 'hostile/huge.go').error, undefined);
    t.equal(graph.nodes.filter((node) => node.path === 'hostile/huge.go' && node.kind === 'function').length, 20_000, '20,000 functions');
    t.same(
      graph.edges.filter((edge) => edge.source === 'file:hostile/escapes.go').map((edge) => edge.target),
      ['pkg:go:raw/ok', 'pkg:go:fmt'],
      'a raw string and an escape that spells a path are import paths; a line end or a space in one is none',
    );
    t.ok(hasEdge(graph, 'imports:file:ok.go->dir:hostile'));
    if (Object.keys(extra).length > 0)
      t.equal(graph.edges.filter((edge) => edge.source.startsWith('file:many/') && edge.kind === 'imports').length, 400, 'every file of the pool is read');
  });
}

t.test('a Go file over index.maxFileBytes is a node, not parsed; .go files are go', async (t) => {
  const repo = await makeRepo(t, { 'big.go': `package big\n\nimport "os"\n//${'x'.repeat(5_000)}\n`, 'small.go': 'package big\n\nfunc F() {}\n' });
  const graph = await indexRepository({ repository: repo, env: { STRATA_INDEX_MAX_FILE_BYTES: '2048' } });
  t.match(fileNode(graph, 'big.go'), { error: /^not read: \d+ bytes is over the limit of 2048/, language: 'go' });
  t.equal(graph.edges.filter((edge) => edge.kind === 'imports').length, 0);
  t.ok(graph.nodes.some((node) => node.id === 'sym:small.go#F'));
});

t.test("the facts cache keeps Go files' facts: a second build reads none of them and gives the same graph", async (t) => {
  const repo = await makeRepo(t, {
    'go.mod': 'module example.com/c\n',
    'main.go': 'package main\n\nimport "example.com/c/util"\n\nfunc main() { util.Do() }\n',
    'util/util.go': 'package util\n\n// Do does.\nfunc Do() {}\n',
  });
  // Files changed under two seconds before a build are not kept.
  await sleep(2_100);
  const first = await indexRepository({ repository: repo, env: {} });
  const second = await indexRepository({ repository: repo, env: {} });
  t.equal(second.build.cachedFiles, 3);
  t.same(second.nodes, first.nodes);
  t.same(second.edges, first.edges);
});
