/**
 * The complexity plugin against its references, ESLint's `complexity` rule
 * and SonarJS's `cognitive-complexity` rule (see oracle.ts), on a corpus of
 * real functions: this repository's own `host/src` and `sdk/src`, read when
 * the test runs, plus the hand-written fixtures (JavaScript with JSX,
 * TypeScript, TSX).
 *
 * The corpus is copied into a temporary repository and indexed by the real
 * Strata indexer, so the plugin sees the graph the host would give it. To
 * compare every unit, not only the ones the indexer makes symbols of, the
 * test adds one symbol per unit ESLint reports, named by position
 * (`sym:<path>#@<line>:<column>` of the unit's body).
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { indexRepository } from '@strata/host';
import type { GraphNode } from '@strata/sdk';
import { PluginTester } from '@strata/sdk-testing';
import t from 'tap';
import { type OracleFile, type OracleUnit, oracle } from './oracle.ts';

const pluginFolder = fileURLToPath(new URL('..', import.meta.url));
const strataRoot = path.resolve(pluginFolder, '../..');
const fixtures = path.join(pluginFolder, 'test/fixtures');

// The sandbox loads the built bundle.
execFileSync(process.execPath, [path.join(strataRoot, 'host/bin/strata.js'), 'plugin', 'build', pluginFolder], { stdio: ['ignore', 'pipe', 'pipe'] });
const tester = new PluginTester(pluginFolder);

/** The corpus: relative path in the test repository -> absolute source path. */
async function corpusFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const folder of ['host/src', 'sdk/src']) {
    for (const entry of await readdir(path.join(strataRoot, folder), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const absolute = path.join(entry.parentPath, entry.name);
      files.set(path.relative(strataRoot, absolute).split(path.sep).join('/'), absolute);
    }
  }
  for (const name of await readdir(fixtures)) files.set(`fixtures/${name}`, path.join(fixtures, name));
  return files;
}

interface Corpus {
  repo: string;
  texts: Map<string, string>;
  oracles: Map<string, OracleFile>;
  /** Files left out because ESLint could not parse them (being edited while the test ran). */
  skipped: string[];
}

async function buildCorpus(): Promise<Corpus> {
  const repo = await mkdtemp(path.join(tmpdir(), 'strata-complexity-'));
  const texts = new Map<string, string>();
  const oracles = new Map<string, OracleFile>();
  const skipped: string[] = [];
  for (const [relative, absolute] of await corpusFiles()) {
    const text = await readFile(absolute, 'utf8');
    let reference: OracleFile;
    try {
      reference = oracle(text, relative);
    } catch (error) {
      skipped.push(`${relative}: ${(error as Error).message}`);
      continue;
    }
    texts.set(relative, text);
    oracles.set(relative, reference);
    await mkdir(path.dirname(path.join(repo, relative)), { recursive: true });
    await copyFile(absolute, path.join(repo, relative));
  }
  return { repo, texts, oracles, skipped };
}

const corpus = await buildCorpus();
t.teardown(() => rm(corpus.repo, { recursive: true, force: true }));
const indexed = await indexRepository({ repository: corpus.repo });

const positionId = (file: string, unit: OracleUnit): string => `sym:${file}#@${unit.anchorLine}:${unit.anchorColumn}`;

const positionNodes: GraphNode[] = [];
for (const [file, reference] of corpus.oracles) {
  for (const unit of reference.units) {
    positionNodes.push({
      id: positionId(file, unit),
      kind: 'function',
      name: `@${unit.anchorLine}:${unit.anchorColumn}`,
      path: file,
      parent: `file:${file}`,
      startLine: unit.startLine,
      endLine: unit.endLine,
    });
  }
}

const result = await tester.run({
  graph: { nodes: [...indexed.nodes, ...positionNodes], edges: indexed.edges },
  capabilities: { 'files:read': (file: string) => corpus.texts.get(file) ?? readFile(path.join(corpus.repo, file), 'utf8') },
});
const value = (overlay: string, node: string): number | undefined => result.style(overlay, node)?.value;

const allUnits = [...corpus.oracles.values()].flatMap((reference) => reference.units);
const functions = allUnits.filter((unit) => unit.kind === 'function');

