import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CodeGraph } from '@strata/host';
import { indexRepository } from '@strata/host';
import t, { type Test } from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';
import { matchesColdIndex, nextGraph } from '../helpers/live-graph.ts';
import { startTestServer } from '../helpers/strata-server.ts';

/** Files changed less than two seconds before a build make no saved graph (a later change within the same tick would go unseen). */
const RACY_WAIT_MS = 2_100;
const SAVED = 'graph.json';
/** A node put into the saved graph by the tests: served only when the saved graph is. */
const MARKER = { id: 'file:marker-from-the-saved-graph', kind: 'file', name: 'marker', path: 'marker-from-the-saved-graph' };

const FILES: FixtureFiles = {
  '.gitignore': 'ignored/\n*.local.ts\n',
  'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['src/lib/*'] } } }),
  'package.json': JSON.stringify({ name: 'fixture', version: '1.0.0' }),
  'src/a.ts': "import { b } from './b';\nimport { c } from '@lib/c';\nexport function a() { return b() + c(); }\n",
  'src/b.ts': 'export function b() {\n  return 1;\n}\n',
  'src/lib/c.ts': 'export function c() {\n  return 2;\n}\n',
  'src/d.js': "const a = require('./a');\nmodule.exports = a;\n",
  'ignored/e.ts': 'export const e = 1;\n',
  'notes.local.ts': 'export const notes = 1;\n',
  'README.md': '# fixture\n',
};

/** git without the machine's own configuration. */
function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'protocol.file.allow=always', ...args], {
    cwd,
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
    stdio: 'ignore',
  });
}

interface Fixture {
  repo: string;
  /** The data directory, outside the repository (as the benchmark has it). */
  data: string;
}

/** The fixture in a temporary directory, committed (with the ignored `notes.local.ts` tracked all the same) unless `withGit` is false. */
async function fixture(t: Test, files: FixtureFiles = FILES, withGit = true): Promise<Fixture> {
  const repo = await makeRepo(t, files);
  if (withGit) {
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '.');
    if ('notes.local.ts' in files) git(repo, 'add', '-f', 'notes.local.ts');
    git(repo, 'commit', '-q', '-m', 'first');
  }
  const data = await mkdtemp(path.join(tmpdir(), 'strata-saved-graph-'));
  t.teardown(() => rm(data, { recursive: true, force: true }));
  return { repo, data };
}

const index = ({ repo, data }: Fixture, env: Record<string, string> = {}): Promise<CodeGraph> =>
  indexRepository({ repository: repo, env: { STRATA_DATA_DIR: data, ...env } });

/** A cold index: a data directory of its own, used once. */
async function coldIndex(repo: string): Promise<CodeGraph> {
  const data = await mkdtemp(path.join(tmpdir(), 'strata-saved-graph-cold-'));
  try {
    return await indexRepository({ repository: repo, env: { STRATA_DATA_DIR: data } });
  } finally {
    await rm(data, { recursive: true, force: true });
  }
}

const shape = (graph: CodeGraph): unknown => ({
  nodes: graph.nodes,
  edges: graph.edges,
  skipped: graph.build.skipped,
  unresolved: graph.build.unresolved,
  unresolvedCount: graph.build.unresolvedCount,
});

const hasMarker = (graph: CodeGraph): boolean => graph.nodes.some((node) => node.id === MARKER.id);

/** Puts the marker node into the saved graph, so that a start that serves it shows. */
async function markSavedGraph({ data }: Fixture): Promise<void> {
  const file = path.join(data, SAVED);
  const [header, graph] = (await readFile(file, 'utf8')).split('\n') as [string, string];
  const parsed = JSON.parse(graph) as { nodes: unknown[] };
  parsed.nodes.push(MARKER);
  await writeFile(file, `${header}\n${JSON.stringify(parsed)}`);
}

/**
 * Builds the fixture's graph once (after the racy window, so that it is saved), marks the saved graph, makes
 * `change`, and checks that the next start sees it: the graph of a cold index, without the marker. Skipping the
 * check of what changed would serve the marked graph.
 */
async function changeIsSeen(t: Test, f: Fixture, change: () => unknown, what: string): Promise<CodeGraph> {
  const before = await index(f);
  await markSavedGraph(f);
  t.ok(hasMarker(await index(f)), 'with nothing changed, the saved graph is served');
  await change();
  const warm = await index(f);
  const cold = await coldIndex(f.repo);
  t.notOk(hasMarker(warm), `${what}: the saved graph is not served`);
  t.same(shape(warm), shape(cold), `${what}: the graph of a cold index`);
  t.notSame(shape(cold), shape(before), `${what} changes the graph (the case tests something)`);
  return warm;
}

t.test('a start with nothing changed serves the saved graph, which is the graph of a cold index', async (t) => {
  const f = await fixture(t);
  await sleep(RACY_WAIT_MS);
  const first = await index(f);
  t.equal(first.build.cachedFiles, 0);
  const second = await index(f);
  t.same(shape(second), shape(first), 'the same graph');
  t.same(shape(second), shape(await coldIndex(f.repo)), 'as a cold index');
  t.equal(second.build.cachedFiles, 9, 'every file counts as taken from the cache');
  await markSavedGraph(f);
  t.ok(hasMarker(await index(f)), 'it is the saved graph that is served');
  t.ok(hasMarker(await index(f)), 'again');
});

