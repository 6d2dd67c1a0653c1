// Applies that take long because the host works for them: the wall-time
// limit counts the plugin's own time, not the time its capability calls wait
// on the host (in the sandbox process and in the host's watchdog alike), and
// `ctx.progress` reports reach whoever runs the apply.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GraphNode } from '@strata/sdk';
import { PluginTestError, PluginTester } from '@strata/sdk-testing';
import t from 'tap';
import { type FixturePlugin, pluginCode, writePlugin } from '../helpers/fixture-plugins.ts';

const GRAPH: { nodes: GraphNode[] } = { nodes: [{ id: 'file:a.ts', kind: 'file', name: 'a.ts', path: 'a.ts', language: 'typescript' } as GraphNode] };

async function tester(t: { teardown(fn: () => unknown): void }, plugin: FixturePlugin): Promise<PluginTester> {
  const folder = await mkdtemp(path.join(tmpdir(), 'strata-long-apply-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  await writePlugin(folder, plugin);
  return new PluginTester(folder);
}

/** Answers files.read after `ms`, as a slow disk or a busy host would. */
const slowRead = (ms: number) => async (file: unknown) => {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return `text of ${String(file)}`;
};

t.test('time spent waiting on capabilities does not count against the wall-time limit', async (t) => {
  // 20 reads of 300 ms one after the other: 6 s of waiting, against a limit of 500 ms. The host's own watchdog
  // (limit + load time + 3 s of grace = 4.5 s) would stop the process too if it counted the waiting.
  const patient = await tester(t, {
    id: 'patient',
    capabilities: ['files:read'],
    code: pluginCode(`let read = 0; for (let i = 0; i < 20; i++) { await ctx.files.read('a.ts'); read++; } return { summary: { read } };`),
  });
  const started = performance.now();
  const result = await patient.run({ graph: GRAPH, capabilities: { 'files:read': slowRead(300) }, limits: { wallTimeMs: 500, loadTimeMs: 1000 } });
  t.equal(result.summary.read, 20, 'every read answered');
  t.ok(performance.now() - started >= 6000, 'the apply waited on the host far longer than its wall-time limit');
});

t.test("the plugin's own time still counts: waiting on itself ends the apply", async (t) => {
  const stalls = await tester(t, {
    id: 'stalls',
    capabilities: ['files:read'],
    code: pluginCode(`await ctx.files.read('a.ts'); await ctx.files.read('a.ts'); await new Promise(() => {});`),
  });
  const failure = await stalls.run({ graph: GRAPH, capabilities: { 'files:read': slowRead(400) }, limits: { wallTimeMs: 500, loadTimeMs: 1000 } }).then(
    () => undefined,
    (error: unknown) => error,
  );
  t.ok(failure instanceof PluginTestError, 'the apply fails');
  t.match(failure, {
    code: 'PLUGIN_FAILED',
    kind: 'wall-time',
    message: /wall-time limit of 500 ms, not counting the time its capability calls waited on the host/,
  });
});

t.test('progress reports reach the caller, at most five a second and always the last', async (t) => {
  const stepper = await tester(t, {
    id: 'stepper',
    capabilities: ['files:read'],
    code: pluginCode(`
      const total = 12;
      ctx.progress(0, total, 'files read');
      for (let i = 1; i <= total; i++) { await ctx.files.read('a.ts'); ctx.progress(i, total, 'files read'); }
    `),
  });
  const result = await stepper.run({ graph: GRAPH, capabilities: { 'files:read': slowRead(100) } });
  t.same(result.progress[0], { done: 0, total: 12, message: 'files read' }, 'the first report');
  t.same(result.progress.at(-1), { done: 12, total: 12, message: 'files read' }, 'the last one, done');
  t.ok(result.progress.length >= 3 && result.progress.length < 13, `reports in between, fewer than made (${result.progress.length} of 13)`);
  const done = result.progress.map((report) => report.done);
  t.same(
    done,
    [...done].sort((a, b) => a - b),
    'in order',
  );
});

t.test('a plugin reporting in a tight loop, done equal to total, is heard five times a second, and its last report', async (t) => {
  const flood = await tester(t, {
    id: 'flood',
    code: pluginCode(`
      const end = Date.now() + 1000;
      let reports = 0;
      while (Date.now() < end) { reports++; ctx.progress(reports, reports); }
      return { summary: { reports } };
    `),
  });
  const started = performance.now();
  const result = await flood.run({ graph: GRAPH });
  const ms = performance.now() - started;
  const reports = result.summary.reports as number;
  t.ok(reports > 1000, `${reports} reports made`);
  t.ok(result.progress.length >= 2 && result.progress.length <= ms / 200 + 2, `${result.progress.length} heard in ${Math.round(ms)} ms`);
  t.same(result.progress.at(-1), { done: reports, total: reports }, 'the last one');
});

t.test('a malformed progress report fails the apply with a message naming it', async (t) => {
  const bad = await tester(t, { id: 'bad-progress', code: pluginCode(`ctx.progress(-1, 10);`) });
  await t.rejects(bad.run({ graph: GRAPH }), {
    kind: 'threw',
    message: /progress\(done, total, message\): done must be a finite number of at least 0, got -1/,
  });
  const badTotal = await tester(t, { id: 'bad-total', code: pluginCode(`ctx.progress(1, 'ten');`) });
  await t.rejects(badTotal.run({ graph: GRAPH }), { message: /total must be a finite number of at least 0, got "ten"/ });
});
