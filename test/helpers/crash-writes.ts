// Writes of every kind to a running server, and what they leave: for the
// kill -9 rounds of test/storage/crash-writes.test.ts and
// test/bench/reliability.bench.ts.

export const FILE = 'file:src/index.ts';

/** What the writes leave: the saved position of FILE (undefined: none) and whether complexity is applied. */
export interface Outcome {
  position: { x: number; y: number } | undefined;
  complexity: boolean;
}

export type Write = { name: string; send(url: string): Promise<Response>; after(state: Outcome): Outcome };

export function writeNumber(i: number): Write {
  switch (i % 4) {
    case 0:
      return {
        name: `save x=${i}`,
        send: (url) =>
          fetch(`${url}/api/graph/layout`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ positions: { [FILE]: { x: i, y: -i } } }),
          }),
        after: (state) => ({ ...state, position: { x: i, y: -i } }),
      };
    case 1:
      return { name: 'clear', send: (url) => fetch(`${url}/api/graph/layout`, { method: 'DELETE' }), after: (state) => ({ ...state, position: undefined }) };
    case 2:
      return {
        name: 'apply complexity',
        send: (url) => fetch(`${url}/api/overlays/complexity/apply`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
        after: (state) => ({ ...state, complexity: true }),
      };
    default:
      return {
        name: 'remove complexity',
        send: (url) => fetch(`${url}/api/overlays/complexity/apply`, { method: 'DELETE' }),
        after: (state) => ({ ...state, complexity: false }),
      };
  }
}

export async function served(url: string): Promise<Outcome> {
  const node = (await (await fetch(`${url}/api/graph/nodes/${encodeURIComponent(FILE)}`)).json()) as { data: { position?: { x: number; y: number } } };
  let status = (await (await fetch(`${url}/api/overlays/complexity/status`)).json()) as { data: { state: string } };
  // A start applies again what was active: wait for that.
  for (let tries = 0; status.data.state === 'applying' && tries < 400; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    status = (await (await fetch(`${url}/api/overlays/complexity/status`)).json()) as { data: { state: string } };
  }
  return { position: node.data.position, complexity: status.data.state === 'active' };
}

/** One round: a stream of writes to `url`, killed by `kill()` after `delayMs`; what was acknowledged and what was in flight. */
export async function writeUntilKilled(
  url: string,
  firstWrite: number,
  delayMs: number,
  acknowledged: Outcome,
  kill: () => Promise<void>,
): Promise<{ acknowledged: Outcome; inFlight: Write | undefined; writes: number }> {
  let inFlight: Write | undefined;
  let killed = false;
  let writes = 0;
  const stream = (async () => {
    for (let i = firstWrite; !killed; i++) {
      const write = writeNumber(i);
      inFlight = write;
      const response = await write.send(url).catch(() => undefined);
      if (!response) return;
      await response.arrayBuffer().catch(() => undefined);
      if (killed) return;
      if (response.status === 200) acknowledged = write.after(acknowledged);
      inFlight = undefined;
      writes++;
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  killed = true;
  await kill();
  await stream;
  return { acknowledged, inFlight, writes };
}
