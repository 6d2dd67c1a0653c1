// A start whose first index cannot be made ends with a message and a non-zero
// exit, never a process that neither listens nor exits; and an ignore file
// built to break the walker (issue 38: one line of 100,000 characters made
// every path's test throw "Regular expression too large") is served with the
// rule left out and said so.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { runStrata } from '../helpers/strata-cli.ts';

const FAILING_FIRST_INDEX = path.resolve(fileURLToPath(import.meta.url), '../../helpers/failing-first-index.mjs');

t.test('a first index that fails ends the start: a message naming the failure, exit code 1', async (t) => {
  const repo = await makeRepo(t, { 'src/a.ts': 'export const a = 1;\n', 'boom/b.ts': 'export const b = 2;\n' });
  const run = runStrata(t, ['serve', repo, '--port', '0'], { env: { NODE_OPTIONS: `--import=${FAILING_FIRST_INDEX}` } });
  // A guard against a hang, not a measure: the process is killed by the test's teardown if it never ends.
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([run.exited, new Promise((resolve) => (timer = setTimeout(() => resolve('still running after 60 s'), 60_000)))]);
  clearTimeout(timer);
  t.equal(ended, 1, 'the process exits with 1');
  t.match(run.stderr(), /strata: .*injected failure: the first index breaks here/, 'standard error names the failure');
  t.notMatch(run.stdout(), /Strata is serving/, 'no URL was printed');
  t.notMatch(run.stderr(), /still running after the error/, 'it stopped what it had started: the exit did not need the last resort');
});

t.test('a .gitignore line of 100,000 characters is left out, named with its file and line, and the rest is served', async (t) => {
  const repo = await makeRepo(t, {
    '.gitignore': `${'a'.repeat(100_000)}\n*.log\n`,
    'src/a.ts': 'export const a = 1;\n',
    'debug.log': 'ignored\n',
  });
  const run = runStrata(t, ['serve', repo, '--port', '0', '--no-built-ins', '--no-watch']);
  const url = await run.url();
  const graph = (await (await fetch(`${url}/api/graph`)).json()) as { data: { nodes: Array<{ id: string }> }; meta: { skipped: unknown[] } };
  const ids = graph.data.nodes.map((node) => node.id);
  t.ok(ids.includes('file:src/a.ts'), 'the repository is indexed');
  t.notOk(ids.includes('file:debug.log'), 'the rules after the long line still apply');
  t.same(graph.meta.skipped, [{ path: '.gitignore', reason: 'ignore rule on line 1 left out: 100000 characters, longer than any path can be (4096)' }]);
  t.match(run.stderr(), /"file":".gitignore".*"msg":"an ignore rule was left out"/, 'the log says so too');
  run.child.kill('SIGTERM');
  t.equal(await run.exited, 0, 'and it stops cleanly');
});
