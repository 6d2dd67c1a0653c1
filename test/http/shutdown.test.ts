import http from 'node:http';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { nodePath, startTestServer } from '../helpers/strata-server.ts';

interface Answer {
  status: number;
  connection: string | undefined;
  body: any;
}

/**
 * Sends a layout save on `agent` in two parts: the headers, with
 * `Expect: 100-continue` (the server's "100 Continue" tells that it has them),
 * then, once `beforeBody` resolves, the body.
 */
function saveInTwoParts(url: string, agent: http.Agent, positions: Record<string, { x: number; y: number }>, beforeBody: () => Promise<void>): Promise<Answer> {
  const body = JSON.stringify({ positions });
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}/api/graph/layout`, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
    });
    request.once('continue', () => beforeBody().then(() => request.end(body), reject));
    request.once('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.once('end', () => resolve({ status: response.statusCode!, connection: response.headers.connection, body: JSON.parse(text) }));
    });
    request.once('error', reject);
  });
}

t.test('stopping answers a request in flight in full, then closes its kept-alive connection', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  // A client that keeps connections open for reuse, as browsers and proxies do.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());

  const warmUp = await saveInTwoParts(server.url, agent, { 'file:src/index.ts': { x: 1, y: 1 } }, async () => {});
  t.equal(warmUp.status, 200);
  t.not(warmUp.connection, 'close', 'before stopping, the connection is kept for the next request');
  const socket = Object.values(agent.freeSockets).flat()[0]!;
  t.ok(socket, 'the connection waits in the agent for reuse');
  const socketClosed = new Promise<void>((resolve) => socket.once('close', () => resolve()));

  let stopped: Promise<void> | undefined;
  const answer = await saveInTwoParts(server.url, agent, { 'file:src/index.ts': { x: 7, y: 7 } }, async () => {
    // The server has this request's headers: it is in flight when stopping begins.
    stopped = server.stop();
    await until(() => server.logs.some((record) => record.msg === 'closing: answering the requests in flight'));
  });
  t.equal(answer.status, 200, 'the request in flight is answered');
  t.same(answer.body.data, { saved: 1, ignored: 0, ignoredIds: [] }, 'and its save is done');
  t.equal(answer.connection, 'close', 'the answer tells the client that the connection ends');
  // Without `Connection: close`, a client sending request after request on this connection would keep the server open.
  await socketClosed;
  await stopped;
  const closing = server.logs.find((record) => record.msg === 'closing: answering the requests in flight');
  t.equal(closing?.inFlight, 1, 'the log tells how many requests were in flight');

  const restarted = await startTestServer(t, repo);
  const node = await restarted.api(nodePath('file:src/index.ts'));
  t.same(node.body.data.position, { x: 7, y: 7 }, 'the save answered while stopping was kept');
});

/** Resolves once `condition` holds (checked every 10 ms). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}
