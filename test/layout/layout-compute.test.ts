import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { type FixtureFiles, makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { startTestServer, type TestServer } from '../helpers/strata-server.ts';

const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function settled(server: TestServer): Promise<Record<string, any>> {
  for (let i = 0; i < 600; i++) {
    const status = (await server.api('/api/graph/layout/compute/status')).body.data;
    if (status.state !== 'running') return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the layout computation did not finish');
}

/** A repository big enough that a long computation is still running when the test looks. */
function biggerRepo(): FixtureFiles {
  const files: FixtureFiles = { ...SAMPLE_REPO };
  for (let d = 0; d < 20; d++) for (let f = 0; f < 20; f++) files[`pkg${d}/file${f}.ts`] = `import './file${(f + 1) % 20}.js';\nexport const v = ${f};\n`;
  return files;
}

t.test('available says which backend computes here, and no GPU on these machines', async (t) => {
  const server = await startTestServer(t, await makeRepo(t, SAMPLE_REPO), { flags: { watch: false } });
  const { status, body } = await server.api('/api/graph/layout/compute/available');
  t.equal(status, 200);
  t.match(body.data, { available: false, gpu: false, backend: /^(wasm|cpu|tensorflow)$/ });
  t.type(body.data.device, 'string');
});

t.test('a computation runs, reports progress, and saves the positions as the layout', async (t) => {
  const server = await startTestServer(t, await makeRepo(t, SAMPLE_REPO), { flags: { watch: false } });
  t.match((await server.api('/api/graph/layout/compute/status')).body.data, { state: 'idle', iteration: 0 });
  const started = await server.api('/api/graph/layout/compute', json({ iterations: 100, seed: 7 }));
  t.equal(started.status, 200);
  t.match(started.body.data, { state: 'running', iterations: 100, seed: 7 });
  const done = await settled(server);
  t.match(done, { state: 'completed', iteration: 100, iterations: 100, progress: 1, error: null, backend: /^(wasm|cpu|tensorflow)$/ });
  t.match(done.finishedAt, /Z$/);
  const graph = (await server.api('/api/graph')).body.data;
  t.ok(
    graph.nodes.every((node: { position?: { x: number; y: number } }) => node.position && Number.isFinite(node.position.x) && Number.isFinite(node.position.y)),
    'every node has a position',
  );
  const first = Object.fromEntries(graph.nodes.map((node: { id: string; position: unknown }) => [node.id, node.position]));

  // Deterministic for a seed: clear, compute again, same positions.
  await server.api('/api/graph/layout', { method: 'DELETE' });
  await server.api('/api/graph/layout/compute', json({ iterations: 100, seed: 7 }));
  await settled(server);
  const again = Object.fromEntries((await server.api('/api/graph')).body.data.nodes.map((node: { id: string; position: unknown }) => [node.id, node.position]));
  t.same(again, first, 'the same seed gives the same layout');

  // Directories form regions: files sit nearer their own directory's files than the others'.
  const position = (id: string) => first[id] as { x: number; y: number };
  const distance = (a: string, b: string) => Math.hypot(position(a).x - position(b).x, position(a).y - position(b).y);
  t.ok(distance('file:src/util/helper.ts', 'file:src/util/format.ts') < distance('file:src/util/helper.ts', 'file:config.cjs'), 'siblings are close');
});

t.test('one computation at a time; cancel stops it and is harmless when idle', async (t) => {
  const server = await startTestServer(t, await makeRepo(t, biggerRepo()), { flags: { watch: false } });
  const idleCancel = await server.api('/api/graph/layout/compute/cancel', { method: 'POST' });
  t.equal(idleCancel.status, 200);
  t.equal(idleCancel.body.data.state, 'idle');
  t.equal((await server.api('/api/graph/layout/compute', json({ iterations: 10000 }))).status, 200);
  const busy = await server.api('/api/graph/layout/compute', json({ iterations: 10 }));
  t.equal(busy.status, 409);
  t.match(busy.body.error, { code: 'LAYOUT_RUNNING', message: /running/ });
  for (let i = 0; i < 200 && (await server.api('/api/graph/layout/compute/status')).body.data.iteration < 5; i++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal((await server.api('/api/graph')).status, 200, 'the API answers while it runs');
  const cancelled = await server.api('/api/graph/layout/compute/cancel', { method: 'POST' });
  t.equal(cancelled.body.data.state, 'cancelled');
  t.ok(cancelled.body.data.iteration < 10000, 'stopped early');
  t.equal(
    (await server.api('/api/graph')).body.data.nodes.filter((node: { position?: unknown }) => node.position).length,
    0,
    'a cancelled computation saves nothing',
  );
  t.equal((await server.api('/api/graph/layout/compute', json({ iterations: 5 }))).status, 200, 'and a new one can start');
  t.equal((await settled(server)).state, 'completed');
});

t.test('a cancel sent before the worker has loaded its backend stops the computation too, and saves nothing', async (t) => {
  const server = await startTestServer(t, await makeRepo(t, biggerRepo()), { flags: { watch: false } });
  for (let round = 0; round < 3; round++) {
    t.equal((await server.api('/api/graph/layout/compute', json({ iterations: 10000 }))).status, 200);
    const cancelled = await server.api('/api/graph/layout/compute/cancel', { method: 'POST' });
    t.match(
      cancelled.body.data,
      { state: 'cancelled', error: null, iteration: 0 },
      `round ${round}: stopped before its first iteration (the worker, still loading its backend, was terminated)`,
    );
    t.match(cancelled.body.data.finishedAt, /Z$/);
    t.same((await server.api('/api/graph/layout/compute/status')).body.data.state, 'cancelled', 'the status stays cancelled');
  }
  t.equal((await server.api('/api/graph')).body.data.nodes.filter((node: { position?: unknown }) => node.position).length, 0, 'nothing was saved');
  t.equal((await server.api('/api/graph/layout/compute', json({ iterations: 5 }))).status, 200, 'a new computation starts after terminated ones');
  t.equal((await settled(server)).state, 'completed');
});

t.test('progress rises to 1; a graph that changes during the job gets a layout that fits the graph of now', async (t) => {
  const repo = await makeRepo(t, biggerRepo());
  const server = await startTestServer(t, repo);
  const revision = (await server.api('/api/graph')).body.meta.revision;
  // Long enough that the job is still running when the watcher has brought the changes in.
  t.equal((await server.api('/api/graph/layout/compute', json({ iterations: 10000, seed: 3 }))).status, 200);
  for (let i = 0; i < 200 && (await server.api('/api/graph/layout/compute/status')).body.data.iteration < 1; i++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  // While it runs: a new directory with a file, and a file removed.
  await mkdir(path.join(repo, 'pkg0/fresh'));
  await writeFile(path.join(repo, 'pkg0/fresh/added.ts'), "import '../file1.js';\nexport function added() {}\n");
  await rm(path.join(repo, 'pkg1/file3.ts'));
  // The watcher's changes reach the graph in well under a second on an idle machine; in CI, beside a test that
  // sends 32 bodies of 16 MB at once and this job's own layout thread, they took over 10 s twice in four runs.
  // What is asserted is that they arrive while the job runs (below), not how fast.
  const deadline = Date.now() + 60_000;
  let graph = (await server.api('/api/graph')).body;
  while (
    !(
      graph.meta.revision > revision &&
      graph.data.nodes.some((n: { id: string }) => n.id === 'file:pkg0/fresh/added.ts') &&
      !graph.data.nodes.some((n: { id: string }) => n.id === 'file:pkg1/file3.ts')
    )
  ) {
    if (Date.now() > deadline) throw new Error('the graph did not change in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
    graph = (await server.api('/api/graph')).body;
  }
  const progress: number[] = [];
  let status = (await server.api('/api/graph/layout/compute/status')).body.data;
  t.equal(status.state, 'running', 'the graph changed while the job ran');
  while (status.state === 'running') {
    progress.push(status.progress);
    await new Promise((resolve) => setTimeout(resolve, 20));
    status = (await server.api('/api/graph/layout/compute/status')).body.data;
  }
  t.match(status, { state: 'completed', progress: 1, iteration: 10000 });
  t.ok(
    progress.length > 1 && progress.every((value, i) => value >= 0 && value <= 1 && (i === 0 || value >= progress[i - 1]!)),
    `progress never goes back (${progress.length} readings)`,
  );

  const nodes = (await server.api('/api/graph')).body.data.nodes as Array<{ id: string; parent?: string; position?: { x: number; y: number } }>;
  const byId = new Map(nodes.map((node) => [node.id, node]));
  t.ok(
    nodes.every((node) => node.position && Number.isFinite(node.position.x) && Number.isFinite(node.position.y)),
    'every node of the graph of now has a position',
  );
  t.notOk(byId.has('file:pkg1/file3.ts'), 'the removed file is gone');
  const store = await readFile(path.join(repo, '.strata', 'layout.db'), 'utf8');
  t.notOk(store.includes('pkg1/file3.ts'), 'and the saved layout has no position for it');
  t.ok(store.includes('pkg0/fresh/added.ts'), 'but one for the new file');
  const distance = (a: string, b: string): number =>
    Math.hypot(byId.get(a)!.position!.x - byId.get(b)!.position!.x, byId.get(a)!.position!.y - byId.get(b)!.position!.y);
  t.ok(distance('file:pkg0/fresh/added.ts', 'dir:pkg0/fresh') <= 1.01, 'the new file sits next to its new directory');
  t.ok(distance('dir:pkg0/fresh', 'dir:pkg0') <= 1.01, 'which sits next to its parent');
});

t.test('a computation after a small change refines the saved layout: the picture moves only a little', async (t) => {
  const repo = await makeRepo(t, biggerRepo());
  const server = await startTestServer(t, repo);
  type Positions = Map<string, { x: number; y: number }>;
  const positions = async (): Promise<Positions> =>
    new Map((await server.api('/api/graph')).body.data.nodes.map((node: { id: string; position: { x: number; y: number } }) => [node.id, node.position]));
  const compute = async (seed: number): Promise<Positions> => {
    t.equal((await server.api('/api/graph/layout/compute', json({ iterations: 300, seed }))).status, 200);
    t.equal((await settled(server)).state, 'completed');
    return positions();
  };
  /** Mean distance the nodes of `before` moved, over the diagonal of `before`'s picture. */
  const moved = (before: Positions, after: Positions): number => {
    const xs = [...before.values()].map((p) => p.x);
    const ys = [...before.values()].map((p) => p.y);
    const diagonal = Math.hypot(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
    let total = 0;
    for (const [id, p] of before) total += Math.hypot(after.get(id)!.x - p.x, after.get(id)!.y - p.y);
    return total / before.size / diagonal;
  };
  const first = await compute(1);
  const revision = (await server.api('/api/graph')).body.meta.revision;
  await writeFile(path.join(repo, 'pkg3/extra.ts'), "import './file2.js';\nexport const extra = 1;\n");
  for (let i = 0; (await server.api('/api/graph')).body.meta.revision === revision; i++) {
    if (i === 400) throw new Error('the new file did not reach the graph in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const refined = await compute(1);
  const refinedMove = moved(first, refined);
  t.ok(refinedMove < 0.03, `the old nodes moved ${(refinedMove * 100).toFixed(1)} % of the picture's diagonal on average`);
  const extra = refined.get('file:pkg3/extra.ts')!;
  const directory = refined.get('dir:pkg3')!;
  const xs = [...refined.values()].map((p) => p.x);
  t.ok(Math.hypot(extra.x - directory.x, extra.y - directory.y) < 0.2 * (Math.max(...xs) - Math.min(...xs)), 'the new file sits near its directory');

  // Starting over (the saved layout cleared) draws a different picture: what the refinement avoids.
  await server.api('/api/graph/layout', { method: 'DELETE' });
  const fresh = await compute(2);
  t.ok(moved(first, fresh) > 3 * refinedMove, `a fresh layout moves nodes ${(moved(first, fresh) * 100).toFixed(1)} % of the diagonal`);
});

t.test('iterations is required, a positive integer up to the configured maximum', async (t) => {
  const server = await startTestServer(t, await makeRepo(t, SAMPLE_REPO), { flags: { watch: false, layout: { maxIterations: 500 } } });
  for (const [body, field] of [
    [{}, /body\.iterations: is required/],
    [{ iterations: 0 }, /body\.iterations: must be >= 1/],
    [{ iterations: 1.5 }, /body\.iterations: must be integer/],
    [{ iterations: '10' }, /body\.iterations: must be integer/],
    [{ iterations: 501 }, /body\.iterations: must be <= 500/],
    [{ iterations: 10, seed: -1 }, /body\.seed/],
    [{ iterations: 10, settings: { gravity: 'strong' } }, /body\.settings\.gravity/],
    [{ iterations: 10, colour: 1 }, /body\.colour: is not a known field/],
  ] as const) {
    const response = await server.api('/api/graph/layout/compute', json(body));
    t.equal(response.status, 400, JSON.stringify(body));
    t.match(response.body.error, { code: 'INVALID_PARAMETER', message: field });
  }
  t.equal((await server.api('/api/graph/layout/compute', { method: 'POST' })).status, 400, 'no body');
});
