import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { type FixtureFiles, makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { postJson, startTestServer } from '../helpers/strata-server.ts';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET with the headers given and nothing added (fetch would ask for and undo gzip by itself). */
function rawGet(baseUrl: string, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = http.get(`${baseUrl}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    sent.on('error', reject);
  });
}

/** The answer's JSON without the timestamp, which differs from request to request. */
function withoutTimestamp(bytes: Buffer): unknown {
  const parsed = JSON.parse(bytes.toString('utf8')) as { meta?: { timestamp?: string } };
  delete parsed.meta?.timestamp;
  return parsed;
}

/** About 400 files importing each other: a serialized graph well over 64 KB, which is compressed once and kept. */
function largeRepo(): FixtureFiles {
  const files: FixtureFiles = { 'package.json': JSON.stringify({ name: 'large', type: 'module' }) };
  for (let i = 0; i < 400; i++) {
    files[`src/area${i % 20}/module${i}.ts`] =
      `import { f${(i + 1) % 400} } from '../area${((i + 1) % 400) % 20}/module${(i + 1) % 400}.js';\nexport function f${i}(): number { return f${(i + 1) % 400}.length; }\n`;
  }
  return files;
}

t.test('GET /api/graph answers gzip when asked, the same JSON as without', async (t) => {
  for (const [name, files] of [
    ['small graph', SAMPLE_REPO],
    ['large graph', largeRepo()],
  ] as const) {
    const repo = await makeRepo(t, files);
    const server = await startTestServer(t, repo);
    const plain = await rawGet(server.url, '/api/graph', {});
    t.equal(plain.headers['content-encoding'], undefined, `${name}: no encoding unasked`);
    t.equal(plain.headers.vary, 'Accept-Encoding');
    // Twice: the second answer reuses what the first compressed.
    for (const round of [1, 2]) {
      const gzipped = await rawGet(server.url, '/api/graph', { 'accept-encoding': 'gzip, deflate, br' });
      t.equal(gzipped.status, 200);
      t.equal(gzipped.headers['content-encoding'], 'gzip', `${name} ${round}: gzip`);
      t.equal(gzipped.headers.vary, 'Accept-Encoding');
      t.equal(Number(gzipped.headers['content-length']), gzipped.body.length);
      t.ok(gzipped.body.length < plain.body.length / 3, `${name} ${round}: ${gzipped.body.length} bytes for ${plain.body.length}`);
      // gunzip checks the CRC-32 and the length in the trailer.
      t.same(withoutTimestamp(gunzipSync(gzipped.body)), withoutTimestamp(plain.body), `${name} ${round}: the same JSON`);
    }
    // A change makes a new graph body, compressed anew.
    await server.api('/api/graph/layout', postJson({ positions: { 'dir:.': { x: 3, y: 4 } } }));
    const changed = await rawGet(server.url, '/api/graph', { 'accept-encoding': 'gzip' });
    const graph = JSON.parse(gunzipSync(changed.body).toString('utf8')) as { data: { nodes: Array<{ id: string; position?: unknown }> } };
    t.same(graph.data.nodes.find((node) => node.id === 'dir:.')?.position, { x: 3, y: 4 }, `${name}: the answer after a change is the changed graph`);
    await server.stop();
  }
});

t.test('gzip only where the client prefers it, and only for bodies worth it', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  for (const acceptEncoding of ['gzip;q=0', 'identity', 'br', 'gzip;q=0.5, identity', '*;q=0, identity']) {
    const answer = await rawGet(server.url, '/api/graph', { 'accept-encoding': acceptEncoding });
    t.equal(answer.headers['content-encoding'], undefined, `Accept-Encoding: ${acceptEncoding}`);
    t.equal((withoutTimestamp(answer.body) as { data: { nodes: unknown[] } }).data.nodes.length > 0, true);
  }
  t.equal((await rawGet(server.url, '/api/graph', { 'accept-encoding': '*' })).headers['content-encoding'], 'gzip', 'Accept-Encoding: *');
  const status = await rawGet(server.url, '/api/graph/layout/compute/status', { 'accept-encoding': 'gzip' });
  t.equal(status.headers['content-encoding'], undefined, 'a body under 1 KB goes as it is');
  const missing = await rawGet(server.url, '/api/graph/nodes/nope', { 'accept-encoding': 'gzip' });
  t.equal(missing.status, 404);
  t.equal(JSON.parse(missing.body.toString('utf8')).error.code, 'NOT_FOUND', 'errors go as they are');
});

t.test('compressResponses: false turns gzip off', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo, { env: { STRATA_COMPRESS_RESPONSES: 'false' } });
  const answer = await rawGet(server.url, '/api/graph', { 'accept-encoding': 'gzip' });
  t.equal(answer.status, 200);
  t.equal(answer.headers['content-encoding'], undefined);
  t.equal(answer.headers.vary, undefined);
});