t.test('the corpus', async (t) => {
  t.same(corpus.skipped, [], 'every corpus file parses with ESLint');
  t.ok(functions.length >= 200, `${functions.length} functions (at least 200)`);
  t.ok(corpus.oracles.size >= 60, `${corpus.oracles.size} files`);
  t.equal(new Set(positionNodes.map((node) => node.id)).size, positionNodes.length, 'every unit has its own position');
  t.comment(
    `corpus: ${corpus.oracles.size} files, ${allUnits.length} units: ${functions.length} functions, ${allUnits.length - functions.length} class field initializers and static blocks`,
  );
});

t.test('the wrapped rules report exactly what the plain rules report', async (t) => {
  for (const [file, reference] of corpus.oracles) {
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    t.same(sorted(reference.units.map((unit) => unit.cyclomatic)), sorted(reference.plain.cyclomatic), `${file}: complexity`);
    t.same(
      sorted(reference.units.flatMap((unit) => (unit.cognitive ? [unit.cognitive] : []))),
      sorted(reference.plain.cognitive),
      `${file}: cognitive-complexity`,
    );
  }
});

t.test('every unit: cyclomatic, cognitive and lines of code equal the references', async (t) => {
  const differences: string[] = [];
  let compared = 0;
  for (const [file, reference] of corpus.oracles) {
    for (const unit of reference.units) {
      const id = positionId(file, unit);
      const actual = { cyclomatic: value('cyclomatic', id), cognitive: value('cognitive', id), loc: value('loc', id) };
      const expected = { cyclomatic: unit.cyclomatic, cognitive: unit.cognitive, loc: unit.loc };
      compared++;
      if (JSON.stringify(actual) !== JSON.stringify(expected))
        differences.push(`${id} (${unit.description}): expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    }
  }
  t.same(differences, [], `${compared} units compared, no difference`);
  t.equal(result.summary.functions, functions.length, 'the plugin found as many functions as ESLint reports');
  t.equal(result.summary.classFieldInitializers, allUnits.filter((unit) => unit.kind === 'class-field-initializer').length);
  t.equal(result.summary.classStaticBlocks, allUnits.filter((unit) => unit.kind === 'class-static-block').length);
});

t.test('every file: the sum of its units, SonarJS file figure, lines of code', async (t) => {
  const byId = new Map(indexed.nodes.map((node) => [node.id, node]));
  for (const [file, reference] of corpus.oracles) {
    const id = `file:${file}`;
    t.equal(
      value('cyclomatic', id),
      reference.units.reduce((sum, unit) => sum + unit.cyclomatic, 0),
      `${file}: cyclomatic`,
    );
    t.equal(value('cognitive', id), reference.fileCognitive, `${file}: cognitive (SonarJS's file figure)`);
    t.equal(value('loc', id), reference.loc, `${file}: loc, counted from ESLint's lines and comments`);
    t.equal(value('loc', id), byId.get(id)!.loc, `${file}: loc, as the indexer counts it`);
  }
  t.equal(result.summary.files, corpus.oracles.size);
  t.equal(result.summary.filesNotParsed, 0);
  t.equal(result.summary.filesWithRecoveredErrors, 0);
});

t.test("the indexer's symbols get the figures of their function", async (t) => {
  let styled = 0;
  let unmatched = 0;
  for (const node of indexed.nodes) {
    if (node.kind !== 'function' && node.kind !== 'method') continue;
    const reference = corpus.oracles.get(node.path)!;
    // Independently of the plugin: the outermost function ESLint reports whose body starts within the symbol's lines.
    const candidates = reference.units.filter((unit) => unit.kind === 'function' && unit.anchorLine >= node.startLine! && unit.anchorLine <= node.endLine!);
    const expected = candidates.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine)[0];
    if (!expected) {
      unmatched++;
      t.equal(result.style('cyclomatic', node.id), undefined, `${node.id} has no body: not styled`);
      continue;
    }
    // ESLint names the function when it can (`Method 'lookup'`, `Private method #hidden`), not an arrow function in a variable.
    const simple = node.name.replace(/^[gs]et /, '');
    const eslintName = /'([^']*)'$|(#\S+)$/.exec(expected.description);
    const named = simple === 'constructor' ? expected.description === 'Constructor' : !eslintName || (eslintName[1] ?? eslintName[2]) === simple;
    t.ok(named, `${node.id} is ESLint's ${expected.description}`);
    t.same(
      { cyclomatic: value('cyclomatic', node.id), cognitive: value('cognitive', node.id), loc: value('loc', node.id) },
      { cyclomatic: expected.cyclomatic, cognitive: expected.cognitive, loc: expected.loc },
      node.id,
    );
    styled++;
  }
  t.ok(styled > 150, `${styled} symbols of the indexer styled`);
  t.equal(result.summary.symbolsUnmatched, unmatched, `${unmatched} symbols without a body (overload or ambient declarations) are counted as unmatched`);
  t.equal(result.summary.symbolsStyled, styled + positionNodes.length);
});

