import { request as httpRequest } from 'node:http';
import t from 'tap';
import { LOC_PLUGIN, pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { startTestServer, type TestServer } from '../helpers/strata-server.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** A request with exactly these headers (fetch would not let a test set Host or Origin). */
function raw(server: TestServer, method: string, urlPath: string, headers: Record<string, string>, body = ''): Promise<RawAnswer> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path: urlPath, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, setHost: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text === '' ? undefined : JSON.parse(text);
          } catch {
            // the page, or an empty answer
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function withPlugin(t: { teardown(fn: () => unknown): void }, settings: Record<string, unknown> = {}): Promise<TestServer> {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [LOC_PLUGIN]);
  return startTestServer(t, repo, { flags: { plugins: { directories: [plugins] }, ...settings } });
}

t.test('DNS rebinding: a Host that is not a loopback name, an IP address or an allowed host is refused, the page included', async (t) => {
  const server = await withPlugin(t);
  const port = new URL(server.url).port;
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `app.localhost:${port}`, `10.1.2.3:${port}`, 'LOCALHOST']) {
    t.equal((await raw(server, 'GET', '/api/graph', { host })).status, 200, `Host: ${host}`);
  }
  for (const host of [`attacker.example:${port}`, 'attacker.example', `localhost.attacker.example:${port}`, 'user@localhost', '']) {
    for (const urlPath of ['/api/graph', '/', '/api/overlays']) {
      const answer = await raw(server, 'GET', urlPath, { host });
      t.equal(answer.status, 403, `Host: ${JSON.stringify(host)} ${urlPath}`);
      t.equal(answer.body?.error?.code, 'HOST_NOT_ALLOWED');
    }
  }
  const refused = await raw(server, 'GET', '/api/graph', { host: `attacker.example:${port}` });
  t.match(refused.body.error.message, /host "attacker\.example" is not allowed.*allowedHosts/);
  t.notOk(JSON.stringify(refused.body).includes('"nodes"'), 'no graph in the answer');
  // Nothing changed by a rebound page's writes either.
  const write = await raw(server, 'POST', '/api/overlays/loc/apply', { host: `attacker.example:${port}`, 'content-type': 'application/json' });
  t.equal(write.status, 403);
  t.equal((await server.api('/api/overlays/loc/status')).body.data.state, 'inactive');
});

t.test('allowedHosts lets names through, a leading dot a domain and its subdomains; the bound host name is allowed', async (t) => {
  const server = await withPlugin(t, { allowedHosts: ['strata.internal', '.corp.example'] });
  for (const host of ['strata.internal', 'strata.internal:5050', 'corp.example', 'a.b.corp.example:80'])
    t.equal((await raw(server, 'GET', '/api/graph', { host })).status, 200, host);
  for (const host of ['other.internal', 'xcorp.example', 'corp.example.attacker.test'])
    t.equal((await raw(server, 'GET', '/api/graph', { host })).status, 403, host);

  const repo = await makeRepo(t, SAMPLE_REPO);
  const named = await startTestServer(t, repo, { flags: { host: 'localhost' } });
  t.equal((await raw(named, 'GET', '/api/graph', { host: 'localhost' })).status, 200);
});

t.test(
  'a page of another origin cannot change state: applies, removals, layout saves, computations and cancels are refused, and nothing happens',
  async (t) => {
    const server = await withPlugin(t);
    const host = new URL(server.url).host;
    const foreign = { host, origin: 'http://evil.example', 'content-type': 'application/json' };
    const writes: Array<[string, string, string]> = [
      ['POST', '/api/overlays/loc/apply', ''],
      ['DELETE', '/api/overlays/loc/apply', ''],
      ['POST', '/api/graph/layout', '{"positions":{"file:src/index.ts":{"x":1,"y":2}}}'],
      ['DELETE', '/api/graph/layout', ''],
      ['POST', '/api/graph/layout/compute', '{"iterations":5}'],
      ['POST', '/api/graph/layout/compute/cancel', ''],
    ];
    for (const [method, urlPath, body] of writes) {
      for (const origin of ['http://evil.example', 'null', `http://${host}.evil.example`, `http://localhost:1`]) {
        const answer = await raw(server, method, urlPath, { ...foreign, origin }, body);
        t.equal(answer.status, 403, `${method} ${urlPath} from ${origin}`);
        t.equal(answer.body.error.code, 'ORIGIN_NOT_ALLOWED');
      }
    }
    t.match(
      (await raw(server, 'POST', '/api/overlays/loc/apply', foreign)).body.error.message,
      /origin "http:\/\/evil\.example" may not change anything here.*cors\.origins/,
    );
    t.equal((await server.api('/api/overlays/loc/status')).body.data.state, 'inactive', 'not applied');
    t.equal((await server.api('/api/graph')).body.meta.positionCount, 0, 'no layout saved');
    t.equal((await server.api('/api/graph/layout/compute/status')).body.data.state, 'idle', 'no computation started');

    // Reading is left to the browser's same-origin policy: no CORS header lets another origin read the answer.
    const read = await raw(server, 'GET', '/api/graph', { host, origin: 'http://evil.example' });
    t.equal(read.status, 200);
    t.equal(read.headers['access-control-allow-origin'], undefined, 'no CORS header for a foreign origin');
    const preflight = await raw(server, 'OPTIONS', '/api/overlays/loc/apply', { host, origin: 'http://evil.example', 'access-control-request-method': 'POST' });
    t.equal(preflight.status, 403, 'a preflight from a foreign origin is refused');
    t.equal(preflight.body.error.code, 'ORIGIN_NOT_ALLOWED');
  },
);

