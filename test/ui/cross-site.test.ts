// What a hostile web page can do to a Strata server on the developer's machine, tried in the browser itself:
// a page of another origin sending every kind of request a page can send without the server's consent, and a
// name rebound to 127.0.0.1 (DNS rebinding: Chromium's --host-resolver-rules stands in for the attacker's DNS).
import { createServer, type Server } from 'node:http';
import t from 'tap';
import { launchBrowser } from '../helpers/browser.ts';
import { LOC_PLUGIN, pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';

/** A server of one page, standing for a site the developer happens to visit. */
async function attackerSite(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const site: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>elsewhere</title><p>nothing to see</p>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => site.close(resolve)));
  const { port } = site.address() as { port: number };
  return `http://evil.test:${port}`;
}

t.test('a page of another origin cannot apply, remove, save, compute or cancel, and cannot read the graph', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [LOC_PLUGIN]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const site = await attackerSite(t);
  const browser = await launchBrowser(t, ['--host-resolver-rules=MAP evil.test 127.0.0.1']);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(site);
  const strata = server.url;

  const outcomes = await page.evaluate(async (strata) => {
    const tries: Record<string, string> = {};
    const attempt = async (name: string, run: () => Promise<unknown>): Promise<void> => {
      try {
        const result = await run();
        tries[name] = result instanceof Response ? `answered ${result.type} ${result.status}` : String(result);
      } catch (error) {
        tries[name] = `failed: ${(error as Error).name}`;
      }
    };
    // Simple requests: no preflight, so the browser sends them; the answer is opaque to the page.
    await attempt('simple POST apply', () =>
      fetch(`${strata}/api/overlays/loc/apply`, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '' }),
    );
    await attempt('simple POST apply, no body', () => fetch(`${strata}/api/overlays/loc/apply`, { method: 'POST', mode: 'no-cors' }));
    await attempt('simple POST layout', () =>
      fetch(`${strata}/api/graph/layout`, {
        method: 'POST',
        mode: 'no-cors',
        headers: { 'content-type': 'text/plain' },
        body: '{"positions":{"file:src/index.ts":{"x":1,"y":2}}}',
      }),
    );
    await attempt('simple POST compute', () =>
      fetch(`${strata}/api/graph/layout/compute`, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"iterations":5}' }),
    );
    await attempt('beacon apply', async () => navigator.sendBeacon(`${strata}/api/overlays/loc/apply`, new Blob([''], { type: 'text/plain' })));
    // Requests that need a preflight (JSON, DELETE): the browser asks first, and the server says no.
    await attempt('JSON POST apply', () =>
      fetch(`${strata}/api/overlays/loc/apply`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    );
    await attempt('DELETE layout', () => fetch(`${strata}/api/graph/layout`, { method: 'DELETE' }));
    // Reading: the same-origin policy, with no CORS header from the server.
    await attempt('read graph', () => fetch(`${strata}/api/graph`));
    // A form posted into a hidden frame: a navigation, also a simple request.
    await attempt('form POST apply', async () => {
      const frame = document.createElement('iframe');
      frame.name = 'sink';
      document.body.append(frame);
      const form = document.createElement('form');
      form.method = 'POST';
      form.action = `${strata}/api/overlays/loc/apply`;
      form.target = 'sink';
      form.enctype = 'text/plain';
      document.body.append(form);
      const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
      form.submit();
      await loaded;
      return 'submitted';
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    return tries;
  }, strata);

  t.match(outcomes['JSON POST apply'], /^failed/, 'the preflighted POST is stopped by the browser');
  t.match(outcomes['DELETE layout'], /^failed/, 'the preflighted DELETE is stopped by the browser');
  t.match(outcomes['read graph'], /^failed/, 'the graph cannot be read');
  t.equal(outcomes['form POST apply'], 'submitted', 'the form was sent');
  t.equal((await server.api('/api/overlays/loc/status')).body.data.state, 'inactive', 'no overlay applied');
  t.equal((await server.api('/api/graph')).body.meta.positionCount, 0, 'no layout saved');
  t.equal((await server.api('/api/graph/layout/compute/status')).body.data.state, 'idle', 'no layout computed');
  const refused = server.logs.filter((line) => line.msg === 'request' && line.status === 403 && typeof line.url === 'string' && line.url.startsWith('/api/'));
  t.ok(refused.length >= 5, `the server refused what reached it (${refused.length} answers 403)`);
  await context.close();
});

t.test('a name rebound to 127.0.0.1 gets neither the page nor the API', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const browser = await launchBrowser(t, ['--host-resolver-rules=MAP evil.test 127.0.0.1']);
  const context = await browser.newContext();
  const page = await context.newPage();
  const port = new URL(server.url).port;
  for (const urlPath of ['/', '/api/graph']) {
    const response = await page.goto(`http://evil.test:${port}${urlPath}`);
    t.equal(response?.status(), 403, `http://evil.test:${port}${urlPath}`);
    t.match(await page.textContent('body'), /HOST_NOT_ALLOWED/);
  }
  const local = await page.goto(`http://localhost:${port}/api/graph`);
  t.equal(local?.status(), 200, 'localhost is answered');
  await context.close();
});
