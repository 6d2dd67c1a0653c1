/**
 * Overlay plugins at scale.
 *
 * 1. The same trivial overlay (a color and a value for every node) applied
 *    to a 100k-node graph: in the sandbox (isolate in a child process, graph
 *    resident there) against the same plugin and runtime code run in this
 *    process, with no isolate and no copies. Ratio printed; the floor is 2x.
 * 2. What crossing the boundary costs: the graph as columns against the
 *    graph as an array of node objects, copied with V8's serializer (what
 *    structured clone and isolated-vm's copies do).
 * 3. The p50 and p99 latency of `GET /api/graph/nodes/{id}` on a served
 *    repository while a plugin applies, against the same with no apply.
 * 4. Hot reload: from writing a plugin's entry to its overlay re-applied,
 *    as `strata serve --dev` does it (the issue's bound is one second).
 *
 *   npm run bench:plugins              (100k nodes)
 *   npm run bench:plugins -- 20000     (another size)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { createIsolateRuntime, graphPayloadOf, PluginSandbox } from '@strata/sandbox';
import type { GraphNode } from '@strata/sdk';
import { generateRepo } from './generate-repo.ts';
import { startServeProcess } from './serve-process.ts';

const RUNS = 9;
const nodeCount = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 100_000;

/** The overlay: every node gets a color from its lines of code, and the figure. */
const TRIVIAL = `export default { strataPlugin: 1, sdkVersion: '0.1.0',
  overlays: [{ id: 'loc', name: 'Lines', type: 'color' }],
  apply(ctx) {
    const { loc } = ctx.graph.nodes;
    const overlay = ctx.overlay('loc');
    for (let i = 0; i < ctx.graph.nodeCount; i++) {
      const lines = Number.isNaN(loc[i]) ? 0 : loc[i];
      overlay.set(i, { color: lines > 100 ? '#e53935' : lines > 20 ? '#fdd835' : '#43a047', value: lines });
    }
  } };`;