t.test("the server's own pages, and clients that are not browsers, still change state", async (t) => {
  const server = await withPlugin(t);
  const host = new URL(server.url).host;
  const own = await raw(server, 'POST', '/api/overlays/loc/apply', {
    host,
    origin: `http://${host}`,
    'sec-fetch-site': 'same-origin',
    'content-type': 'application/json',
  });
  t.equal(own.status, 200, 'the UI (same origin, JSON)');
  t.equal(
    (await raw(server, 'DELETE', '/api/overlays/loc/apply', { host, origin: `http://${host}`, 'content-type': 'application/json' })).status,
    200,
    'a removal from the UI',
  );
  t.equal((await raw(server, 'POST', '/api/overlays/loc/apply', { host })).status, 200, 'curl: no origin, no body, no content type');
  t.equal((await raw(server, 'DELETE', '/api/graph/layout', { host })).status, 200);
});

t.test('from a browser, a request that changes state must be JSON even when empty (a simple request needs no preflight)', async (t) => {
  const server = await withPlugin(t);
  const host = new URL(server.url).host;
  const browserRequests: Array<Record<string, string>> = [
    { origin: `http://${host}`, 'content-type': 'text/plain' },
    { origin: `http://${host}` },
    { 'sec-fetch-site': 'cross-site', 'content-type': 'application/x-www-form-urlencoded' },
    { 'sec-fetch-site': 'same-origin', 'content-type': 'multipart/form-data; boundary=x' },
  ];
  for (const headers of browserRequests) {
    const answer = await raw(server, 'POST', '/api/overlays/loc/apply', { host, ...headers });
    t.equal(answer.status, 415, JSON.stringify(headers));
    t.equal(answer.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
    t.match(answer.body.error.message, /Content-Type: application\/json, even with an empty body/);
  }
  t.equal((await server.api('/api/overlays/loc/status')).body.data.state, 'inactive');
});

t.test('cors.origins: a UI served elsewhere gets CORS headers, its preflights an answer, and may change state', async (t) => {
  const server = await withPlugin(t, { cors: { origins: ['https://ui.example.com'] } });
  const host = new URL(server.url).host;
  const preflight = await raw(server, 'OPTIONS', '/api/overlays/loc/apply', {
    host,
    origin: 'https://ui.example.com',
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'content-type,authorization',
  });
  t.equal(preflight.status, 204);
  t.equal(preflight.headers['access-control-allow-origin'], 'https://ui.example.com');
  t.match(preflight.headers['access-control-allow-methods'], /POST/);
  t.match(preflight.headers['access-control-allow-headers'], /Authorization/);
  t.match(preflight.headers.vary, /Origin/);
  const apply = await raw(server, 'POST', '/api/overlays/loc/apply', { host, origin: 'https://ui.example.com', 'content-type': 'application/json' });
  t.equal(apply.status, 200);
  t.equal(apply.headers['access-control-allow-origin'], 'https://ui.example.com');
  const read = await raw(server, 'GET', '/api/graph', { host, origin: 'https://ui.example.com' });
  t.equal(read.headers['access-control-allow-origin'], 'https://ui.example.com');
  t.equal(
    (await raw(server, 'POST', '/api/overlays/loc/apply', { host, origin: 'https://other.example.com', 'content-type': 'application/json' })).status,
    403,
    'other origins still not',
  );

  const repo = await makeRepo(t, SAMPLE_REPO);
  const bad = startTestServer(t, repo, { flags: { cors: { origins: ['ui.example.com/path'] } } });
  await t.rejects(bad, /cors-origins\[0\]: must match pattern/, 'an origin that is not scheme://host[:port] is a configuration error');
});
