import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type CodeGraph, indexRepository } from '@strata/host';
import type { GraphNode } from '@strata/sdk';
import t, { type Test } from 'tap';
import { generateMixedRepo, MIXED_LANGUAGES } from '../bench/generate-repo.ts';

// A build of over 300 files reads on the reading threads, and the calling thread parses tree-sitter sources too once
// it has read the other files (from the end of the list; one over 16 KiB it leaves to a thread); with 200 such
// sources or more, a thread more reads them instead (on a machine with a core for it, as CI's two). Each file must get
// the same facts as when it is read in a small build (on the calling thread and the standby thread).

/** A Python module of over 16 KiB, with imports, symbols, comments and branches. */
const LARGE_PYTHON = `"""A large module."""\nimport os\nfrom . import file1\n\n${Array.from(
  { length: 400 },
  (_, i) => `# function ${i}\ndef f${i}(x):\n    if x > ${i}:\n        return x\n    return ${i}\n`,
).join('\n')}`;

const temporary = (t: Test): string => {
  const root = mkdtempSync(path.join(tmpdir(), 'strata-threads-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  return root;
};

/** Files and symbols by id, as the graph has them (the edges depend on what else the repository holds). */
const factsOf = (graph: CodeGraph): Map<string, GraphNode> =>
  new Map(graph.nodes.filter((node) => node.kind !== 'directory' && node.kind !== 'package').map((node) => [node.id, node]));

t.test('a large build gives each file the facts a small build gives it, in every language, with the calling thread parsing too', async (t) => {
  const large = temporary(t);
  generateMixedRepo(large, 600);
  writeFileSync(path.join(large, 'python/src/mixed/large.py'), LARGE_PYTHON);
  const whole = factsOf(await indexRepository({ repository: large, env: { STRATA_INDEX_CACHE: 'false' } }));
  t.ok(whole.size > 2_000, `${whole.size} files and symbols`);

  let compared = 0;
  for (const language of ['typescript', ...MIXED_LANGUAGES] as const) {
    const small = temporary(t);
    // The same files as in the mixed repository: 300 TypeScript files, 30 of each other language.
    generateMixedRepo(small, language === 'typescript' ? 300 : 30, [language]);
    if (language === 'python') writeFileSync(path.join(small, 'python/src/mixed/large.py'), LARGE_PYTHON);
    const graph = await indexRepository({ repository: small, env: { STRATA_INDEX_CACHE: 'false' } });
    t.ok(graph.nodes.length < 2_000, `${language}: a small build (${graph.nodes.length} nodes)`);
    for (const [id, node] of factsOf(graph)) {
      t.same(whole.get(id), node, `${language}: ${id}`);
      compared++;
    }
  }
  t.equal(compared, whole.size, 'every file and symbol of the large build was compared');
  t.notOk(whole.get('file:python/src/mixed/large.py')?.error, 'the large Python file was parsed (on a thread)');
  t.ok(whole.has('sym:python/src/mixed/large.py#f399'), 'to its last function');
});
