// Work per request is bounded (issue 19, point 4): a layout save larger than
// the graph could use is refused before it is read; bodies over 1 MiB are
// parsed and checked a slice at a time with the same answers as small ones;
// large requests are handled one at a time, with a bounded queue, while
// small requests go on being answered.
import { connect, type Socket } from 'node:net';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { type RawAnswer, readAnswer } from '../helpers/raw-http.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const MIB = 1024 * 1024;

const repo = await makeRepo(t, SAMPLE_REPO);
const server = await startTestServer(t, repo);
const graph = await server.api('/api/graph');
const nodeIds: string[] = graph.body.data.nodes.map((node: { id: string }) => node.id);
const layoutLimit = MIB + nodeIds.length * 512;

/** Opens a connection and sends a layout save's headers declaring `length` bytes of body, and none of the body. */
function headersOnly(length: number, to: { url: string } = server): Promise<{ socket: Socket; answer: Promise<RawAnswer> }> {
  const { hostname, port } = new URL(to.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname }, () => {
      socket.write(
        `POST /api/graph/layout HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`,
      );
      resolve({ socket, answer: readAnswer(socket) });
    });
    socket.once('error', reject);
  });
}

/**
 * A save's body of about `bytes` bytes: every node of the graph at (i, -i), then unknown ids until the size is
 * reached; `last` is written as the final entry when given.
 */
function bigSave(bytes: number, last?: [string, unknown]): { text: string; unknown: string[] } {
  const positions: Record<string, unknown> = {};
  for (const [i, id] of nodeIds.entries()) positions[id] = { x: i, y: -i };
  const unknown: string[] = [];
  // Ids with escapes and characters beyond ASCII, so that slices of the body cut through them.
  let size = Buffer.byteLength(JSON.stringify({ positions }));
  for (let i = 0; size < bytes - 200; i++) {
    const id = `gone:src/é\u{1F600}/"quoted"\\${String(i).padStart(6, '0')}.ts`;
    unknown.push(id);
    positions[id] = { x: i / 3, y: 1e-7 * i };
    size += Buffer.byteLength(JSON.stringify(id)) + JSON.stringify(positions[id]).length + 2;
  }
  // Defined, not assigned: `positions['__proto__'] = ...` would set the object's prototype, not a key.
  if (last) Object.defineProperty(positions, last[0], { value: last[1], enumerable: true, configurable: true, writable: true });
  return { text: JSON.stringify({ positions }), unknown };
}

