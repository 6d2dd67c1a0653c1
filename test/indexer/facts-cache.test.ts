import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CodeGraph } from '@strata/host';
import { indexRepository } from '@strata/host';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';

const CACHE = path.join('.strata', 'file-facts.json');
/** Files changed less than two seconds before a build are not cached (a later edit could keep their size and times). */
const RACY_WAIT_MS = 2_100;

const FILES = {
  'src/a.ts': "import { b } from './b';\nexport function a() { return b(); }\n",
  'src/b.ts': 'export function b() {\n  return 1;\n}\n',
  'src/c.js': "const a = require('./a');\nmodule.exports = a;\n",
  'README.md': '# fixture\n\ntext\n',
};

const index = (repository: string, env: Record<string, string> = {}): Promise<CodeGraph> => indexRepository({ repository, env });
const shape = (graph: CodeGraph): unknown => ({ nodes: graph.nodes, edges: graph.edges, skipped: graph.build.skipped, unresolved: graph.build.unresolved });

t.test('a second build takes unchanged files from the cache and gives the same graph', async (t) => {
  const repo = await makeRepo(t, FILES);
  await sleep(RACY_WAIT_MS);
  const first = await index(repo);
  t.equal(first.build.cachedFiles, 0, 'nothing cached yet');
  t.ok(existsSync(path.join(repo, CACHE)), 'the build wrote the cache into the data directory');
  t.match(await readFile(path.join(repo, '.strata', '.gitignore'), 'utf8'), /^\*$/m, 'which git is told to ignore');
  const second = await index(repo);
  t.equal(second.build.cachedFiles, 4, 'every file came from the cache');
  t.same(shape(second), shape(first));
});

t.test('a file is read again when its size, times or inode changed, even with its modification time set back', async (t) => {
  const repo = await makeRepo(t, FILES);
  const file = path.join(repo, 'src/b.ts');
  // A whole second, so that setting it again gives exactly the same time.
  const oldTime = Math.floor(Date.now() / 1000) - 60;
  await utimes(file, oldTime, oldTime);
  await sleep(RACY_WAIT_MS);
  await index(repo);
  const before = await stat(file);
  // Same size, same modification time, same inode: only the change time (which nothing can set back) tells.
  await writeFile(file, 'export function z() {\n  return 2;\n}\n');
  await utimes(file, oldTime, oldTime);
  const after = await stat(file);
  t.same([after.size, after.mtimeMs, after.ino], [before.size, before.mtimeMs, before.ino]);
  await writeFile(path.join(repo, 'src/d.ts'), "export { a } from './a';\n");
  await rm(path.join(repo, 'README.md'));
  const graph = await index(repo);
  t.equal(graph.build.cachedFiles, 2, 'a.ts and c.js came from the cache; b.ts and d.ts were read');
  t.ok(
    graph.nodes.some((node) => node.id === 'sym:src/b.ts#z'),
    "the changed file's new symbol is there",
  );
  t.notOk(
    graph.nodes.some((node) => node.id === 'sym:src/b.ts#b'),
    'its old one is gone',
  );
  t.ok(
    graph.edges.some((edge) => edge.source === 'file:src/d.ts' && edge.target === 'file:src/a.ts'),
    'the new file is read',
  );
  t.notOk(
    graph.nodes.some((node) => node.id === 'file:README.md'),
    'the deleted file is gone',
  );
});

t.test('files changed just before a build are not cached; a broken or foreign cache is ignored and rewritten', async (t) => {
  const repo = await makeRepo(t, FILES);
  await index(repo);
  t.equal((await index(repo)).build.cachedFiles, 0, 'files written under two seconds before the first build were not kept');

  await sleep(RACY_WAIT_MS);
  await writeFile(path.join(repo, CACHE), '{ not json');
  const graph = await index(repo);
  t.equal(graph.build.cachedFiles, 0);
  t.equal(graph.nodes.filter((node) => node.kind === 'file').length, 4);
  t.equal((await index(repo)).build.cachedFiles, 4, 'the broken cache was replaced');

  const cache = JSON.parse(await readFile(path.join(repo, CACHE), 'utf8')) as { key: string; entries: Array<[string, unknown, { symbols: unknown[] }]> };
  for (const entry of cache.entries) entry[2].symbols = [];
  await writeFile(path.join(repo, CACHE), JSON.stringify({ ...cache, key: 'made by another version' }));
  const foreign = await index(repo);
  t.equal(foreign.build.cachedFiles, 0, 'a cache made by other code or settings is not used');
  t.ok(foreign.nodes.some((node) => node.id === 'sym:src/b.ts#b'));
  t.equal((await index(repo)).build.cachedFiles, 4);
  t.equal((await index(repo, { STRATA_INDEX_MAX_FILE_BYTES: '4096' })).build.cachedFiles, 0, 'another size limit makes other facts: the cache is not used');
});

/** Indexes `repository`, calling `change` once, after every file was read and before the cache is written. */
async function indexChangingMidway(repository: string, change: () => void): Promise<void> {
  let changed = false;
  await indexRepository({
    repository,
    env: {},
    onProgress: (progress) => {
      if (progress.phase === 'resolving' && !changed) {
        changed = true;
        change();
      }
    },
  });
}

