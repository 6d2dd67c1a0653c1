import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { runStrata } from '../helpers/strata-cli.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(fileURLToPath(import.meta.url), '../../..');

t.test('from `strata plugin new` to an overlay that changes on save', async (t) => {
  const workspace = await mkdtemp(path.join(tmpdir(), 'strata-author-'));
  t.teardown(() => rm(workspace, { recursive: true, force: true }));
  // What `npm install` would give the author: the SDK (here, this checkout's).
  await symlink(path.join(repoRoot, 'node_modules'), path.join(workspace, 'node_modules'), 'dir');

  const created = runStrata(t, ['plugin', 'new', 'loc-size'], { cwd: workspace });
  t.equal(await created.exited, 0, created.stderr());
  t.match(created.stdout(), /Created .*loc-size/);
  const folder = path.join(workspace, 'loc-size');
  for (const file of ['package.json', 'src/index.ts', 'test/plugin.test.ts', 'dist/plugin.js', 'README.md'])
    t.ok(existsSync(path.join(folder, file)), `${file} exists`);
  const manifest = JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8')).strata;
  t.match(manifest, { id: 'loc-size', sdk: '^0.2.0', entry: 'dist/plugin.js', capabilities: ['graph:read'] });

  // `strata plugin test` (the scaffold's npm test): the manifest, its types (esbuild, which builds it, does not check
  // them), the build, then the scaffolded test, which runs in the sandbox and passes.
  const scaffold = JSON.parse(await readFile(path.join(folder, 'package.json'), 'utf8'));
  t.match(scaffold.scripts, { typecheck: 'tsc -p .', test: 'strata plugin test' });
  t.match(scaffold.devDependencies, { typescript: String, '@types/node': String });
  // Installed from a registry with ordinary ranges: nothing points into this checkout or its machine.
  t.same(Object.fromEntries(Object.entries(scaffold.devDependencies).filter(([name]) => name.startsWith('@strata/'))), {
    '@strata/host': '^0.2.0',
    '@strata/sdk': '^0.2.0',
    '@strata/sdk-testing': '^0.2.0',
  });
  const scaffoldText = await readFile(path.join(folder, 'package.json'), 'utf8');
  t.notOk(scaffoldText.includes('file:') || scaffoldText.includes(repoRoot), 'no file: ranges, no path of this checkout');
  const tested = runStrata(t, ['plugin', 'test'], { cwd: folder });
  t.equal(await tested.exited, 0, tested.stdout() + tested.stderr());
  t.match(tested.stdout(), /Type-checking \(tsc -p \.\)\nBuilt loc-size: .*\nTesting loc-size: 1 file\n[\s\S]*ℹ pass 1\n/);
  const source = path.join(folder, 'src', 'index.ts');
  const good = await readFile(source, 'utf8');
  await writeFile(source, good.replace('const scale = ctx.params.scale;', 'const scale: string = ctx.params.scale;'));
  const typeError = runStrata(t, ['plugin', 'test', folder]);
  t.equal(await typeError.exited, 1, 'a type error fails it');
  t.match(typeError.stdout(), /src\/index\.ts\(\d+,\d+\): error TS2322/, "with tsc's message");
  t.match(typeError.stderr(), /strata: the type check failed/);
  t.notMatch(typeError.stdout(), /Testing/, 'and stops there');
  await writeFile(source, good);
  const testFile = path.join(folder, 'test', 'plugin.test.ts');
  const goodTest = await readFile(testFile, 'utf8');
  await writeFile(path.join(folder, 'test', 'wrong.test.ts'), goodTest.replace(/assert\.(equal|deepEqual|strictEqual)\(/, 'assert.notEqual('));
  const failing = runStrata(t, ['plugin', 'test'], { cwd: folder });
  t.equal(await failing.exited, 1, 'a failing test fails it');
  t.match(failing.stdout(), /Testing loc-size: 2 files[\s\S]*ℹ fail 1\n/);
  t.match(failing.stderr(), /strata: the tests of loc-size failed/);
  await rm(path.join(folder, 'test', 'wrong.test.ts'));

  // A throw in the author's source is told at its line of src/index.ts (through the source map the build writes).
  const throwing = good.replace('const scale = ctx.params.scale;', "const scale = ctx.params.scale;\n    if (scale > 0) throw new Error('scale broke');");
  const throwLine = throwing.split('\n').findIndex((line) => line.includes("throw new Error('scale broke')")) + 1;
  await writeFile(source, throwing);
  t.equal(await runStrata(t, ['plugin', 'build', folder]).exited, 0);
  const target = await makeRepo(t, SAMPLE_REPO);
  const thrown = runStrata(t, ['overlay', 'apply', 'loc-size', '--server', 'http://127.0.0.1:9', '--repo', target, '--plugins', folder]);
  t.equal(await thrown.exited, 1);
  t.match(
    thrown.stderr(),
    new RegExp(`scale broke \\(at src/index\\.ts:${throwLine}:\\d+\\) \\(PLUGIN_FAILED\\)`),
    'the line in the source, not in the bundle',
  );
  await writeFile(source, good);
  t.equal(await runStrata(t, ['plugin', 'build', folder]).exited, 0);

  // `strata plugin pack`: a tarball to publish, which carries the built entry.
  const packed = runStrata(t, ['plugin', 'pack', '--out', path.join(workspace, 'packed')], { cwd: folder });
  t.equal(await packed.exited, 0, packed.stderr());
  t.match(packed.stdout(), /^Built loc-size: .*\nPacked loc-size 0\.1\.0: .*loc-size-0\.1\.0\.tgz \(\d+ bytes, \d+ files\)\n$/);
  const listing = (await run('tar', ['tzf', path.join(workspace, 'packed', 'loc-size-0.1.0.tgz')])).stdout.split('\n');
  for (const file of ['package/package.json', 'package/dist/plugin.js', 'package/src/index.ts']) t.ok(listing.includes(file), `the tarball has ${file}`);
  // A "files" list that leaves the entry out is caught, and no tarball is kept.
  const manifestFile = path.join(folder, 'package.json');
  const manifestText = await readFile(manifestFile, 'utf8');
  t.same(JSON.parse(manifestText).files, ['dist', 'src'], 'the scaffold lists what the tarball carries');
  await writeFile(manifestFile, JSON.stringify({ ...JSON.parse(manifestText), files: ['src'] }, null, 2));
  const leftOut = runStrata(t, ['plugin', 'pack', '--out', path.join(workspace, 'packed-wrong')], { cwd: folder });
  t.equal(await leftOut.exited, 2);
  t.match(leftOut.stderr(), /the tarball would not carry the plugin's entry dist\/plugin\.js/);
  t.notOk(existsSync(path.join(workspace, 'packed-wrong', 'loc-size-0.1.0.tgz')), 'no tarball kept');
  await writeFile(manifestFile, manifestText);
  t.notOk('parameters' in manifest, 'the parameters are declared in the code, once');

  // Served in dev mode, applied, then edited: the change shows up.
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo, { flags: { plugins: { directories: [folder] }, dev: true, watch: false } });
  // The schema the plugin declares in definePlugin is what the host serves, for the UI's form.
  const served = (await server.api('/api/overlays')).body.plugins.find((plugin: { id: string }) => plugin.id === 'loc-size');
  t.match(served?.parameters?.properties?.scale, { type: 'number', default: 200, maximum: 1000 });
  const refused = await server.api('/api/overlays/loc-size/apply', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"scale": 0}' });
  t.same(refused.body.error, { code: 'INVALID_PARAMETER', message: 'body.scale: must be > 0' }, 'and checks requests against');
  const applied = await server.api('/api/overlays/loc-size/apply', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"scale": 1}' });
  t.equal(applied.status, 200, JSON.stringify(applied.body));
  const sizeOfIndex = async () =>
    (await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/index.ts')}`)).body.data.overlays?.['loc-size']?.size?.size;
  t.equal(await sizeOfIndex(), 6, '1 + loc (5) / scale (1)');

  await writeFile(source, (await readFile(source, 'utf8')).replace('Math.min(10, 1 + lines / scale)', 'Math.min(10, 2 + lines / scale)'));
  let size: unknown;
  for (let i = 0; i < 120 && size !== 7; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    size = await sizeOfIndex();
  }
  t.equal(size, 7, 'the saved source was rebuilt, reloaded and re-applied');

  // A save that does not compile keeps the last good version, with the error shown.
  await writeFile(source, 'export default definePlugin({');
  let listed: { reloadError?: string } | undefined;
  for (let i = 0; i < 120 && !listed?.reloadError; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    listed = (await server.api('/api/overlays')).body.plugins.find((plugin: { id: string }) => plugin.id === 'loc-size');
  }
  t.match(listed?.reloadError, /build failed: .*src\/index\.ts:1/);
  t.equal(await sizeOfIndex(), 7);

  // A save that builds but throws as it loads: told once, though the build's own write of the entry is a change too.
  const failedReloads = () =>
    server.logs.filter((record) => record.msg === 'plugin reload failed; the previous version keeps serving' && /load broke/.test(String(record.reason)))
      .length;
  await writeFile(source, `throw new Error('load broke');\n${good}`);
  for (let i = 0; i < 120 && failedReloads() === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  t.equal(failedReloads(), 1, 'one failed reload for one save');
  t.equal(await sizeOfIndex(), 7, 'the last good version still serves');
});

t.test('`strata plugin build` bundles a package of its npm workspace linked into node_modules, and nothing outside it', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'strata-linked-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'workspace', private: true, workspaces: ['plugin', 'shared'] }));
  const plugin = path.join(dir, 'plugin');
  const dependency = path.join(dir, 'shared');
  await mkdir(path.join(plugin, 'src'), { recursive: true });
  await mkdir(path.join(plugin, 'node_modules'), { recursive: true });
  await mkdir(dependency, { recursive: true });
  await writeFile(path.join(dependency, 'package.json'), JSON.stringify({ name: 'shared', type: 'module', main: 'index.js' }));
  await writeFile(path.join(dependency, 'index.js'), "export { helper } from './helper.js';\n");
  await writeFile(path.join(dependency, 'helper.js'), 'export const helper = 4242;\n');
  await writeFile(path.join(dir, 'secret.json'), '{"secret": "HOST-SECRET"}');
  await writeFile(path.join(dependency, 'leak.js'), "export { default } from '../secret.json';\n");
  await symlink(dependency, path.join(plugin, 'node_modules', 'shared'), 'dir');
  await writeFile(
    path.join(plugin, 'package.json'),
    JSON.stringify({ strata: { id: 'x', name: 'X', description: '', sdk: '^0.1.0', entry: 'dist/plugin.js', source: 'src/index.ts' } }),
  );
  await writeFile(path.join(plugin, 'src/index.ts'), "import { helper } from 'shared';\nexport default helper;\n");
  const built = runStrata(t, ['plugin', 'build', plugin]);
  t.equal(await built.exited, 0, built.stderr());
  t.match(await readFile(path.join(plugin, 'dist/plugin.js'), 'utf8'), /4242/, 'the linked package and its own files are in the bundle');

  await writeFile(path.join(plugin, 'src/index.ts'), "import s from 'shared/leak.js';\nexport default s;\n");
  const leaky = runStrata(t, ['plugin', 'build', plugin]);
  t.equal(await leaky.exited, 2);
  t.match(
    leaky.stderr(),
    /"\.\.\/secret\.json" resolves to .*secret\.json, outside the plugin folder and its dependencies/,
    'a file outside the linked folder is refused',
  );

  // Out of the workspace, a link the plugin folder carries to elsewhere is no dependency: its files are refused.
  await rm(path.join(dir, 'package.json'));
  await writeFile(path.join(plugin, 'src/index.ts'), "import { helper } from 'shared';\nexport default helper;\n");
  const outside = runStrata(t, ['plugin', 'build', plugin]);
  t.equal(await outside.exited, 2);
  t.match(outside.stderr(), /"shared" resolves to .*shared[/\\]index\.js, outside the plugin folder and its dependencies/);
});

t.test('`strata plugin build` names what is wrong', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'strata-build-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const notAPlugin = runStrata(t, ['plugin', 'build', dir]);
  t.equal(await notAPlugin.exited, 2);
  t.match(notAPlugin.stderr(), /package\.json is not valid JSON/);

  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ strata: { id: 'x', name: 'X', description: '', sdk: '^0.1.0', entry: 'dist/plugin.js', source: 'src/index.ts' } }),
  );
  await import('node:fs/promises').then((fs) => fs.mkdir(path.join(dir, 'src')));
  await writeFile(path.join(dir, 'src/index.ts'), "import { nope } from './missing.js';\nexport default nope;\n");
  const broken = runStrata(t, ['plugin', 'build', dir]);
  t.equal(await broken.exited, 2);
  t.match(broken.stderr(), /build failed: .*Could not resolve "\.\/missing\.js"/);

  // A bundle may not carry files from outside the plugin and its dependencies.
  await writeFile(path.join(dir, '..', `${path.basename(dir)}-secret.json`), '{"secret": "HOST-SECRET"}');
  t.teardown(() => rm(path.join(dir, '..', `${path.basename(dir)}-secret.json`), { force: true }));
  await writeFile(path.join(dir, 'src/index.ts'), `import s from '../../${path.basename(dir)}-secret.json';\nexport default s;\n`);
  const leaky = runStrata(t, ['plugin', 'build', dir]);
  t.equal(await leaky.exited, 2);
  t.match(leaky.stderr(), /resolves to .*-secret\.json, outside the plugin folder and its dependencies/);
  t.notOk(existsSync(path.join(dir, 'dist/plugin.js')), 'nothing was written');

  const untested = runStrata(t, ['plugin', 'test', dir]);
  t.equal(await untested.exited, 2);
  t.match(untested.stderr(), /no tests \(test\/\*\*\/\*\.test\.ts, \.mts, \.js or \.mjs\)/, '`strata plugin test` without tests says where it looked');

  const badName = runStrata(t, ['plugin', 'new', 'Bad Name'], { cwd: dir });
  t.equal(await badName.exited, 2);
  t.match(badName.stderr(), /lower-case letters, digits and dashes/);

  // Each option's default said once, in words.
  const help = runStrata(t, ['plugin', 'new', '--help'], { cwd: dir });
  t.equal(await help.exited, 0);
  t.match(help.stdout(), /--dir <dir> +parent folder \(default: the current directory\)\n/);
  t.notMatch(help.stdout(), /\(default: "\."\)/);
});
