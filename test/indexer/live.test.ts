import { rmSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { makeRepo, SAMPLE_REPO, writeFiles } from '../helpers/fixture-repo.ts';
import { matchesColdIndex, nextGraph, nodeIds } from '../helpers/live-graph.ts';
import { nodePath, postJson, startTestServer } from '../helpers/strata-server.ts';

t.test('an edited file is re-read: its imports, symbols and figures change, nothing else does', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  await server.api('/api/graph/layout', postJson({ positions: { 'file:src/types.ts': { x: 5, y: 6 } } }));
  const before = (await server.api('/api/graph')).body;
  await writeFile(
    path.join(repo, 'src/types.ts'),
    "import { format } from './util/format';\nexport interface Shape { size: number }\nexport function area(s: Shape) { return format(s.size); }\n",
  );
  const after = await nextGraph(server, before.meta.revision, (g) => nodeIds(g).has('sym:src/types.ts#area'));
  const edge = after.data.edges.find((e: { id: string }) => e.id === 'imports:file:src/types.ts->file:src/util/format.ts');
  t.same(edge?.references, ['static'], 'the new import is an edge');
  t.ok(nodeIds(after).has('sym:src/types.ts#area'), 'the new function is a symbol');
  t.match(
    after.data.nodes.find((n: { id: string }) => n.id === 'file:src/types.ts'),
    { lines: 3, position: { x: 5, y: 6 } },
    'figures are new; the saved position stays attached',
  );
  t.same(
    [...nodeIds(before)].filter((id) => !nodeIds(after).has(id)),
    [],
    'no node id changed',
  );
  await matchesColdIndex(t, after, repo);
});

t.test('added, deleted and renamed files and directories', async (t) => {
  const repo = await makeRepo(t, { ...SAMPLE_REPO, 'src/wants.ts': "import { soon } from './later/soon';\nexport const w = soon;\n" });
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.equal(graph.meta.unresolvedCount, 1, 'an import of a file that does not exist yet');

  await writeFiles(repo, { 'src/later/soon.ts': 'export const soon = 1;\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => nodeIds(g).has('file:src/later/soon.ts'));
  t.ok(nodeIds(graph).has('dir:src/later'), 'its new directory is a node');
  t.ok(
    graph.data.edges.some((e: { id: string }) => e.id === 'imports:file:src/wants.ts->file:src/later/soon.ts'),
    'the import that led nowhere now has its edge',
  );
  t.equal(graph.meta.unresolvedCount, 0);
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'src/util/format.ts'));
  graph = await nextGraph(server, graph.meta.revision, (g) => !nodeIds(g).has('file:src/util/format.ts'));
  t.notOk(
    graph.data.edges.some((e: { target: string }) => e.target === 'file:src/util/format.ts'),
    'edges to a deleted file go',
  );
  t.notOk(nodeIds(graph).has('sym:src/util/format.ts#format'), 'and so do its symbols');
  await matchesColdIndex(t, graph, repo);

  await rename(path.join(repo, 'src/lazy.ts'), path.join(repo, 'src/eager.ts'));
  graph = await nextGraph(server, graph.meta.revision, (g) => nodeIds(g).has('file:src/eager.ts') && !nodeIds(g).has('file:src/lazy.ts'));
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'src/legacy'), { recursive: true });
  graph = await nextGraph(server, graph.meta.revision, (g) => !nodeIds(g).has('dir:src/legacy'));
  t.notOk(
    [...nodeIds(graph)].some((id) => id.includes('src/legacy')),
    'a deleted directory takes everything below it',
  );
  await matchesColdIndex(t, graph, repo);
});

t.test('what changes while the repository is indexed at start is applied once the graph is in', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  let changed = false;
  // Once the files are listed: one added (the build's listing cannot have it) and one deleted (listed, then gone).
  const onProgress = (progress: { phase: string }): void => {
    if (progress.phase !== 'reading' || changed) return;
    changed = true;
    writeFileSync(path.join(repo, 'src/late.ts'), "import type { Shape } from './types';\nexport function late(s: Shape) { return s.size; }\n");
    rmSync(path.join(repo, 'src/lazy.ts'));
  };
  const server = await startTestServer(t, repo, { onProgress });
  t.ok(changed, 'the files changed during the build');
  const graph = await nextGraph(server, 0, (g) => nodeIds(g).has('file:src/late.ts') && !nodeIds(g).has('file:src/lazy.ts'));
  t.ok(nodeIds(graph).has('sym:src/late.ts#late'), 'the file added while indexing is read');
  t.ok(
    graph.data.edges.some((e: { id: string }) => e.id === 'imports:file:src/late.ts->file:src/types.ts'),
    'with its import',
  );
  await matchesColdIndex(t, graph, repo);
});