t.test('classes add up the units inside them; directories add up their files', async (t) => {
  for (const node of indexed.nodes) {
    if (node.kind !== 'class') continue;
    const reference = corpus.oracles.get(node.path)!;
    const inside = reference.units.filter((unit) => unit.anchorLine >= node.startLine! && unit.anchorLine <= node.endLine!);
    t.same(
      { cyclomatic: value('cyclomatic', node.id), cognitive: value('cognitive', node.id), loc: value('loc', node.id) },
      {
        cyclomatic: inside.reduce((sum, unit) => sum + unit.cyclomatic, 0),
        cognitive: inside.reduce((sum, unit) => sum + (unit.cognitive ?? 0), 0),
        loc: reference.codeLines(node.startLine!, node.endLine!),
      },
      node.id,
    );
  }
  for (const directory of indexed.nodes.filter((node) => node.kind === 'directory')) {
    const prefix = directory.path === '.' ? '' : `${directory.path}/`;
    const below = [...corpus.oracles].filter(([file]) => file.startsWith(prefix)).map(([, reference]) => reference);
    t.same(
      { cyclomatic: value('cyclomatic', directory.id), cognitive: value('cognitive', directory.id), loc: value('loc', directory.id) },
      {
        cyclomatic: below.reduce((sum, reference) => sum + reference.units.reduce((s, unit) => s + unit.cyclomatic, 0), 0),
        cognitive: below.reduce((sum, reference) => sum + reference.fileCognitive, 0),
        loc: below.reduce((sum, reference) => sum + reference.loc, 0),
      },
      directory.id,
    );
  }
});

