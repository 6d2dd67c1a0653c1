// The start's background work (plugins loading, the model behind a saved graph) gives way to the requests being
// answered, and to the first clients after the URL is out, but is never held back for good: not by a client that
// asks again and again, nor by an event stream left open.
import t from 'tap';
import { LOC_PLUGIN, pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';

t.test('plugins load while a client asks back to back and an event stream stays open', async (t) => {
  const repository = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [LOC_PLUGIN]);
  const server = await startTestServer(t, repository, { flags: { plugins: { directories: [plugins] } } });
  // An event stream, opened at once and read for as long as the test runs.
  const events = new AbortController();
  t.teardown(() => events.abort());
  const stream = await fetch(`${server.url}/api/events`, { signal: events.signal });
  t.equal(stream.status, 200, 'the event stream is open');
  void stream.body?.pipeTo(new WritableStream()).catch(() => {});
  // A client that never leaves the server quiet: each request is sent as soon as the last is answered.
  let asking = true;
  let asked = 0;
  const client = (async () => {
    while (asking) {
      const response = await fetch(`${server.url}/api/graph/layout/compute/status`);
      await response.arrayBuffer();
      asked++;
    }
  })();
  try {
    // Waits for the plugins' loads: answered only once they are done, which the client and the stream must not stop.
    const { status, body } = await server.api('/api/overlays');
    t.equal(status, 200);
    t.match(
      body.plugins.find((plugin: { id: string }) => plugin.id === 'loc'),
      { id: 'loc', loaded: true, state: 'loaded' },
      'the plugin is loaded',
    );
    t.ok(
      server.logs.some((record) => record.msg === 'plugins loaded'),
      'the start logged its plugins loaded',
    );
  } finally {
    asking = false;
    await client;
  }
  t.ok(asked > 0, `the client was answered all along (${asked} answers)`);
});

t.test('a request asked as soon as the server is up is answered with the whole graph and the plugins after it', async (t) => {
  const repository = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [LOC_PLUGIN]);
  const server = await startTestServer(t, repository, { flags: { plugins: { directories: [plugins] } } });
  const [graph, overlays] = await Promise.all([server.api('/api/graph'), server.api('/api/overlays')]);
  t.equal(graph.status, 200);
  t.ok(
    graph.body.data.nodes.some((node: { id: string }) => node.id === 'file:src/index.ts'),
    'the graph is served',
  );
  t.equal(overlays.body.plugins.find((plugin: { id: string }) => plugin.id === 'loc')?.state, 'loaded', 'the overlays wait for the plugins, not list none');
});
