// The overlay state machine alone (host/src/overlays): OverlayService with ServedOverlays and OverlayResultStore,
// around a plugin whose sandbox is a stand-in that answers as the test says, and a data directory in memory that can
// be made full. The HTTP tests cover the same through a real sandbox; these cover the transitions one by one.
import 'reflect-metadata';
import type { GraphPayload, OverlayColumns } from '@strata/sandbox';
import { SandboxError } from '@strata/sandbox';
import t from 'tap';
import type { StrataConfig } from '../../host/dist/config/strata-config.js';
import { StrataError } from '../../host/dist/errors/strata-error.js';
import { EventBus } from '../../host/dist/events/event-bus.js';
import type { PublishedEvent } from '../../host/dist/events/event-catalog.js';
import type { GraphColumnsCache } from '../../host/dist/graph/graph-columns.js';
import { quietLogger } from '../../host/dist/logging/quiet-logger.js';
import { OverlayResultStore } from '../../host/dist/overlays/overlay-result-store.js';
import { OverlayService } from '../../host/dist/overlays/overlay-service.js';
import { ServedOverlays } from '../../host/dist/overlays/served-overlays.js';
import { PluginContext } from '../../host/dist/plugins/plugin-context.js';
import type { PluginRecord, PluginRegistry } from '../../host/dist/plugins/plugin-registry.js';
import type { DataDirectory } from '../../host/dist/storage/data-directory.js';

const NODE_IDS = ['dir:src', 'file:src/a.ts', 'file:src/b.ts'];

/** A graph of three nodes, as the sandbox is given it. */
function graphPayload(revision: number): GraphPayload {
  const n = NODE_IDS.length;
  return {
    revision,
    nodes: {
      id: NODE_IDS,
      kind: Uint8Array.from([0, 1, 1]),
      kindNames: ['directory', 'file'],
      name: ['src', 'a.ts', 'b.ts'],
      path: ['src', 'src/a.ts', 'src/b.ts'],
      parent: Int32Array.from([-1, 0, 0]),
      language: new Uint16Array(n),
      languageNames: ['typescript'],
      loc: new Float64Array(n),
      lines: new Float64Array(n),
      bytes: new Float64Array(n),
      startLine: new Int32Array(n),
      endLine: new Int32Array(n),
      cyclomatic: new Float64Array(n),
      cognitive: new Float64Array(n),
    },
    edges: { source: new Int32Array(0), target: new Int32Array(0), kind: new Uint8Array(0), kindNames: [] },
  };
}

/** One overlay's columns coloring node `index` with `hex`, full length, as `PluginSandbox.apply` gives them. */
function colored(index: number, hex: number): OverlayColumns {
  const n = NODE_IDS.length;
  const color = new Uint32Array(n);
  color[index] = 0x1000000 + hex;
  return {
    id: 'main',
    legend: null,
    color,
    size: new Float64Array(n).fill(Number.NaN),
    value: new Float64Array(n).fill(Number.NaN),
    badge: new Int32Array(n).fill(-1),
    badgeText: [],
    styled: 1,
    edges: { source: new Int32Array(0), target: new Int32Array(0), weight: new Float64Array(0), value: new Float64Array(0), label: [] },
  };
}

type SandboxAnswer = { overlays: OverlayColumns[]; summary?: Record<string, number | string> } | Error;

/** The collection `overlays`, in memory; `full` makes every write fail as a full disk does (nothing changes). */
class MemoryDataDirectory {
  readonly path = '/nowhere';
  readonly documents = new Map<string, Record<string, unknown>>();
  full = false;
  private readonly collectionApi = {
    find: async () => [...this.documents.values()].map((document) => structuredClone(document)),
    updateOne: async (query: { _id: string }, document: Record<string, unknown>) => void this.documents.set(query._id, structuredClone(document)),
    deleteOne: async (query: { _id: string }) => void this.documents.delete(query._id),
  };
  async collection(): Promise<unknown> {
    return this.collectionApi;
  }
  async write<T>(_name: string, what: string, write: (collection: unknown) => Promise<T>): Promise<T> {
    if (this.full) throw new StrataError('DISK_FULL', `the disk is full: ${what} was not saved`);
    return write(this.collectionApi);
  }
  async close(): Promise<void> {}
}

