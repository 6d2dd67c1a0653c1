import { type CodeGraph, indexRepository } from '@strata/host';
import type { GraphNode } from '@strata/sdk';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

/** Inputs that are hard on a parser: deep nesting, unclosed brackets, a long line, garbage, NUL bytes, a syntax error, a file over the size limit. */
const HOSTILE: FixtureFiles = {
  'hostile/Parens.cs': `class Parens { int x = ${'('.repeat(50_000)}1${')'.repeat(50_000)}; void After() {} }\n`,
  'hostile/Nested.cs': `using System.Text;\n${'class N { '.repeat(10_000)}${' }'.repeat(10_000)}\n`,
  'hostile/Unclosed.cs': `using System.IO;\nclass Unclosed { int[] x = ${'{'.repeat(300_000)}\n`,
  'hostile/LongLine.cs': `using System.Linq;\nclass LongLine { int x = ${'1+'.repeat(100_000)}1; }\n`,
  'hostile/Garbage.cs': Array.from({ length: 100_000 }, (_, i) => ')]}:;<@\\'[i % 8]).join(''),
  'hostile/Nul.cs': Buffer.from('using System;\n\0\0\0class Nul {}\n'),
  'hostile/Broken.cs': 'using System.Net;\npublic class Broken {\n  void Good() {}\n  void Bad( { ;\n  void Later() {}\n}\n',
  'hostile/Huge.cs': `using System;\nclass Huge {}\n${'// padding\n'.repeat(200_000)}`,
};

const fileNode = (graph: CodeGraph, path: string): GraphNode => graph.nodes.find((node) => node.kind === 'file' && node.path === path)!;
const hasEdge = (graph: CodeGraph, id: string): boolean => graph.edges.some((edge) => edge.id === id);
const hasNode = (graph: CodeGraph, id: string): boolean => graph.nodes.some((node) => node.id === id);

t.test('hostile C# sources do not stop indexing', async (t) => {
  const repo = await makeRepo(t, HOSTILE);
  const graph = await indexRepository({ repository: repo, env: { STRATA_INDEX_CACHE: 'false', STRATA_INDEX_MAX_FILE_BYTES: '1000000' } });
  t.ok(fileNode(graph, 'hostile/Parens.cs'), '50,000 levels of parentheses');
  t.ok(hasEdge(graph, 'imports:file:hostile/Nested.cs->pkg:csharp:System.Text'), '10,000 nested classes');
  t.ok(hasNode(graph, 'sym:hostile/Nested.cs#N'));
  t.match(fileNode(graph, 'hostile/Unclosed.cs'), { error: /^syntax error/ });
  t.ok(hasEdge(graph, 'imports:file:hostile/Unclosed.cs->pkg:csharp:System.IO'), 'what comes before the error is kept');
  t.ok(hasEdge(graph, 'imports:file:hostile/LongLine.cs->pkg:csharp:System.Linq'));
  t.match(fileNode(graph, 'hostile/Garbage.cs'), { error: /^syntax error/ });
  t.ok(fileNode(graph, 'hostile/Nul.cs'), 'a file with NUL bytes is a node');
  t.match(fileNode(graph, 'hostile/Broken.cs'), { error: /^syntax error/ });
  t.ok(hasEdge(graph, 'imports:file:hostile/Broken.cs->pkg:csharp:System.Net'));
  t.ok(fileNode(graph, 'hostile/Huge.cs'), 'a file over the size limit is a node');
  t.notOk(hasNode(graph, 'sym:hostile/Huge.cs#Huge'), 'but is not parsed');
});
