import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { indexRepository } from '@strata/host';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { startTestServer, type TestServer } from '../helpers/strata-server.ts';

/** git without the machine's own configuration. */
function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
}

/** Waits until the served graph's revision passes `revision` and `ready` holds for it. */
async function nextGraph(server: TestServer, revision: number, ready: (graph: any) => boolean): Promise<any> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { body } = await server.api('/api/graph');
    if (body.meta.revision > revision && ready(body)) return body;
    if (Date.now() > deadline) throw new Error(`the graph did not change in time (revision ${body.meta.revision})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function ids(graph: any): Set<string> {
  return new Set(graph.data.nodes.map((node: { id: string }) => node.id));
}

// payload: app/(payload)/admin/importMap.js is generated, ignored, and committed all the same; three files import it.
t.test('files in git’s index are listed even where .gitignore ignores them, and followed live like any other', async (t) => {
  const repo = await makeRepo(t, {
    '.gitignore': 'importMap.js\ngenerated/\n*.local.ts\n',
    'app/admin/importMap.js': 'export const importMap = {};\n',
    'app/page.js': "import { importMap } from './admin/importMap.js';\nexport default importMap;\n",
    'generated/nested/schema.ts': 'export type Schema = {};\n',
    'generated/scratch.ts': 'export {};\n',
    'notes.local.ts': 'export {};\n',
  });
  git(repo, 'init', '-q');
  git(repo, 'add', '.');
  git(repo, 'add', '-f', 'app/admin/importMap.js', 'generated/nested/schema.ts');
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  for (const id of ['file:app/admin/importMap.js', 'dir:generated', 'dir:generated/nested', 'file:generated/nested/schema.ts'])
    t.ok(ids(graph).has(id), `${id}: tracked, so listed`);
  for (const id of ['file:generated/scratch.ts', 'file:notes.local.ts']) t.notOk(ids(graph).has(id), `${id}: ignored and not tracked, so left out`);
  t.ok(
    graph.data.edges.some((edge: { id: string }) => edge.id === 'imports:file:app/page.js->file:app/admin/importMap.js'),
    'the import of the tracked file is an edge',
  );
  t.equal(graph.meta.unresolvedCount, 0);

  await writeFile(path.join(repo, 'generated/another.ts'), 'export {};\n');
  await writeFile(path.join(repo, 'app/admin/importMap.js'), "import { page } from '../page.js';\nexport const importMap = { page };\n");
  graph = await nextGraph(server, graph.meta.revision, (g) =>
    g.data.edges.some((edge: { id: string }) => edge.id === 'imports:file:app/admin/importMap.js->file:app/page.js'),
  );
  await writeFile(path.join(repo, 'generated/nested/schema.ts'), 'export type Schema = {};\nexport function validate() {}\n');
  graph = await nextGraph(server, graph.meta.revision, (g) => ids(g).has('sym:generated/nested/schema.ts#validate'));
  t.notOk(ids(graph).has('file:generated/another.ts'), 'a new file under the ignored directory stays out');
  const cold = await indexRepository({ repository: repo, env: {} });
  t.same(new Set(cold.nodes.map((node) => node.id)), ids(graph), 'the live graph has the nodes of a cold index');
});

t.test('a repository that is a folder of a git work tree: the tracked files below it, relative to it', async (t) => {
  const workTree = await makeRepo(t, {
    'project/.gitignore': '*.gen.ts\n',
    'other/a.gen.ts': 'export {};\n',
    'project/src/main.ts': "import './schema.gen';\n",
    'project/src/schema.gen.ts': 'export {};\n',
    'project/src/draft.gen.ts': 'export {};\n',
  });
  git(workTree, 'init', '-q');
  git(workTree, 'add', '.');
  git(workTree, 'add', '-f', 'project/src/schema.gen.ts', 'other/a.gen.ts');
  const graph = await indexRepository({ repository: path.join(workTree, 'project'), env: {} });
  const files = graph.nodes.filter((node) => node.kind === 'file').map((node) => node.path);
  t.same(files.sort(), ['.gitignore', 'src/main.ts', 'src/schema.gen.ts']);
  t.ok(graph.edges.some((edge) => edge.id === 'imports:file:src/main.ts->file:src/schema.gen.ts'));
});

t.test('a file that comes into git’s index, or leaves it, is added or removed with the next change the watcher sees', async (t) => {
  const repo = await makeRepo(t, { '.gitignore': 'gen/\n', 'main.ts': 'export {};\n', 'gen/late.ts': 'export const late = 1;\n' });
  git(repo, 'init', '-q');
  git(repo, 'add', '.');
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.notOk(ids(graph).has('file:gen/late.ts'), 'ignored and not tracked');
  // git's index is under .git, which the watcher does not watch: the next change anywhere brings it.
  git(repo, 'add', '-f', 'gen/late.ts');
  await writeFile(path.join(repo, 'main.ts'), "import { late } from './gen/late';\nexport const x = late;\n");
  graph = await nextGraph(server, graph.meta.revision, (g) => ids(g).has('file:gen/late.ts'));
  t.ok(
    graph.data.edges.some((edge: { id: string }) => edge.id === 'imports:file:main.ts->file:gen/late.ts'),
    'added with git add -f: listed, and imported',
  );
  git(repo, 'rm', '-q', '--cached', 'gen/late.ts');
  await writeFile(path.join(repo, 'main.ts'), 'export const x = 2;\n');
  graph = await nextGraph(server, graph.meta.revision, (g) => !ids(g).has('file:gen/late.ts'));
  t.notOk(ids(graph).has('dir:gen'), 'removed with git rm --cached: left out again, and so is its ignored directory');
  const cold = await indexRepository({ repository: repo, env: {} });
  t.same(new Set(cold.nodes.map((node) => node.id)), ids(graph), 'the live graph has the nodes of a cold index');
});
