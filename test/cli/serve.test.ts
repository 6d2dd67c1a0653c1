import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { HOST_VERSION } from '@strata/host';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { runStrata } from '../helpers/strata-cli.ts';
import { postJson, request } from '../helpers/strata-server.ts';

t.test('strata --help and --version', async (t) => {
  const help = runStrata(t, ['--help']);
  t.equal(await help.exited, 0);
  t.match(help.stdout(), /Usage: strata/);
  t.match(help.stdout(), /serve \[options\] \[repo\]/);

  const serveHelp = runStrata(t, ['serve', '--help']);
  t.equal(await serveHelp.exited, 0);
  for (const flag of ['--port', '--host', '--data-dir', '--config', '--log-level']) t.match(serveHelp.stdout(), flag);
  t.match(serveHelp.stdout(), /Examples:/);

  const version = runStrata(t, ['--version']);
  t.equal(await version.exited, 0);
  t.equal(version.stdout().trim(), HOST_VERSION);
});

t.test('strata serve indexes, prints the URL, serves, and stops cleanly on SIGTERM and SIGINT without losing data', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const run = runStrata(t, ['serve', repo, '--port', '0', '--log-level', 'warn']);
    const url = await run.url();
    t.match(run.stderr(), /Indexing: listing files/, 'a progress line while it indexes');
    t.match(run.stdout(), new RegExp(`Strata is serving ${path.basename(repo)} at http://127\\.0\\.0\\.1:\\d+`));
    const graph = await request(url, '/api/graph');
    t.equal(graph.status, 200);
    const x = signal === 'SIGTERM' ? 1 : 2;
    t.equal((await request(url, '/api/graph/layout', postJson({ positions: { 'file:src/index.ts': { x, y: x } } }))).status, 200);
    run.child.kill(signal);
    t.equal(await run.exited, 0, `exits 0 on ${signal}`);
    t.match(run.stderr(), new RegExp(`Received ${signal}`));

    const again = runStrata(t, ['serve', repo, '--port', '0', '--log-level', 'warn']);
    const node = await request(await again.url(), `/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`);
    t.same(node.body.data.position, { x, y: x }, `the layout saved before ${signal} is there after a restart`);
    again.child.kill('SIGTERM');
    await again.exited;
  }
});

t.test("strata serve . serves Strata's own repository", async (t) => {
  const checkout = path.resolve(import.meta.dirname, '../..');
  const dataDir = await makeRepo(t, {});
  const run = runStrata(t, ['serve', '.', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'], { cwd: checkout });
  const url = await run.url();
  const { body } = await request(url, '/api/graph');
  const ids = new Set(body.data.nodes.map((node: { id: string }) => node.id));
  for (const id of ['dir:.', 'dir:host/src', 'file:host/src/index.ts', 'file:sdk/src/graph.ts', 'file:README.md']) t.ok(ids.has(id), `has ${id}`);
  t.notOk(
    [...ids].some((id) => /^(dir|file):(node_modules|\.git|host\/dist)(\/|$)/.test(String(id))),
    'no node_modules, .git or build output (ignored by .gitignore)',
  );
  const edgeIds = new Set(body.data.edges.map((edge: { id: string }) => edge.id));
  t.ok(edgeIds.has('imports:file:host/src/index.ts->file:host/src/composition-root.ts'), 'its own imports are edges');
  run.child.kill('SIGTERM');
  t.equal(await run.exited, 0);
});

t.test('strata serve fails clearly for a missing path, a file, a port in use and bad settings', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);

  const missing = runStrata(t, ['serve', path.join(repo, 'nope')]);
  t.equal(await missing.exited, 2);
  t.match(missing.stderr(), /^strata: .*nope does not exist\n$/);

  const file = runStrata(t, ['serve', path.join(repo, 'README.md')]);
  t.equal(await file.exited, 2);
  t.match(file.stderr(), /README\.md is not a directory/);

  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.teardown(() => blocker.close());
  const port = (blocker.address() as { port: number }).port;
  const busy = runStrata(t, ['serve', repo, '--port', String(port)]);
  t.equal(await busy.exited, 1);
  t.match(busy.stderr(), new RegExp(`port ${port} is already in use on 127\\.0\\.0\\.1; choose another with --port`));

  const badFlag = runStrata(t, ['serve', repo, '--port', 'eighty']);
  t.equal(await badFlag.exited, 2);
  t.match(badFlag.stderr(), /strata: --port: must be integer/);

  const outOfRange = runStrata(t, ['serve', repo, '--port', '70000']);
  t.equal(await outOfRange.exited, 2);
  t.match(outOfRange.stderr(), /--port: must be <= 65535/);

  const badEnv = runStrata(t, ['serve', repo], { env: { STRATA_MAX_BODY_BYTES: 'lots' } });
  t.equal(await badEnv.exited, 2);
  t.match(badEnv.stderr(), /environment variable STRATA_MAX_BODY_BYTES: must be integer/);

  const unknownEnv = runStrata(t, ['serve', repo], { env: { STRATA_PROT: '1' } });
  t.equal(await unknownEnv.exited, 2);
  t.match(unknownEnv.stderr(), /STRATA_PROT: is not a known setting/);

  await writeFile(path.join(repo, 'strata.config.json'), JSON.stringify({ prot: 5050 }));
  const badFile = runStrata(t, ['serve', repo]);
  t.equal(await badFile.exited, 2);
  t.match(badFile.stderr(), /strata\.config\.json: key "prot" is not a known field/);

  await writeFile(path.join(repo, 'strata.config.json'), JSON.stringify({ index: { maxFileBytes: 'big' } }));
  const badNested = runStrata(t, ['serve', repo]);
  t.equal(await badNested.exited, 2);
  t.match(badNested.stderr(), /key "index\.maxFileBytes" must be integer/);

  await writeFile(path.join(repo, 'strata.config.json'), '{ not json');
  const notJson = runStrata(t, ['serve', repo]);
  t.equal(await notJson.exited, 2);
  t.match(notJson.stderr(), /strata\.config\.json: not valid JSON/);

  const missingConfig = runStrata(t, ['serve', repo, '--config', path.join(repo, 'absent.json')]);
  t.equal(await missingConfig.exited, 2);
  t.match(missingConfig.stderr(), /config file .*absent\.json does not exist/);

  // A mistyped plugin folder is said plainly, before anything starts.
  const typo = runStrata(t, ['serve', repo, '--plugins', path.join(repo, 'exmaples')]);
  t.equal(await typo.exited, 2);
  t.match(typo.stderr(), /--plugins: .*exmaples does not exist/);
  t.notMatch(typo.stderr(), /"level"/, 'not a JSON log line');
  const notFolder = runStrata(t, ['serve', repo, '--plugins', path.join(repo, 'config.cjs')]);
  t.equal(await notFolder.exited, 2);
  t.match(notFolder.stderr(), /--plugins: .*config\.cjs is not a folder/);
});

