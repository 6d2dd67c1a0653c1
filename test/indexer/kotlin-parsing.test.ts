import { type CodeGraph, indexRepository } from '@strata/host';
import type { GraphNode } from '@strata/sdk';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

/** Inputs that are hard on a parser: deep nesting of expressions, blocks and classes, unclosed brackets, a long line, garbage, NUL bytes, a syntax error, a file over the size limit. */
const HOSTILE: FixtureFiles = {
  'hostile/Parens.kt': `class Parens {\n    val x = ${'('.repeat(50_000)}1${')'.repeat(50_000)}\n    fun after() {}\n}\n`,
  'hostile/Nested.kt': `import java.util.List\n${'class N {\n'.repeat(5_000)}${'}\n'.repeat(5_000)}`,
  'hostile/Unclosed.kt': `import java.util.Map\nclass Unclosed { val x = listOf${'('.repeat(300_000)}\n`,
  'hostile/LongLine.kt': `import java.io.File\nclass LongLine { val x = ${'1+'.repeat(100_000)}1 }\n`,
  'hostile/Garbage.kt': Array.from({ length: 100_000 }, (_, i) => ')]}:;<@\\'[i % 8]).join(''),
  'hostile/Nul.kt': Buffer.from('import java.util.List\n\0\0\0class Nul\n'),
  'hostile/Broken.kt': 'package hostile\nimport java.util.Set\nclass Broken {\n    fun good() {}\n}\nfun bad( { ;\n',
  'hostile/Huge.kt': `import java.util.List\nclass Huge\n${'// padding\n'.repeat(200_000)}`,
};

const fileNode = (graph: CodeGraph, path: string): GraphNode => graph.nodes.find((node) => node.kind === 'file' && node.path === path)!;
const hasEdge = (graph: CodeGraph, id: string): boolean => graph.edges.some((edge) => edge.id === id);
const hasNode = (graph: CodeGraph, id: string): boolean => graph.nodes.some((node) => node.id === id);

t.test('hostile Kotlin sources do not stop indexing', async (t) => {
  const repo = await makeRepo(t, HOSTILE);
  const graph = await indexRepository({ repository: repo, env: { STRATA_INDEX_CACHE: 'false', STRATA_INDEX_MAX_FILE_BYTES: '1000000' } });
  t.ok(fileNode(graph, 'hostile/Parens.kt'), '50,000 levels of parentheses');
  t.ok(hasEdge(graph, 'imports:file:hostile/Nested.kt->pkg:java:java.util'), '5,000 nested classes');
  t.ok(hasNode(graph, 'sym:hostile/Nested.kt#N'));
  t.match(fileNode(graph, 'hostile/Unclosed.kt'), { error: /^syntax error/ });
  t.ok(hasEdge(graph, 'imports:file:hostile/Unclosed.kt->pkg:java:java.util'), 'what comes before the error is kept');
  t.ok(hasEdge(graph, 'imports:file:hostile/LongLine.kt->pkg:java:java.io'));
  t.match(fileNode(graph, 'hostile/Garbage.kt'), { error: /^syntax error/ });
  t.ok(fileNode(graph, 'hostile/Nul.kt'), 'a file with NUL bytes is a node');
  t.match(fileNode(graph, 'hostile/Broken.kt'), { error: /^syntax error/ });
  t.ok(hasEdge(graph, 'imports:file:hostile/Broken.kt->pkg:java:java.util'));
  t.ok(hasNode(graph, 'sym:hostile/Broken.kt#Broken.good'), 'a function before the error is kept');
  t.ok(fileNode(graph, 'hostile/Huge.kt'), 'a file over the size limit is a node');
  t.notOk(hasNode(graph, 'sym:hostile/Huge.kt#Huge'), 'but is not parsed');
});
