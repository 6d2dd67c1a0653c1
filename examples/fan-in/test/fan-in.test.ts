import assert from 'node:assert/strict';
import { fixtureRepository, PluginTester } from '@strata/sdk-testing';
import t from 'tap';

const tester = new PluginTester(new URL('..', import.meta.url));
// A folder of fixture files, indexed as the host indexes a repository: real files and import edges.
const fixture = await fixtureRepository(new URL('./fixtures/app', import.meta.url));
const graph = fixture.graph;

// cases() registers its tests with node:test unless told otherwise: here, with tap's.
PluginTester.describe = (name, body) =>
  t.test(name, async (group) => {
    PluginTester.it = (caseName, run) => group.test(caseName, async () => run());
    await body();
  });

const LIGHT = '#f7fbff';
const ONE_OR_TWO = '#c6dbef';
const THREE_TO_NINE = '#6baed6';

tester.cases('fan-in', [
  {
    name: 'files are colored by their distinct importers; a directory by its most imported file',
    graph,
    styles: {
      'fan-in': {
        'file:src/util.ts': { color: THREE_TO_NINE, value: 4 },
        'file:src/a.ts': { color: ONE_OR_TWO, value: 1 },
        'file:src/b.ts': { color: LIGHT, value: 0 },
        'file:src/lib/c.ts': { color: LIGHT, value: 0 },
        'file:test/util.test.ts': { color: LIGHT, value: 0 },
        'dir:.': { color: THREE_TO_NINE, value: 4 },
        'dir:src': { color: THREE_TO_NINE, value: 4 },
        'dir:src/lib': { color: LIGHT, value: 0 },
        'dir:test': { color: LIGHT, value: 0 },
      },
      hubs: {},
    },
    summary: { files: 5, hubs: 0, excludedImports: 0 },
  },
  {
    name: 'the hub threshold is a parameter: hubs get a badge with their count',
    graph,
    params: { hubThreshold: 4 },
    styles: { hubs: { 'file:src/util.ts': { badge: '4', value: 4 } } },
    summary: { files: 5, hubs: 1, excludedImports: 0 },
  },
  {
    name: 'importers in the same directory can be left out',
    graph,
    params: { sameDirectory: false },
    check: (result) => {
      assert.deepEqual(result.style('fan-in', 'file:src/util.ts'), { color: ONE_OR_TWO, value: 2 }, 'src/lib/c.ts and test/util.test.ts');
      assert.deepEqual(result.style('fan-in', 'file:src/a.ts'), { color: LIGHT, value: 0 }, 'b.ts sits beside it');
    },
  },
  {
    name: 'the exclude input leaves the imports of the files it names out',
    graph,
    inputs: { exclude: '# tests do not count\ntest/\nsrc/b.ts\n' },
    check: (result) => {
      assert.deepEqual(result.style('fan-in', 'file:src/util.ts'), { color: ONE_OR_TWO, value: 2 });
      assert.deepEqual(result.style('fan-in', 'file:src/a.ts'), { color: LIGHT, value: 0 });
      assert.deepEqual(result.summary, { files: 5, hubs: 0, excludedImports: 3 });
    },
  },
  {
    name: 'an exclude line outside the repository is the request at fault (400)',
    graph,
    inputs: { exclude: 'src/\n../secrets/\n' },
    error: { code: 'INVALID_PARAMETER', message: 'plugin "fan-in": exclude 1, line 2: "../secrets/" is not a path inside the repository' },
  },
  {
    name: "a parameter out of range is refused before the plugin runs, in the host's words",
    graph,
    params: { hubThreshold: 0 },
    error: { code: 'INVALID_PARAMETER', message: 'body.hubThreshold: must be >= 1' },
  },
  {
    name: 'an unknown parameter is refused, naming the ones the plugin takes',
    graph,
    params: { threshold: 3 },
    error: { code: 'INVALID_PARAMETER', message: 'body.threshold: is not a known field; plugin "fan-in" takes "hubThreshold", "sameDirectory"' },
  },
  {
    name: 'an input the plugin does not declare is refused',
    graph,
    inputs: { include: 'src/' },
    error: { code: 'INVALID_PARAMETER', message: 'body.inputs: plugin "fan-in" reads no input named "include"; it reads "exclude"' },
  },
]);

t.test('the whole result, as a snapshot (`tap --snapshot` writes it again)', async (t) => {
  t.snapshotFile = new URL('./fan-in.snapshot.cjs', import.meta.url);
  const result = await tester.run({ graph, params: { hubThreshold: 2 }, capabilities: fixture.capabilities });
  t.matchSnapshot(result.snapshot());
});