function syntheticGraph(n: number): GraphNode[] {
  const nodes: GraphNode[] = [{ id: 'dir:.', kind: 'directory', name: '.', path: '.' }];
  let directory = 'dir:.';
  for (let i = 1; i < n; i++) {
    if (i % 21 === 1) {
      const dirPath = `pkg${i}`;
      nodes.push({ id: `dir:${dirPath}`, kind: 'directory', name: dirPath, path: dirPath, parent: 'dir:.' });
      directory = `dir:${dirPath}`;
      continue;
    }
    const file = `${directory.slice(4)}/file${i}.ts`;
    nodes.push({
      id: `file:${file}`,
      kind: 'file',
      name: `file${i}.ts`,
      path: file,
      parent: directory,
      language: 'typescript',
      loc: (i * 37) % 400,
      lines: (i * 41) % 500,
      bytes: i % 9000,
    });
  }
  return nodes;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const quantile = (values: number[], q: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;
const fmt = (ms: number): string => ms.toFixed(1);

// 1. Sandbox against in-process.
const nodes = syntheticGraph(nodeCount);
const graph = graphPayloadOf(nodes, [], 1);
const sandbox = await PluginSandbox.start({
  pluginId: 'bench',
  code: TRIVIAL,
  filename: 'bench.js',
  capabilities: ['graph:read'],
  callCapability: async () => undefined,
});
let t0 = performance.now();
await sandbox.apply({ params: {}, inputs: {} }, graph);
const sandboxFirst = performance.now() - t0;
const sandboxWarm: number[] = [];
for (let i = 0; i < RUNS; i++) {
  t0 = performance.now();
  const result = await sandbox.apply({ params: {}, inputs: {} }, graph);
  sandboxWarm.push(performance.now() - t0);
  if (result.overlays[0]!.styled !== nodeCount) throw new Error('the sandbox did not style every node');
}
await sandbox.dispose();

const moduleUrl = `data:text/javascript;base64,${Buffer.from(TRIVIAL).toString('base64')}`;
const namespace = await import(moduleUrl);
const runtime = createIsolateRuntime({ send: () => undefined, log: () => undefined, progress: () => undefined });
runtime.register(namespace);
runtime.setGraph(graph);
const inProcess: number[] = [];
for (let i = 0; i < RUNS + 1; i++) {
  t0 = performance.now();
  const outcome = await runtime.apply({ params: {}, inputs: {}, capabilities: ['graph:read'] });
  if (i > 0) inProcess.push(performance.now() - t0);
  if (!outcome.ok) throw new Error(outcome.error.message);
}
const ratio = median(sandboxWarm) / median(inProcess);
console.log(`\n### Trivial overlay on ${nodeCount} nodes (median of ${RUNS})\n`);
console.log('| in-process ms | sandbox warm ms | sandbox first ms (graph copied in) | sandbox / in-process | floor |');
console.log('|---|---|---|---|---|');
console.log(
  `| ${fmt(median(inProcess))} | ${fmt(median(sandboxWarm))} | ${fmt(sandboxFirst)} | ${ratio.toFixed(2)}x | 2x: ${ratio <= 2 ? 'met' : 'NOT met'} |`,
);

// 2. Columns against objects across the boundary.
const copy = (value: unknown): number => {
  const start = performance.now();
  deserialize(serialize(value));
  return performance.now() - start;
};
const objectTimes: number[] = [];
const columnTimes: number[] = [];
for (let i = 0; i < 5; i++) {
  objectTimes.push(copy(nodes));
  columnTimes.push(copy(graph));
}
console.log(`\n### Copying the graph across a boundary (${nodeCount} nodes, median of 5)\n`);
console.log('| as node objects ms | as columns ms | objects / columns |');
console.log('|---|---|---|');
console.log(`| ${fmt(median(objectTimes))} | ${fmt(median(columnTimes))} | ${(median(objectTimes) / median(columnTimes)).toFixed(1)}x |`);

// 3. Latency of the API while a plugin applies.
const repo = mkdtempSync(path.join(tmpdir(), 'strata-bench-plugins-'));
const plugins = mkdtempSync(path.join(tmpdir(), 'strata-bench-plugin-dirs-'));
try {
  generateRepo(repo, 20_000);
  mkdirSync(path.join(plugins, 'busy', 'dist'), { recursive: true });
  writeFileSync(
    path.join(plugins, 'busy', 'package.json'),
    JSON.stringify({
      name: 'busy',
      version: '1.0.0',
      strata: {
        id: 'busy',
        name: 'Busy',
        description: 'Works for a few seconds, then paints every node',
        sdk: '^0.1.0',
        entry: 'dist/plugin.js',
        capabilities: ['graph:read'],
      },
    }),
  );
  writeFileSync(
    path.join(plugins, 'busy', 'dist', 'plugin.js'),
    `export default { strataPlugin: 1, sdkVersion: '0.1.0', overlays: [{ id: 'busy', name: 'Busy', type: 'color' }],
      apply(ctx) { const end = Date.now() + 3000; let x = 0; while (Date.now() < end) x += Math.sqrt(x + 1);
        for (let i = 0; i < ctx.graph.nodeCount; i++) ctx.overlay('busy').set(i, { color: '#123456', value: i }); } };`,
  );
  const reloadCode = (color: string) =>
    `export default { strataPlugin: 1, sdkVersion: '0.1.0', overlays: [{ id: 'main', name: 'Main', type: 'color' }],
      apply(ctx) { for (const i of ctx.graph.nodesOfKind('file')) ctx.overlay('main').set(i, { color: '${color}' }); } };`;
  mkdirSync(path.join(plugins, 'reload', 'dist'), { recursive: true });
  writeFileSync(
    path.join(plugins, 'reload', 'package.json'),
    JSON.stringify({
      name: 'reload',
      version: '1.0.0',
      strata: { id: 'reload', name: 'Reload', description: 'Rewritten by the benchmark', sdk: '^0.1.0', entry: 'dist/plugin.js', capabilities: ['graph:read'] },
    }),
  );
  writeFileSync(path.join(plugins, 'reload', 'dist', 'plugin.js'), reloadCode('#000000'));
  const server = await startServeProcess(repo, 'warn', 'inherit', ['--no-watch', '--dev', '--plugins', plugins]);
  try {
    const ids = ['file:file1.ts', 'file:pkg1/file2.ts', 'dir:pkg1', 'file:pkg2/mod9/file3.ts'];
    const sample = async (ms: number): Promise<number[]> => {
      const latencies: number[] = [];
      const end = performance.now() + ms;
      for (let i = 0; performance.now() < end; i++) {
        const start = performance.now();
        const response = await fetch(`${server.url}/api/graph/nodes/${encodeURIComponent(ids[i % ids.length]!)}`);
        await response.arrayBuffer();
        latencies.push(performance.now() - start);
      }
      return latencies;
    };
    await sample(500); // warm up
    const idle = await sample(2500);
    const applying = fetch(`${server.url}/api/overlays/busy/apply`, { method: 'POST' }).then((response) => response.json());
    const during = await sample(2500);
    const applied = (await applying) as { data?: { styledNodes: number } };
    console.log('\n### `GET /api/graph/nodes/{id}` latency, 20k-file repository (sequential requests)\n');
    console.log('| | requests | p50 ms | p99 ms | max ms |');
    console.log('|---|---|---|---|---|');
    console.log(`| idle | ${idle.length} | ${fmt(quantile(idle, 0.5))} | ${fmt(quantile(idle, 0.99))} | ${fmt(Math.max(...idle))} |`);
    console.log(
      `| while a plugin applies (3 s of CPU in its sandbox) | ${during.length} | ${fmt(quantile(during, 0.5))} | ${fmt(quantile(during, 0.99))} | ${fmt(Math.max(...during))} |`,
    );
    console.log(`\n(the apply styled ${applied.data?.styledNodes ?? '?'} nodes)`);

    // 4. Save to re-applied.
    await fetch(`${server.url}/api/overlays/reload/apply`, { method: 'POST' }).then((response) => response.json());
    const reloads: number[] = [];
    for (let k = 1; k <= 7; k++) {
      const color = `#0000${k.toString(16).padStart(2, '0')}`;
      const start = performance.now();
      writeFileSync(path.join(plugins, 'reload', 'dist', 'plugin.js'), reloadCode(color));
      for (;;) {
        const node = (await (await fetch(`${server.url}/api/graph/nodes/${encodeURIComponent('file:file1.ts')}`)).json()) as {
          data: { overlays?: { reload?: { main?: { color?: string } } } };
        };
        if (node.data.overlays?.reload?.main?.color === color) break;
        if (performance.now() - start > 10_000) throw new Error('the reload did not show within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      reloads.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    console.log('\n### Hot reload: entry written to overlay re-applied and served (20k-file repository, 7 saves)\n');
    console.log('| median ms | max ms | bound |');
    console.log('|---|---|---|');
    console.log(`| ${fmt(median(reloads))} | ${fmt(Math.max(...reloads))} | 1000 ms: ${Math.max(...reloads) <= 1000 ? 'met' : 'NOT met'} |`);
  } finally {
    await server.stop();
  }
} finally {
  rmSync(repo, { recursive: true, force: true });
  rmSync(plugins, { recursive: true, force: true });
}
