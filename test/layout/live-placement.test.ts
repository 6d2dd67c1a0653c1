// Incremental placement (issue 22, point 4): with a saved layout, the nodes the live graph gains get positions next
// to their directory, saved with the layout, before graph.changed is announced; no saved position moves.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { type FixtureFiles, makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { computeLayout, followEventsConnected, startTestServer, type TestServer } from '../helpers/strata-server.ts';
import { until } from '../helpers/until.ts';

type Position = { x: number; y: number };

/** Ten files in src/util besides the sample's, so that the directory has a region of its own. */
function repoFiles(): FixtureFiles {
  const files: FixtureFiles = { ...SAMPLE_REPO };
  for (let i = 0; i < 10; i++) files[`src/util/part${i}.ts`] = `import { format } from './format';\nexport const part${i} = format(${i});\n`;
  return files;
}

async function positionsOf(server: TestServer): Promise<Map<string, Position>> {
  const graph = (await server.api('/api/graph')).body.data;
  return new Map(
    graph.nodes.filter((node: { position?: Position }) => node.position).map((node: { id: string; position: Position }) => [node.id, node.position]),
  );
}

const distance = (a: Position, b: Position): number => Math.hypot(a.x - b.x, a.y - b.y);

t.test('a file added on disk is placed next to its directory, announced with its position, and saved', async (t) => {
  const repo = await makeRepo(t, repoFiles());
  const server = await startTestServer(t, repo);
  t.equal(await computeLayout(server, { iterations: 200, seed: 3 }), 200, 'a layout is computed');
  const before = await positionsOf(server);
  const revision = (await server.api('/api/graph')).body.meta.revision as number;
  const events = await followEventsConnected(t, server);

  await writeFile(path.join(repo, 'src/util/added.ts'), "import { helper } from './helper';\nexport const added = helper(1);\n");
  await until(() => events.some((event) => event.type === 'graph.changed'), 'graph.changed', 20_000);
  // Announced with its position: the changes since the revision before hold it.
  const changes = (await server.api(`/api/graph/changes?since=${revision}`)).body.data;
  const added = changes.nodes.find((node: { id: string }) => node.id === 'file:src/util/added.ts');
  t.ok(added, 'the new file is among the changes');
  t.ok(added?.position && Number.isFinite(added.position.x) && Number.isFinite(added.position.y), `it has a position (${JSON.stringify(added?.position)})`);

  // Next to its directory: as near to it as its siblings are, not on top of any of them.
  const directory = before.get('dir:src/util')!;
  const siblings = [...before].filter(([id]) => id.startsWith('file:src/util/') && id.split('/').length === 3).map(([, position]) => position);
  const spans = siblings.map((sibling) => distance(sibling, directory)).sort((a, b) => a - b);
  const median = spans[Math.floor(spans.length / 2)]!;
  const fromDirectory = distance(added.position, directory);
  t.ok(
    fromDirectory <= 2 * spans.at(-1)!,
    `it sits by its directory: ${fromDirectory.toFixed(2)} from it, the siblings ${spans[0]!.toFixed(2)} to ${spans.at(-1)!.toFixed(2)}`,
  );
  const nearest = Math.min(...siblings.map((sibling) => distance(sibling, added.position)));
  t.ok(nearest >= 0.1 * median, `and not on top of a sibling: the nearest ${nearest.toFixed(2)} away (a sibling's usual span ${median.toFixed(2)})`);
  const elsewhere = distance(added.position, before.get('dir:docs')!);
  t.ok(fromDirectory < elsewhere, `nearer its directory than another one (${fromDirectory.toFixed(2)} against ${elsewhere.toFixed(2)} from dir:docs)`);

  // No saved position moved.
  const after = await positionsOf(server);
  const moved = [...before].filter(([id, position]) => after.get(id)?.x !== position.x || after.get(id)?.y !== position.y).map(([id]) => id);
  t.same(moved, [], 'every saved position is where it was');
  t.same(after.get('file:src/util/added.ts'), added.position, 'GET /api/graph serves the same position');

  // Saved: a restart serves it.
  await server.stop();
  const again = await startTestServer(t, repo, { flags: { watch: false } });
  t.same((await positionsOf(again)).get('file:src/util/added.ts'), added.position, 'a restart serves the same position');
  // A new save takes the placed nodes in; a clear removes them with the rest.
  t.equal((await again.api('/api/graph/layout', { method: 'DELETE' })).status, 200, 'the layout is cleared');
  await again.stop();
  const cleared = await startTestServer(t, repo, { flags: { watch: false } });
  t.equal((await positionsOf(cleared)).size, 0, 'after a clear and a restart no node has a position');
});

t.test('without a saved layout nothing is placed (the web UI places new nodes itself)', async (t) => {
  const repo = await makeRepo(t, repoFiles());
  const server = await startTestServer(t, repo);
  const events = await followEventsConnected(t, server);
  await writeFile(path.join(repo, 'src/util/added.ts'), 'export const added = 1;\n');
  await until(() => events.some((event) => event.type === 'graph.changed'), 'graph.changed', 20_000);
  const graph = (await server.api('/api/graph')).body.data;
  t.ok(
    graph.nodes.some((node: { id: string }) => node.id === 'file:src/util/added.ts'),
    'the file is in the graph',
  );
  t.equal((await positionsOf(server)).size, 0, 'no node has a position');
});

t.test('a new directory with files: the directory by its parent, its files around it', async (t) => {
  const repo = await makeRepo(t, repoFiles());
  const server = await startTestServer(t, repo);
  t.equal(await computeLayout(server, { iterations: 200, seed: 3 }), 200, 'a layout is computed');
  const before = await positionsOf(server);
  const events = await followEventsConnected(t, server);
  await mkdir(path.join(repo, 'src/fresh'));
  await writeFile(path.join(repo, 'src/fresh/a.ts'), "export const a = 'a';\n");
  await writeFile(path.join(repo, 'src/fresh/b.ts'), "import { a } from './a';\nexport const b = a;\n");
  await until(
    async () => events.some((event) => event.type === 'graph.changed') && (await positionsOf(server)).has('file:src/fresh/b.ts'),
    'the new files placed',
    20_000,
  );
  const after = await positionsOf(server);
  const fresh = after.get('dir:src/fresh')!;
  t.ok(fresh, 'the new directory has a position');
  const src = before.get('dir:src')!;
  const span = Math.max(...[...before].filter(([id]) => id.startsWith('file:src/') && id.split('/').length === 2).map(([, p]) => distance(p, src)));
  t.ok(
    distance(fresh, src) <= 2 * span,
    `the directory sits by its parent (${distance(fresh, src).toFixed(2)} from dir:src, whose files are up to ${span.toFixed(2)} away)`,
  );
  for (const file of ['file:src/fresh/a.ts', 'file:src/fresh/b.ts']) {
    t.ok(distance(after.get(file)!, fresh) < distance(after.get(file)!, before.get('dir:docs')!), `${file} is nearer its directory than dir:docs`);
  }
  t.same(
    [...before].filter(([id, p]) => after.get(id)?.x !== p.x || after.get(id)?.y !== p.y).map(([id]) => id),
    [],
    'every saved position is where it was',
  );
});
