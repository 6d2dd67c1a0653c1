import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { type FixtureFiles, makeRepo, writeFiles } from '../helpers/fixture-repo.ts';
import { matchesColdIndex, nextGraph, nodeIds } from '../helpers/live-graph.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const CSHARP_REPO: FixtureFiles = {
  'Core/Engine.cs': 'namespace Acme.Core;\npublic class Engine { public void Run() {} }\n',
  'Core/Part.cs': 'namespace Acme.Core;\npublic class Part {}\n',
  'App/App.cs': 'using Acme.Core;\nusing static Acme.Model.Order;\nnamespace Acme.App;\nclass App {}\n',
  'App/Scoped.cs': 'namespace Acme.App\n{\n    using Core;\n    class Scoped {}\n}\n',
};

const edgeIds = (graph: any): Set<string> => new Set(graph.data.edges.map((edge: { id: string }) => edge.id));
const APP = 'imports:file:App/App.cs->';
const SCOPED = 'imports:file:App/Scoped.cs->';

t.test('C# files added, edited, removed and renamed, and a changed namespace, change where usings lead, as a cold index does', async (t) => {
  const repo = await makeRepo(t, CSHARP_REPO);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.ok(edgeIds(graph).has(`${APP}pkg:csharp:Acme.Model`), 'Acme.Model is no namespace of the repository yet');

  await writeFile(path.join(repo, 'Core/Engine.cs'), 'namespace Acme.Core;\npublic class Engine { public void Run() {} public void Stop() {} }\n');
  graph = await nextGraph(server, graph.meta.revision, (g) => nodeIds(g).has('sym:Core/Engine.cs#Engine.Stop'));
  await matchesColdIndex(t, graph, repo);

  await writeFiles(repo, { 'Model/Order.cs': 'namespace Acme.Model;\npublic class Order {}\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has(`${APP}file:Model/Order.cs`));
  await matchesColdIndex(t, graph, repo);

  await writeFiles(repo, { 'More/Wheel.cs': 'namespace Acme.Core { public class Wheel {} }\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has(`${APP}file:More/Wheel.cs`));
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'Core/Part.cs'));
  graph = await nextGraph(server, graph.meta.revision, (g) => !edgeIds(g).has(`${APP}file:Core/Part.cs`));
  await matchesColdIndex(t, graph, repo);

  const otherWheel = 'namespace Acme.Other { public class Wheel {} }\n';
  await writeFile(path.join(repo, 'More/Wheel.cs'), otherWheel);
  // The revision that has the whole write: the file read while it was still empty (writeFile truncates first) has
  // no namespace either, and the write's own event may come a revision later (CI saw it, under load).
  graph = await nextGraph(
    server,
    graph.meta.revision,
    (g) =>
      !edgeIds(g).has(`${APP}file:More/Wheel.cs`) &&
      g.data.nodes.find((n: { id: string }) => n.id === 'file:More/Wheel.cs')?.bytes === Buffer.byteLength(otherWheel),
  );
  t.pass('a file that declares another namespace leaves the using');
  await matchesColdIndex(t, graph, repo);

  await rename(path.join(repo, 'Core/Engine.cs'), path.join(repo, 'Core/Motor.cs'));
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has(`${APP}file:Core/Motor.cs`));
  t.notOk(edgeIds(graph).has(`${APP}file:Core/Engine.cs`));
  await matchesColdIndex(t, graph, repo);

  // `using Core;` in namespace Acme.App binds Acme.Core until namespace Acme.App.Core exists, which declaring Acme.App.Core.Deep makes it.
  t.ok(edgeIds(graph).has(`${SCOPED}file:Core/Motor.cs`));
  await writeFiles(repo, { 'App/Core/Deep.cs': 'namespace Acme.App.Core.Deep;\npublic class Deep {}\n' });
  graph = await nextGraph(server, graph.meta.revision, (g) => !edgeIds(g).has(`${SCOPED}file:Core/Motor.cs`));
  t.ok(edgeIds(graph).has(`${SCOPED}pkg:csharp:Acme.App`), 'the using binds namespace Acme.App.Core, which no file declares');
  await matchesColdIndex(t, graph, repo);
});

t.test('.csproj project references added and removed change which namespaces a file sees, as a cold index does', async (t) => {
  const noReferences = '<Project Sdk="Microsoft.NET.Sdk" />\n';
  const withCore = '<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n    <ProjectReference Include="..\\Core\\Core.csproj" />\n  </ItemGroup>\n</Project>\n';
  const repo = await makeRepo(t, {
    'App/App.csproj': noReferences,
    'App/App.cs': 'using Acme.Core;\nnamespace Acme.App;\nclass App {}\n',
    'Core/Core.csproj': noReferences,
    'Core/Engine.cs': 'namespace Acme.Core;\npublic class Engine {}\n',
  });
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  t.ok(edgeIds(graph).has(`${APP}pkg:csharp:Acme.Core`), 'App does not reference Core: its namespace is as if absent');

  await writeFile(path.join(repo, 'App/App.csproj'), withCore);
  graph = await nextGraph(server, graph.meta.revision, (g) => edgeIds(g).has(`${APP}file:Core/Engine.cs`));
  t.notOk(edgeIds(graph).has(`${APP}pkg:csharp:Acme.Core`), 'the reference added: the using leads to Core');
  await matchesColdIndex(t, graph, repo);

  await rm(path.join(repo, 'Core/Core.csproj'));
  await writeFile(path.join(repo, 'App/App.csproj'), noReferences);
  graph = await nextGraph(
    server,
    graph.meta.revision,
    (g) =>
      g.data.nodes.every((n: { id: string }) => n.id !== 'file:Core/Core.csproj') &&
      g.data.nodes.find((n: { id: string }) => n.id === 'file:App/App.csproj')?.bytes === Buffer.byteLength(noReferences),
  );
  t.ok(edgeIds(graph).has(`${APP}file:Core/Engine.cs`), 'Core/Engine.cs is in no project now: every file sees it');
  await matchesColdIndex(t, graph, repo);
});

t.test('a using of a namespace above 200 files follows the types its file names and that the namespace declares, as a cold index does', async (t) => {
  const files: FixtureFiles = { 'App/App.cs': 'using Big;\nnamespace Acme.App;\nclass App { Big3 part; }\n' };
  for (let i = 0; i < 201; i++) files[`Big/T${String(i).padStart(3, '0')}.cs`] = `namespace Big;\npublic class Big${i} {}\n`;
  const repo = await makeRepo(t, files);
  const server = await startTestServer(t, repo);
  let graph = (await server.api('/api/graph')).body;
  const bigTargets = (g: any): string[] => [...edgeIds(g)].filter((id) => id.startsWith(`${APP}file:Big/`)).sort();
  t.same(bigTargets(graph), [`${APP}file:Big/T003.cs`]);

  // The using file names one more type.
  await writeFile(path.join(repo, 'App/App.cs'), 'using Big;\nnamespace Acme.App;\nclass App { Big3 part; Big150 other; Engine engine; }\n');
  graph = await nextGraph(server, graph.meta.revision, (g) => bigTargets(g).length === 2);
  t.same(bigTargets(graph), [`${APP}file:Big/T003.cs`, `${APP}file:Big/T150.cs`]);
  await matchesColdIndex(t, graph, repo);

  // A file of the namespace comes to declare a type the using file names; another stops.
  await writeFiles(repo, {
    'Big/T007.cs': 'namespace Big;\npublic class Big7 {}\npublic class Engine {}\n',
    'Big/T003.cs': 'namespace Big;\npublic class Gone {}\n',
  });
  graph = await nextGraph(
    server,
    graph.meta.revision,
    (g) => bigTargets(g).includes(`${APP}file:Big/T007.cs`) && !bigTargets(g).includes(`${APP}file:Big/T003.cs`),
  );
  t.same(bigTargets(graph), [`${APP}file:Big/T007.cs`, `${APP}file:Big/T150.cs`]);
  await matchesColdIndex(t, graph, repo);
});
