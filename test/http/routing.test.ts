import http from 'node:http';
import t from 'tap';
import { SAMPLE_REPO, makeRepo } from '../helpers/fixture-repo.ts';
import { request, startTestServer } from '../helpers/strata-server.ts';

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

t.test('a known path with another method is 405 METHOD_NOT_ALLOWED', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const { status, body } = await server.api('/api/graph', { method: 'PUT' });
  t.equal(status, 405);
  t.same(body, { error: { code: 'METHOD_NOT_ALLOWED', message: '/api/graph does not accept PUT' } });
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
  t.equal((await server.api('/api/graph', { headers: { authorization: 'Bearer wrong' } })).status, 401);
  const ok = await request(server.url, '/api/graph', { headers: { authorization: `Bearer ${token}` } });
  t.equal(ok.status, 200);
  // Paths the router decodes or resolves to the API's need the token too, for reading and for writing.
  const raw = (method: string, rawPath: string, body?: string): Promise<number> => new Promise((resolve, reject) => {
    const sent = http.request(`${server.url}${rawPath}`, { method, path: rawPath, headers: body ? { 'content-type': 'application/json' } : {} }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
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
