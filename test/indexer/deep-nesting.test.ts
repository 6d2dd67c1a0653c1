import { indexRepository } from '@strata/host';
import type { GraphNode } from '@strata/sdk';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

// oxc's parser recurses once per level of nesting and, past its stack, kills the process (oxc-project/oxc#24375):
// 7,000 levels of parentheses or 10,000 `else if` did on an 8 MiB stack.
const DEEP: FixtureFiles = {
  'src/parens.js': `export const x = ${'('.repeat(50_000)}1${')'.repeat(50_000)};\n`,
  'src/else-ifs.ts': `export function f(a: number) {\n  if (a === 0) {}${' else if (a) {}'.repeat(20_000)}\n}\n`,
  'src/arrows.js': `export const g = ${'a => '.repeat(30_000)}1;\n`,
  'src/too-deep.js': `import './ok';\nexport const y = ${'['.repeat(300_000)}${']'.repeat(300_000)};\n`,
  // Deeper than the reading threads' stack takes, in shapes a count of brackets alone would miss.
  'src/generics.ts': `type X = ${'A<'.repeat(150_000)}B${'>'.repeat(150_000)};\n`,
  'src/bangs.js': `export const z = ${'!'.repeat(150_000)}a;\n`,
  'src/arrow-blocks.js': `export const w = ${'()=>{'.repeat(150_000)}${'}'.repeat(150_000)};\n`,
  'src/ok.ts': "import { x } from './parens';\nexport const ok = x;\n",
};

const fileNode = (nodes: GraphNode[], path: string): GraphNode & { error?: string; lines?: number } =>
  nodes.find((node) => node.kind === 'file' && node.path === path) as GraphNode & { error?: string; lines?: number };

for (const [label, extra] of [
  ['a small repository (read on the calling thread and the standby thread)', {}],
  ['a larger one (read by the pool of threads)', Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`many/m${i}.ts`, `export const m${i} = ${i};\n`]))],
] as const) {
  t.test(`deeply nested sources do not stop indexing: ${label}`, async (t) => {
    const repo = await makeRepo(t, { ...DEEP, ...extra });
    const graph = await indexRepository({ repository: repo, env: { STRATA_INDEX_CACHE: 'false' } });
    for (const path of ['src/parens.js', 'src/else-ifs.ts', 'src/arrows.js']) t.equal(fileNode(graph.nodes, path).error, undefined, `${path} is parsed`);
    t.ok(
      graph.nodes.some((node) => node.id === 'sym:src/else-ifs.ts#f'),
      'its symbols are read',
    );
    t.ok(graph.edges.some((edge) => edge.source === 'file:src/ok.ts' && edge.target === 'file:src/parens.js'));
    const tooDeep = fileNode(graph.nodes, 'src/too-deep.js');
    t.match(
      tooDeep,
      { error: 'not parsed: nested 300000 deep, more than the parser can take', lines: 2 },
      'deeper than the parser threads can take: a node, not parsed',
    );
    for (const path of ['src/generics.ts', 'src/bangs.js', 'src/arrow-blocks.js'])
      t.match(fileNode(graph.nodes, path), { error: /^not parsed: nested 150000 deep/ }, `${path} is a node, not parsed`);
  });
}