t.test('one data directory, one server: a second is refused, the lock of a dead one is taken over', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const first = runStrata(t, ['serve', repo, '--port', '0', '--log-level', 'warn']);
  await first.url();
  const second = runStrata(t, ['serve', repo, '--port', '0']);
  t.equal(await second.exited, 1, 'a second server on the same data directory is refused');
  t.match(second.stderr(), /data directory .*\.strata is in use by another Strata \(process \d+\); stop it, or give this one another --data-dir/);
  first.child.kill('SIGKILL');
  await first.exited;
  const afterCrash = runStrata(t, ['serve', repo, '--port', '0', '--log-level', 'warn']);
  await afterCrash.url();
  t.pass('the lock of a process that died is taken over');
  afterCrash.child.kill('SIGTERM');
  t.equal(await afterCrash.exited, 0);
  t.notOk(existsSync(path.join(repo, '.strata', 'strata.lock')), 'a clean stop releases the lock');
});

t.test('the lock of a server that was killed and not yet reaped (a zombie) is taken over', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  // A child that exits under a parent that never reaps it (sleep, exec'd by the shell): a zombie. It exits once its
  // parent is sleep: exiting at once, it was reaped by the shell before the exec when the machine was busy (CI).
  const child = `sh -c 'until [ "$(cat /proc/$PPID/comm)" = sleep ]; do sleep 0.01; done' & echo $!; exec sleep 30`;
  const parent = spawn('sh', ['-c', child], { stdio: ['ignore', 'pipe', 'ignore'] });
  t.teardown(() => parent.kill('SIGKILL'));
  const zombie = Number((await new Promise<Buffer>((resolve) => parent.stdout.once('data', resolve))).toString().trim());
  let state = '';
  for (const deadline = Date.now() + 5_000; state !== 'Z' && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
    const stat = readFileSync(`/proc/${zombie}/stat`, 'utf8');
    state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  }
  t.equal(state, 'Z', `process ${zombie} is a zombie`);
  mkdirSync(path.join(repo, '.strata'), { recursive: true });
  writeFileSync(path.join(repo, '.strata', 'strata.lock'), `${zombie}\n`);
  const run = runStrata(t, ['serve', repo, '--port', '0', '--log-level', 'warn']);
  await run.url();
  t.pass('started');
  run.child.kill('SIGTERM');
  t.equal(await run.exited, 0);
});

t.test('a server leaves no defunct child processes behind (the file watcher does not probe for watchman through a shell)', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const run = runStrata(t, ['serve', repo, '--port', '0', '--log-level', 'warn']);
  await run.url();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const children: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(after[1]) === run.child.pid) children.push(`${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))} ${after[0]}`);
    } catch {
      // gone meanwhile
    }
  }
  t.same(
    children.filter((child) => child.endsWith(' Z')),
    [],
    `no zombie among its children (${children.join(', ') || 'none'})`,
  );
  run.child.kill('SIGTERM');
  t.equal(await run.exited, 0);
});

t.test('a data directory that cannot be made is named, with why, and no stack', async (t) => {
  const repo = await makeRepo(t, { ...SAMPLE_REPO, occupied: 'a file where the data directory should go\n' });
  for (const dataDir of [path.join(repo, 'occupied'), path.join(repo, 'occupied', 'below')]) {
    const run = runStrata(t, ['serve', repo, '--port', '0', '--data-dir', dataDir]);
    t.equal(await run.exited, 1, dataDir);
    t.match(run.stderr(), `strata: cannot use the data directory ${dataDir}: a file is in the way of it; choose another with --data-dir`);
    t.notMatch(run.stderr(), /\n\s+at /, 'no stack trace');
  }
});
