import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { type FixtureFiles, makeRepo, writeFiles } from '../helpers/fixture-repo.ts';
import { matchesColdIndex, nextGraph, nodeIds } from '../helpers/live-graph.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const KOTLIN_REPO: FixtureFiles = {
  'core/Engine.kt': 'package com.ex.core\nclass Engine { fun run() {} }\n',
  'core/Parts.kt': 'package com.ex.core\nclass Part\n',
  'app/App.kt': 'package com.ex.app\nimport com.ex.core.Engine\nimport com.ex.core.*\nimport com.ex.core.start\nimport com.ex.model.Order\n',
};

const edgeIds = (graph: any): Set<string> => new Set(graph.data.edges.map((edge: { id: string }) => edge.id));
const APP = 'imports:file:app/App.kt->';

t.test('an edited Kotlin file is re-read: its symbols and the top-level names it declares change, as a cold index has them', async (t) => {
  const repo = await makeRepo(t, KOTLIN_REPO);
  const server = await startTestServer(t, repo);
  const before = (await server.api('/api/graph')).body;
  t.notOk(
    before.data.edges.some((edge: any) => edge.specifiers?.includes('com.ex.core.start')),
    'no file declares start yet',
  );
  await writeFile(path.join(repo, 'core/Parts.kt'), 'package com.ex.core\nclass Part\nfun start() {}\n');
  const after = await nextGraph(server, before.meta.revision, (g) => nodeIds(g).has('sym:core/Parts.kt#start'));
  t.ok(after.data.edges.find((edge: any) => edge.id === `${APP}file:core/Parts.kt`)?.specifiers.includes('com.ex.core.start'), 'a new top-level function');
  await matchesColdIndex(t, after, repo);
});

t.test('added, removed and renamed files, and a changed package declaration, change where imports lead, as a cold index does', async (t) => {
  const repo = await makeRepo(t, KOTLIN_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.ok(edgeIds(graph).has(`${APP}pkg:kotlin:com.ex`), 'com.ex.model is no package of the repository yet');

  await writeFiles(repo, { 'model/src/main/java/com/ex/model/Order.java': 'package com.ex.model;\npublic class Order {}\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has(`${APP}file:model/src/main/java/com/ex/model/Order.java`));
  t.pass('a Java file of the imported package');
  await matchesColdIndex(t, graph, repo);

  await writeFiles(repo, { 'core/more/Wheel.kt': 'package com.ex.core\nclass Wheel\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has(`${APP}file:core/more/Wheel.kt`));
  t.pass('a new file of a package an on-demand import names');
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'core/Parts.kt'));
  graph = await nextGraph(server, graph.meta.revision, (g) => !edgeIds(g).has(`${APP}file:core/Parts.kt`));
  await matchesColdIndex(t, graph, repo);

  await writeFile(path.join(repo, 'core/more/Wheel.kt'), 'package com.ex.other\nclass Wheel\n');
  // The revision with the whole write (read while writeFile had just truncated it, the file says nothing either).
  graph = await nextGraph(
    server,
    graph.meta.revision,
    (g) =>
      !edgeIds(g).has(`${APP}file:core/more/Wheel.kt`) &&
      g.data.nodes.find((n: { id: string }) => n.id === 'file:core/more/Wheel.kt')?.bytes === Buffer.byteLength('package com.ex.other\nclass Wheel\n'),
  );
  t.pass('a file that declares another package leaves the on-demand import');
  await matchesColdIndex(t, graph, repo);

  await rename(path.join(repo, 'core/Engine.kt'), path.join(repo, 'core/Motor.kt'));
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has(`${APP}file:core/Motor.kt`));
  t.notOk(edgeIds(graph).has(`${APP}file:core/Engine.kt`));
  await matchesColdIndex(t, graph, repo);
});
