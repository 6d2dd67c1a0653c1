import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { EXPECTED_FILE_CYCLES, IMPORT_CYCLES_REPO } from '../helpers/import-cycles-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';
import { until } from '../helpers/until.ts';

interface Component {
  members: string[];
  edgeCount: number;
  edges: Array<{ source: string; target: string; count: number; edges: string[] }>;
  cycle: string[];
  cycleIsShortest: boolean;
}

const pathOf = (id: string): string => id.slice(id.indexOf(':') + 1);
const shape = (components: Component[]) => components.map(({ members, edgeCount, cycle }) => ({ members, edgeCount, cycle }));

t.test('GET /api/graph/cycles: every component with its members, internal imports and a shortest cycle, largest first', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  const { status, body } = await server.api('/api/graph/cycles');
  t.equal(status, 200);
  t.equal(body.data.level, 'file');
  t.same(body.data.excluded, []);
  t.equal(body.data.componentCount, 6);
  t.equal(body.data.memberCount, 14);
  t.equal(body.data.truncated, false);
  t.same(shape(body.data.components), EXPECTED_FILE_CYCLES);
  t.ok(
    body.data.components.every((component: Component) => component.cycleIsShortest),
    'each shortest cycle is known to be one',
  );
  const core = body.data.components[0] as Component;
  t.same(
    core.edges.map((edge) => [pathOf(edge.source), pathOf(edge.target), edge.edges]),
    [
      ['src/core/a.ts', 'src/core/b.ts', ['imports:file:src/core/a.ts->file:src/core/b.ts']],
      ['src/core/b.ts', 'src/core/a.ts', ['imports:file:src/core/b.ts->file:src/core/a.ts']],
      ['src/core/b.ts', 'src/core/c.ts', ['imports:file:src/core/b.ts->file:src/core/c.ts']],
      ['src/core/c.ts', 'src/core/a.ts', ['imports:file:src/core/c.ts->file:src/core/a.ts']],
    ],
    'internal imports, each with the graph edge behind it',
  );
  t.equal(body.meta.revision, 1);
});

t.test('exclude leaves out imports of only those kinds: type-only cycles, dynamic and require ones go', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  const members = async (query: string): Promise<string[][]> => {
    const { status, body } = await server.api(`/api/graph/cycles?${query}`);
    t.equal(status, 200, query);
    return body.data.components.map((component: Component) => component.members.map(pathOf));
  };
  t.same(
    await members('exclude=type-only'),
    [
      ['src/core/a.ts', 'src/core/b.ts', 'src/core/c.ts'],
      ['src/ring/one.ts', 'src/ring/three.ts', 'src/ring/two.ts'],
      ['src/lazy/p.ts', 'src/lazy/q.ts'],
      ['src/legacy/e.cjs', 'src/legacy/f.cjs'],
    ],
    'the x <-> y and m -> n cycles hold only through type imports',
  );
  t.same(await members('exclude=type-only,dynamic,require'), [
    ['src/core/a.ts', 'src/core/b.ts', 'src/core/c.ts'],
    ['src/ring/one.ts', 'src/ring/three.ts', 'src/ring/two.ts'],
  ]);
  const { body } = await server.api('/api/graph/cycles?exclude=dynamic,dynamic');
  t.same(body.data.excluded, ['dynamic'], 'each kind once');
});

t.test('level=directory: directories whose files import each other both ways, even without a cycle of files', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  const { status, body } = await server.api('/api/graph/cycles?level=directory');
  t.equal(status, 200);
  t.equal(body.data.componentCount, 1);
  const [component] = body.data.components as Component[];
  t.same(component!.members, ['dir:src/left', 'dir:src/right']);
  t.same(component!.cycle, ['dir:src/left', 'dir:src/right']);
  t.same(
    component!.edges.map((edge) => [edge.source, edge.target, edge.count, edge.edges]),
    [
      ['dir:src/left', 'dir:src/right', 1, ['imports:file:src/left/l1.ts->file:src/right/r1.ts']],
      ['dir:src/right', 'dir:src/left', 1, ['imports:file:src/right/r2.ts->file:src/left/l2.ts']],
    ],
  );
});

