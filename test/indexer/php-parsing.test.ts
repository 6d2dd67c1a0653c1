import { setTimeout as sleep } from 'node:timers/promises';
import { type CodeGraph, indexRepository } from '@strata/host';
import type { GraphNode } from '@strata/sdk';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

/** Inputs that are hard on a parser: deep nesting, unclosed brackets, a long line, garbage, NUL bytes, a huge file, odd includes. */
const HOSTILE: FixtureFiles = {
  'hostile/parens.php': `<?php\n$x = ${'('.repeat(50_000)}1${')'.repeat(50_000)};\n\nfunction after() {}\n`,
  'hostile/blocks.php': `<?php\n${'if (true) {\n'.repeat(5_000)}function deep() {}\n${'}\n'.repeat(5_000)}`,
  'hostile/unclosed.php': `<?php\nuse Set\\Thing;\n\n$y = ${'['.repeat(300_000)}\n`,
  'hostile/broken.php': '<?php\nuse Json\\Codec;\nuse Csv\\Reader;\n\nfunction before() {}\n\nfunction broken(\n\nfunction later() {}\n',
  'hostile/long-line.php': `<?php\nuse Set\\Thing;\n\n$z = "${'-'.repeat(200_000)}";\n`,
  'hostile/garbage.php': `<?php ${Array.from({ length: 100_000 }, (_, i) => ')]}:=@\\`"'[i % 9]).join('')}`,
  'hostile/nul.php': Buffer.from('<?php\nuse Set\\Thing;\n\0\0\0function f() {}\n'),
  'hostile/huge.php': `<?php\nuse Json\\Codec;\n\n${Array.from({ length: 20_000 }, (_, i) => `function f${i}() { return ${i}; }\n`).join('')}`,
  'hostile/odd.php': [
    '<?php',
    'require "x\\0y.php";',
    "require '';",
    `require ${'dirname('.repeat(100)}__FILE__${')'.repeat(100)} . '/x.php';`,
    `require __DIR__${" . '/a'".repeat(20_000)} . '/x.php';`,
    `require ${'('.repeat(10_000)}'ok.php'${')'.repeat(10_000)};`,
    'use ;',
    'use Fine\\Name;',
    '',
  ].join('\n'),
  'hostile/ok.php': '<?php',
  'ok.php': "<?php\nrequire __DIR__ . '/hostile/parens.php';\n",
};

const fileNode = (graph: CodeGraph, path: string): GraphNode => graph.nodes.find((node) => node.kind === 'file' && node.path === path)!;
const hasEdge = (graph: CodeGraph, id: string): boolean => graph.edges.some((edge) => edge.id === id);

for (const [label, extra] of [
  ['a small repository (PHP read on the standby thread)', {}],
  [
    'a larger one (read by the pool of threads)',
    Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`many/m${i}.php`, `<?php\nrequire __DIR__ . '/m${(i + 1) % 400}.php';\n`])),
  ],
] as const) {
  t.test(`hostile PHP sources do not stop indexing: ${label}`, async (t) => {
    const repo = await makeRepo(t, { ...HOSTILE, ...extra });
    const graph = await indexRepository({ repository: repo, env: { STRATA_INDEX_CACHE: 'false' } });
    t.equal(fileNode(graph, 'hostile/parens.php').error, undefined, '50,000 levels of parentheses parse');
    t.ok(graph.nodes.some((node) => node.id === 'sym:hostile/parens.php#after'));
    t.equal(fileNode(graph, 'hostile/blocks.php').error, undefined, '5,000 nested blocks parse');
    t.ok(
      graph.nodes.some((node) => node.id === 'sym:hostile/blocks.php#deep'),
      'the function of the innermost block',
    );
    t.match(fileNode(graph, 'hostile/unclosed.php'), { error: /^syntax error: / });
    t.ok(hasEdge(graph, 'imports:file:hostile/unclosed.php->pkg:php:Set'), 'what comes before the error is kept');
    t.match(fileNode(graph, 'hostile/broken.php'), { error: /^syntax error: / });
    t.ok(hasEdge(graph, 'imports:file:hostile/broken.php->pkg:php:Csv'), "a broken function keeps the file's uses");
    t.ok(
      graph.nodes.some((node) => node.id === 'sym:hostile/broken.php#before'),
      'and the functions before it',
    );
    t.ok(hasEdge(graph, 'imports:file:hostile/long-line.php->pkg:php:Set'));
    t.match(fileNode(graph, 'hostile/garbage.php'), { error: /^syntax error/ });
    t.ok(fileNode(graph, 'hostile/nul.php'), 'a file with NUL bytes is a node');
    t.equal(fileNode(graph, 'hostile/huge.php').error, undefined);
    t.equal(graph.nodes.filter((node) => node.path === 'hostile/huge.php' && node.kind === 'function').length, 20_000, '20,000 functions');
    t.same(
      graph.edges.filter((edge) => edge.source === 'file:hostile/odd.php').map((edge) => edge.target),
      ['file:hostile/ok.php', 'pkg:php:Fine'],
      'parentheses around a literal are read through; nothing else odd leads anywhere',
    );
    const odd = graph.build.unresolved.filter((entry) => entry.file === 'hostile/odd.php');
    t.equal(odd.length, 4, 'a NUL escape, an empty path, 100 nested dirname() and a 60 KB path are unresolved');
    t.ok(
      odd.every((entry) => entry.specifier.length <= 121),
      'with their text cut short',
    );
    t.ok(hasEdge(graph, 'imports:file:ok.php->file:hostile/parens.php'));
    if (Object.keys(extra).length > 0)
      t.equal(graph.edges.filter((edge) => edge.source.startsWith('file:many/') && edge.kind === 'imports').length, 400, 'every file of the pool is read');
  });
}

t.test('a PHP file over index.maxFileBytes is a node, not parsed; .phtml, .php5 are php', async (t) => {
  const repo = await makeRepo(t, {
    'big.php': `<?php\nuse A\\B;\n#${'x'.repeat(5_000)}\n`,
    'small.php': '<?php function f() {}\n',
    'view.phtml': '<?php echo 1;\n',
    'old.php5': '<?php echo 1;\n',
  });
  const graph = await indexRepository({ repository: repo, env: { STRATA_INDEX_MAX_FILE_BYTES: '2048' } });
  t.match(fileNode(graph, 'big.php'), { error: /^not read: \d+ bytes is over the limit of 2048/, language: 'php' });
  t.equal(graph.edges.filter((edge) => edge.kind === 'imports').length, 0);
  t.ok(graph.nodes.some((node) => node.id === 'sym:small.php#f'));
  for (const path of ['view.phtml', 'old.php5']) t.match(fileNode(graph, path), { language: 'php', loc: 1 }, path);
});

t.test("the facts cache keeps PHP files' facts: a second build reads none of them and gives the same graph", async (t) => {
  const repo = await makeRepo(t, {
    'composer.json': JSON.stringify({ autoload: { 'psr-4': { 'App\\': 'src/' } } }),
    'index.php': "<?php\nrequire __DIR__ . '/src/Util.php';\nuse App\\Util;\n\nUtil::run();\n",
    'src/Util.php': '<?php\nnamespace App;\n// Util runs.\nclass Util\n{\n    public static function run() {}\n}\n',
  });
  // Files changed under two seconds before a build are not kept.
  await sleep(2_100);
  const first = await indexRepository({ repository: repo, env: {} });
  const second = await indexRepository({ repository: repo, env: {} });
  t.equal(second.build.cachedFiles, 3);
  t.same(second.nodes, first.nodes);
  t.same(second.edges, first.edges);
});
