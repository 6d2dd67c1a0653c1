import { PluginTester } from '@strata/sdk-testing';
import t from 'tap';

const tester = new PluginTester(new URL('..', import.meta.url));

const graph = {
  nodes: [
    { id: 'dir:.', kind: 'directory' as const, name: '.', path: '.' },
    { id: 'dir:src', kind: 'directory' as const, name: 'src', path: 'src', parent: 'dir:.' },
    { id: 'file:src/a.ts', kind: 'file' as const, name: 'a.ts', path: 'src/a.ts', parent: 'dir:src', language: 'typescript', loc: 10 },
    { id: 'file:src/b.ts', kind: 'file' as const, name: 'b.ts', path: 'src/b.ts', parent: 'dir:src', language: 'typescript', loc: 10 },
    { id: 'file:README.md', kind: 'file' as const, name: 'README.md', path: 'README.md', parent: 'dir:.', language: 'markdown', loc: 3 },
  ],
};
const sources: Record<string, string> = {
  'src/a.ts': '// TODO: one\n// FIXME: two\nconst todo = 1; // not a marker: lower case\n',
  'src/b.ts': 'export const done = true;\n',
};

t.test('counts markers per file and adds them up in directories', async (t) => {
  const result = await tester.run({ graph, capabilities: { 'files:read': (path: string) => sources[path] } });
  t.same(result.style('density', 'file:src/a.ts'), { color: result.style('density', 'file:src/a.ts')!.color, value: 20, badge: '2' });
  t.equal(result.style('density', 'file:src/b.ts')!.value, 0);
  t.equal(result.style('density', 'file:src/b.ts')!.badge, undefined, 'no badge without markers');
  t.equal(result.style('density', 'dir:src')!.badge, '2');
  t.equal(result.style('density', 'dir:src')!.value, 10, '2 markers over 20 lines');
  t.equal(result.style('density', 'file:README.md'), undefined, 'markdown is not read by default');
  t.same(result.calls.map((call) => call.args[0]).sort(), ['src/a.ts', 'src/b.ts']);
  t.equal(result.style('density', 'file:src/a.ts')!.color, '#e53935', '20 per 100 loc is past the top of the scale');
  t.ok(Object.keys(result.overlays.density!.legend).length === 6);
});

t.test('markers are a parameter', async (t) => {
  const result = await tester.run({ graph, params: { markers: ['done'] }, capabilities: { 'files:read': (path: string) => sources[path] } });
  t.equal(result.style('density', 'file:src/b.ts')!.badge, '1');
  t.equal(result.style('density', 'file:src/a.ts')!.badge, undefined);
});

t.test('a file the host refuses to read fails the apply with its message', async (t) => {
  await t.rejects(
    tester.run({
      graph,
      capabilities: {
        'files:read': () => {
          throw new Error('files.read: src/a.ts: no such file');
        },
      },
    }),
    /no such file/,
  );
});

t.test('many files: reads go through the sandbox queue, not all at once', async (t) => {
  const files = Array.from({ length: 150 }, (_, i) => ({
    id: `file:src/f${i}.ts`,
    kind: 'file' as const,
    name: `f${i}.ts`,
    path: `src/f${i}.ts`,
    parent: 'dir:src',
    language: 'typescript',
    loc: 10,
  }));
  const result = await tester.run({
    graph: { nodes: [graph.nodes[0]!, graph.nodes[1]!, ...files] },
    capabilities: { 'files:read': (path: string) => (path.endsWith('7.ts') ? '// TODO\n' : '') },
  });
  t.equal(result.calls.length, 150);
  t.equal(result.style('density', 'dir:src')!.badge, String(files.filter((f) => f.path.endsWith('7.ts')).length));
});

t.test('parameters are checked against the schema, as the host checks them', async (t) => {
  // The host's code and words for the same request (POST /api/overlays/todo-density/apply).
  await t.rejects(tester.run({ graph, params: { markers: 'TODO' } }), { code: 'INVALID_PARAMETER', message: /^body\.markers: must be array$/ });
  await t.rejects(tester.run({ graph, params: { marker: ['TODO'] } }), {
    code: 'INVALID_PARAMETER',
    message: /^body\.marker: is not a known field; plugin "todo-density" takes "markers", "languages"$/,
  });
});
