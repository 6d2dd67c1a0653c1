import { brotliCompressSync, gzipSync } from 'node:zlib';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const LIMIT = 64 * 1024;

function layoutBody(count: number): string {
  const positions: Record<string, { x: number; y: number }> = {};
  for (let i = 0; i < count; i++) positions[`file:generated/${i}.ts`] = { x: i, y: -i };
  return JSON.stringify({ positions });
}

t.test('a body over the limit is 413 PAYLOAD_TOO_LARGE, sent plainly or compressed', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo, { flags: { maxBodyBytes: LIMIT } });
  const big = layoutBody(5000);
  t.ok(big.length > LIMIT);
  const json = { 'content-type': 'application/json' };

  const plain = await server.api('/api/graph/layout', { method: 'POST', headers: json, body: big });
  t.equal(plain.status, 413);
  t.equal(plain.body.error.code, 'PAYLOAD_TOO_LARGE');
  t.match(plain.body.error.message, new RegExp(`limit of ${LIMIT} bytes`));

  // No content-length: the limit is enforced while reading.
  const chunked = await server.api('/api/graph/layout', {
    method: 'POST',
    headers: json,
    duplex: 'half',
    body: new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    }),
  } as RequestInit);
  t.equal(chunked.status, 413, 'a chunked body is counted as it arrives');

  // A gzip bomb: small on the wire, enormous once inflated.
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
  t.ok(bomb.length < LIMIT, 'the bomb itself is under the limit');
  const inflated = await server.api('/api/graph/layout', { method: 'POST', headers: { ...json, 'content-encoding': 'gzip' }, body: bomb });
  t.equal(inflated.status, 413);
  t.match(inflated.body.error.message, /once decompressed/);

  const brotliBomb = brotliCompressSync(Buffer.alloc(32 * 1024 * 1024, 0x20));
  const brotli = await server.api('/api/graph/layout', { method: 'POST', headers: { ...json, 'content-encoding': 'br' }, body: brotliBomb });
  t.equal(brotli.status, 413);

  t.equal((await server.api('/api/graph')).status, 200, 'the host is still up and serving');
});

t.test('a compressed body within the limit is accepted', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo, { flags: { maxBodyBytes: LIMIT } });
  const body = gzipSync(JSON.stringify({ positions: { 'file:src/index.ts': { x: 4, y: 2 } } }));
  const { status, body: answer } = await server.api('/api/graph/layout', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    body,
  });
  t.equal(status, 200);
  t.same(answer.data, { saved: 1, ignored: 0, ignoredIds: [] });
});

t.test(
  'a layout save may be as large as its own limit: 512 bytes per node of the graph plus 1 MiB (a 100k-node graph: 52 MB, under maxBodyBytes)',
  async (t) => {
    const repo = await makeRepo(t, SAMPLE_REPO);
    const server = await startTestServer(t, repo);
    const nodes = (await server.api('/api/graph')).body.meta.nodeCount as number;
    const limit = 1024 * 1024 + nodes * 512;
    // 100,000 positions of a 100k-node graph take 3.8 MB: far below what such a graph may send.
    t.ok(layoutBody(100_000).length < 1024 * 1024 + 100_000 * 512);
    let count = 1;
    while (layoutBody(count * 2).length < limit) count *= 2;
    while (layoutBody(count + 1000).length < limit) count += 1000;
    const body = layoutBody(count);
    t.ok(body.length > limit - 64 * 1024 && body.length <= limit, `a body of ${body.length} bytes, near the limit of ${limit}`);
    const saved = await server.api('/api/graph/layout', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    t.equal(saved.status, 200);
    t.equal(saved.body.data.ignored, count);
  },
);

t.test('a client that disconnects in the middle of a body leaves the server serving', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const { port } = new URL(server.url);
  const { connect } = await import('node:net');
  for (let i = 0; i < 20; i++) {
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /api/graph/layout HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"positions": {`,
        );
        setTimeout(() => socket.destroy(), 20);
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
  }
  const { status } = await server.api('/api/graph');
  t.equal(status, 200, 'still serving');
  const aborted = server.logs.filter((record) => record.msg === 'request' && record.url === '/api/graph/layout');
  t.equal(aborted.length, 0, 'no answer was written to the clients that left');
});
