import { setTimeout as sleep } from 'node:timers/promises';
import { type CodeGraph, indexRepository } from '@strata/host';
import type { GraphNode } from '@strata/sdk';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

/** Inputs that are hard on a parser: deep nesting, unclosed brackets, a long line, garbage, NUL bytes, a huge file. */
const HOSTILE: FixtureFiles = {
  'hostile/parens.rb': `x = ${'('.repeat(50_000)}1${')'.repeat(50_000)}\n\ndef after; end\n`,
  'hostile/modules.rb': `${'module M\n'.repeat(5_000)}def deep; end\n${'end\n'.repeat(5_000)}`,
  'hostile/unclosed.rb': `require 'set'\n\ny = ${'['.repeat(300_000)}\n`,
  'hostile/broken.rb': "require 'json'\nrequire 'csv'\n\ndef before; end\n\ndef broken(\n\ndef later; end\n",
  'hostile/long-line.rb': `require 'set'\n\nz = "${'-'.repeat(200_000)}"\n`,
  'hostile/garbage.rb': Array.from({ length: 100_000 }, (_, i) => ')]}:=@\\`"'[i % 9]).join(''),
  'hostile/nul.rb': Buffer.from("require 'set'\n\0\0\0def f; end\n"),
  'hostile/huge.rb': `require 'json'\n\n${Array.from({ length: 20_000 }, (_, i) => `def f${i}; ${i}; end\n`).join('')}`,
  'hostile/odd.rb': "require 'a b'\nrequire \"x\\0y\"\nrequire ''\nrequire 'ok/fine'\n",
  'ok.rb': "require_relative 'hostile/parens'\n",
};

const fileNode = (graph: CodeGraph, path: string): GraphNode => graph.nodes.find((node) => node.kind === 'file' && node.path === path)!;
const hasEdge = (graph: CodeGraph, id: string): boolean => graph.edges.some((edge) => edge.id === id);

for (const [label, extra] of [
  ['a small repository (Ruby read on the standby thread)', {}],
  [
    'a larger one (read by the pool of threads)',
    Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`many/m${i}.rb`, `require_relative 'm${(i + 1) % 400}'\n`])),
  ],
] as const) {
  t.test(`hostile Ruby sources do not stop indexing: ${label}`, async (t) => {
    const repo = await makeRepo(t, { ...HOSTILE, ...extra });
    const graph = await indexRepository({ repository: repo, env: { STRATA_INDEX_CACHE: 'false' } });
    t.equal(fileNode(graph, 'hostile/parens.rb').error, undefined, '50,000 levels of parentheses parse');
    t.ok(graph.nodes.some((node) => node.id === 'sym:hostile/parens.rb#after'));
    t.equal(fileNode(graph, 'hostile/modules.rb').error, undefined, '5,000 nested modules parse');
    t.ok(
      graph.nodes.some((node) => node.id === `sym:hostile/modules.rb#${Array(5_000).fill('M').join('::')}.deep`),
      'the method of the innermost module',
    );
    t.match(fileNode(graph, 'hostile/unclosed.rb'), { error: /^syntax error: / });
    t.ok(hasEdge(graph, 'imports:file:hostile/unclosed.rb->pkg:ruby:set'), 'what comes before the error is kept');
    t.match(fileNode(graph, 'hostile/broken.rb'), { error: /^syntax error: / });
    t.ok(hasEdge(graph, 'imports:file:hostile/broken.rb->pkg:ruby:csv'), "a broken method keeps the file's requires");
    t.ok(
      graph.nodes.some((node) => node.id === 'sym:hostile/broken.rb#before'),
      'and the methods before it',
    );
    t.ok(hasEdge(graph, 'imports:file:hostile/long-line.rb->pkg:ruby:set'));
    t.match(fileNode(graph, 'hostile/garbage.rb'), { error: /^syntax error/ });
    t.ok(fileNode(graph, 'hostile/nul.rb'), 'a file with NUL bytes is a node');
    t.equal(fileNode(graph, 'hostile/huge.rb').error, undefined);
    t.equal(graph.nodes.filter((node) => node.path === 'hostile/huge.rb' && node.kind === 'function').length, 20_000, '20,000 methods');
    t.same(
      graph.edges.filter((edge) => edge.source === 'file:hostile/odd.rb').map((edge) => edge.target),
      ['pkg:ruby:ok'],
      'a feature with a space, an escape or nothing in it is none',
    );
    t.ok(hasEdge(graph, 'imports:file:ok.rb->file:hostile/parens.rb'));
    if (Object.keys(extra).length > 0)
      t.equal(graph.edges.filter((edge) => edge.source.startsWith('file:many/') && edge.kind === 'imports').length, 400, 'every file of the pool is read');
  });
}

t.test('a Ruby file over index.maxFileBytes is a node, not parsed; Rakefile, Gemfile, .rake and .gemspec are ruby', async (t) => {
  const repo = await makeRepo(t, {
    'big.rb': `require 'set'\n#${'x'.repeat(5_000)}\n`,
    'small.rb': 'def f; end\n',
    Rakefile: 'task :default\n',
    Gemfile: "source 'https://rubygems.org'\n",
    'lib/tasks/db.rake': 'namespace :db do; end\n',
    'x.gemspec': 'Gem::Specification.new\n',
  });
  const graph = await indexRepository({ repository: repo, env: { STRATA_INDEX_MAX_FILE_BYTES: '2048' } });
  t.match(fileNode(graph, 'big.rb'), { error: /^not read: \d+ bytes is over the limit of 2048/, language: 'ruby' });
  t.equal(graph.edges.filter((edge) => edge.kind === 'imports').length, 0);
  t.ok(graph.nodes.some((node) => node.id === 'sym:small.rb#f'));
  for (const path of ['Rakefile', 'Gemfile', 'lib/tasks/db.rake', 'x.gemspec']) t.match(fileNode(graph, path), { language: 'ruby', loc: 1 }, path);
});

t.test("the facts cache keeps Ruby files' facts: a second build reads none of them and gives the same graph", async (t) => {
  const repo = await makeRepo(t, {
    'main.rb': "require_relative 'util'\n\nUtil.run\n",
    'util.rb': '# Util runs.\nmodule Util\n  def self.run; end\nend\n',
  });
  // Files changed under two seconds before a build are not kept.
  await sleep(2_100);
  const first = await indexRepository({ repository: repo, env: {} });
  const second = await indexRepository({ repository: repo, env: {} });
  t.equal(second.build.cachedFiles, 2);
  t.same(second.nodes, first.nodes);
  t.same(second.edges, first.edges);
});
