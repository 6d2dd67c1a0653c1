// The proof of publishing: Strata's packages published to a real local npm registry (Verdaccio), then used the way
// a plugin author outside this repository uses them: the host installed from the registry, `strata plugin new`,
// `npm install` resolving @strata/sdk with an ordinary range, `npm test` in the plugin, and `strata serve` applying
// it. The registry serves the @strata scope only; everything else comes from the npm registry as usual (npm's
// cache, which `npm ci` filled).
import { type ChildProcess, execFile, fork, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { until } from '../helpers/until.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(fileURLToPath(import.meta.url), '../../..');
/** The published packages, each after those it depends on. */
const PUBLISHED = [
  'sdk',
  'host/sandbox',
  'extensions/complexity',
  'extensions/git-activity',
  'extensions/change-coupling',
  'extensions/gpu-layout',
  'extensions/hotspots',
  'extensions/ownership',
  'extensions/test-coverage',
  'host',
  'sdk/testing',
];

t.setTimeout(900_000);

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const work = await mkdtemp(path.join(tmpdir(), 'strata-publish-'));
t.teardown(() => rm(work, { recursive: true, force: true }));
const port = await freePort();
const registry = `http://127.0.0.1:${port}/`;
await writeFile(
  path.join(work, 'verdaccio.yaml'),
  [
    `storage: ${path.join(work, 'storage')}`,
    'auth:',
    '  htpasswd:',
    `    file: ${path.join(work, 'htpasswd')}`,
    'packages:',
    "  '@strata/*':",
    '    access: $all',
    '    publish: $anonymous',
    "  '**':",
    '    access: $all',
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n'),
);
// npm's settings for every command here: the @strata scope from the local registry (publishing to it needs a token
// line, any value), the rest from the usual registry, through npm's cache.
const npmrc = path.join(work, 'npmrc');
await writeFile(
  npmrc,
  `@strata:registry=${registry}\n//127.0.0.1:${port}/:_authToken=strata-test\nprefer-offline=true\naudit=false\nfund=false\nupdate-notifier=false\n`,
);
const env: NodeJS.ProcessEnv = { ...process.env, npm_config_userconfig: npmrc };
for (const key of Object.keys(env)) if (/^npm_config_(registry|@strata:registry)$/i.test(key)) delete env[key];

// Its command (package.json's bin): the package exports no subpath for it.
const verdaccioBin = path.join(path.dirname(fileURLToPath(import.meta.resolve('verdaccio/package.json'))), 'bin', 'verdaccio');
const verdaccio: ChildProcess = fork(verdaccioBin, ['--config', path.join(work, 'verdaccio.yaml'), '--listen', `127.0.0.1:${port}`], { stdio: 'pipe' });
const registryLog: string[] = [];
verdaccio.stdout?.on('data', (chunk: Buffer) => registryLog.push(chunk.toString()));
verdaccio.stderr?.on('data', (chunk: Buffer) => registryLog.push(chunk.toString()));
t.teardown(() => {
  verdaccio.kill();
});
await until(async () => (await fetch(`${registry}-/ping`)).ok, 'the registry answering /-/ping', 60_000, 200);

t.test('every package publishes to the registry, at its version', async (t) => {
  for (const folder of PUBLISHED) {
    const { name, version } = JSON.parse(readFileSync(path.join(repoRoot, folder, 'package.json'), 'utf8')) as { name: string; version: string };
    const published = await run('npm', ['publish', '--ignore-scripts', '--tag', 'latest'], {
      cwd: path.join(repoRoot, folder),
      env,
      maxBuffer: 16 * 2 ** 20,
    }).catch((error: { stderr?: string }) => {
      throw new Error(`npm publish ${folder} failed: ${error.stderr}\n${registryLog.join('')}`);
    });
    t.match(published.stdout, `+ ${name}@${version}`, `${name}@${version} published`);
    const manifest = (await (await fetch(`${registry}${name.replace('/', '%2f')}`)).json()) as { 'dist-tags': { latest: string } };
    t.equal(manifest['dist-tags'].latest, version, `the registry serves ${name}@${version}`);
  }
});

t.test('outside the repository: the installed host scaffolds a plugin that installs, tests and serves from the registry', async (t) => {
  const app = path.join(work, 'author');
  await mkdir(app);
  await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'author', version: '1.0.0', private: true }));
  const installedHost = await run('npm', ['install', '@strata/host@^0.2.0'], { cwd: app, env, maxBuffer: 64 * 2 ** 20 });
  t.match(installedHost.stdout, /added \d+ packages/);
  const strata = path.join(app, 'node_modules', '.bin', 'strata');
  t.ok(existsSync(strata), 'the strata command is installed');

  // npx strata plugin new, from the installed host.
  const created = await run('npx', ['strata', 'plugin', 'new', 'my-plugin'], { cwd: app, env });
  t.match(created.stdout, /Created .*my-plugin/);
  const plugin = path.join(app, 'my-plugin');
  const manifestText = await readFile(path.join(plugin, 'package.json'), 'utf8');
  t.match(JSON.parse(manifestText).devDependencies, { '@strata/sdk': '^0.2.0', '@strata/sdk-testing': '^0.2.0', '@strata/host': '^0.2.0' });

  const installed = await run('npm', ['install'], { cwd: plugin, env, maxBuffer: 64 * 2 ** 20 });
  t.match(installed.stdout, /added \d+ packages/);
  const lockText = await readFile(path.join(plugin, 'package-lock.json'), 'utf8');
  t.notOk(
    /"file:|"link:|\/work\/|strata-publish-/.test(lockText.replace(new RegExp(registry.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'g'), '')),
    'no file: or link: ranges and no local paths in the lockfile',
  );
  const lock = JSON.parse(lockText) as { packages: Record<string, { version?: string; integrity?: string }> };
  for (const name of ['@strata/sdk', '@strata/sdk-testing', '@strata/host', '@strata/sandbox']) {
    const entry = lock.packages[`node_modules/${name}`];
    t.equal(entry?.version, '0.2.0', `${name} is installed`);
    // The tarball the local registry serves, byte for byte (npm records its integrity; it leaves out `resolved`).
    const served = (await (await fetch(`${registry}${name.replace('/', '%2f')}`)).json()) as { versions: Record<string, { dist: { integrity: string } }> };
    t.equal(entry?.integrity, served.versions['0.2.0']?.dist.integrity, `${name} comes from the local registry`);
  }

  // npm test in the plugin: the manifest, the types, the build, the tests in the sandbox.
  const tested = await run('npm', ['test'], { cwd: plugin, env, maxBuffer: 16 * 2 ** 20 }).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`npm test failed:\n${error.stdout}\n${error.stderr}`);
  });
  t.match(tested.stdout, /Type-checking \(tsc -p \.\)/);
  t.match(tested.stdout, /ℹ pass [1-9]/);
  t.match(tested.stdout, /ℹ fail 0/);

  // strata serve some-repo --plugins ./my-plugin, with the installed host: the plugin and the built-ins apply.
  const repo = await makeRepo(t, SAMPLE_REPO);
  const servePort = await freePort();
  const server = spawn(strata, ['serve', repo, '--plugins', './my-plugin', '--port', String(servePort), '--host', '127.0.0.1'], {
    cwd: app,
    env,
    stdio: 'pipe',
  });
  const serverLog: string[] = [];
  server.stdout.on('data', (chunk: Buffer) => serverLog.push(chunk.toString()));
  server.stderr.on('data', (chunk: Buffer) => serverLog.push(chunk.toString()));
  t.teardown(() => {
    server.kill();
  });
  const base = `http://127.0.0.1:${servePort}`;
  await until(async () => (await fetch(`${base}/api/overlays`)).ok, 'strata serve answering', 120_000, 200).catch((error: Error) => {
    throw new Error(`${error.message}\n${serverLog.join('')}`);
  });
  const listed = (await (await fetch(`${base}/api/overlays`)).json()) as { plugins: Array<{ id: string; loaded: boolean; builtIn: boolean }> };
  t.match(
    listed.plugins.find((p) => p.id === 'my-plugin'),
    { loaded: true, builtIn: false },
  );
  for (const id of ['change-coupling', 'complexity', 'git-activity', 'hotspots', 'ownership', 'test-coverage']) {
    t.match(
      listed.plugins.find((p) => p.id === id),
      { loaded: true, builtIn: true },
      `the built-in ${id}, found by package resolution`,
    );
  }
  const applied = await fetch(`${base}/api/overlays/my-plugin/apply`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"scale": 1}',
  });
  t.equal(applied.status, 200, await applied.clone().text());
  t.match(((await applied.json()) as { data: { state: string } }).data, { state: 'active' });
  const node = (await (await fetch(`${base}/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`)).json()) as {
    data: { overlays: Record<string, unknown> };
  };
  t.match(node.data.overlays['my-plugin'], { size: { size: Number } }, 'the plugin painted the repository');
});
