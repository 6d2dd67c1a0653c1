/**
 * Pictures of a repository's layout (issue 22, point 6): Strata's computed
 * layout and ForceAtlas2's (graphology, Barnes-Hut, the same edge weights),
 * each saved as the layout (`POST /api/graph/layout`) and drawn by the web UI
 * in headless Chromium at 1280x800, the map alone, the whole graph fitted.
 * The same page draws both: only the positions differ.
 *
 *   npm run bench:layout-pictures -- --repo /path/to/repo [--out folder] [--name eslint]
 *
 * Writes `<name>-strata.png` and `<name>-forceatlas2.png` into the folder
 * (default test/bench/pictures; 256 colours, by UPNG) and prints how long
 * each layout took.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../helpers/browser.ts';
import { startServeProcess } from './serve-process.ts';

const require = createRequire(import.meta.url);
const Graph = require('graphology') as new (options?: object) => any;
const forceAtlas2 = require('graphology-layout-forceatlas2') as { assign(graph: unknown, options: object): void; inferSettings(graph: unknown): object };
const UPNG = require('upng-js') as {
  decode(png: Uint8Array): { width: number; height: number };
  toRGBA8(image: { width: number; height: number }): ArrayBuffer[];
  encode(frames: ArrayBuffer[], width: number, height: number, colours: number): ArrayBuffer;
};

const args = process.argv.slice(2);
const option = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const repo = option('--repo');
if (!repo) throw new Error('usage: layout-pictures.bench.ts --repo /path/to/repo [--out folder] [--name name]');
const out = path.resolve(option('--out') ?? path.join(path.dirname(fileURLToPath(import.meta.url)), 'pictures'));
const name = option('--name') ?? path.basename(path.resolve(repo));
/** Iterations of each layout: Strata's default run for a few thousand nodes, and ForceAtlas2 past its plateau there. */
const STRATA_ITERATIONS = 800;
const FA2_ITERATIONS = 1000;
const EDGE_WEIGHTS: Record<string, number> = { contains: 1, imports: 0.25 };

mkdirSync(out, { recursive: true });
const server = await startServeProcess(repo, 'warn', 'inherit', ['--no-watch']);
const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
try {
  const api = async (route: string, init?: RequestInit): Promise<any> => {
    const response = await fetch(server.url + route, init);
    if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const graph = (await api('/api/graph')).data as { nodes: Array<{ id: string }>; edges: Array<{ source: string; target: string; kind: string }> };

  // Strata: a computation, saved as the layout when it completes.
  let started = performance.now();
  await api('/api/graph/layout', { method: 'DELETE' });
  await api('/api/graph/layout/compute', json({ iterations: STRATA_ITERATIONS, seed: 1 }));
  for (;;) {
    const status = (await api('/api/graph/layout/compute/status')).data;
    if (status.state === 'completed') break;
    if (status.state !== 'running') throw new Error(`the computation ended ${status.state}: ${status.error}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const strataMs = performance.now() - started;
  await picture(path.join(out, `${name}-strata.png`));

  // ForceAtlas2 on the same graph and weights, from a random start, saved as the layout.
  const g = new Graph({ type: 'undirected', multi: true });
  let seed = 7;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5;
  const spread = Math.sqrt(graph.nodes.length);
  for (const node of graph.nodes) g.addNode(node.id, { x: random() * spread, y: random() * spread });
  for (const edge of graph.edges) g.addEdge(edge.source, edge.target, { weight: EDGE_WEIGHTS[edge.kind] ?? 0.25 });
  started = performance.now();
  forceAtlas2.assign(g, { iterations: FA2_ITERATIONS, settings: { ...forceAtlas2.inferSettings(g), barnesHutOptimize: true }, getEdgeWeight: 'weight' });
  const fa2Ms = performance.now() - started;
  const positions: Record<string, { x: number; y: number }> = {};
  g.forEachNode((id: string, attributes: { x: number; y: number }) => (positions[id] = { x: attributes.x, y: attributes.y }));
  await api('/api/graph/layout', json({ positions }));
  await picture(path.join(out, `${name}-forceatlas2.png`));

  console.log(
    `${name}: ${graph.nodes.length} nodes, ${graph.edges.length} edges; Strata ${STRATA_ITERATIONS} iterations in ${(strataMs / 1000).toFixed(1)} s (the server's computation, wasm), ForceAtlas2 ${FA2_ITERATIONS} iterations in ${(fa2Ms / 1000).toFixed(1)} s; pictures in ${path.relative(process.cwd(), out)}`,
  );
} finally {
  await browser.close();
  await server.stop();
}

/** The web UI's map of the saved layout, the whole graph fitted, as a PNG. */
async function picture(file: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  try {
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
    await page.keyboard.press('0');
    await page.waitForFunction(() => {
      const camera = (window as any).strata.camera();
      return camera.x === 0.5 && camera.y === 0.5 && camera.ratio === 1 && (window as any).strata.still();
    });
    await page.waitForTimeout(500);
    writeFileSync(file, toPalette(await page.locator('.map').screenshot()));
  } finally {
    await context.close();
  }
}

/**
 * A PNG of the map reduced to 256 colours by UPNG (an indexed PNG, about a third of the bytes): the map's colours are a
 * few flat ones and their antialiased edges, and the pictures are committed.
 */
function toPalette(png: Buffer): Buffer {
  const image = UPNG.decode(png);
  const [rgba] = UPNG.toRGBA8(image);
  return Buffer.from(UPNG.encode([rgba!], image.width, image.height, 256));
}