/** A host's overlay parts around one plugin, `paint`, whose applies answer from `answers` (in order). */
function setUp(t: { teardown(fn: () => unknown): void }) {
  const events = new EventBus();
  const seen: PublishedEvent[] = [];
  events.subscribe((event) => seen.push(event));
  const answers: Array<SandboxAnswer | Promise<SandboxAnswer>> = [];
  const applied: Array<{ params: Record<string, unknown>; inputs: Record<string, string[]> }> = [];
  let cancelled = 0;
  const sandbox = {
    async apply(request: { params: Record<string, unknown>; inputs: Record<string, string[]> }) {
      applied.push(request);
      const answer = await (answers.shift() ?? new Error('no answer left'));
      if (answer instanceof Error) throw answer;
      return { graphRevision: 1, overlays: answer.overlays, durationMs: 1, summary: answer.summary ?? {} };
    },
    async cancel() {
      cancelled++;
    },
  };
  const record = {
    id: 'paint',
    folder: '/plugins/paint',
    builtIn: false,
    state: 'loaded',
    name: 'Paint',
    description: '',
    capabilities: ['graph:read', 'inputs:read'],
    overlays: [{ id: 'main', name: 'Main', type: 'color', legend: { low: '#000000' } }],
    package: { manifest: { id: 'paint', capabilities: ['graph:read', 'inputs:read'] }, checkParameters: () => ({ ok: true }) },
    sandbox,
  } as unknown as PluginRecord;
  const records = new Map([[record.id, record]]);
  const contexts = new Map<string, PluginContext>();
  const plugins = {
    context(id: string) {
      let context = contexts.get(id);
      if (!context) contexts.set(id, (context = new PluginContext(id)));
      return context;
    },
    async listed(id: string) {
      const found = records.get(id);
      if (!found) throw new StrataError('NOT_FOUND', `plugin "${id}" does not exist`);
      return found;
    },
    get: (id: string) => records.get(id),
  } as unknown as PluginRegistry;
  const graphColumns = { current: () => graphPayload(1), inSlices: async () => graphPayload(1) } as unknown as GraphColumnsCache;
  const config = { plugins: { cpuTimeMs: 1000, cpuTimeMsPerFile: 0, wallTimeMs: 1000, wallTimeMsPerFile: 0 } } as unknown as StrataConfig;
  const dataDirectory = new MemoryDataDirectory();
  const logger = quietLogger();
  const make = () => {
    const served = new ServedOverlays(plugins, events);
    const service = new OverlayService(
      plugins,
      served,
      new OverlayResultStore(dataDirectory as unknown as DataDirectory),
      graphColumns,
      events,
      config,
      logger,
    );
    return { served, service };
  };
  const { served, service } = make();
  t.teardown(() => events.close());
  return {
    served,
    service,
    events,
    record,
    answers,
    applied,
    seen,
    dataDirectory,
    /** A second host on the same data directory (a restart). */
    restart: make,
    cancelled: () => cancelled,
    /** The plugin's context, as the registry keeps it (released when the plugin goes). */
    context: () => plugins.context('paint'),
    types: () => seen.map((event) => event.type),
  };
}

t.test('inactive, applying, active: the styles are stored, then served, and the events say so in order', async (t) => {
  const host = setUp(t);
  t.equal((await host.served.status('paint')).state, 'inactive');
  let answer!: (value: SandboxAnswer) => void;
  host.answers.push(new Promise<SandboxAnswer>((resolve) => (answer = resolve)));
  const applying = host.service.apply('paint', { depth: 2 });
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(host.served.stateOf('paint'), 'applying', 'applying while the sandbox works');
  t.equal(host.served.stylesOf('file:src/a.ts'), undefined, 'nothing served yet');
  answer({ overlays: [colored(1, 0xff0000)], summary: { files: 2 } });
  const status = await applying;
  t.equal(status.state, 'active');
  t.same(status.params, { depth: 2 });
  t.equal(status.styledNodes, 1);
  t.same(status.summary, { files: 2 });
  t.same(host.served.stylesOf('file:src/a.ts'), { paint: { main: { color: '#ff0000' } } });
  t.equal(host.served.anyServed, true);
  t.same(host.types(), ['overlay.applying', 'overlay.applied']);
  t.ok(host.dataDirectory.documents.has('paint'), 'the result is in the store');
  t.same((await host.served.servedStyles('paint')).overlays, [{ id: 'main', legend: { low: '#000000' }, styles: { 'file:src/a.ts': { color: '#ff0000' } } }]);
});

