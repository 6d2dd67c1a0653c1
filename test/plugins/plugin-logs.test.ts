// What a plugin logs (ctx.log) is kept per plugin in a bounded buffer and served over HTTP
// (GET /api/overlays/{id}/logs) and the event stream (plugin.log), and a plugin cannot flood the host with it.
import t from 'tap';
import { pluginCode, pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { followEventsConnected, postJson, startTestServer } from '../helpers/strata-server.ts';
import { until } from '../helpers/until.ts';

interface LogLine {
  seq: number;
  at: string;
  source: 'plugin' | 'sandbox';
  message: string;
  truncated: boolean;
}

t.test('the lines a plugin logs are served with their order, source and time, and sent as events', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [
    {
      id: 'talker',
      code: pluginCode(`ctx.log('starting'); ctx.log('files: ' + ctx.graph.nodesOfKind('file').length); ctx.log('x'.repeat(5000)); ctx.log(42);`),
    },
    { id: 'quiet', code: pluginCode('') },
  ]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const events = await followEventsConnected(t, server);
  const empty = await server.api('/api/overlays/quiet/logs');
  t.equal(empty.status, 200);
  t.match(empty.body.data, {
    pluginId: 'quiet',
    lines: [],
    dropped: { rateLimited: 0, overwritten: 0 },
    limits: { lines: 500, lineChars: 1000, burst: 200, perSecond: 20 },
  });

  t.equal((await server.api('/api/overlays/talker/apply', postJson({}))).status, 200);
  const { status, body } = await server.api('/api/overlays/talker/logs');
  t.equal(status, 200);
  const lines = body.data.lines as LogLine[];
  t.same(
    lines.map((line) => line.seq),
    [1, 2, 3, 4],
  );
  t.same(
    lines.map((line) => line.message.slice(0, 20)),
    [
      'starting',
      `files: ${(await server.api('/api/graph')).body.data.nodes.filter((node: { kind: string }) => node.kind === 'file').length}`,
      'x'.repeat(20),
      '(number)',
    ],
  );
  t.equal(lines[2]!.message.length, 1000, 'a long line is cut to 1000 characters');
  t.ok(lines.every((line) => line.source === 'plugin' && !Number.isNaN(Date.parse(line.at))));
  const after = await server.api('/api/overlays/talker/logs?since=2');
  t.same(
    (after.body.data.lines as LogLine[]).map((line) => line.seq),
    [3, 4],
    'since: only the lines after it',
  );
  t.ok(await until(() => events.filter((event) => event.type === 'plugin.log').length === 4, 'four plugin.log events'), 'each line is a plugin.log event');
  t.match(events.find((event) => event.type === 'plugin.log')!.data, { pluginId: 'talker', seq: 1, source: 'plugin', message: 'starting' });

  const unknown = await server.api('/api/overlays/nope/logs');
  t.equal(unknown.status, 404);
  t.match(unknown.body.error, { code: 'NOT_FOUND', message: /plugin "nope" does not exist; the plugins are: .*talker/ });
  const bad = await server.api('/api/overlays/talker/logs?since=-1');
  t.equal(bad.status, 400);
  t.match(bad.body.error, { code: 'INVALID_PARAMETER', message: /since/ });
});

t.test('a plugin that floods its log is bounded: per apply, per second, in the buffer; what is dropped is counted', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [{ id: 'flood', code: pluginCode(`for (let i = 0; i < 100000; i++) ctx.log('line ' + i);`) }]);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [plugins] } } });
  const events = await followEventsConnected(t, server);

  t.equal((await server.api('/api/overlays/flood/apply', postJson({}))).status, 200, 'the apply is not held up');
  let log = (await server.api('/api/overlays/flood/logs')).body.data;
  t.equal(log.lines.length, 101, 'the first 100 lines of the apply, and one saying how many more there were');
  t.equal(log.lines[99].message, 'line 99');
  t.equal(log.lines[100].message, '(99900 more lines of this apply were dropped: at most 100 are kept per apply)');

  // Five more applies in a row: far over 200 lines in a burst and 20 a second.
  for (let i = 0; i < 5; i++) t.equal((await server.api('/api/overlays/flood/apply', postJson({}))).status, 200);
  log = (await server.api('/api/overlays/flood/logs')).body.data;
  t.ok(log.dropped.rateLimited > 0, `lines over the rate were dropped and counted (${log.dropped.rateLimited})`);
  t.ok(log.lines.length <= 500, 'the buffer keeps at most 500 lines');
  t.equal(log.lines.length + log.dropped.rateLimited + log.dropped.overwritten, 6 * 101, 'every line is kept or counted');
  t.same(
    log.lines.map((line: LogLine) => line.seq),
    log.lines.map((_: LogLine, i: number) => log.lines[0].seq + i),
    'in order, without gaps among those kept',
  );
  t.equal(
    events.filter((event) => event.type === 'plugin.log').length <= log.lines.length + log.dropped.overwritten,
    true,
    'only kept lines go to the event stream',
  );

  const health = await server.api('/api/overlays');
  t.equal(health.status, 200, 'the host answers as before');
});
