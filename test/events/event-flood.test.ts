// A plugin that reports progress as fast as it can (done equal to total, which once went through unthrottled: 1.3
// million events an apply) with five clients of GET /api/events that never read: the host's memory stays within
// 200 MB of its idle figure, a client that reads gets at most five reports a second and the last one, and each
// client that does not read either keeps within its bound or is dropped with `stream.dropped`. The host is a
// `strata serve` process, so that what is measured is its memory alone.
import t from 'tap';
import { FLOOD_PLUGIN, runEventFlood } from '../helpers/event-flood.ts';
import { pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { runStrata } from '../helpers/strata-cli.ts';

const MB = 1024 * 1024;
/** Long enough for the unbounded host to pass 200 MB several times over; the CPU it costs is one core's for as long. */
const SECONDS = 3;

t.test('a progress flood with five clients that never read', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginsFolder(t, [FLOOD_PLUGIN]);
  const serve = runStrata(t, ['serve', repo, '--port', '0', '--no-watch', '--plugins', plugins, '--log-level', 'warn'], {
    env: { STRATA_PLUGINS_BUILT_INS: 'false' },
  });
  const url = await serve.url();
  // Loaded before the figures start: the first apply starts the plugin's sandbox process (not the host's memory).
  t.equal(
    (await fetch(`${url}/api/overlays/flood/apply`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"seconds":0}' })).status,
    200,
  );

  const figures = await runEventFlood({ url, pid: serve.child.pid!, seconds: SECONDS, abortAboveBytes: 400 * MB });
  const grown = figures.peakRssBytes - figures.idleRssBytes;
  t.comment(`idle ${(figures.idleRssBytes / MB).toFixed(0)} MB, peak ${(figures.peakRssBytes / MB).toFixed(0)} MB, apply ${figures.apply.ms} ms`);
  t.notOk(figures.aborted, 'the flood ran to its end');
  t.ok(grown < 200 * MB, `the host's memory stays within 200 MB of its idle figure (grew ${(grown / MB).toFixed(0)} MB)`);
  t.equal(figures.apply.status, 200);
  const reports = figures.apply.body?.data?.summary?.reports;
  t.ok(reports > 1000, `the plugin reported ${reports} times`);

  // What a client that reads got: no more than a report every 200 ms, and then the last one, before overlay.applied.
  const ofFlood = figures.reading.filter((event) => event.data.pluginId === 'flood');
  const applied = ofFlood.findIndex((event) => event.type === 'overlay.applied');
  const started = ofFlood.findLastIndex((event, index) => event.type === 'overlay.applying' && index < applied);
  const progress = ofFlood.slice(started, applied).filter((event) => event.type === 'overlay.progress');
  t.ok(progress.length >= 2 && progress.length <= SECONDS * 5 + 2, `${progress.length} progress events for a ${SECONDS} s flood`);
  const gaps = progress.slice(1, -1).map((event, i) => event.data.elapsedMs - progress[i]!.data.elapsedMs);
  t.same(
    gaps.filter((gap) => gap < 199),
    [],
    'each report but the last comes at least 200 ms after the one before',
  );
  t.match(progress.at(-1)?.data, { done: reports, total: reports }, 'the last report reaches the client');

  // The clients that did not read: never buffered without bound, and never cut off without a word.
  for (const [i, client] of figures.quiet.entries()) {
    t.ok(client.ended === 'kept up' || client.ended === 'dropped', `quiet client ${i}: ${client.ended} (${client.bytes} bytes)`);
    if (client.ended === 'dropped') t.match(client.dropped, { reason: 'too far behind', limitBytes: Number });
  }
});
