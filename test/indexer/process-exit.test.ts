import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';

/** The library entry as a package user loads it. */
const HOST_ENTRY = pathToFileURL(path.resolve(fileURLToPath(import.meta.url), '../../../host/dist/index.js')).href;

/** Runs `code` as an ES module in a Node process of its own, with nothing else to keep it alive. */
function runScript(code: string, cwd: string, nodeOptions: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...nodeOptions, '--input-type=module', '-e', code], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (exitCode) => resolve({ code: exitCode, stdout, stderr })));
}

// A small repository is read on the calling thread, but its larger sources on a standby thread, which must keep
// the process alive while it owes an answer: a script that only awaits `indexRepository` once exited with 13
// ("unsettled top-level await") before its graph came back.
t.test('a script that only awaits indexRepository gets its graph before the process exits', async (t) => {
  const large = `export function big() {\n${'  return 1;\n'.repeat(400)}}\n`;
  const repo = await makeRepo(t, { 'src/big.ts': large, 'src/main.ts': "import { big } from './big';\nexport const x = big();\n" });
  // The last of these races (an answer of the standby thread after `close` asked it to stop let the process end
  // before the thread did) lost about one run in five: several rounds.
  for (let round = 1; round <= 6; round++) {
    const dataDirectory = path.join(t.testdir({}), `data-${round}`);
    const script = `
      const { indexRepository } = await import(${JSON.stringify(HOST_ENTRY)});
      const graph = await indexRepository({ repository: '.', env: { STRATA_DATA_DIR: ${JSON.stringify(dataDirectory)} } });
      console.log(JSON.stringify(graph.nodes.filter((node) => node.kind === 'file').map((node) => [node.path, node.loc ?? null])));
    `;
    for (const run of ['cold', 'warm']) {
      // Some rounds with V8's options too, which a thread cannot be given explicitly (they are the process's).
      const result = await runScript(script, repo, round % 2 === 0 ? ['--max-old-space-size=3000', '--max-semi-space-size=32'] : []);
      t.equal(result.code, 0, `round ${round}, ${run}: exits with 0 (${result.stderr.split('\n')[0]})`);
      t.same(
        JSON.parse(result.stdout || 'null'),
        [
          ['src/big.ts', 402],
          ['src/main.ts', 2],
        ],
        `round ${round}, ${run}: prints the graph's files, the large one parsed`,
      );
    }
  }
});
