import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { IMPORT_CYCLES_REPO } from '../helpers/import-cycles-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';

interface Metrics {
  id: string;
  files: number;
  fanIn: number;
  fanOut: number;
  instability: number;
  depth: number;
}

const pathOf = (id: string): string => id.slice(id.indexOf(':') + 1);

t.test("GET /api/graph/metrics: fan-in, fan-out and instability equal to dependency-cruiser's metrics reporter", async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  const files = await server.api('/api/graph/metrics?kind=file&sort=id&limit=1000');
  const directories = await server.api('/api/graph/metrics?kind=directory&sort=id');
  t.equal(files.status, 200);
  t.equal(directories.status, 200);

  const cwd = process.cwd();
  process.chdir(repo);
  t.teardown(() => process.chdir(cwd));
  const { cruise } = await import('dependency-cruiser');
  const cruised = await cruise(['src'], { tsPreCompilationDeps: true, tsConfig: { fileName: 'tsconfig.json' }, metrics: true }, {}, {});
  const output = cruised.output;
  if (typeof output === 'string') throw new Error('expected the result object');

  // dependency-cruiser lists a .cjs file it reached by `require` twice: once as the file it scanned, once as a target it
  // does not follow (`followable: false`, no dependencies). The scanned one is compared; a folder counts each file once.
  const bySource = new Map<string, (typeof output.modules)[number]>();
  for (const module of output.modules) {
    if (module.coreModule || !module.source.startsWith('src/')) continue;
    const seen = bySource.get(module.source);
    if (!seen || seen.followable === false) bySource.set(module.source, module);
  }
  const scanned = [...bySource.values()];
  const ours = new Map((files.body.data.nodes as Metrics[]).filter((m) => m.id.startsWith('file:src/')).map((m) => [pathOf(m.id), m]));
  t.equal(scanned.length, ours.size, 'the same files');
  for (const module of scanned) {
    const mine = ours.get(module.source);
    t.ok(mine, module.source);
    t.same(
      { fanIn: mine?.fanIn, fanOut: mine?.fanOut, instability: mine?.instability },
      { fanIn: module.dependents.length, fanOut: module.dependencies.length, instability: module.instability },
      `${module.source}: Ca, Ce, instability`,
    );
  }
  const ourDirectories = new Map((directories.body.data.nodes as Metrics[]).map((m) => [pathOf(m.id), m]));
  t.ok((output.folders ?? []).length >= 8, 'dependency-cruiser gave folder metrics');
  // Folders with moduleCount -1 are dependency-cruiser's sinks: targets outside what it cruised (here `fs`).
  for (const folder of (output.folders ?? []).filter((folder) => folder.moduleCount >= 0)) {
    const mine = ourDirectories.get(folder.name);
    t.same(
      { fanIn: mine?.fanIn, fanOut: mine?.fanOut, instability: mine?.instability, files: mine?.files },
      {
        fanIn: folder.afferentCouplings,
        fanOut: folder.efferentCouplings,
        instability: folder.instability,
        files: scanned.filter((module) => module.source.startsWith(`${folder.name}/`)).length,
      },
      `${folder.name}: Ca, Ce, instability, files`,
    );
  }
});

t.test('depth: the longest import chain down to files importing no file, a cycle counted once', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  const { body } = await server.api('/api/graph/metrics?sort=depth&limit=3');
  t.same(
    body.data.nodes.map((m: Metrics) => [pathOf(m.id), m.depth]),
    [
      ['src/app.ts', 2],
      ['src/left/l1.ts', 1],
      ['src/right/r2.ts', 1],
    ],
    'app -> l1 -> r1: 2; the files of a cycle that import nothing else are at 0',
  );
  const one = await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/ring/two.ts')}/metrics`);
  t.same(one.body.data, { id: 'file:src/ring/two.ts', files: 1, fanIn: 1, fanOut: 1, instability: 0.5, depth: 0 });
  const root = await server.api(`/api/graph/nodes/${encodeURIComponent('dir:.')}/metrics`);
  t.equal(root.body.data.depth, 2, "a directory's depth is its deepest file's");
  t.equal(root.body.data.fanOut, 1, 'the root imports only the package node:fs from outside');
});

t.test('GET /api/graph/edges: imports summed between directories at a level, or between the children of one', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  const level2 = await server.api('/api/graph/edges?level=2');
  t.equal(level2.status, 200);
  t.same(level2.body.data.edges, [
    { source: 'dir:src/left', target: 'dir:src/right', count: 1, references: { static: 1 } },
    { source: 'dir:src/right', target: 'dir:src/left', count: 1, references: { static: 1 } },
    { source: 'file:src/app.ts', target: 'dir:src/core', count: 1, references: { static: 1 } },
    { source: 'file:src/app.ts', target: 'dir:src/lazy', count: 1, references: { static: 1 } },
    { source: 'file:src/app.ts', target: 'dir:src/left', count: 1, references: { static: 1 } },
    { source: 'file:src/app.ts', target: 'dir:src/mixed', count: 1, references: { static: 1 } },
    { source: 'file:src/app.ts', target: 'dir:src/right', count: 1, references: { static: 1 } },
    { source: 'file:src/app.ts', target: 'dir:src/ring', count: 1, references: { static: 1 } },
    { source: 'file:src/app.ts', target: 'dir:src/types', count: 1, references: { 'type-only': 1 } },
  ]);
  t.equal(level2.body.data.total, 9);

  const level1 = await server.api('/api/graph/edges?level=1');
  t.same(level1.body.data.edges, [], 'every file is below src: nothing between groups');

  const children = await server.api(`/api/graph/edges?parent=${encodeURIComponent('dir:src')}&exclude=type-only`);
  t.same(
    children.body.data.edges.map((edge: { source: string; target: string }) => `${edge.source} -> ${edge.target}`),
    [
      'dir:src/left -> dir:src/right',
      'dir:src/right -> dir:src/left',
      'file:src/app.ts -> dir:src/core',
      'file:src/app.ts -> dir:src/lazy',
      'file:src/app.ts -> dir:src/left',
      'file:src/app.ts -> dir:src/mixed',
      'file:src/app.ts -> dir:src/right',
      'file:src/app.ts -> dir:src/ring',
    ],
    'the type-only import of src/types is left out',
  );
});