t.test('a large repository (with four cores or more, a helper thread shares the check of its listing)', async (t) => {
  const files: FixtureFiles = {};
  // Long enough a listing (over 150 KB of header) for a helper thread.
  for (let i = 0; i < 2_000; i++) files[`src/module-${Math.floor(i / 100)}/a-directory-with-a-long-name/file-${i}.ts`] = `export const f${i} = ${i};\n`;
  const f = await fixture(t, files);
  await sleep(RACY_WAIT_MS);
  await changeIsSeen(
    t,
    f,
    () => appendFile(path.join(f.repo, 'src/module-19/a-directory-with-a-long-name/file-1999.ts'), 'export const late = 1;\n'),
    'an edit of the last file',
  );
  const g = await fixture(t, files);
  await sleep(RACY_WAIT_MS);
  await changeIsSeen(t, g, () => mkdir(path.join(g.repo, 'src/module-19/a-directory-with-a-long-name/new')), 'a directory made in the last one');
});

t.test('no saved graph is made from files changed just before the build; a broken one is ignored', async (t) => {
  const f = await fixture(t);
  await index(f);
  await rm(path.join(f.data, SAVED)).then(
    () => t.fail('a graph built from files changed within two seconds was saved'),
    () => t.pass('no saved graph'),
  );
  await sleep(RACY_WAIT_MS);
  await index(f);
  await writeFile(path.join(f.data, SAVED), '{"format":1}\nnot json');
  t.same(shape(await index(f)), shape(await coldIndex(f.repo)), 'a broken saved graph is ignored');
  await index(f);
  await markSavedGraph(f);
  t.notOk(hasMarker(await index(f, { STRATA_INDEX_MAX_FILE_BYTES: '4096' })), 'unused by other settings');
});

t.test('every kind of change is seen at the next start', async (t) => {
  // One fixture per case, all written before one wait for the racy window.
  const cases: Array<{ what: string; files?: FixtureFiles; git?: boolean; setup?: (f: Fixture) => unknown; change: (f: Fixture) => unknown }> = [
    { what: 'an edit', change: (f) => appendFile(path.join(f.repo, 'src/b.ts'), 'export function b2() {}\n') },
    {
      what: 'an edit that keeps the size and the modification time',
      change: async (f) => {
        const file = path.join(f.repo, 'src/b.ts');
        const { mtime } = await import('node:fs/promises').then((fs) => fs.stat(file));
        await writeFile(file, 'export function z() {\n  return 1;\n}\n');
        await import('node:fs/promises').then((fs) => fs.utimes(file, mtime, mtime));
      },
    },
    { what: 'a file added', change: (f) => writeFile(path.join(f.repo, 'src/new.ts'), "export * from './b';\n") },
    { what: 'a file deleted', change: (f) => rm(path.join(f.repo, 'src/b.ts')) },
    { what: 'a file renamed', change: (f) => rename(path.join(f.repo, 'src/b.ts'), path.join(f.repo, 'src/b2.ts')) },
    { what: 'an empty directory made', change: (f) => mkdir(path.join(f.repo, 'src/empty')) },
    {
      what: 'a config change (tsconfig paths)',
      change: (f) => writeFile(path.join(f.repo, 'tsconfig.json'), JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['src/*'] } } })),
    },
    { what: 'a .gitignore change', change: (f) => writeFile(path.join(f.repo, '.gitignore'), 'ignored/\n') },
    {
      what: 'a nested .gitignore made',
      change: (f) => writeFile(path.join(f.repo, 'src/lib/.gitignore'), 'c.ts\n'),
    },
    {
      what: 'an exclude rule of .git/info/exclude',
      setup: (f) => writeFile(path.join(f.repo, 'scratch.ts'), 'export {};\n'),
      change: (f) => appendFile(path.join(f.repo, '.git/info/exclude'), '\nscratch.ts\n'),
    },
    { what: 'an ignored file added to the index', change: (f) => git(f.repo, 'add', '-f', 'ignored/e.ts') },
    { what: 'an ignored file taken out of the index', change: (f) => git(f.repo, 'rm', '-q', '--cached', 'notes.local.ts') },
    {
      what: 'a branch switch',
      change: (f) => {
        git(f.repo, 'checkout', '-q', '-b', 'other');
        git(f.repo, 'rm', '-q', 'src/d.js');
        writeFileSync(path.join(f.repo, 'src/b.ts'), 'export function b() {\n  return 3;\n}\nexport const other = 1;\n');
        git(f.repo, 'commit', '-q', '-am', 'other');
        git(f.repo, 'checkout', '-q', 'main');
        git(f.repo, 'checkout', '-q', 'other');
      },
    },
    {
      what: 'uncommitted and untracked changes',
      change: (f) => {
        writeFileSync(path.join(f.repo, 'src/b.ts'), 'export function b() {\n  return 4;\n}\n');
        mkdirSync(path.join(f.repo, 'src/untracked'));
        writeFileSync(path.join(f.repo, 'src/untracked/u.ts'), "import { a } from '../a';\nexport const u = a;\n");
      },
    },
    {
      what: 'a file made in an ignored directory that a tracked file keeps listed',
      change: async (f) => {
        git(f.repo, 'add', '-f', 'ignored/e.ts');
        await index(f);
        await sleep(RACY_WAIT_MS);
        await index(f);
        await markSavedGraph(f);
        writeFileSync(path.join(f.repo, 'ignored/e.ts'), 'export const e = 2;\nexport const f = 3;\n');
      },
    },
    {
      what: 'a change in a submodule',
      change: (f) => appendFile(path.join(f.repo, 'sub/s.ts'), 'export const s2 = 2;\n'),
    },
    {
      what: 'a file added to a submodule',
      change: (f) => writeFile(path.join(f.repo, 'sub/t.ts'), "export * from './s';\n"),
    },
    {
      what: 'a broken link mended',
      files: { ...FILES, 'src/link.ts': { symlink: '../ignored/later.ts' } },
      // In a directory the ignore rules leave out: only the link itself tells.
      change: (f) => writeFile(path.join(f.repo, 'ignored/later.ts'), 'export const later = 1;\n'),
    },
    { what: 'a change outside git', git: false, change: (f) => writeFile(path.join(f.repo, 'src/new.ts'), "export * from './b';\n") },
    { what: 'an edit outside git', git: false, change: (f) => appendFile(path.join(f.repo, 'src/lib/c.ts'), 'export const c2 = 1;\n') },
    {
      what: 'a compilation database made in an ignored directory',
      files: {
        '.gitignore': 'build/\n',
        'src/main.c': '#include "util.h"\nint main(void) { return 0; }\n',
        'include/util.h': 'int util(void);\n',
        'build/.keep': '',
      },
      change: (f) =>
        writeFile(
          path.join(f.repo, 'build/compile_commands.json'),
          JSON.stringify([{ directory: f.repo, file: 'src/main.c', command: 'cc -Isrc -c src/main.c' }]),
        ),
    },
  ];
  const fixtures = await Promise.all(
    cases.map(async (c) => {
      const f = await fixture(t, c.files ?? FILES, c.git ?? true);
      if (c.what.includes('submodule')) await addSubmodule(t, f.repo);
      await c.setup?.(f);
      return f;
    }),
  );
  await sleep(RACY_WAIT_MS);
  for (const [i, c] of cases.entries()) {
    await t.test(c.what, (t) => changeIsSeen(t, fixtures[i]!, () => c.change(fixtures[i]!), c.what));
  }
});

