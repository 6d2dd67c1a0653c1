import { type CodeGraph, indexRepository } from '@strata/host';
import type { GraphNode } from '@strata/sdk';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

/** Inputs that are hard on a parser: deep nesting of each kind, unclosed brackets, a long line, garbage, a syntax error. */
const HOSTILE: FixtureFiles = {
  'hostile/parens.c': `int x = ${'('.repeat(50_000)}1${')'.repeat(50_000)};\nint after(void) { return 0; }\n`,
  'hostile/blocks.c': `void deep(void) ${'{'.repeat(50_000)}${'}'.repeat(50_000)}\nint after(void) { return 0; }\n`,
  'hostile/namespaces.cpp': `#include <vector>\n${'namespace n { '.repeat(20_000)}int f() { return 0; }${' }'.repeat(20_000)}\n`,
  'hostile/ifdefs.h': `${'#ifdef X\n'.repeat(20_000)}#include "deep.h"\n${'#endif\n'.repeat(20_000)}`,
  'hostile/unclosed.c': `#include <stdio.h>\nint x[] = ${'{'.repeat(300_000)}\n`,
  'hostile/long-line.c': `#include <stdio.h>\nint x = ${'1+'.repeat(100_000)}1;\n`,
  'hostile/garbage.cpp': Array.from({ length: 100_000 }, (_, i) => ')]}:;<#\\'[i % 8]).join(''),
  'hostile/nul.c': Buffer.from('#include <stdio.h>\n\0\0\0int f(void) { return 0; }\n'),
  'hostile/broken.c': '#include "ok.h"\nint good(void) { return 1; }\nint bad( { ;\nint later(void) { return 2; }\n',
  'hostile/deep.h': '',
  'hostile/ok.h': '',
};

const fileNode = (graph: CodeGraph, path: string): GraphNode => graph.nodes.find((node) => node.kind === 'file' && node.path === path)!;
const hasEdge = (graph: CodeGraph, id: string): boolean => graph.edges.some((edge) => edge.id === id);
const hasNode = (graph: CodeGraph, id: string): boolean => graph.nodes.some((node) => node.id === id);

for (const [label, extra] of [
  ['a small repository (read on the standby thread)', {}],
  [
    'a larger one (read by the pool of threads)',
    Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`many/m${i}.c`, `#include "m${(i + 1) % 400}.c"\n`])),
  ],
] as const) {
  t.test(`hostile C and C++ sources do not stop indexing: ${label}`, async (t) => {
    const repo = await makeRepo(t, { ...HOSTILE, ...extra });
    const graph = await indexRepository({ repository: repo, env: { STRATA_INDEX_CACHE: 'false' } });
    t.equal(fileNode(graph, 'hostile/parens.c').error, undefined, '50,000 levels of parentheses parse');
    t.ok(hasNode(graph, 'sym:hostile/parens.c#after'));
    t.ok(hasNode(graph, 'sym:hostile/blocks.c#deep') && hasNode(graph, 'sym:hostile/blocks.c#after'), '50,000 nested blocks');
    t.ok(hasEdge(graph, 'imports:file:hostile/namespaces.cpp->pkg:c:vector'), '20,000 nested namespaces');
    t.ok(hasNode(graph, 'file:hostile/namespaces.cpp'));
    t.ok(hasEdge(graph, 'imports:file:hostile/ifdefs.h->file:hostile/deep.h'), 'an include under 20,000 #ifdefs');
    t.match(fileNode(graph, 'hostile/unclosed.c'), { error: /^syntax error/, lines: 2 });
    t.ok(hasEdge(graph, 'imports:file:hostile/unclosed.c->pkg:c:stdio.h'), 'what comes before the error is kept');
    t.ok(hasEdge(graph, 'imports:file:hostile/long-line.c->pkg:c:stdio.h'));
    t.match(fileNode(graph, 'hostile/garbage.cpp'), { error: /^syntax error/ });
    t.ok(fileNode(graph, 'hostile/nul.c'), 'a file with NUL bytes is a node');
    t.match(fileNode(graph, 'hostile/broken.c'), { error: /^syntax error: .* at line 3$/ });
    t.ok(hasEdge(graph, 'imports:file:hostile/broken.c->file:hostile/ok.h'));
    t.ok(hasNode(graph, 'sym:hostile/broken.c#good'), 'a definition before the error is kept');
    t.ok(hasNode(graph, 'sym:hostile/broken.c#later'), 'and one after it');
    if (Object.keys(extra).length > 0)
      t.equal(graph.edges.filter((edge) => edge.kind === 'imports' && edge.source.startsWith('file:many/')).length, 400, 'every file of the pool is read');
  });
}

t.test('a C file over index.maxFileBytes is a node, not parsed; the extensions of C and C++ are read', async (t) => {
  const files: FixtureFiles = { 'big.c': `#include <stdio.h>\n${'/'.repeat(5_000)}\n` };
  for (const extension of ['c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'hxx', 'inl']) files[`src/a.${extension}`] = '#include <stdio.h>\n';
  const repo = await makeRepo(t, files);
  const graph = await indexRepository({ repository: repo, env: { STRATA_INDEX_MAX_FILE_BYTES: '2048' } });
  t.match(fileNode(graph, 'big.c'), { error: /^not read: \d+ bytes is over the limit of 2048/ });
  for (const extension of ['c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'hxx', 'inl'])
    t.ok(hasEdge(graph, `imports:file:src/a.${extension}->pkg:c:stdio.h`), `.${extension}`);
});
