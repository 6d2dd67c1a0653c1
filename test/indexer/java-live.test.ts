import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { type FixtureFiles, makeRepo, writeFiles } from '../helpers/fixture-repo.ts';
import { matchesColdIndex, nextGraph, nodeIds } from '../helpers/live-graph.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const JAVA_REPO: FixtureFiles = {
  'core/src/main/java/com/ex/core/Engine.java': 'package com.ex.core;\npublic class Engine { public void run() {} }\n',
  'core/src/main/java/com/ex/core/Part.java': 'package com.ex.core;\npublic class Part {}\n',
  'app/src/main/java/com/ex/app/App.java': 'package com.ex.app;\nimport com.ex.core.Engine;\nimport com.ex.core.*;\nimport com.ex.model.Order;\nclass App {}\n',
};

const edgeIds = (graph: any): Set<string> => new Set(graph.data.edges.map((edge: { id: string }) => edge.id));
const APP = 'imports:file:app/src/main/java/com/ex/app/App.java->';

t.test('an edited Java file is re-read: its imports and symbols change, and the graph equals a cold index', async (t) => {
  const repo = await makeRepo(t, JAVA_REPO);
  const server = await startTestServer(t, repo);
  const before = (await server.api('/api/graph')).body;
  const engine = 'core/src/main/java/com/ex/core/Engine.java';
  await writeFile(
    path.join(repo, engine),
    'package com.ex.core;\nimport java.util.List;\npublic class Engine { public void run() {} public void stop() {} }\n',
  );
  const after = await nextGraph(server, before.meta.revision, (g) => nodeIds(g).has(`sym:${engine}#Engine.stop`));
  t.ok(edgeIds(after).has(`imports:file:${engine}->pkg:java:java.util`));
  await matchesColdIndex(t, after, repo);
});

t.test('added, removed and renamed files, and a changed package declaration, change where imports lead, as a cold index does', async (t) => {
  const repo = await makeRepo(t, JAVA_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.ok(edgeIds(graph).has(`${APP}pkg:java:com.ex`), 'com.ex.model is no package of the repository yet');

  await writeFiles(repo, { 'model/src/main/java/com/ex/model/Order.java': 'package com.ex.model;\npublic class Order {}\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has(`${APP}file:model/src/main/java/com/ex/model/Order.java`));
  await matchesColdIndex(t, graph, repo);

  await writeFiles(repo, { 'core/src/main/java/com/ex/core/Wheel.java': 'package com.ex.core;\npublic class Wheel {}\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has(`${APP}file:core/src/main/java/com/ex/core/Wheel.java`));
  t.pass('a new file of a package an on-demand import names');
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'core/src/main/java/com/ex/core/Part.java'));
  graph = await nextGraph(server, graph.meta.revision, (g) => !edgeIds(g).has(`${APP}file:core/src/main/java/com/ex/core/Part.java`));
  await matchesColdIndex(t, graph, repo);

  await writeFile(path.join(repo, 'core/src/main/java/com/ex/core/Wheel.java'), 'package com.ex.other;\npublic class Wheel {}\n');
  // The revision with the whole write (read while writeFile had just truncated it, the file says nothing either).
  graph = await nextGraph(
    server,
    graph.meta.revision,
    (g) =>
      !edgeIds(g).has(`${APP}file:core/src/main/java/com/ex/core/Wheel.java`) &&
      g.data.nodes.find((n: { id: string }) => n.id === 'file:core/src/main/java/com/ex/core/Wheel.java')?.bytes ===
        Buffer.byteLength('package com.ex.other;\npublic class Wheel {}\n'),
  );
  t.pass('a file that declares another package leaves the on-demand import');
  await matchesColdIndex(t, graph, repo);

  await rename(path.join(repo, 'core/src/main/java/com/ex/core/Engine.java'), path.join(repo, 'core/src/main/java/com/ex/core/Motor.java'));
  graph = await nextGraph(server, graph.meta.revision, (g) => !nodeIds(g).has('file:core/src/main/java/com/ex/core/Engine.java'));
  t.notOk(edgeIds(graph).has(`${APP}file:core/src/main/java/com/ex/core/Engine.java`));
  await matchesColdIndex(t, graph, repo);
});
