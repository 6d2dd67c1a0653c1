import { appendFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { makeRepo, SAMPLE_REPO, writeFiles } from '../helpers/fixture-repo.ts';
import { nodePath, postJson, startTestServer } from '../helpers/strata-server.ts';

t.test('POST /api/graph/layout saves positions that GET /api/graph and the node show', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const saved = await server.api(
    '/api/graph/layout',
    postJson({
      positions: { 'dir:.': { x: 0, y: 0 }, 'file:src/index.ts': { x: 1.5, y: -2.25 }, 'file:gone.ts': { x: 1, y: 1 } },
    }),
  );
  t.equal(saved.status, 200);
  t.match(saved.body.meta.timestamp, /Z$/);
  t.same(saved.body.data, { saved: 2, ignored: 1, ignoredIds: ['file:gone.ts'] }, 'ids not in the graph are ignored and counted');

  const graph = (await server.api('/api/graph')).body;
  const byId = new Map(graph.data.nodes.map((node: { id: string }) => [node.id, node]));
  t.same((byId.get('file:src/index.ts') as { position: unknown }).position, { x: 1.5, y: -2.25 });
  t.same((byId.get('dir:.') as { position: unknown }).position, { x: 0, y: 0 });
  t.notOk('position' in (byId.get('file:src/types.ts') as object), 'nodes without a saved position carry none');
  t.equal(graph.meta.positionCount, 2);

  const node = await server.api(nodePath('file:src/index.ts'));
  t.same(node.body.data.position, { x: 1.5, y: -2.25 });
});

t.test('a save replaces the saved set as a whole, and DELETE clears it', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  await server.api('/api/graph/layout', postJson({ positions: { 'file:src/index.ts': { x: 1, y: 1 }, 'file:src/types.ts': { x: 2, y: 2 } } }));
  await server.api('/api/graph/layout', postJson({ positions: { 'file:src/lazy.ts': { x: 3, y: 3 } } }));
  let nodes = (await server.api('/api/graph')).body.data.nodes as Array<{ id: string; position?: unknown }>;
  t.same(
    nodes.filter((node) => node.position).map((node) => node.id),
    ['file:src/lazy.ts'],
    'only the last set is kept',
  );

  const cleared = await server.api('/api/graph/layout', { method: 'DELETE' });
  t.equal(cleared.status, 200);
  t.same(cleared.body.data, { cleared: 1 });
  nodes = (await server.api('/api/graph')).body.data.nodes;
  t.equal(nodes.filter((node) => node.position).length, 0);
  t.same((await server.api('/api/graph/layout', { method: 'DELETE' })).body.data, { cleared: 0 }, 'clearing nothing is harmless');
});

t.test('saved positions survive a restart and a re-index', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const first = await startTestServer(t, repo);
  await first.api('/api/graph/layout', postJson({ positions: { 'file:src/index.ts': { x: 10, y: 20 }, 'dir:src': { x: -1, y: 1e-9 } } }));
  await first.stop();

  // The repository changes between runs: a new file, one removed.
  await writeFiles(repo, { 'src/new.ts': 'export {};\n' });
  await rm(path.join(repo, 'src/lazy.ts'));
  const second = await startTestServer(t, repo);
  const nodes = (await second.api('/api/graph')).body.data.nodes as Array<{ id: string; position?: unknown }>;
  const positions = Object.fromEntries(nodes.filter((node) => node.position).map((node) => [node.id, node.position]));
  t.same(positions, { 'dir:src': { x: -1, y: 1e-9 }, 'file:src/index.ts': { x: 10, y: 20 } });
});

t.test('a save cut short (a crash mid-write) does not stop the next start; the file as it was is kept', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const first = await startTestServer(t, repo);
  await first.api('/api/graph/layout', postJson({ positions: { 'dir:src': { x: 1, y: 2 } } }));
  await first.stop();
  // What a process killed while appending its next save leaves: half a line.
  const storeFile = path.join(repo, '.strata', 'layout.db');
  await appendFile(storeFile, '{"_id":"positions","ids":["dir:src","file:src/ind');
  const before = await readFile(storeFile);

  const second = await startTestServer(t, repo);
  const nodes = (await second.api('/api/graph')).body.data.nodes as Array<{ id: string; position?: unknown }>;
  t.same(nodes.find((node) => node.id === 'dir:src')?.position, { x: 1, y: 2 }, 'the last whole save is loaded');
  const warning = second.logs.find((record) => record.level === 'warn' && typeof record.copy === 'string');
  t.match(warning, { file: storeFile, unreadableLines: 1, lines: 2 }, 'a warning names the file and the lines');
  t.same(await readFile(warning!.copy as string), before, 'the file as it was is kept, byte for byte');
  t.equal((await second.api('/api/graph/layout', postJson({ positions: { 'dir:.': { x: 5, y: 5 } } }))).status, 200, 'saves work again');
  await second.stop();

  // A file that is all garbage: the start goes on with an empty layout, the garbage kept.
  await writeFile(storeFile, 'not a store\nat all\n');
  const third = await startTestServer(t, repo);
  t.equal((await third.api('/api/graph')).body.meta.positionCount, 0);
  const copies = (await readdir(path.join(repo, '.strata'))).filter((name) => name.startsWith('layout.db.unreadable-'));
  t.equal(copies.length, 2, 'each unreadable file is kept');
});

