// A sandbox process started ahead (what `strata serve --dev` keeps for hot
// reload): the sandbox that takes it loads and applies as with a process of
// its own, a spare that died meanwhile is never handed out, and closing ends
// the spare.

import { graphPayloadOf, PluginSandbox, SpareSandboxProcess } from '@strata/sandbox';
import type { GraphNode } from '@strata/sdk';
import t from 'tap';
import { pluginCode } from '../helpers/fixture-plugins.ts';

const CODE = pluginCode(`const o = ctx.overlay('main'); o.set(0, { color: '#00ff00' });`);

async function startSandbox(processes: SpareSandboxProcess): Promise<PluginSandbox> {
  return PluginSandbox.start({ pluginId: 'spare', code: CODE, filename: 'spare.js', capabilities: [], callCapability: async () => undefined, processes });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const started = Date.now(); !condition(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() - started > 20_000) throw new Error(`not within 20 s: ${what}`);
  }
}

function exited(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

t.test('a sandbox given the spare loads and applies in it; the next spare is started after a while', async (t) => {
  const processes = new SpareSandboxProcess(50);
  t.teardown(() => processes.close());
  const first = await startSandbox(processes);
  t.teardown(() => first.dispose());
  await until(() => processes.ready, 'a spare is started');
  const spare = (processes as unknown as { spare: { pid: number } }).spare;
  t.not((first as unknown as { child: { pid: number } }).child.pid, spare.pid, 'the first sandbox has a process of its own (there was no spare yet)');
  const second = await startSandbox(processes);
  t.teardown(() => second.dispose());
  t.equal((second as unknown as { child: { pid: number } }).child.pid, spare.pid, 'the second sandbox runs in the spare');
  const graph = graphPayloadOf([{ id: 'file:a.ts', kind: 'file', name: 'a.ts', path: 'a.ts', language: 'typescript' } as GraphNode], [], 1);
  const result = await second.apply({ params: {}, inputs: {} }, graph);
  t.equal(result.overlays[0]?.color[0], 0x1000000 + 0x00ff00, 'it applies the plugin');
});

t.test('a spare that died is not handed out; close ends the spare', async (t) => {
  const processes = new SpareSandboxProcess(20);
  t.teardown(() => processes.close());
  const first = await startSandbox(processes);
  t.teardown(() => first.dispose());
  await until(() => processes.ready, 'a spare is started');
  const dead = (processes as unknown as { spare: { pid: number; kill(signal: string): void } }).spare;
  dead.kill('SIGKILL');
  await until(() => exited(dead.pid), 'the spare ended');
  const second = await startSandbox(processes);
  t.teardown(() => second.dispose());
  t.not((second as unknown as { child: { pid: number } }).child.pid, dead.pid, 'a fresh process instead of the dead spare');
  await until(() => processes.ready, 'another spare is started');
  const spare = (processes as unknown as { spare: { pid: number } }).spare;
  processes.close();
  await until(() => exited(spare.pid), 'close ends the spare');
  t.notOk(processes.ready, 'and none is started again');
});