t.test('links, and files that change while the build runs', async (t) => {
  const repo = await makeRepo(t, {
    ...FILES,
    'src/a-copy.ts': FILES['src/a.ts'],
    'src/b-copy.ts': 'export function c() {\n  return 3;\n}\n',
    'link.ts': { symlink: 'src/b.ts' },
  });
  await sleep(RACY_WAIT_MS);
  // b.ts changes after it was read: its new state must not be taken for what was read.
  await indexChangingMidway(repo, () => writeFileSync(path.join(repo, 'src/b.ts'), 'export function late() {\n  return 4;\n}\n'));
  const graph = await index(repo);
  t.ok(
    graph.nodes.some((node) => node.id === 'sym:src/b.ts#late'),
    'the file changed during the first build is read again',
  );
  t.equal(graph.build.cachedFiles, 5, 'every other file came from the cache, but the link to the changed file');
  t.ok(
    graph.edges.some((edge) => edge.source === 'file:link.ts'),
    'the link reads as its target',
  );

  // After the link was read, it comes to lead to another file, older than the build:
  // what was read through the old target must not be kept for the new one.
  const linkFunctions = (graph: CodeGraph): string[] =>
    graph.nodes.filter((node) => node.path === 'link.ts' && node.kind === 'function').map((node) => node.name);
  await rm(path.join(repo, '.strata'), { recursive: true });
  await indexChangingMidway(repo, () => {
    rmSync(path.join(repo, 'link.ts'));
    symlinkSync('src/b-copy.ts', path.join(repo, 'link.ts'));
  });
  t.same(linkFunctions(await index(repo)), ['c'], 'the link is read again through its new target');
  t.same(linkFunctions(await index(repo)), ['c']);
});

t.test('index.cache: false reads every file and writes no cache', async (t) => {
  const repo = await makeRepo(t, FILES);
  await sleep(RACY_WAIT_MS);
  const graph = await index(repo, { STRATA_INDEX_CACHE: 'false' });
  t.equal(graph.build.cachedFiles, 0);
  t.notOk(existsSync(path.join(repo, CACHE)));
  await index(repo);
  t.equal((await index(repo, { STRATA_INDEX_CACHE: 'false' })).build.cachedFiles, 0, 'an existing cache is not used either');
});

t.test('a cache that cannot be written does not fail the build, and leaves nothing behind', async (t) => {
  const repo = await makeRepo(t, { ...FILES, blocked: 'a file where the data directory would go\n' });
  await sleep(RACY_WAIT_MS);
  const unmakeable = path.join(repo, 'blocked', 'data');
  const graph = await indexRepository({ repository: repo, env: { STRATA_DATA_DIR: unmakeable } });
  t.equal(graph.nodes.filter((node) => node.kind === 'file').length, 5, 'a data directory that cannot be made');
  t.equal((await indexRepository({ repository: repo, env: { STRATA_DATA_DIR: unmakeable } })).build.cachedFiles, 0, 'nothing was cached');

  // A data directory where the cache's name is taken by a directory: the temporary file is written, the rename fails.
  const dataDir = path.join(repo, 'data');
  mkdirSync(path.join(dataDir, 'file-facts.json'), { recursive: true });
  t.equal((await indexRepository({ repository: repo, env: { STRATA_DATA_DIR: dataDir } })).nodes.filter((node) => node.kind === 'file').length, 5);
  t.same(
    readdirSync(dataDir).filter((name) => name.endsWith('.tmp')),
    [],
    'no temporary file is left',
  );
  t.equal((await indexRepository({ repository: repo, env: { STRATA_DATA_DIR: dataDir } })).build.cachedFiles, 0);
});

t.test('a cold build reads while it lists: every file once, with its own imports, as a build from the cache gives', async (t) => {
  // Enough files for the reading threads (over 300), in directories listed one after the other: sources import
  // files in directories listed before and after them, nested ignore rules leave some out.
  const files: Record<string, string> = { '.gitignore': 'd2*/n*.md\n', 'd05/.gitignore': 'extra*.ts\n' };
  const expectedFiles = new Set(['.gitignore', 'd05/.gitignore']);
  const expectedImports = new Set<string>();
  const directory = (i: number): string => `d${String(i).padStart(2, '0')}`;
  for (let d = 0; d < 30; d++) {
    for (let f = 0; f < 10; f++) {
      const target = `${directory((d + 7) % 30)}/f${f}.ts`;
      files[`${directory(d)}/f${f}.ts`] =
        `import { f${f} as other } from '../${target.replace(/\.ts$/, '.js')}';\nexport function f${f}() {\n  return other;\n}\n`;
      files[`${directory(d)}/n${f}.md`] = `# note ${d}.${f}\n`;
      expectedFiles.add(`${directory(d)}/f${f}.ts`);
      if (d < 20) expectedFiles.add(`${directory(d)}/n${f}.md`);
      expectedImports.add(`file:${directory(d)}/f${f}.ts->file:${target}`);
    }
  }
  for (let e = 0; e < 5; e++) files[`d05/extra${e}.ts`] = 'export const extra = 1;\n';
  const repo = await makeRepo(t, files);
  await sleep(RACY_WAIT_MS);

  const cold = await index(repo);
  t.equal(cold.build.cachedFiles, 0, 'the first build read every file');
  const fileNodes = cold.nodes.filter((node) => node.kind === 'file').map((node) => node.path);
  t.equal(fileNodes.length, new Set(fileNodes).size, 'no file is a node twice');
  t.same(new Set(fileNodes), expectedFiles, 'every file listed is a node, and no ignored one');
  const imports = cold.edges.filter((edge) => edge.kind === 'imports');
  t.same(new Set(imports.map((edge) => `${edge.source}->${edge.target}`)), expectedImports, 'each source has its own import, resolved');
  t.same(cold.build.unresolved, [], 'nothing is left unresolved');

  const warm = await index(repo);
  t.equal(warm.build.cachedFiles, expectedFiles.size, 'the second build took every file from the cache');
  t.same(shape(warm), shape(cold), 'and gave the same graph');
});