t.test('styles stay within the bounds the host accepts', async (t) => {
  for (const overlay of ['cyclomatic', 'loc']) {
    for (const [node, style] of Object.entries(result.overlays[overlay]!.styles)) {
      if (!(style.size! >= 0.1 && style.size! <= 10)) t.fail(`${overlay} ${node}: size ${style.size}`);
    }
  }
  for (const [node, style] of Object.entries(result.overlays.cognitive!.styles))
    if (!/^#[0-9a-f]{6}$/.test(style.color!)) t.fail(`cognitive ${node}: color ${style.color}`);
  t.pass('sizes within 0.1..10, colors hex');
});

// ---- the plugin's behaviour on a small repository ----

const small = {
  nodes: [
    { id: 'dir:.', kind: 'directory', name: '.', path: '.' },
    { id: 'dir:src', kind: 'directory', name: 'src', path: 'src', parent: 'dir:.' },
    { id: 'file:src/a.ts', kind: 'file', name: 'a.ts', path: 'src/a.ts', parent: 'dir:src', language: 'typescript' },
    { id: 'sym:src/a.ts#f', kind: 'function', name: 'f', path: 'src/a.ts', parent: 'file:src/a.ts', startLine: 1, endLine: 4 },
    { id: 'sym:src/a.ts#C', kind: 'class', name: 'C', path: 'src/a.ts', parent: 'file:src/a.ts', startLine: 6, endLine: 11 },
    { id: 'sym:src/a.ts#C.get size', kind: 'method', name: 'get size', path: 'src/a.ts', parent: 'sym:src/a.ts#C', startLine: 7, endLine: 9 },
    { id: 'sym:src/a.ts#C.run', kind: 'method', name: 'run', path: 'src/a.ts', parent: 'sym:src/a.ts#C', startLine: 10, endLine: 10 },
    { id: 'sym:src/a.ts#gone', kind: 'function', name: 'gone', path: 'src/a.ts', parent: 'file:src/a.ts', startLine: 12, endLine: 12 },
    { id: 'sym:src/a.ts#@2:33', kind: 'function', name: '@2:33', path: 'src/a.ts', parent: 'file:src/a.ts', startLine: 2, endLine: 2 },
    { id: 'file:src/b.js', kind: 'file', name: 'b.js', path: 'src/b.js', parent: 'dir:src', language: 'javascript' },
    { id: 'file:src/broken.ts', kind: 'file', name: 'broken.ts', path: 'src/broken.ts', parent: 'dir:src', language: 'typescript' },
    { id: 'file:src/huge.ts', kind: 'file', name: 'huge.ts', path: 'src/huge.ts', parent: 'dir:src', language: 'typescript' },
    { id: 'file:README.md', kind: 'file', name: 'README.md', path: 'README.md', parent: 'dir:.', language: 'markdown' },
  ] satisfies GraphNode[],
};
const smallSources: Record<string, string> = {
  'src/a.ts': [
    'export function f(a: number, b?: number): number {',
    '  const inner = (x: number) => (x > 0 ? x : -x);',
    '  return a && b ? inner(a) : inner(b ?? 0);',
    '}',
    '// a comment',
    'export class C {',
    '  get size(): number {',
    '    return this.items?.length ?? 0;',
    '  }',
    '  run(): void {}',
    '}',
  ].join('\n'),
  'src/b.js': 'module.exports = function (a) {\n  for (const x of a) if (x) return x;\n};\n',
  'src/broken.ts': 'export const = ;\n',
};
const smallRun = () =>
  tester.run({
    graph: small,
    capabilities: {
      'files:read': (file: string) => {
        if (file === 'src/huge.ts') throw new Error('files.read: src/huge.ts: larger than the limit');
        return smallSources[file];
      },
    },
  });

t.test('a small repository: functions, classes, files and directories', async (t) => {
  const run = await smallRun();
  const figures = (node: string) => ({
    cyclomatic: run.style('cyclomatic', node)?.value,
    cognitive: run.style('cognitive', node)?.value,
    loc: run.style('loc', node)?.value,
  });
  // f: 1 + && + ?: + ?? = 4; cognitive: ?: +1, && +1 = 2. inner: 1 + ?: = 2, cognitive 1.
  t.same(figures('sym:src/a.ts#f'), { cyclomatic: 4, cognitive: 2, loc: 4 });
  t.same(figures('sym:src/a.ts#@2:33'), { cyclomatic: 2, cognitive: 1, loc: 1 }, 'a unit named by the position of its body');
  t.same(figures('sym:src/a.ts#C.get size'), { cyclomatic: 3, cognitive: 0, loc: 3 }, 'a getter: ?. and ?? each add 1');
  t.same(figures('sym:src/a.ts#C.run'), { cyclomatic: 1, cognitive: 0, loc: 1 });
  t.same(figures('sym:src/a.ts#C'), { cyclomatic: 4, cognitive: 0, loc: 6 }, 'a class adds up its methods');
  t.same(figures('sym:src/a.ts#gone'), { cyclomatic: undefined, cognitive: undefined, loc: undefined }, 'a symbol the file no longer has is left alone');
  // SonarJS's file figure: f has structural complexity, so inner's ?: is charged to it one level deeper (+2).
  t.same(figures('file:src/a.ts'), { cyclomatic: 10, cognitive: 4, loc: 10 });
  t.same(figures('file:src/b.js'), { cyclomatic: 3, cognitive: 3, loc: 3 }, 'CommonJS; for +1, if nested in it +2');
  t.same(figures('dir:src'), { cyclomatic: 13, cognitive: 7, loc: 13 });
  t.same(figures('dir:.'), figures('dir:src'));
  t.equal(run.style('cyclomatic', 'file:src/broken.ts'), undefined, 'a file that does not parse is not styled');
  t.equal(run.style('cyclomatic', 'file:src/huge.ts'), undefined, 'nor is one the host refuses to read');
  t.same(run.calls.map((call) => call.args[0]).sort(), ['src/a.ts', 'src/b.js', 'src/broken.ts', 'src/huge.ts'], 'markdown is not read');
  t.match(run.summary, {
    files: 2,
    filesNotParsed: 1,
    filesNotRead: 1,
    filesWithRecoveredErrors: 0,
    functions: 5,
    classFieldInitializers: 0,
    classStaticBlocks: 0,
    symbolsStyled: 4,
    symbolsUnmatched: 1,
    cyclomatic: 13,
    cognitive: 7,
    loc: 13,
    maxCyclomatic: 4,
    maxCyclomaticFunction: 'src/a.ts#f@1:50',
    maxCognitive: 3,
    maxCognitiveFunction: 'src/b.js#exports@1:31',
  });
  t.match(run.logs.join('\n'), /src\/broken\.ts: not parsed: Unexpected token/);
  t.match(run.logs.join('\n'), /src\/huge\.ts: not read: .*larger than the limit/);
});

t.test('Python and Go files come measured by the indexer: painted from the graph, never read', async (t) => {
  const repo = await mkdtemp(path.join(tmpdir(), 'strata-complexity-polyglot-'));
  t.teardown(() => rm(repo, { recursive: true, force: true }));
  const sources: Record<string, string> = {
    // f: 1 + if + and = 3; cognitive: if 1, and 1 = 2.
    'app/a.py': 'def f(x, y):\n    if x and y:\n        return 1\n    return 2\n',
    // G: 1 + for + if = 3; cognitive: for 1, if (nesting 1) 2 = 3.
    'app/g.go': 'package app\n\nfunc G(xs []int) int {\n\tfor _, x := range xs {\n\t\tif x > 0 {\n\t\t\treturn x\n\t\t}\n\t}\n\treturn 0\n}\n',
    'web/b.ts': 'export const b = (x: boolean) => (x ? 1 : 2);\n',
  };
  for (const [file, text] of Object.entries(sources)) {
    await mkdir(path.dirname(path.join(repo, file)), { recursive: true });
    await writeFile(path.join(repo, file), text);
  }
  const graph = await indexRepository({ repository: repo, env: { STRATA_DATA_DIR: path.join(repo, '.data') } });
  const read: string[] = [];
  const run = await tester.run({
    graph: { nodes: graph.nodes, edges: graph.edges },
    capabilities: {
      'files:read': (file: string) => {
        read.push(file);
        return sources[file]!;
      },
    },
  });
  const figures = (node: string) => ({
    cyclomatic: run.style('cyclomatic', node)?.value,
    cognitive: run.style('cognitive', node)?.value,
    loc: run.style('loc', node)?.value,
  });
  t.same(figures('sym:app/a.py#f'), { cyclomatic: 3, cognitive: 2, loc: 4 });
  t.same(figures('sym:app/g.go#G'), { cyclomatic: 3, cognitive: 3, loc: 8 });
  t.same(figures('file:app/a.py'), { cyclomatic: 3, cognitive: 2, loc: 4 });
  t.same(figures('dir:app'), { cyclomatic: 6, cognitive: 5, loc: 13 }, 'a directory adds up its files');
  t.same(figures('dir:.'), { cyclomatic: 8, cognitive: 6, loc: 14 }, 'with the TypeScript file the plugin measured itself (1 + ?:, cognitive 1)');
  t.same(read, ['web/b.ts'], 'only the TypeScript file is read');
  t.match(run.summary, { files: 1, filesMeasuredByIndexer: 2, symbolsMeasuredByIndexer: 2, maxCyclomatic: 3 });
});

t.test('sizes, colors and legends', async (t) => {
  const run = await smallRun();
  t.equal(run.style('cyclomatic', 'sym:src/a.ts#C.run')!.size, Math.log(2) / Math.log(6), 'log(1 + complexity) / log(1 + 5)');
  t.equal(run.style('cyclomatic', 'sym:src/a.ts#C.get size')!.size! < run.style('cyclomatic', 'sym:src/a.ts#f')!.size!, true);
  t.equal(run.style('loc', 'sym:src/a.ts#C.run')!.size, Math.log(2) / Math.log(31), 'log(1 + loc) / log(1 + 30)');
  t.equal(run.style('cognitive', 'sym:src/a.ts#C.run')!.color, run.overlays.cognitive!.legend['0'], "no cognitive complexity: the legend's first color");
  t.same(Object.keys(run.overlays.cognitive!.legend), ['0', '1', '5', '15', '50', '150', '500+']);
  t.same(Object.keys(run.overlays.cyclomatic!.legend), [
    '1 (size 0.4)',
    '5 (size 1.0)',
    '20 (size 1.7)',
    '100 (size 2.6)',
    '300 (size 3.2)',
    '1000+ (size 3.9)',
  ]);
  t.same(Object.keys(run.overlays.loc!.legend), [
    '1 loc (size 0.2)',
    '30 loc (size 1.0)',
    '300 loc (size 1.7)',
    '3000 loc (size 2.3)',
    '10000+ loc (size 2.7)',
  ]);
  for (const legend of Object.values(run.overlays)) for (const color of Object.values(legend.legend)) t.match(color, /^#[0-9a-f]{6}$/);
});

t.test('an empty graph', async (t) => {
  const run = await tester.run({ graph: { nodes: [{ id: 'dir:.', kind: 'directory', name: '.', path: '.' }] }, capabilities: { 'files:read': () => '' } });
  t.match(run.summary, { files: 0, functions: 0, cyclomatic: 0 });
  t.same(run.calls, []);
});