t.test('a repository inside a node_modules folder is followed too (only folders below its root are never watched)', async (t) => {
  const outer = await makeRepo(t, {});
  const repo = path.join(outer, 'node_modules', 'some-lib');
  await writeFiles(repo, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const before = (await server.api('/api/graph')).body;
  await writeFile(path.join(repo, 'src/types.ts'), 'export interface Shape { size: number }\nexport function grown() { return 1; }\n');
  const after = await nextGraph(server, before.meta.revision);
  t.ok(nodeIds(after).has('sym:src/types.ts#grown'), 'the edit is in the graph');
});

t.test('an editor that saves through a temporary file and a rename', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const before = (await server.api('/api/graph')).body;
  const target = path.join(repo, 'src/lazy.ts');
  await writeFile(`${target}.swp~`, 'export default 2;\nexport function later() {}\n');
  await rename(`${target}.swp~`, target);
  const after = await nextGraph(server, before.meta.revision, (g) => nodeIds(g).has('sym:src/lazy.ts#later'));
  t.notOk(
    [...nodeIds(after)].some((id) => id.includes('.swp~')),
    'the temporary file leaves no node',
  );
  await matchesColdIndex(t, after, repo);
});

t.test('a branch switch that touches thousands of files', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const before = (await server.api('/api/graph')).body;
  const files: Record<string, string> = {};
  for (let i = 0; i < 2000; i++) files[`feature/m${i % 40}/f${i}.ts`] = `import { x } from '../m${(i + 1) % 40}/f${(i + 1) % 2000}';\nexport const x = ${i};\n`;
  await writeFiles(repo, files);
  await rm(path.join(repo, 'docs'), { recursive: true });
  await writeFile(path.join(repo, 'src/index.ts'), 'export const replaced = true;\n');
  const after = await nextGraph(
    server,
    before.meta.revision,
    (g) => g.data.nodes.filter((n: { kind: string }) => n.kind === 'file').length === 2000 + 11 && !nodeIds(g).has('dir:docs'),
  );
  t.pass(`settled at revision ${after.meta.revision}`);
  await matchesColdIndex(t, after, repo);
});

