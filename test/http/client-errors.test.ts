// Requests that Node's HTTP parser refuses before any route runs are answered in the API's error shape.
import { connect } from 'node:net';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { type RawAnswer, readRawAnswer } from '../helpers/raw-http.ts';
import { startTestServer, type TestServer } from '../helpers/strata-server.ts';

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
function rawExchange(server: TestServer, bytes: Buffer | string): Promise<RawAnswer> {
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname, () => socket.end(bytes));
  return readRawAnswer(socket);
}

t.test('bad Content-Length, a raw non-ASCII byte in the path, an unknown method, a URL over 16 KB: JSON errors, and the server serves on', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const host = new URL(server.url).host;
  const cases: Array<[string, Buffer | string, number, string, RegExp]> = [
    [
      'a Content-Length that is not a number',
      `POST /api/graph/layout HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}`,
      400,
      'BAD_REQUEST',
      /Content-Length is not a number/,
    ],
    [
      'a raw byte 0xff in the path',
      Buffer.concat([Buffer.from('GET /api/graph/nodes/'), Buffer.from([0xff]), Buffer.from(` HTTP/1.1\r\nHost: ${host}\r\n\r\n`)]),
      400,
      'BAD_REQUEST',
      /percent-encoded/,
    ],
    ['an unknown method', `BREW /api/graph HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 400, 'BAD_REQUEST', /unknown method/],
    ['a URL over 16 KB', `GET /api/graph/nodes/${'a'.repeat(17_000)} HTTP/1.1\r\nHost: ${host}\r\n\r\n`, 431, 'HEADERS_TOO_LARGE', /over 16 KB/],
  ];
  for (const [what, bytes, status, code, message] of cases) {
    const answer = await rawExchange(server, bytes);
    t.equal(answer.status, status, `${what}: ${status}`);
    t.match(answer.headers, /content-type: application\/json/i, `${what}: JSON`);
    const body = JSON.parse(answer.body);
    t.equal(body.error.code, code, `${what}: ${code}`);
    t.match(body.error.message, message);
  }
  t.equal((await server.api('/api/graph')).status, 200, 'still serving');
});

t.test('a body that is not valid UTF-8 is refused (415), not read with replacement characters', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const body = Buffer.concat([Buffer.from('{"positions":{"'), Buffer.from([0xff, 0xfe]), Buffer.from('":{"x":1,"y":2}}}')]);
  const answer = await server.api('/api/graph/layout', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  t.equal(answer.status, 415);
  t.equal(answer.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
  t.match(answer.body.error.message, /not valid UTF-8/);
  t.equal((await server.api('/api/graph')).body.meta.positionCount, 0, 'nothing saved');
  const withBom = await server.api('/api/graph/layout', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '\uFEFF{"positions":{"file:src/index.ts":{"x":1,"y":2}}}',
  });
  t.equal(withBom.status, 200, 'a byte order mark is fine');
});