t.test('a failed apply with nothing before it: failed, nothing served, nothing stored', async (t) => {
  const host = setUp(t);
  host.answers.push(new SandboxError('threw', 'no (at dist/plugin.js:1:1)'));
  await t.rejects(host.service.apply('paint', {}), { code: 'PLUGIN_FAILED' });
  const status = host.served.snapshot('paint');
  t.equal(status.state, 'failed');
  t.same(status.error, { kind: 'threw', message: 'no (at dist/plugin.js:1:1)' });
  t.equal(host.served.anyServed, false);
  t.notOk(host.dataDirectory.documents.has('paint'));
  const failed = host.seen.find((event) => event.type === 'overlay.failed');
  t.same(failed?.data, { pluginId: 'paint', error: { kind: 'threw', message: 'no (at dist/plugin.js:1:1)' }, serving: 'nothing' });
});

t.test('a failed apply after a good one keeps the last good result serving, with its parameters and inputs', async (t) => {
  const host = setUp(t);
  host.answers.push({ overlays: [colored(1, 0x00ff00)] });
  await host.service.apply('paint', { depth: 1, inputs: { report: 'good' } });
  const stored = structuredClone(host.dataDirectory.documents.get('paint'));
  host.answers.push(new SandboxError('wall-time', 'ran past 1000 ms'));
  await t.rejects(host.service.apply('paint', { depth: 9, inputs: { report: 'bad' } }), { code: 'PLUGIN_FAILED', message: /last good result/ });
  const status = host.served.snapshot('paint');
  t.equal(status.state, 'active', 'still active');
  t.same(status.params, { depth: 1 }, 'the parameters of the result that serves');
  t.same(status.error, { kind: 'wall-time', message: 'ran past 1000 ms' });
  t.same(host.served.stylesOf('file:src/a.ts'), { paint: { main: { color: '#00ff00' } } });
  t.same(host.dataDirectory.documents.get('paint'), stored, 'the store keeps the good result');
  t.equal(host.seen.at(-1)?.type, 'overlay.failed');
  t.equal((host.seen.at(-1)!.data as { serving: string }).serving, 'last good result');
  host.answers.push({ overlays: [colored(2, 0x0000ff)] });
  await host.service.reapply('paint');
  t.same(host.applied.at(-1), { params: { depth: 1 }, inputs: { report: ['good'] } }, 'a re-apply uses what the good result was made from');
});

t.test('a full disk: the new result is neither stored nor served, and the old one stays', async (t) => {
  const host = setUp(t);
  host.answers.push({ overlays: [colored(1, 0x00ff00)] });
  await host.service.apply('paint', {});
  host.dataDirectory.full = true;
  host.answers.push({ overlays: [colored(2, 0xff00ff)] });
  await t.rejects(host.service.apply('paint', {}), { code: 'DISK_FULL' });
  t.same(host.served.stylesOf('file:src/a.ts'), { paint: { main: { color: '#00ff00' } } }, 'the old result serves');
  t.equal(host.served.stylesOf('file:src/b.ts'), undefined, 'the new one does not');
  t.equal(host.served.snapshot('paint').error?.kind, 'disk-full');
  await t.rejects(host.service.remove('paint'), { code: 'DISK_FULL' }, 'a removal the store refuses fails');
  t.equal(host.served.stateOf('paint'), 'active', 'and changes nothing');
});

t.test('one apply at a time; a removal during an apply drops its result', async (t) => {
  const host = setUp(t);
  let answer!: (value: SandboxAnswer) => void;
  host.answers.push(new Promise<SandboxAnswer>((resolve) => (answer = resolve)));
  const applying = host.service.apply('paint', {});
  await new Promise((resolve) => setImmediate(resolve));
  await t.rejects(host.service.apply('paint', {}), { code: 'OVERLAY_BUSY' });
  t.equal((await host.service.remove('paint')).state, 'inactive');
  t.equal(host.cancelled(), 1, 'the apply under way was cancelled');
  answer({ overlays: [colored(1, 0xff0000)] });
  t.equal((await applying).state, 'inactive', 'its result came too late');
  t.equal(host.served.anyServed, false);
  t.notOk(host.dataDirectory.documents.has('paint'), 'and was not stored');
  t.same(host.types(), ['overlay.applying', 'overlay.removed']);
});

t.test('a restart restores the stored results; they serve until applied again', async (t) => {
  const host = setUp(t);
  host.answers.push({ overlays: [colored(1, 0x123456)] });
  await host.service.apply('paint', { depth: 3 });
  const restarted = host.restart();
  await restarted.service.load();
  t.equal(restarted.served.stateOf('paint'), 'active');
  t.same(restarted.served.stylesOf('file:src/a.ts'), { paint: { main: { color: '#123456' } } });
  t.equal(restarted.served.result('paint')?.generation, 0, 'restored, not applied since');
  t.equal(restarted.served.snapshot('paint').progress, null);
});

