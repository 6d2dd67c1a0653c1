import { type CodeGraph, indexRepository } from '@strata/host';
import type { GraphNode } from '@strata/sdk';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

/** Inputs that are hard on a parser: deep nesting of expressions, blocks and classes, unclosed brackets, a long line, garbage, a syntax error. */
const HOSTILE: FixtureFiles = {
  'hostile/Parens.java': `class Parens { int x = ${'('.repeat(50_000)}1${')'.repeat(50_000)}; void after() {} }\n`,
  'hostile/Blocks.java': `class Blocks { void deep() ${'{'.repeat(50_000)}${'}'.repeat(50_000)} void after() {} }\n`,
  'hostile/Nested.java': `import java.util.List;\n${'class N { '.repeat(10_000)}${' }'.repeat(10_000)}\n`,
  'hostile/Unclosed.java': `import java.util.Map;\nclass Unclosed { int[] x = ${'{'.repeat(300_000)}\n`,
  'hostile/LongLine.java': `import java.io.File;\nclass LongLine { int x = ${'1+'.repeat(100_000)}1; }\n`,
  'hostile/Garbage.java': Array.from({ length: 100_000 }, (_, i) => ')]}:;<@\\'[i % 8]).join(''),
  'hostile/Nul.java': Buffer.from('import java.util.List;\n\0\0\0class Nul {}\n'),
  'hostile/Broken.java': 'package hostile;\nimport java.util.Set;\npublic class Broken {\n  void good() {}\n  void bad( { ;\n  void later() {}\n}\n',
};

const fileNode = (graph: CodeGraph, path: string): GraphNode => graph.nodes.find((node) => node.kind === 'file' && node.path === path)!;
const hasEdge = (graph: CodeGraph, id: string): boolean => graph.edges.some((edge) => edge.id === id);
const hasNode = (graph: CodeGraph, id: string): boolean => graph.nodes.some((node) => node.id === id);

for (const [label, extra] of [
  ['a small repository (read on the standby thread)', {}],
  [
    'a larger one (read by the pool of threads)',
    Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`many/M${i}.java`, `package many;\nimport many.M${(i + 1) % 400};\nclass M${i} {}\n`])),
  ],
] as const) {
  t.test(`hostile Java sources do not stop indexing: ${label}`, async (t) => {
    const repo = await makeRepo(t, { ...HOSTILE, ...extra });
    const graph = await indexRepository({ repository: repo, env: { STRATA_INDEX_CACHE: 'false' } });
    t.equal(fileNode(graph, 'hostile/Parens.java').error, undefined, '50,000 levels of parentheses parse');
    t.ok(hasNode(graph, 'sym:hostile/Parens.java#Parens.after'));
    t.ok(hasNode(graph, 'sym:hostile/Blocks.java#Blocks.deep') && hasNode(graph, 'sym:hostile/Blocks.java#Blocks.after'), '50,000 nested blocks');
    t.ok(hasEdge(graph, 'imports:file:hostile/Nested.java->pkg:java:java.util'), '10,000 nested classes');
    t.ok(hasNode(graph, 'sym:hostile/Nested.java#N'));
    t.match(fileNode(graph, 'hostile/Unclosed.java'), { error: /^syntax error/, lines: 2 });
    t.ok(hasEdge(graph, 'imports:file:hostile/Unclosed.java->pkg:java:java.util'), 'what comes before the error is kept');
    t.ok(hasEdge(graph, 'imports:file:hostile/LongLine.java->pkg:java:java.io'));
    t.match(fileNode(graph, 'hostile/Garbage.java'), { error: /^syntax error/ });
    t.ok(fileNode(graph, 'hostile/Nul.java'), 'a file with NUL bytes is a node');
    t.match(fileNode(graph, 'hostile/Broken.java'), { error: /^syntax error: .* at line 5$/ });
    t.ok(hasEdge(graph, 'imports:file:hostile/Broken.java->pkg:java:java.util'));
    t.ok(hasNode(graph, 'sym:hostile/Broken.java#Broken.good'), 'a method before the error is kept');
    if (Object.keys(extra).length > 0)
      t.equal(graph.edges.filter((edge) => edge.kind === 'imports' && edge.source.startsWith('file:many/')).length, 400, 'every file of the pool is read');
  });
}
