import { setTimeout as sleep } from 'node:timers/promises';
import { type CodeGraph, indexRepository } from '@strata/host';
import type { GraphNode } from '@strata/sdk';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

/** Inputs that are hard on a parser: deep nesting, unclosed brackets, deep indentation, a long line, garbage. */
const HOSTILE: FixtureFiles = {
  'hostile/parens.py': `x = ${'('.repeat(50_000)}1${')'.repeat(50_000)}\ndef after(): pass\n`,
  'hostile/unclosed.py': `import os\nx = ${'['.repeat(300_000)}\n`,
  'hostile/indent.py': `${Array.from({ length: 1_500 }, (_, i) => `${' '.repeat(i)}if x:\n`).join('')}${' '.repeat(1_500)}import deep\n`,
  'hostile/long-line.py': `import os; x = ${'-'.repeat(200_000)}1\n`,
  'hostile/garbage.py': Array.from({ length: 100_000 }, (_, i) => ')]}:=@\\'[i % 7]).join(''),
  'hostile/nul.py': Buffer.from('import os\n\0\0\0def f(): pass\n'),
  'hostile/ok.py': 'from hostile import parens\n',
};

const fileNode = (graph: CodeGraph, path: string): GraphNode => graph.nodes.find((node) => node.kind === 'file' && node.path === path)!;

for (const [label, extra] of [
  ['a small repository (Python read on the standby thread)', {}],
  [
    'a larger one (read by the pool of threads)',
    Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`many/m${i}.py`, `import many.m${(i + 1) % 400}\n`])),
  ],
] as const) {
  t.test(`hostile Python sources do not stop indexing: ${label}`, async (t) => {
    const repo = await makeRepo(t, { ...HOSTILE, ...extra });
    const graph = await indexRepository({ repository: repo, env: { STRATA_INDEX_CACHE: 'false' } });
    t.equal(fileNode(graph, 'hostile/parens.py').error, undefined, '50,000 levels of parentheses parse (oxc crashed at 7,000)');
    t.ok(graph.nodes.some((node) => node.id === 'sym:hostile/parens.py#after'));
    t.match(fileNode(graph, 'hostile/unclosed.py'), { error: /^syntax error: unexpected "[^"]+" at line 2$/, lines: 2 });
    t.ok(
      graph.edges.some((edge) => edge.id === 'imports:file:hostile/unclosed.py->pkg:python:os'),
      'what comes before the error is kept',
    );
    t.ok(
      graph.edges.some((edge) => edge.id === 'imports:file:hostile/indent.py->pkg:python:deep'),
      '1,500 levels of indentation',
    );
    t.ok(graph.edges.some((edge) => edge.id === 'imports:file:hostile/long-line.py->pkg:python:os'));
    t.match(fileNode(graph, 'hostile/garbage.py'), { error: /^syntax error/ });
    t.ok(fileNode(graph, 'hostile/nul.py'), 'a file with NUL bytes is a node');
    t.ok(graph.edges.some((edge) => edge.id === 'imports:file:hostile/ok.py->file:hostile/parens.py'));
    if (Object.keys(extra).length > 0)
      t.equal(graph.edges.filter((edge) => edge.source.startsWith('file:many/')).length, 400, 'every file of the pool is read');
  });
}

t.test('encodings: Latin-1 is read as such, UTF-8 with non-ASCII names and a byte order mark keeps its lines', async (t) => {
  const repo = await makeRepo(t, {
    'latin.py': Buffer.concat([Buffer.from('# -*- coding: latin-1 -*-\nimport os\n# caf'), Buffer.from([0xe9]), Buffer.from('\ndef f():\n    pass\n')]),
    'unicode.py': '\ufeff"""Ünïcödé docstring 😀."""\nimport json\n\ndef café():\n    return "日本語"\n\nclass Größe:\n    def méthode(self): pass\n',
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  t.match(fileNode(graph, 'latin.py'), { error: 'not valid UTF-8; read as Latin-1', lines: 5, loc: 3, language: 'python' });
  t.ok(graph.nodes.some((node) => node.id === 'sym:latin.py#f'));
  t.match(fileNode(graph, 'unicode.py'), { lines: 8, loc: 5 });
  t.equal(fileNode(graph, 'unicode.py').error, undefined);
  const symbols = graph.nodes.filter((node) => node.path === 'unicode.py' && node.kind !== 'file').map((node) => [node.id, node.startLine, node.endLine]);
  t.same(symbols, [
    ['sym:unicode.py#café', 4, 5],
    ['sym:unicode.py#Größe', 7, 8],
    ['sym:unicode.py#Größe.méthode', 8, 8],
  ]);
  t.ok(graph.edges.some((edge) => edge.id === 'imports:file:unicode.py->pkg:python:json'));
});

t.test('a Python file over index.maxFileBytes is a node, not parsed; .py and .pyi files are python', async (t) => {
  const repo = await makeRepo(t, { 'big.py': `import os\n${'#'.repeat(5_000)}\n`, 'small.pyi': 'def f() -> int: ...\n' });
  const graph = await indexRepository({ repository: repo, env: { STRATA_INDEX_MAX_FILE_BYTES: '2048' } });
  t.match(fileNode(graph, 'big.py'), { error: /^not read: 5011 bytes is over the limit of 2048/, language: 'python' });
  t.equal(graph.edges.filter((edge) => edge.kind === 'imports').length, 0);
  t.match(fileNode(graph, 'small.pyi'), { language: 'python' });
  t.ok(graph.nodes.some((node) => node.id === 'sym:small.pyi#f'));
});

t.test("the facts cache keeps Python files' facts: a second build reads none of them and gives the same graph", async (t) => {
  const repo = await makeRepo(t, {
    'pkg/__init__.py': 'from .core import run\n__all__ = ["run"]\n',
    'pkg/core.py': 'import os\n\ndef run():\n    """Run."""\n    from . import util\n',
    'pkg/util.py': 'class Tool:\n    def use(self): pass\n',
  });
  // Files changed under two seconds before a build are not kept.
  await sleep(2_100);
  const first = await indexRepository({ repository: repo, env: {} });
  const second = await indexRepository({ repository: repo, env: {} });
  t.equal(second.build.cachedFiles, 3);
  t.same(second.nodes, first.nodes);
  t.same(second.edges, first.edges);
});
