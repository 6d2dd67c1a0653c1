import http from 'node:http';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { nodePath, request, startTestServer } from '../helpers/strata-server.ts';

t.test('an unknown route is a 404 JSON error naming it', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  for (const path of ['/api/nope', '/api/graph/nodes', '/api/graph/nodes/a/b', '/elsewhere']) {
    const { status, headers, body } = await server.api(path);
    t.equal(status, 404, path);
    t.match(headers.get('content-type'), /^application\/json/);
    t.same(body, { error: { code: 'NOT_FOUND', message: `no route GET ${path}` } });
  }
});

t.test('a known path with another method is 405 METHOD_NOT_ALLOWED, naming the methods it allows', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const { status, headers, body } = await server.api('/api/graph', { method: 'PUT' });
  t.equal(status, 405);
  t.same(body, { error: { code: 'METHOD_NOT_ALLOWED', message: '/api/graph does not accept PUT' } });
  t.same(headers.get('allow')?.split(/,\s*/).sort(), ['GET', 'HEAD']);
  const head = await server.api('/api/graph/layout/compute/cancel', { method: 'HEAD' });
  t.equal(head.status, 405, 'HEAD only where GET is');
  t.same(head.headers.get('allow'), 'POST');
});

t.test('HEAD answers what GET would, without the body', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  for (const path of ['/api/graph', nodePath('file:src/index.ts'), '/api/overlays', '/api/openapi.json']) {
    // Bytes as sent: fetch would otherwise ask for gzip and undo it.
    const headers = { 'accept-encoding': 'identity' };
    const get = await fetch(server.url + path, { headers });
    const got = Buffer.from(await get.arrayBuffer());
    const head = await fetch(server.url + path, { method: 'HEAD', headers });
    t.equal(head.status, 200, `HEAD ${path}`);
    t.equal(head.headers.get('content-type'), get.headers.get('content-type'));
    t.equal(Number(head.headers.get('content-length')), got.length, `HEAD ${path}: the length GET sends`);
    t.equal((await head.arrayBuffer()).byteLength, 0, 'and no body');
  }
  const gzipHead = await fetch(`${server.url}/api/graph`, { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } });
  t.equal(gzipHead.headers.get('content-encoding'), 'gzip', 'HEAD names the encoding GET would use');
  const missing = await fetch(server.url + nodePath('file:nope.ts'), { method: 'HEAD' });
  t.equal(missing.status, 404, 'a missing node is 404 for HEAD too');
  // The event stream: its headers, then the answer ends (a stream left open would never end).
  const events = await fetch(`${server.url}/api/events`, { method: 'HEAD', signal: AbortSignal.timeout(5000) });
  t.equal(events.status, 200);
  t.equal(events.headers.get('content-type'), 'text/event-stream; charset=utf-8');
  t.equal((await events.arrayBuffer()).byteLength, 0);
});

t.test('a path that is not valid percent-encoding is 400 naming the parameter', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const cases: Array<[path: string, message: RegExp]> = [
    ['/api/graph/nodes/%ZZ', /^path parameter id: "%ZZ" is not valid percent-encoding/],
    ['/api/graph/nodes/file%3Asrc%2F%FF.ts', /^path parameter id: "file%3Asrc%2F%FF\.ts" is not valid percent-encoding .*UTF-8/],
    ['/api/graph/nodes/%E2%82', /^path parameter id: "%E2%82"/],
    ['/api/overlays/%zz/status', /^path parameter id: "%zz"/],
    ['/api/overlays/%/apply', /^path parameter id: "%"/],
    ['/api/gr%ZZaph', /^path: "gr%ZZaph" is not valid percent-encoding/],
  ];
  for (const [path, message] of cases) {
    const { status, body } = await server.api(path);
    t.equal(status, 400, path);
    t.equal(body?.error?.code, 'INVALID_PARAMETER', path);
    t.match(body?.error?.message, message, path);
  }
  t.equal((await server.api('/api/graph/nodes/%E2%82%AC')).status, 404, 'valid UTF-8 that names no node is 404');
  t.equal((await server.api(nodePath('file:src/index.ts'))).status, 200, 'an encoded id is found');
});

t.test('every response carries a request id; a sane incoming one is kept', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const generated = await server.api('/api/graph');
  t.match(generated.headers.get('x-request-id'), /^[0-9a-f-]{36}$/);
  const given = await server.api('/api/graph', { headers: { 'x-request-id': 'trace-42' } });
  t.equal(given.headers.get('x-request-id'), 'trace-42');
  const hostile = await server.api('/api/graph', { headers: { 'x-request-id': 'has spaces; and <tags>' } });
  t.not(hostile.headers.get('x-request-id'), 'has spaces; and <tags>');
  const logged = server.logs.find((record) => record.msg === 'request' && record.reqId === 'trace-42');
  t.match(logged, { method: 'GET', url: '/api/graph', status: 200 }, 'the access log names the request id');
});

t.test('with authToken set, /api needs the bearer token', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const token = 'a-long-enough-secret-token';
  const server = await startTestServer(t, repo, { env: { STRATA_AUTH_TOKEN: token } });
  const none = await server.api('/api/graph');
  t.equal(none.status, 401);
  t.equal(none.body.error.code, 'UNAUTHORIZED');
  t.equal(none.headers.get('www-authenticate'), 'Bearer realm="strata"', 'RFC 6750: the challenge names the scheme');
  t.match(none.body.error.message, /requires the header Authorization: Bearer <token>/);
  const wrong = await server.api('/api/graph', { headers: { authorization: 'Bearer wrong' } });
  t.equal(wrong.status, 401);
  t.equal(wrong.headers.get('www-authenticate'), 'Bearer realm="strata", error="invalid_token"', 'a wrong token is told apart from none');
  t.match(wrong.body.error.message, /is not the one this server is configured with/);
  t.equal(
    (await server.api('/api/graph', { headers: { authorization: `Basic ${Buffer.from(`u:${token}`).toString('base64')}` } })).status,
    401,
    'another scheme',
  );
  const ok = await request(server.url, '/api/graph', { headers: { authorization: `Bearer ${token}` } });
  t.equal(ok.status, 200);
  // Paths the router decodes or resolves to the API's need the token too, for reading and for writing.
  const raw = (method: string, rawPath: string, body?: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const sent = http.request(
        `${server.url}${rawPath}`,
        { method, path: rawPath, headers: body ? { 'content-type': 'application/json' } : {} },
        (response) => {
          response.resume();
          resolve(response.statusCode!);
        },
      );
      sent.once('error', reject);
      sent.end(body);
    });
  for (const rawPath of ['/%61pi/graph', '/x/../api/graph', '/api/../api/graph', '/%61pi/events']) t.equal(await raw('GET', rawPath), 401, `GET ${rawPath}`);
  t.equal(await raw('POST', '/x/../api/graph/layout', JSON.stringify({ positions: { 'dir:.': { x: 42, y: 42 } } })), 401, 'POST through a dot segment');
  t.equal(await raw('DELETE', '/%61pi/graph/layout'), 401, 'DELETE through an encoded letter');
});

t.test('without authToken, requests carry no credentials (spec 5.1)', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  t.equal((await server.api('/api/graph')).status, 200);
});