/** Makes `sub/` a submodule (a repository of its own, with s.ts), committed. */
async function addSubmodule(t: Test, repo: string): Promise<void> {
  const origin = await makeRepo(t, { 's.ts': 'export const s = 1;\n' });
  git(origin, 'init', '-q', '-b', 'main');
  git(origin, 'add', '.');
  git(origin, 'commit', '-q', '-m', 'sub');
  git(repo, 'submodule', '-q', 'add', origin, 'sub');
  git(repo, 'commit', '-q', '-m', 'submodule');
  await writeFile(path.join(repo, 'src/uses-sub.ts'), "export * from '../sub/s';\n");
}

t.test('a server started from the saved graph follows changes as one started cold', async (t) => {
  const repo = await makeRepo(t, FILES);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'first');
  await sleep(RACY_WAIT_MS);
  // The default data directory, in the repository: its making changes the root, so the first start saves nothing.
  await indexRepository({ repository: repo, env: {} });
  await sleep(RACY_WAIT_MS);
  await indexRepository({ repository: repo, env: {} });

  const server = await startTestServer(t, repo);
  t.ok(
    server.logs.some((line) => line.savedGraph === true),
    'the start served the saved graph',
  );
  let { body } = await server.api('/api/graph');
  // Changed at once, while the model behind the served graph may still be in the making.
  await writeFile(path.join(repo, 'src/b.ts'), "import { c } from './lib/c';\nexport function b() {\n  return c();\n}\n");
  body = await nextGraph(server, body.meta.revision, (graph) =>
    graph.data.edges.some((edge: { source: string; target: string }) => edge.source === 'file:src/b.ts' && edge.target === 'file:src/lib/c.ts'),
  );
  await matchesColdIndex(t, body, repo);
  await writeFile(path.join(repo, 'src/f.ts'), "import { a } from './a';\nexport const f = a;\n");
  body = await nextGraph(server, body.meta.revision, (graph) => graph.data.nodes.some((node: { id: string }) => node.id === 'file:src/f.ts'));
  await matchesColdIndex(t, body, repo);
  await rm(path.join(repo, 'src/lib/c.ts'));
  body = await nextGraph(server, body.meta.revision, (graph) => !graph.data.nodes.some((node: { id: string }) => node.id === 'file:src/lib/c.ts'));
  await matchesColdIndex(t, body, repo);
});