t.test('a stored result whose styles are damaged is dropped at a restart; the others are restored', async (t) => {
  const host = setUp(t);
  host.answers.push({ overlays: [colored(1, 0x123456)] });
  await host.service.apply('paint', {});
  const stored = host.dataDirectory.documents.get('paint') as { overlays: Array<Record<string, unknown>> };
  const rows = { ids: ['file:src/a.ts'], color: ['#123456'], size: [null], value: [null], badge: [null] };
  t.same(stored.overlays[0], { id: 'main', legend: '{"low":"#000000"}', rows: JSON.stringify(rows) }, 'the rows as stored: one JSON text');
  host.dataDirectory.documents.set('other', {
    ...structuredClone(stored),
    _id: 'other',
    overlays: [{ ...stored.overlays[0], rows: JSON.stringify({ ...rows, color: [] }) }],
  });
  host.dataDirectory.documents.set('unparsable', { ...structuredClone(stored), _id: 'unparsable', overlays: [{ ...stored.overlays[0], rows: '{"ids": [' }] });
  const restarted = host.restart();
  await restarted.service.load();
  t.equal(restarted.served.result('other'), undefined, 'a color column without one entry per node: dropped');
  t.equal(restarted.served.result('unparsable'), undefined, 'rows that are not JSON: dropped');
  t.same(restarted.served.stylesOf('file:src/a.ts'), { paint: { main: { color: '#123456' } } });
  // As results were kept before the rows became one text: their columns inline.
  host.dataDirectory.documents.set('paint', {
    ...structuredClone(stored),
    overlays: [{ id: 'main', legend: '{"low":"#000000"}', ...rows, color: ['#abcdef'] }],
  });
  const again = host.restart();
  await again.service.load();
  t.same(again.served.stylesOf('file:src/a.ts'), { paint: { main: { color: '#abcdef' } } }, 'a result kept in the older form is restored');
});

t.test('a plugin removed (its folder gone): its overlays are forgotten, in memory and in the store', async (t) => {
  const host = setUp(t);
  host.answers.push({ overlays: [colored(1, 0x123456)] });
  await host.service.apply('paint', {});
  host.answers.push({ overlays: [colored(2, 0x654321)] });
  await host.service.apply('paint', {});
  const revision = host.served.revision;
  const removed = host.seen.length;
  await host.context().dispose();
  t.same(
    host.seen.slice(removed).map((event) => event.type),
    ['overlay.removed'],
    "the plugin's context held the removal once, however many applies",
  );
  t.equal(host.served.result('paint'), undefined);
  t.notOk(host.dataDirectory.documents.has('paint'));
  t.ok(host.served.revision > revision, 'a new revision of what is served');
});

t.test("a restart's restored results are held by their plugin's context too", async (t) => {
  const host = setUp(t);
  host.answers.push({ overlays: [colored(1, 0x123456)] });
  await host.service.apply('paint', {});
  const restarted = host.restart();
  await restarted.service.load();
  t.equal(restarted.served.stateOf('paint'), 'active');
  await host.context().dispose();
  t.equal(restarted.served.result('paint'), undefined, 'released with the plugin');
  t.notOk(host.dataDirectory.documents.has('paint'));
});

t.test('a plugin that is not loaded is not applied, and its kept result is not served', async (t) => {
  const host = setUp(t);
  host.answers.push({ overlays: [colored(1, 0x123456)] });
  await host.service.apply('paint', {});
  (host.record as { state: string; reason?: string }).state = 'failed';
  (host.record as { reason?: string }).reason = 'its entry does not compile';
  await t.rejects(host.service.apply('paint', {}), { code: 'PLUGIN_NOT_LOADED' });
  const status = host.served.snapshot('paint');
  t.equal(status.state, 'inactive');
  t.match(status.error?.message, /is not loaded \(its entry does not compile\)/);
  t.equal(host.served.anyServed, false);
  t.equal(await host.service.reapply('paint'), undefined, 'nothing is applied again');
});

t.test("what is served changes with a plugin's loading, not with the lines it logs", async (t) => {
  const host = setUp(t);
  const revision = host.served.revision;
  host.events.publish('plugin.log', { pluginId: 'paint', seq: 1, at: new Date().toISOString(), source: 'plugin', message: 'hello', truncated: false });
  host.events.publish('plugin.ready', { pluginId: 'paint', ms: 5 });
  t.equal(host.served.revision, revision, 'a log line and a reload that is over change nothing served');
  host.events.publish('plugin.reloaded', { pluginId: 'paint', version: '1.0.1' });
  t.equal(host.served.revision, revision + 1, 'a reload is a new revision');
});
