// strata serve --open: the URL to open is printed, and the desktop's opener is asked to open it.
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { runStrata } from '../helpers/strata-cli.ts';
import { request } from '../helpers/strata-server.ts';

t.test('strata serve prints the URL to open, and --open opens it in the browser', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  // A stand-in for the desktop's opener, first on the PATH: it writes down what it was asked to open.
  const bin = await makeRepo(t, {});
  const opened = path.join(bin, 'opened.txt');
  await writeFile(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "$1" > '${opened}'\n`, { mode: 0o755 });
  const run = runStrata(t, ['serve', repo, '--port', '0', '--log-level', 'warn', '--open'], { env: { PATH: `${bin}:${process.env.PATH}` } });
  const url = await run.url();
  // The line comes right after the one that gives the URL, in a write of its own.
  for (let i = 0; i < 50 && !run.stdout().includes('Open '); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  t.match(run.stdout(), `Open ${url} in your browser`);
  const page = await fetch(`${url}/`);
  t.equal(page.status, 200);
  t.match(await page.text(), /<script type="module" src="\/assets\/strata-/, 'the web UI is served at /');
  for (let i = 0; i < 50 && !existsSync(opened); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  t.equal(readFileSync(opened, 'utf8').trim(), url, 'the browser was asked to open it');
  run.child.kill('SIGTERM');
  await run.exited;

  const without = runStrata(t, ['serve', repo, '--port', '0', '--log-level', 'warn', '--open'], { env: { PATH: '/nonexistent' } });
  await without.url();
  for (let i = 0; i < 50 && !/Could not open a browser/.test(without.stderr()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  t.match(without.stderr(), /Could not open a browser \(xdg-open is not installed\); open http/, 'no opener: said, and the server goes on');
  t.equal((await request(await without.url(), '/api/graph')).status, 200);
  without.child.kill('SIGTERM');
  await without.exited;
});