t.test('bad layout bodies are 400 with a code and a message naming the field', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const cases: Array<{ name: string; init: RequestInit; status: number; code: string; message: RegExp }> = [
    { name: 'no body', init: { method: 'POST' }, status: 400, code: 'INVALID_PARAMETER', message: /^body: is required/ },
    {
      name: 'malformed JSON',
      init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"positions": {' },
      status: 400,
      code: 'INVALID_JSON',
      message: /not valid JSON/,
    },
    { name: 'not an object', init: postJson([1, 2]), status: 400, code: 'INVALID_PARAMETER', message: /^body: must be object/ },
    { name: 'missing positions', init: postJson({}), status: 400, code: 'INVALID_PARAMETER', message: /^body\.positions: is required/ },
    {
      name: 'unknown field',
      init: postJson({ positions: {}, extra: 1 }),
      status: 400,
      code: 'INVALID_PARAMETER',
      message: /^body\.extra: is not a known field/,
    },
    {
      name: 'string coordinate',
      init: postJson({ positions: { 'file:src/index.ts': { x: '1', y: 2 } } }),
      status: 400,
      code: 'INVALID_PARAMETER',
      message: /^body\.positions\["file:src\/index\.ts"\]\.x: must be number/,
    },
    {
      name: 'missing coordinate',
      init: postJson({ positions: { 'dir:.': { x: 1 } } }),
      status: 400,
      code: 'INVALID_PARAMETER',
      message: /^body\.positions\["dir:\."\]\.y: is required/,
    },
    {
      name: 'null position',
      init: postJson({ positions: { 'dir:.': null } }),
      status: 400,
      code: 'INVALID_PARAMETER',
      message: /^body\.positions\["dir:\."\]: must be object/,
    },
    {
      name: 'infinite coordinate',
      init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"positions":{"dir:src":{"x":1e400,"y":0}}}' },
      status: 400,
      code: 'INVALID_PARAMETER',
      message: /^body\.positions\["dir:src"\]: x and y must be finite numbers/,
    },
    {
      name: 'wrong content type',
      init: { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"positions":{}}' },
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: /application\/json/,
    },
    {
      name: 'a +json type',
      init: { method: 'POST', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"positions":{}}' },
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: /^Content-Type must be application\/json, not "application\/merge-patch\+json"/,
    },
    {
      name: 'another charset',
      init: { method: 'POST', headers: { 'content-type': 'application/json; charset=ISO-8859-1' }, body: '{"positions":{}}' },
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: /charset "iso-8859-1" is not supported/,
    },
    {
      name: 'empty charset',
      init: { method: 'POST', headers: { 'content-type': 'application/json; charset=' }, body: '{"positions":{}}' },
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: /charset "" is not supported/,
    },
    {
      name: 'no content type',
      init: { method: 'POST', body: new Blob(['{"positions":{}}']) },
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: /needs the header Content-Type: application\/json/,
    },
    {
      name: 'only white space',
      init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: ' \n\t ' },
      status: 400,
      code: 'INVALID_PARAMETER',
      message: /^body: is required/,
    },
    {
      name: 'unknown content encoding',
      init: { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'zstd-ish' }, body: '{}' },
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: /Content-Encoding "zstd-ish"/,
    },
    {
      name: 'gzip header on plain bytes',
      init: { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: '{"positions":{}}' },
      status: 400,
      code: 'BAD_REQUEST',
      message: /not valid gzip/,
    },
  ];
  await server.api('/api/graph/layout', postJson({ positions: { 'dir:.': { x: 7, y: 7 } } }));
  for (const c of cases) {
    const { status, body } = await server.api('/api/graph/layout', c.init);
    t.equal(status, c.status, `${c.name}: status`);
    t.equal(body?.error?.code, c.code, `${c.name}: code`);
    t.match(body?.error?.message, c.message, `${c.name}: message`);
  }
  const nodes = (await server.api('/api/graph')).body.data.nodes as Array<{ id: string; position?: unknown }>;
  t.same(nodes.find((node) => node.id === 'dir:.')?.position, { x: 7, y: 7 }, 'no bad request lost the saved layout');
});

t.test('a JSON body may name its charset when it is UTF-8', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  for (const type of ['application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"', 'application/json; charset=utf8']) {
    const body = JSON.stringify({ positions: { 'dir:src': { x: type.length, y: 0 } } });
    const { status } = await server.api('/api/graph/layout', { method: 'POST', headers: { 'content-type': type }, body });
    t.equal(status, 200, type);
  }
  const nodes = (await server.api('/api/graph')).body.data.nodes as Array<{ id: string; position?: unknown }>;
  t.same(nodes.find((node) => node.id === 'dir:src')?.position, { x: 'application/json; charset=utf8'.length, y: 0 });
});

t.test('an unexpected failure is 500 with a generic message, logged with its stack', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  // The store's file turns into a directory under the host's feet: writes fail.
  const storeFile = path.join(repo, '.strata', 'layout.db');
  await rename(storeFile, `${storeFile}.moved`);
  await mkdir(storeFile);
  const { status, headers, body } = await server.api('/api/graph/layout', postJson({ positions: { 'dir:.': { x: 1, y: 1 } } }));
  t.equal(status, 500);
  t.equal(body.error.code, 'INTERNAL_ERROR');
  t.match(body.error.message, /^unexpected server error; the server log has the details under request id /);
  t.notMatch(body.error.message, /EISDIR|layout\.db|at /, 'no internals reach the client');
  const logged = server.logs.find((record) => record.reqId === headers.get('x-request-id') && record.err);
  t.ok(logged, 'the failure is logged under the request id');
  t.match((logged?.err as { stack?: string })?.stack, /EISDIR/, 'with its stack');
  t.equal((await server.api('/api/graph')).status, 200, 'the server keeps serving');
  // Put the disk right again so that the host can stop cleanly.
  await rm(storeFile, { recursive: true });
  await rename(`${storeFile}.moved`, storeFile);
});
