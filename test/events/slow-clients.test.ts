// The event stream (host/src/api/event-resource.ts) with clients that read slowly or not at all, on an EventBus of
// the test's own, so that it can publish more than any plugin may (the host's own sources are rate-limited: see
// test/events/event-flood.test.ts): a client that falls more than 1 MiB behind is dropped with `stream.dropped` and
// the end of its stream, and nothing of it stays in the host; a client that reads is never dropped, whatever the
// volume; and a dropped client that never reads is cut off (EventStreamWriter, host/src/http).
import 'reflect-metadata';
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import t from 'tap';
import { EVENT_STREAM_BOUNDS, EventResource } from '../../host/dist/api/event-resource.js';
import { EventBus } from '../../host/dist/events/event-bus.js';
import type { StreamedResponse } from '../../host/dist/http/api-route.js';
import { EventStreamWriter } from '../../host/dist/http/event-stream-writer.js';
import { connectEventStream } from '../helpers/event-flood.ts';
import { until } from '../helpers/until.ts';

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** An HTTP server whose every request gets `stream(response)`; the responses it made, in order. */
async function serve(t: Teardown, stream: (response: ServerResponse) => void): Promise<{ url: string; responses: ServerResponse[] }> {
  const responses: ServerResponse[] = [];
  const server = http.createServer((_request, response) => {
    responses.push(response);
    stream(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, responses };
}

/** GET /api/events of an EventResource on `bus`, served alone. */
async function serveEvents(t: Teardown, bus: EventBus) {
  const route = new EventResource(bus).routes()[0]!;
  const streamed = (await route.handle(undefined as never)) as StreamedResponse;
  return { route, ...(await serve(t, (response) => streamed.write(response))) };
}

let seq = 0;
/** A plugin.log event of about 1.1 KB. */
const publishLine = (bus: EventBus): void =>
  bus.publish('plugin.log', { pluginId: 'chatty', seq: ++seq, at: new Date().toISOString(), source: 'plugin', message: 'x'.repeat(1000), truncated: false });

t.test('a client that stops reading is dropped with stream.dropped once 1 MiB behind, and let go', async (t) => {
  const bus = new EventBus();
  const { url, responses, route } = await serveEvents(t, bus);
  const client = connectEventStream(url, true);
  await client.connected;
  const response = responses[0]!;
  // The operating system's buffers take some first (how much depends on them and on time): published until it ends.
  let published = 0;
  while (!response.writableEnded && published < 100_000) {
    publishLine(bus);
    published++;
  }
  t.ok(response.writableEnded, `the stream ended after ${published} events (${Math.round((published * 1.1) / 1024)} MB)`);
  const left = response.writableLength;
  t.ok(left < 64 * 1024, `what the host still holds for it is its socket's buffer and the last words (${left} bytes)`);
  for (let i = 0; i < 1000; i++) publishLine(bus);
  t.equal(response.writableLength, left, 'events published after the drop are not written for it');

  t.equal(await client.readUntil(() => false), 'ended', 'the client, reading again, gets to the end of the stream');
  const last = client.events.at(-1)!;
  const before = client.events.slice(0, -1);
  t.ok(before.length > 0 && before.length < published, `${before.length} events came before`);
  t.same(
    before.map((event) => event.id),
    before.map((_, i) => i + 1),
    'the events it was sent, from the first, none missing in between',
  );
  t.equal(last.type, 'stream.dropped', 'then the last words');
  t.notOk('id' in last, 'which are the stream’s own, without an id');
  t.match(last.data, {
    reason: 'too far behind',
    limitBytes: EVENT_STREAM_BOUNDS.maxBehindBytes,
    message: /^this client fell \d+ bytes of events behind, more than the 1048576 a client may: reconnect, then catch up with GET \/api\/graph\/changes/,
  });
  t.ok(last.data.behindBytes > EVENT_STREAM_BOUNDS.maxBehindBytes);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validate = ajv.compile(route.response!);
  t.ok(
    validate({ event: last.type, data: last.data }),
    `stream.dropped matches the stream's schema${validate.errors ? `: ${ajv.errorsText(validate.errors)}` : ''}`,
  );
});

t.test('a client that reads is never dropped, however much comes', async (t) => {
  const bus = new EventBus();
  const { url, responses } = await serveEvents(t, bus);
  const client = connectEventStream(url, false);
  await client.connected;
  void client.readUntil(() => false);
  // Eight times the bound, a hundred events at a time, each hundred once the client has read the one before.
  let published = 0;
  while (published * 1100 < 8 * EVENT_STREAM_BOUNDS.maxBehindBytes) {
    for (let i = 0; i < 100; i++) publishLine(bus);
    published += 100;
    await until(() => client.events.length >= published, `the client read ${published} events`, 30_000, 1);
  }
  t.equal(client.events.length, published, `all ${published} events read`);
  t.notOk(
    client.events.some((event) => event.type === 'stream.dropped'),
    'never dropped',
  );
  t.notOk(responses[0]!.writableEnded, 'the stream goes on');
});

t.test('a dropped client that never reads is cut off after the grace period', async (t) => {
  const dropped: ServerResponse[] = [];
  const { url, responses } = await serve(t, (response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    // More than the operating system's buffers take: what the stream writes after it can never go out.
    response.write(`: ${'x'.repeat(16 * 1024 * 1024)}\n\n`);
    const writer = new EventStreamWriter(
      response,
      { maxBehindBytes: 64 * 1024, dropGraceMs: 100 },
      () => 'event: stream.dropped\ndata: {}\n\n',
      () => dropped.push(response),
    );
    const line = `data: ${'x'.repeat(1000)}\n\n`;
    for (let i = 0; i < 1000 && !writer.ended; i++) writer.write(line);
  });
  const client = connectEventStream(url, true);
  await client.connected;
  t.equal(dropped.length, 1, 'dropped');
  const response = responses[0]!;
  t.notOk(response.writableFinished, 'its last words cannot go out');
  await until(() => response.destroyed, 'its response is destroyed', 30_000);
  t.ok(response.socket === null || response.socket.destroyed, 'and its socket with it');
});
