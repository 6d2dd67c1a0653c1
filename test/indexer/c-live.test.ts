import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { type FixtureFiles, makeRepo, writeFiles } from '../helpers/fixture-repo.ts';
import { matchesColdIndex, nextGraph, nodeIds } from '../helpers/live-graph.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const C_REPO: FixtureFiles = {
  'src/main.c': '#include "util.h"\n#include <api.h>\n#include <stdio.h>\n\nint main(void) { return util(); }\n',
  'src/util.h': 'int util(void);\n',
  'src/util.c': '#include "util.h"\nint util(void) { return 0; }\n',
  'lib/api.h': 'int api(void);\n',
  'api.h': 'the root: the last guess\n',
};

const edgeIds = (graph: any): Set<string> => new Set(graph.data.edges.map((edge: { id: string }) => edge.id));

t.test('an edited C file is re-read: its includes and symbols change, and the graph equals a cold index', async (t) => {
  const repo = await makeRepo(t, C_REPO);
  const server = await startTestServer(t, repo);
  const before = (await server.api('/api/graph')).body;
  t.ok(nodeIds(before).has('sym:src/main.c#main'));
  await writeFile(
    path.join(repo, 'src/main.c'),
    '#include "util.h"\n#include <string.h>\n\nint main(void) { return util(); }\nstatic int extra(void) { return 1; }\n',
  );
  const after = await nextGraph(server, before.meta.revision, (g) => nodeIds(g).has('sym:src/main.c#extra'));
  t.ok(edgeIds(after).has('imports:file:src/main.c->pkg:c:string.h'), 'the new include is an edge');
  t.notOk(nodeIds(after).has('pkg:c:stdio.h'), 'the package node goes with its last includer');
  await matchesColdIndex(t, after, repo);
});

t.test('added, removed and renamed headers change where includes lead, as a cold index does', async (t) => {
  const repo = await makeRepo(t, { ...C_REPO, 'src/main.c': `${C_REPO['src/main.c']}#include "config.h"\n` });
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.ok(edgeIds(graph).has('imports:file:src/main.c->file:api.h'));

  await writeFiles(repo, { 'src/config.h': '#define X 1\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:src/main.c->file:src/config.h'));
  t.pass('a new header satisfies an unresolved include');
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'src/util.h'));
  graph = await nextGraph(server, graph.meta.revision, (g) => !nodeIds(g).has('file:src/util.h'));
  t.notOk(edgeIds(graph).has('imports:file:src/util.c->file:src/util.h'), 'the includers of a removed header are resolved again');
  await matchesColdIndex(t, graph, repo);

  await rename(path.join(repo, 'src/config.h'), path.join(repo, 'src/util.h'));
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:src/util.c->file:src/util.h'));
  t.pass('a header renamed into place');
  await matchesColdIndex(t, graph, repo);
});

t.test('a new include/ directory, or a compile_commands.json, changes the include directories: every include is resolved again', async (t) => {
  const repo = await makeRepo(t, C_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;

  await writeFiles(repo, { 'include/api.h': 'int api(void);\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:src/main.c->file:include/api.h'));
  t.pass('an include/ directory comes before the root');
  await matchesColdIndex(t, graph, repo);

  const database = [{ directory: '.', file: 'src/main.c', arguments: ['cc', '-Ilib', '-c', 'src/main.c'] }];
  await writeFiles(repo, { 'compile_commands.json': JSON.stringify(database) });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:src/main.c->file:lib/api.h'));
  t.pass("the compilation database's -I replaces the guesses");
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'compile_commands.json'));
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:src/main.c->file:include/api.h'));
  t.pass('and the guesses come back without it');
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'include'), { recursive: true });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has('imports:file:src/main.c->file:api.h') && !nodeIds(g).has('dir:include'));
  t.pass('a removed include/ directory');
  await matchesColdIndex(t, graph, repo);
});