t.test('rules that change what is listed or how imports resolve', async (t) => {
  const repo = await makeRepo(t, { ...SAMPLE_REPO, 'src/aliased.ts': "import { h } from '@lib/helper';\nexport const a = h;\n" });
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.ok(nodeIds(graph).has('pkg:@lib/helper'), 'without a tsconfig the alias looks like a package');

  await writeFile(path.join(repo, 'tsconfig.json'), JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@lib/*': ['src/util/*'] } } }));
  graph = await nextGraph(server, graph.meta.revision, (g) =>
    g.data.edges.some((e: { id: string }) => e.id === 'imports:file:src/aliased.ts->file:src/util/helper.ts'),
  );
  t.notOk(nodeIds(graph).has('pkg:@lib/helper'), 'a tsconfig.json change re-resolves imports');
  await matchesColdIndex(t, graph, repo);

  await writeFile(path.join(repo, '.gitignore'), 'dist/\n*.log\nsrc/legacy/\n');
  graph = await nextGraph(server, graph.meta.revision, (g) => !nodeIds(g).has('dir:src/legacy'));
  await matchesColdIndex(t, graph, repo);

  await mkdir(path.join(repo, 'dist'), { recursive: true });
  await writeFile(path.join(repo, 'dist/ignored.ts'), 'export {};\n');
  const shape = 'export interface Shape { size: number; name: string }\n';
  await writeFile(path.join(repo, 'src/types.ts'), shape);
  // The revision that has this write: one from the .gitignore change above may come after the wait for it (a check
  // against the files), and then compared an older src/types.ts (40 bytes, not 54) with the cold index.
  graph = await nextGraph(
    server,
    graph.meta.revision,
    (g) => g.data.nodes.find((n: { id: string }) => n.id === 'file:src/types.ts')?.bytes === Buffer.byteLength(shape),
  );
  t.notOk(nodeIds(graph).has('file:dist/ignored.ts'), 'files under an ignored directory stay out');
  await matchesColdIndex(t, graph, repo);
});

t.test('directories created together (mkdir -p) are watched: later edits inside them are seen', async (t) => {
  // inotify watches one directory at a time; the watcher adds a watch for a new directory when told of it, by
  // which time `mkdir -p` has made its subdirectories (parcel-bundler/watcher#97).
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  const deep = (i: number): string => `gen/a${i}/b/c/d`;
  for (let i = 0; i < 3; i++) {
    rmSync(path.join(repo, 'gen'), { recursive: true, force: true });
    await mkdir(path.join(repo, deep(i)), { recursive: true });
    await writeFile(path.join(repo, deep(i), 'x.ts'), 'export const x = 1;\n');
  }
  graph = await nextGraph(server, graph.meta.revision, (g) => nodeIds(g).has(`file:${deep(2)}/x.ts`));
  for (let edit = 0; edit < 2; edit++) {
    await writeFile(
      path.join(repo, deep(2), 'x.ts'),
      `import { helper } from '../../../../../src/util/helper.js';\nexport const x = helper;\nexport function f${edit}() {}\n`,
    );
    graph = await nextGraph(server, graph.meta.revision, (g) => nodeIds(g).has(`sym:${deep(2)}/x.ts#f${edit}`));
    await writeFile(path.join(repo, deep(2), `y${edit}.ts`), 'export {};\n');
    graph = await nextGraph(server, graph.meta.revision, (g) => nodeIds(g).has(`file:${deep(2)}/y${edit}.ts`));
  }
  t.ok(
    graph.data.edges.some((e: { id: string }) => e.id === `imports:file:${deep(2)}/x.ts->file:src/util/helper.ts`),
    'the edit is in the graph',
  );
  await matchesColdIndex(t, graph, repo);
});

t.test('a change of .git/info/exclude changes what is listed', async (t) => {
  const repo = await makeRepo(t, { ...SAMPLE_REPO, '.git/info/exclude': '# nothing yet\n' });
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.ok(nodeIds(graph).has('dir:src/legacy'));
  await writeFile(path.join(repo, '.git/info/exclude'), 'src/legacy/\n');
  graph = await nextGraph(server, graph.meta.revision, (g) => !nodeIds(g).has('dir:src/legacy'));
  await matchesColdIndex(t, graph, repo);
});

t.test('after a burst of file events large enough to overflow the watch queue, the graph is checked against the files', async (t) => {
  // inotify's queue drops events past max_queued_events (16,384 by default) and the watcher says nothing; Strata
  // checks the graph once such a burst is over. A quarter of the queue, in files, is enough to set it off.
  let queue = 16_384;
  try {
    queue = Number((await import('node:fs')).readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8')) || queue;
  } catch {
    // Not Linux: the host uses the same default.
  }
  const count = Math.max(64, Math.floor(queue / 4)) + 100;
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const before = (await server.api('/api/graph')).body;
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) files[`burst/d${i % 50}/f${i}.ts`] = `export const v${i} = ${i};\n`;
  await writeFiles(repo, files);
  const deadline = Date.now() + 30_000;
  while (!server.logs.some((record) => String(record.msg).startsWith('graph checked against the files')) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const check = server.logs.find((record) => String(record.msg).startsWith('graph checked against the files'));
  t.match(check, { reason: /file events in one burst/ }, 'the burst set off a check');
  const after = (await server.api('/api/graph')).body;
  t.ok(after.meta.revision > before.meta.revision);
  await matchesColdIndex(t, after, repo);
});

t.test('--no-watch (watch: false) serves the graph as it was at start', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo, { flags: { watch: false } });
  const before = (await server.api('/api/graph')).body;
  await writeFiles(repo, { 'src/new.ts': 'export {};\n' });
  await new Promise((resolve) => setTimeout(resolve, 400));
  const after = (await server.api('/api/graph')).body;
  t.equal(after.meta.revision, before.meta.revision);
  t.equal((await server.api(nodePath('file:src/new.ts'))).status, 404);
});
