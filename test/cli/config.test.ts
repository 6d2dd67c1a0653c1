import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '@strata/host';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { runStrata } from '../helpers/strata-cli.ts';
import { request } from '../helpers/strata-server.ts';

t.test('settings: defaults < strata.config.json < STRATA_* < flags', async (t) => {
  const repo = await makeRepo(t, {});
  const defaults = loadConfig({ repository: repo, env: {} });
  t.match(defaults, { port: 5050, host: '127.0.0.1', dataDir: path.join(repo, '.strata'), logLevel: 'info', maxBodyBytes: 16 * 1024 * 1024 });

  await writeFile(
    path.join(repo, 'strata.config.json'),
    JSON.stringify({ port: 6000, host: '0.0.0.0', dataDir: 'state', logLevel: 'warn', index: { maxFileBytes: 4096 } }),
  );
  const fromFile = loadConfig({ repository: repo, env: {} });
  t.match(
    fromFile,
    { port: 6000, host: '0.0.0.0', dataDir: path.join(repo, 'state'), logLevel: 'warn', index: { maxFileBytes: 4096 } },
    'the file overrides defaults; its dataDir is relative to the repository',
  );

  const fromEnv = loadConfig({ repository: repo, env: { STRATA_PORT: '7000', STRATA_INDEX_MAX_FILE_BYTES: '8192' }, cwd: '/tmp' });
  t.match(fromEnv, { port: 7000, host: '0.0.0.0', index: { maxFileBytes: 8192 } }, 'variables override the file, nested keys included');

  const fromFlags = loadConfig({ repository: repo, env: { STRATA_PORT: '7000' }, flags: { port: 8000, dataDir: 'flagged' }, cwd: '/tmp' });
  t.match(fromFlags, { port: 8000, dataDir: '/tmp/flagged' }, 'flags override variables; their dataDir is relative to the working directory');

  const otherFile = path.join(repo, 'other.json');
  await writeFile(otherFile, JSON.stringify({ port: 9000 }));
  t.match(loadConfig({ repository: repo, env: {}, configFile: otherFile }), { port: 9000, host: '127.0.0.1' }, '--config replaces strata.config.json');
});

t.test('the CLI applies variables and flags', async (t) => {
  const repo = await makeRepo(t, { 'a.ts': 'export {};\n' });
  const run = runStrata(t, ['serve', repo, '--port', '0', '--data-dir', path.join(repo, 'elsewhere')], {
    env: { STRATA_LOG_LEVEL: 'silent', STRATA_PORT: '1' },
  });
  const url = await run.url();
  t.notMatch(url, /:1$/, '--port wins over STRATA_PORT');
  t.equal((await request(url, '/api/graph')).status, 200);
  t.equal(run.stderr().includes('"level"'), false, 'STRATA_LOG_LEVEL=silent silences the log');
  run.child.kill('SIGTERM');
  t.equal(await run.exited, 0);
  const { existsSync } = await import('node:fs');
  t.ok(existsSync(path.join(repo, 'elsewhere', 'layout.db')), 'the store is in --data-dir');
  t.ok(existsSync(path.join(repo, 'elsewhere', '.gitignore')), 'which keeps itself out of git');
});
