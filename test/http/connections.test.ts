// Connections are capped (in all and per client address) and half-sent requests time out, so that idle connections
// can never take every file descriptor: one connection too many is answered 503 in the error shape, and the server
// serves again as soon as connections close.
import { connect, type Socket } from 'node:net';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { type RawAnswer, readRawAnswer } from '../helpers/raw-http.ts';
import { startTestServer, type TestServer } from '../helpers/strata-server.ts';

/** Opens a connection (from `localAddress` when given) and sends the start of a request that it never finishes. */
function halfSentRequest(server: TestServer, localAddress?: string): Promise<{ socket: Socket; answer: Promise<RawAnswer> }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, localAddress }, () => {
      socket.write(`GET /api/graph HTTP/1.1\r\nHost: ${hostname}\r\nX-Slow: `);
      resolve({ socket, answer: readRawAnswer(socket) });
    });
    socket.once('error', reject);
  });
}

/** Sends a whole GET on a new connection and reads the answer until the server closes it. */
async function exchange(server: TestServer, path: string, localAddress?: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(server.url);
  const socket = connect({ port: Number(port), host: hostname, localAddress }, () =>
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`),
  );
  return readRawAnswer(socket);
}

t.test(
  'one connection over maxConnections is answered 503 TOO_MANY_CONNECTIONS; half-sent requests are closed after headersTimeoutMs and the server serves again',
  async (t) => {
    const repo = await makeRepo(t, SAMPLE_REPO);
    const server = await startTestServer(t, repo, { flags: { maxConnections: 8, headersTimeoutMs: 1000 } });
    const held = await Promise.all(Array.from({ length: 8 }, () => halfSentRequest(server)));
    t.teardown(() => {
      for (const { socket } of held) socket.destroy();
    });

    const refused = await exchange(server, '/api/graph');
    t.equal(refused.status, 503, 'the ninth connection is refused');
    t.match(refused.headers, /content-type: application\/json/i);
    t.match(refused.headers, /retry-after: 1/i);
    const error = JSON.parse(refused.body).error;
    t.equal(error.code, 'TOO_MANY_CONNECTIONS');
    t.match(error.message, /maxConnections: 8/);

    // Each half-sent request is answered 408 in the error shape and its connection closed by the server.
    const timedOut = await Promise.all(held.map(({ answer }) => answer));
    t.same(
      timedOut.map((answer) => answer.status),
      Array(8).fill(408),
      'every half-sent request timed out',
    );
    t.equal(JSON.parse(timedOut[0]!.body).error.code, 'REQUEST_TIMEOUT');

    // The server counts a connection out once both ends have closed it, a moment after the client saw it close.
    let served = await exchange(server, '/api/graph');
    for (let tries = 0; served.status === 503 && tries < 40; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      served = await exchange(server, '/api/graph');
    }
    t.equal(served.status, 200, 'served again once the connections closed');
  },
);

t.test('one client address over maxConnectionsPerAddress is refused while other addresses are served', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo, { flags: { maxConnectionsPerAddress: 3 } });
  // Linux routes all of 127.0.0.0/8 through the loopback interface: 127.0.0.2 is a second client address.
  const held = await Promise.all(Array.from({ length: 3 }, () => halfSentRequest(server, '127.0.0.2')));
  t.teardown(() => {
    for (const { socket } of held) socket.destroy();
  });

  const refused = await exchange(server, '/api/graph', '127.0.0.2');
  t.equal(refused.status, 503, 'a fourth connection from 127.0.0.2 is refused');
  t.match(JSON.parse(refused.body).error.message, /maxConnectionsPerAddress: 3/);
  t.equal((await exchange(server, '/api/graph', '127.0.0.1')).status, 200, '127.0.0.1 is served meanwhile');

  held[0]!.socket.destroy();
  let served = await exchange(server, '/api/graph', '127.0.0.2');
  for (let tries = 0; served.status === 503 && tries < 40; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    served = await exchange(server, '/api/graph', '127.0.0.2');
  }
  t.equal(served.status, 200, 'a closed connection frees its place');
});

t.test('maxConnections is checked like every other setting', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  await t.rejects(startTestServer(t, repo, { flags: { maxConnections: 0 } }), /--max-connections: must be >= 1/);
});
