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
 * (default test/bench/pictures; 256 colours, `toPalette`) and prints how long
 * each layout took.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../helpers/browser.ts';
import { startServeProcess } from './serve-process.ts';

const require = createRequire(import.meta.url);
const Graph = require('graphology') as new (options?: object) => any;
const forceAtlas2 = require('graphology-layout-forceatlas2') as { assign(graph: unknown, options: object): void; inferSettings(graph: unknown): object };

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
 * A PNG of the map reduced to 256 colours (an indexed PNG, about a third of the bytes: eslint's 193 and 291 KB to 60
 * and 89): the most frequent colours at 5 bits a channel, each pixel drawn in the nearest of them. The map's colours
 * are a few flat ones and their antialiased edges; the pictures are committed. Anything but an opaque 8-bit RGB(A)
 * PNG is kept as it is.
 */
function toPalette(png: Buffer): Buffer {
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const colorType = body[9]!;
      if (body[8] !== 8 || body[12] !== 0 || (colorType !== 2 && colorType !== 6)) return png;
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const corner = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels]! : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - corner;
        const pa = Math.abs(p - left);
        const pb = Math.abs(p - up);
        const pc = Math.abs(p - corner);
        predicted = pa <= pb && pa <= pc ? left : pb <= pc ? up : corner;
      }
      pixels[y * stride + x] = (row[x]! + predicted) & 255;
    }
  }
  if (channels === 4) for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 255) return png;
  // Colours counted at 5 bits a channel; the 256 most frequent bins, each as its pixels' mean colour.
  const bin = (i: number): number => ((pixels[i]! >> 3) << 10) | ((pixels[i + 1]! >> 3) << 5) | (pixels[i + 2]! >> 3);
  const count = new Float64Array(32768);
  const sum = new Float64Array(3 * 32768);
  for (let i = 0; i < pixels.length; i += channels) {
    const b = bin(i);
    count[b]!++;
    for (let c = 0; c < 3; c++) sum[3 * b + c]! += pixels[i + c]!;
  }
  const bins = Array.from({ length: 32768 }, (_, b) => b)
    .filter((b) => count[b]! > 0)
    .sort((a, b) => count[b]! - count[a]! || a - b)
    .slice(0, 256);
  const palette = bins.map((b) => [0, 1, 2].map((c) => Math.round(sum[3 * b + c]! / count[b]!)));
  const nearest = new Int16Array(32768).fill(-1);
  const indices = Buffer.alloc(height * (width + 1));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * stride + x * channels;
      const b = bin(i);
      if (nearest[b] === -1) {
        let best = 0;
        let bestDistance = Infinity;
        palette.forEach(([r, g, bl], k) => {
          const distance = (r! - pixels[i]!) ** 2 + (g! - pixels[i + 1]!) ** 2 + (bl! - pixels[i + 2]!) ** 2;
          if (distance < bestDistance) (bestDistance = distance), (best = k);
        });
        nearest[b] = best;
      }
      indices[y * (width + 1) + 1 + x] = nearest[b]!;
    }
  }
  const chunk = (type: string, body: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length, 0);
    head.write(type, 4, 'latin1');
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
    return Buffer.concat([head, body, tail]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 3, 0, 0, 0], 8);
  return Buffer.concat([
    png.subarray(0, 8),
    chunk('IHDR', header),
    chunk('PLTE', Buffer.from(palette.flat())),
    chunk('IDAT', deflateSync(indices, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