async function save(text: string, to: { url: string } = server): Promise<{ status: number; body: any }> {
  const response = await fetch(`${to.url}/api/graph/layout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
  return { status: response.status, body: await response.json() };
}

t.test('a layout save larger than the graph could use is answered 413 before its body is read', async (t) => {
  const { socket, answer } = await headersOnly(layoutLimit + 1);
  t.teardown(() => socket.destroy());
  const refused = await answer;
  t.equal(refused.status, 413);
  const error = JSON.parse(refused.body).error;
  t.equal(error.code, 'PAYLOAD_TOO_LARGE');
  t.match(
    error.message,
    new RegExp(
      `larger than the limit of ${layoutLimit} bytes \\(a layout of this graph: 512 bytes for each of its ${nodeIds.length} nodes, plus ${MIB} bytes\\)`,
    ),
  );
  t.equal((await server.api('/api/graph')).status, 200, 'the server answers on');
});

t.test('a body over 1 MiB is parsed and checked a slice at a time, with the answers a small one gets', async (t) => {
  const { text, unknown } = bigSave(MIB + 8 * 1024, ['__proto__', { x: 5, y: 5 }]);
  const bytes = Buffer.byteLength(text);
  t.ok(bytes > MIB && bytes < layoutLimit, `the body (${bytes} bytes) is large and within the limit`);
  const saved = await save(text);
  t.equal(saved.status, 200);
  t.equal(saved.body.data.saved, nodeIds.length, 'every node of the graph saved');
  t.equal(saved.body.data.ignored, unknown.length + 1, 'the unknown ids and "__proto__" ignored and counted');
  t.same(saved.body.data.ignoredIds, unknown.slice(0, 20), 'named in order, escapes and all characters intact');
  const node = (await server.api(`/api/graph/nodes/${encodeURIComponent(nodeIds[3]!)}`)).body.data;
  t.same(node.position, { x: 3, y: -3 });

  const wrongType = await save(bigSave(MIB + 8 * 1024, ['last-one', { x: '1', y: 2 }]).text);
  t.equal(wrongType.status, 400);
  t.same(wrongType.body.error, { code: 'INVALID_PARAMETER', message: 'body.positions["last-one"].x: must be number' }, 'the field named as for a small body');
  const small = await save(JSON.stringify({ positions: { 'last-one': { x: '1', y: 2 } } }));
  t.same(small.body.error, wrongType.body.error, 'the same error for a small body');

  const unknownField = await save(`{"extra":true,${bigSave(MIB + 8 * 1024).text.slice(1)}`);
  t.same(unknownField.body.error, { code: 'INVALID_PARAMETER', message: 'body.extra: is not a known field' });

  const cut = await save(text.slice(0, -10));
  t.equal(cut.status, 400);
  t.equal(cut.body.error.code, 'INVALID_JSON');
  t.match(cut.body.error.message, /^request body is not valid JSON: /);
  const trailing = await save(`${text} x`);
  t.equal(trailing.body.error.code, 'INVALID_JSON', 'nothing may follow the value');
  const layout = (await server.api(`/api/graph/nodes/${encodeURIComponent(nodeIds[3]!)}`)).body.data;
  t.same(layout.position, { x: 3, y: -3 }, 'the refused saves changed nothing');
});

t.test('large requests go one at a time: 64 wait, one more is answered 503, and small requests are answered meanwhile', async (t) => {
  // A server of its own, with time enough to send a request: the gate refuses early when the requests ahead would take
  // over half of it at the pace of the last large ones, and the saves above, made on a busy machine, set a slow pace
  // (a CI run was refused at 31 s expected, with 64 not yet waiting). That rule has its own test, below.
  const own = await startTestServer(t, repo, { flags: { requestTimeoutMs: 600_000 } });
  const length = MIB + 4096;
  // The first takes its turn and waits for a body that never comes; the next 64 wait for their turn.
  const held: Array<{ socket: Socket; answer: Promise<RawAnswer> }> = [];
  t.teardown(() => {
    for (const { socket } of held) socket.destroy();
  });
  for (let i = 0; i < 65; i++) held.push(await headersOnly(length, own));
  const health = await own.api('/api/graph/layout/compute/status');
  t.equal(health.status, 200, 'a small request is answered while large ones wait');

  const extra = await headersOnly(length, own);
  held.push(extra);
  const refused = await extra.answer;
  t.equal(refused.status, 503);
  t.match(refused.headers, /retry-after: \d+/i, 'with the expected wait to retry after');
  const error = JSON.parse(refused.body).error;
  t.equal(error.code, 'TOO_MANY_LARGE_REQUESTS');
  t.match(error.message, /64 requests with a large body are waiting/);

  // Those clients go away: their places are freed, and a large save goes through.
  for (const { socket } of held) socket.destroy();
  const { text } = bigSave(MIB + 8 * 1024);
  let after = await save(text, own);
  for (let i = 0; i < 50 && after.status === 503; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    after = await save(text, own);
  }
  t.equal(after.status, 200, 'a large save is handled once the others are gone');
});

t.test('a large request that would wait longer than half of requestTimeoutMs is answered 503 at once, not 408 later', async (t) => {
  const quick = await startTestServer(t, repo, { flags: { requestTimeoutMs: 2000 } });
  const { hostname, port } = new URL(quick.url);
  // One large save handled: the server learns how long such a body takes.
  const { text } = bigSave(MIB + 8 * 1024);
  const first = await fetch(`${quick.url}/api/graph/layout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
  t.equal(first.status, 200);
  const held: Socket[] = [];
  t.teardown(() => {
    for (const socket of held) socket.destroy();
  });
  let refused: RawAnswer | undefined;
  for (let i = 0; i < 63 && !refused; i++) {
    const socket = connect({ port: Number(port), host: hostname });
    held.push(socket);
    const answer = readAnswer(socket);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`POST /api/graph/layout HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${MIB + 4096}\r\n\r\n`);
    const early = await Promise.race([answer, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 50))]);
    if (early?.status === 503) refused = early;
  }
  t.ok(refused, 'a request was refused before 64 were waiting');
  const error = JSON.parse(refused!.body).error;
  t.equal(error.code, 'TOO_MANY_LARGE_REQUESTS');
  t.match(error.message, /the requests with a large body ahead of it would take about \d+ s/);
  t.match(refused!.headers, /retry-after: \d+/i);
});