t.test('paged, with edges capped per component, and said so', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  const { body } = await server.api('/api/graph/cycles?limit=2&offset=1&edgeLimit=1');
  t.equal(body.data.componentCount, 6);
  t.equal(body.data.truncated, true);
  t.same(
    body.data.components.map((component: Component) => component.members[0]),
    ['file:src/ring/one.ts', 'file:src/lazy/p.ts'],
  );
  t.same(
    body.data.components.map((component: Component) => [component.edgeCount, component.edges.length]),
    [
      [3, 1],
      [2, 1],
    ],
  );
  const last = await server.api('/api/graph/cycles?offset=4');
  t.equal(last.body.data.components.length, 2);
  t.equal(last.body.data.truncated, false);
});

t.test('cycles follow live edits: breaking an import breaks its cycle', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  await writeFile(path.join(repo, 'src/ring/three.ts'), 'export const three = () => 3;\n');
  await until(async () => (await server.api('/api/graph/cycles')).body.data.componentCount === 5, 'the ring cycle is gone');
  const { body } = await server.api('/api/graph/cycles');
  t.notOk(
    body.data.components.some((component: Component) => component.members.includes('file:src/ring/one.ts')),
    'no cycle through src/ring',
  );
  t.ok(body.meta.revision > 1);
});

t.test('a cycle in Python counts as in TypeScript (every language the indexer resolves)', async (t) => {
  const repo = await makeRepo(t, {
    'pkg/__init__.py': '',
    'pkg/a.py': 'from pkg import b\n',
    'pkg/b.py': 'import pkg.a\n',
    'main.py': 'import pkg.a\n',
  });
  const server = await startTestServer(t, repo);
  const { body } = await server.api('/api/graph/cycles');
  t.same(
    body.data.components.map((component: Component) => component.members),
    [['file:pkg/a.py', 'file:pkg/b.py']],
  );
});

/**
 * The peers on the same fixture: madge's `circular()` and dependency-cruiser's
 * `no-circular` rule. dependency-cruiser marks every import that lies on a
 * cycle, which are exactly the imports inside a component; madge lists
 * cycles it meets on its walk, each inside one component.
 */
t.test("the same cycles as madge --circular and dependency-cruiser's no-circular", async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  const { body } = await server.api('/api/graph/cycles?edgeLimit=100000');
  const components = (body.data.components as Component[]).map((component) => new Set(component.members.map(pathOf)));
  const strataEdges = (body.data.components as Component[])
    .flatMap((component) => component.edges.map((edge) => `${pathOf(edge.source)} -> ${pathOf(edge.target)}`))
    .sort();

  const cwd = process.cwd();
  process.chdir(repo);
  t.teardown(() => process.chdir(cwd));
  const { cruise } = await import('dependency-cruiser');
  const cruised = await cruise(
    ['src'],
    {
      tsPreCompilationDeps: true,
      tsConfig: { fileName: 'tsconfig.json' },
      validate: true,
      ruleSet: { forbidden: [{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } }] },
    },
    {},
    {},
  );
  const output = cruised.output;
  if (typeof output === 'string') throw new Error('expected the result object');
  const cruiserEdges = output.modules
    .flatMap((module) => module.dependencies.filter((dependency) => dependency.circular).map((dependency) => `${module.source} -> ${dependency.resolved}`))
    .sort();
  t.same(strataEdges, cruiserEdges, 'the imports on a cycle are the ones dependency-cruiser marks circular');

  const require = createRequire(import.meta.url);
  const madge = require('madge') as (path: string, config: object) => Promise<{ circular(): string[][] }>;
  const detective = { skipTypeImports: false, mixedImports: true };
  const result = await madge(repo, {
    baseDir: repo,
    fileExtensions: ['ts', 'cjs'],
    tsConfig: path.join(repo, 'tsconfig.json'),
    detectiveOptions: { ts: detective, es6: detective },
  });
  const madgeCycles = result.circular();
  t.ok(madgeCycles.length > 0);
  for (const cycle of madgeCycles)
    t.ok(
      components.some((component) => cycle.every((file) => component.has(file))),
      `madge's ${cycle.join(' -> ')} is in one component`,
    );
  for (const component of components)
    t.ok(
      madgeCycles.some((cycle) => cycle.every((file) => component.has(file))),
      `madge finds a cycle in ${[...component].join(', ')}`,
    );
  t.same(new Set(madgeCycles.flat()), new Set(components.flatMap((component) => [...component])), 'the files in cycles are the same');
});
