import { statSync } from 'node:fs';
import path from 'node:path';
import { indexRepository } from '@strata/host';
import type { Test } from 'tap';
import type { TestServer } from './strata-server.ts';

/**
 * Waits until the served graph's revision passes `revision`, `ready` holds
 * for it, and every file node has the size its file has now. A file read
 * while it was being written (`writeFile` truncates it first) is read
 * again on the write's next event; a revision between the two can already
 * meet `ready` (a resolver reading the file's head anew, as Java's and
 * C's do) while the file's node still says what the truncated file held:
 * that revision is not the one the write leads to. The wait is a guard
 * against a change that never shows, not a measure of speed (benchmarks
 * are): a branch switch of 2,000 files settled in 3.5 to 10.4 s with two
 * other processes busy on these 2 cores, so it waits 30 s.
 */
export async function nextGraph(server: TestServer, revision: number, ready: (graph: any) => boolean = () => true): Promise<any> {
  const deadline = Date.now() + 30_000;
  const root = server.strata.config.repositoryRoot;
  for (;;) {
    const { body } = await server.api('/api/graph');
    const passed = body.meta.revision > revision;
    const isReady = passed && ready(body);
    const sized = isReady && sizesAsOnDisk(body, root);
    if (sized) return body;
    if (Date.now() > deadline) {
      const why = !passed ? `still at revision ${revision}` : !isReady ? 'not yet as the test waits for' : "a file node has not its file's size";
      throw new Error(`the graph did not change in time (revision ${body.meta.revision}: ${why})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Whether every file node of a served graph whose file is there has that file's size now. */
function sizesAsOnDisk(graph: any, root: string): boolean {
  for (const node of graph.data.nodes as Array<{ kind: string; path: string; bytes?: number }>) {
    // A quoted path (a name that is not UTF-8) is no path on disk as text.
    if (node.kind !== 'file' || node.bytes === undefined || node.path.includes('"')) continue;
    const size = statSync(path.join(root, node.path), { throwIfNoEntry: false })?.size;
    if (size !== undefined && size !== node.bytes) return false;
  }
  return true;
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
