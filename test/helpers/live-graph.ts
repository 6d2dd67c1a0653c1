import { indexRepository } from '@strata/host';
import type { Test } from 'tap';
import type { TestServer } from './strata-server.ts';

/** Waits until the served graph's revision passes `revision` and `ready` holds for it. */
export async function nextGraph(server: TestServer, revision: number, ready: (graph: any) => boolean = () => true): Promise<any> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { body } = await server.api('/api/graph');
    if (body.meta.revision > revision && ready(body)) return body;
    if (Date.now() > deadline) throw new Error(`the graph did not change in time (revision ${body.meta.revision})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The live graph equals what a cold index of the same files gives, positions aside. */
export async function matchesColdIndex(t: Test, live: any, repo: string): Promise<void> {
  const cold = await indexRepository({ repository: repo, env: {} });
  const strip = ({ position: _p, ...node }: any) => node;
  const byId = (items: Array<{ id: string }>) => Object.fromEntries(items.map((item) => [item.id, item]));
  t.same(byId(live.data.nodes.map(strip)), byId(cold.nodes), 'nodes equal a cold index');
  t.same(byId(live.data.edges), byId(cold.edges), 'edges equal a cold index');
  t.equal(live.meta.unresolvedCount ?? cold.build.unresolvedCount, cold.build.unresolvedCount);
}

/** The ids of a served graph's nodes. */
export function nodeIds(graph: any): Set<string> {
  return new Set(graph.data.nodes.map((node: { id: string }) => node.id));
}
