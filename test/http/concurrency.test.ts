import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { nodePath, postJson, startTestServer } from '../helpers/strata-server.ts';

t.test('100 concurrent requests of every kind are all answered correctly', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const ids = ['dir:.', 'dir:src', 'file:src/index.ts', 'file:src/util/format.ts', 'file:README.md'];
  const requests = Array.from({ length: 100 }, (_, i) => {
    switch (i % 5) {
      case 0:
        return server.api('/api/graph').then((r) => ({ i, kind: 'graph', ...r }));
      case 1:
        return server.api(nodePath(ids[i % ids.length]!)).then((r) => ({ i, kind: 'node', ...r }));
      case 2:
        return server.api('/api/graph/layout', postJson({ positions: { 'file:src/index.ts': { x: i, y: i } } })).then((r) => ({ i, kind: 'save', ...r }));
      case 3:
        return server.api(nodePath(`file:missing-${i}.ts`)).then((r) => ({ i, kind: 'missing', ...r }));
      default:
        return server.api('/api/openapi.json').then((r) => ({ i, kind: 'openapi', ...r }));
    }
  });
  const answers = await Promise.all(requests);
  const nodeCount = (await server.api('/api/graph')).body.meta.nodeCount;
  const expected: Record<string, number> = { graph: 200, node: 200, save: 200, missing: 404, openapi: 200 };
  const wrong = answers.filter((answer) => answer.status !== expected[answer.kind]);
  t.same(
    wrong.map((a) => `${a.kind} ${a.i}: ${a.status}`),
    [],
    'every request got its expected status',
  );
  for (const answer of answers.filter((a) => a.kind === 'graph')) t.equal(answer.body.data.nodes.length, nodeCount);
  for (const answer of answers.filter((a) => a.kind === 'save')) t.same(answer.body.data, { saved: 1, ignored: 0, ignoredIds: [] });

  // Saves ran one after the other: the one kept is one that was sent, whole.
  const node = await server.api(nodePath('file:src/index.ts'));
  const { x, y } = node.body.data.position;
  t.equal(x, y);
  t.ok(
    answers.some((a) => a.kind === 'save' && a.i === x),
    'the kept position is one of those saved',
  );
});
