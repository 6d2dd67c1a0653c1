// The layout's WebGPU backend (issue 22, point 5), run on the software Vulkan driver that Debian's Chromium ships
// (SwiftShader), since these machines have no GPU: the same arithmetic as wasm, said truthfully to be no GPU, and
// reachable through `layout.backend` and the HTTP API. Each run is a process of its own: the Vulkan loader's folder
// must be in LD_LIBRARY_PATH when a process starts (test/helpers/software-gpu.ts).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { softwareVulkanEnv } from '../helpers/software-gpu.ts';
import { runStrata } from '../helpers/strata-cli.ts';
import { request } from '../helpers/strata-server.ts';

const RUNNER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/backend-run.ts');
const vulkan = softwareVulkanEnv();

interface BackendRun {
  info: { backend: string; gpu: boolean; device: string };
  nodes: number;
  early: number[];
  quality: { stress: number; neighbourhood: number };
  overlapPairs: number;
  finite: boolean;
}

async function runOn(backend: string, nodes: number, iterations: number): Promise<BackendRun> {
  const { stdout } = await promisify(execFile)(process.execPath, [RUNNER, backend, String(nodes), String(iterations)], {
    env: { ...process.env, ...vulkan },
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as BackendRun;
}

// About 500 nodes and 60 iterations: SwiftShader computes a WebGPU iteration in about 60 ms here, wasm in 2.
const [webgpu, wasm] = [await runOn('webgpu', 500, 60), await runOn('wasm', 500, 60)];

t.test('named, the WebGPU backend loads on a software adapter and says it is not a GPU', async (t) => {
  t.equal(webgpu.info.backend, 'webgpu');
  t.equal(webgpu.info.gpu, false, 'SwiftShader computes on the CPU');
  t.match(webgpu.info.device, /swiftshader/i);
  t.match(webgpu.info.device, /software adapter: the CPU, not a GPU/);
});

t.test('WebGPU computes what wasm computes', async (t) => {
  t.equal(wasm.info.backend, 'wasm');
  t.equal(webgpu.nodes, wasm.nodes);
  // Three iterations from one start: float32 on both, summed in other orders, so equal to rounding.
  let largest = 0;
  let extent = 0;
  for (let i = 0; i < wasm.early.length; i++) {
    largest = Math.max(largest, Math.abs(webgpu.early[i]! - wasm.early[i]!));
    extent = Math.max(extent, Math.abs(wasm.early[i]!));
  }
  t.ok(largest <= 1e-4 * extent, `positions after 3 iterations differ by at most ${largest} (the picture spans ${extent.toFixed(1)})`);
  // A whole run (both levels, overlap removal): rounding differences grow, the quality does not move.
  t.ok(webgpu.finite, 'every position is finite');
  const said = `stress ${webgpu.quality.stress.toFixed(4)} against ${wasm.quality.stress.toFixed(4)}, neighbourhood ${webgpu.quality.neighbourhood.toFixed(3)} against ${wasm.quality.neighbourhood.toFixed(3)}`;
  t.ok(Math.abs(webgpu.quality.stress - wasm.quality.stress) <= 0.02 * wasm.quality.stress, `stress within 2 %: ${said}`);
  t.ok(Math.abs(webgpu.quality.neighbourhood - wasm.quality.neighbourhood) <= 0.1 * wasm.quality.neighbourhood, `neighbourhood within 10 %: ${said}`);
  t.equal(webgpu.overlapPairs, wasm.overlapPairs, 'the overlap removal leaves the same overlaps (none at this size)');
});

t.test('auto passes over a software adapter: wasm computes faster than SwiftShader', async (t) => {
  const auto = await runOn('auto', 100, 1);
  t.equal(auto.info.backend, 'wasm');
});

t.test('strata serve with layout.backend webgpu: available, a computation and its status say so', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = runStrata(t, ['serve', repo, '--port', '0', '--no-watch', '--log-level', 'warn'], {
    env: { ...vulkan, STRATA_LAYOUT_BACKEND: 'webgpu' },
  });
  const url = await server.url();
  const available = await request(url, '/api/graph/layout/compute/available');
  t.equal(available.status, 200);
  t.match(available.body.data, { available: false, gpu: false, backend: 'webgpu', device: /software adapter/ });

  const started = await request(url, '/api/graph/layout/compute', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ iterations: 30, seed: 5 }),
  });
  t.equal(started.status, 200);
  let status: Record<string, unknown> = {};
  for (let i = 0; i < 1200; i++) {
    status = (await request(url, '/api/graph/layout/compute/status')).body.data;
    if (status.state !== 'running') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.match(status, { state: 'completed', iteration: 30, backend: 'webgpu', error: null });
  const graph = (await request(url, '/api/graph')).body.data;
  t.ok(
    graph.nodes.every((node: { position?: { x: number; y: number } }) => node.position && Number.isFinite(node.position.x) && Number.isFinite(node.position.y)),
    'every node has a position',
  );
  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0, `the server stops cleanly (the layout's worker held Dawn)\n${server.stderr()}`);
  t.notMatch(server.stderr(), /Couldn't load Vulkan|Error/, 'nothing on stderr from Dawn');
});
