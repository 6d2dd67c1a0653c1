// Under CPU load, the live graph misses no final write (issue 19, point 7): a
// hundred files are written and rewritten in quick rounds (whole writes,
// writes in two parts with the file cut first, deletions, files made again,
// renames) while two processes keep both cores busy; once the writing stops,
// the served graph must come to equal a cold index of the same files.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { indexRepository } from '@strata/host';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';

t.setTimeout(240_000);

const FILES = 100;
const ROUNDS = 8;

/** A file's text in a round: its length, imports and symbols change with the round. */
function source(i: number, round: number): string {
  const imports = Array.from({ length: 1 + ((i + round) % 3) }, (_, k) => `import { v${(i + k + 1) % FILES} } from './f${(i + k + 1) % FILES}';`);
  const functions = Array.from({ length: 1 + ((i * round) % 4) }, (_, k) => `export function r${round}k${k}() { return ${i * k + round}; }`);
  return `${imports.join('\n')}\nexport const v${i} = ${round};\n${functions.join('\n')}\n${'// padding\n'.repeat(round % 5)}`;
}

/** Writes `text` the way a slow writer does: the file is cut, then written in two parts. */
async function writeInTwoParts(file: string, text: string): Promise<void> {
  const handle = await open(file, 'w');
  try {
    const half = Math.floor(text.length / 2);
    await handle.write(text.slice(0, half));
    await new Promise((resolve) => setImmediate(resolve));
    await handle.write(text.slice(half));
  } finally {
    await handle.close();
  }
}

t.test('writes and rewrites under CPU load: the live graph comes to equal a cold index', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const dir = path.join(repo, 'stress');
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < FILES; i++) await writeFile(path.join(dir, `f${i}.ts`), source(i, 0));
  const server = await startTestServer(t, repo);

  const hogs: ChildProcess[] = Array.from({ length: 2 }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  t.teardown(() => {
    for (const hog of hogs) hog.kill('SIGKILL');
  });

  for (let round = 1; round <= ROUNDS; round++) {
    const writes: Array<Promise<void>> = [];
    for (let i = 0; i < FILES; i++) {
      const file = path.join(dir, `f${i}.ts`);
      const text = source(i, round);
      if ((i + round) % 7 === 0) writes.push(rm(file, { force: true }).then(() => (round === ROUNDS ? undefined : writeFile(file, text))));
      else if ((i + round) % 5 === 0) writes.push(writeFile(`${file}.tmp`, text).then(() => rename(`${file}.tmp`, file)));
      else if ((i + round) % 2 === 0) writes.push(writeInTwoParts(file, text));
      else writes.push(writeFile(file, text));
    }
    await Promise.all(writes);
  }
  for (const hog of hogs) hog.kill('SIGKILL');

  const cold = await indexRepository({ repository: repo, env: {} });
  const key = (items: Array<{ id: string }>, strip: (item: any) => unknown = (item) => item): string =>
    JSON.stringify(items.map(strip).sort((a: any, b: any) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
  const wanted = { nodes: key(cold.nodes), edges: key(cold.edges) };
  let live: { nodes: string; edges: string } | undefined;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { body } = await server.api('/api/graph');
    live = { nodes: key(body.data.nodes, ({ position: _p, ...node }) => node), edges: key(body.data.edges) };
    if (live.nodes === wanted.nodes && live.edges === wanted.edges) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  t.equal(live?.nodes, wanted.nodes, 'nodes equal a cold index');
  t.equal(live?.edges, wanted.edges, 'edges equal a cold index');
  t.ok(cold.nodes.filter((node: { id: string }) => node.id.startsWith('file:stress/')).length < FILES, 'the last round left some files deleted');
});
