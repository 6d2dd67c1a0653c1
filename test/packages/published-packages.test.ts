// The packages Strata publishes, as `npm pack` makes them: each carries what
// its package.json promises (exports, types, the plugin entry), a README and
// a license; their versions move together; no dependency points at this
// checkout; the SDK depends on nothing.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import semver from 'semver';
import t from 'tap';

const run = promisify(execFile);
const repoRoot = path.resolve(fileURLToPath(import.meta.url), '../../..');

interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  engines?: { node?: string };
  files?: string[];
  main?: string;
  types?: string;
  bin?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
  strata?: { entry: string; sdk: string };
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const readPackage = (folder: string): PackageJson => JSON.parse(readFileSync(path.join(repoRoot, folder, 'package.json'), 'utf8')) as PackageJson;
const root = readPackage('.');
/** Every workspace folder: the globs of the root's `workspaces` are one level deep (`extensions/*`). */
const workspaces = root.workspaces!.flatMap((pattern) => {
  if (!pattern.endsWith('/*')) return [pattern];
  const parent = pattern.slice(0, -2);
  return readdirOf(parent).map((entry) => `${parent}/${entry}`);
});
/** The folders under `folder` that hold a package.json. */
function readdirOf(folder: string): string[] {
  return readdirSync(path.join(repoRoot, folder), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(repoRoot, folder, entry.name, 'package.json')))
    .map((entry) => entry.name)
    .sort();
}

const published = workspaces.filter((folder) => !readPackage(folder).private);
const versions = new Map(workspaces.map((folder) => [readPackage(folder).name, readPackage(folder).version]));

t.same(
  published,
  [
    'sdk',
    'host/sandbox',
    'host',
    'sdk/testing',
    'extensions/change-coupling',
    'extensions/complexity',
    'extensions/git-activity',
    'extensions/gpu-layout',
    'extensions/hotspots',
    'extensions/ownership',
    'extensions/test-coverage',
  ],
  'the published packages (a new one is added here on purpose)',
);

for (const folder of published) {
  t.test(`${folder} (${readPackage(folder).name})`, async (t) => {
    const pkg = readPackage(folder);
    t.match(pkg.name, /^@strata\/[a-z-]+$/, 'a name in the @strata scope');
    t.ok(semver.valid(pkg.version), `${pkg.version} is a semver version`);
    t.equal(pkg.version, root.version, 'released together: the same version as every other package');
    t.equal(pkg.license, 'MIT');
    t.equal(pkg.engines?.node, '>=22', 'the Node versions it runs on');
    t.ok(Array.isArray(pkg.files) && pkg.files.length > 0, 'a files list: only what it needs goes into the tarball');

    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: path.join(repoRoot, folder), maxBuffer: 16 * 2 ** 20 });
    const packed = new Set((JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((file) => file.path));
    for (const file of ['package.json', 'README.md', 'LICENSE']) t.ok(packed.has(file), `the tarball has ${file}`);
    t.notOk(
      [...packed].some((file) => file.startsWith('test/') || file.includes('.test.')),
      'and no tests',
    );
    t.notOk(
      [...packed].some((file) => file.includes('node_modules/')),
      'and no node_modules',
    );

    // Every file the package.json points at is in the tarball.
    const targets: string[] = [];
    if (pkg.main) targets.push(pkg.main);
    if (pkg.types) targets.push(pkg.types);
    for (const target of Object.values(pkg.bin ?? {})) targets.push(target);
    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      if (subpath === './package.json') continue;
      if (typeof target === 'string') targets.push(target);
      else {
        t.ok(target.types, `export ${subpath} has types`);
        targets.push(...Object.values(target));
      }
    }
    if (pkg.strata) targets.push(pkg.strata.entry, `${pkg.strata.entry}.map`);
    t.ok(targets.length > 0, 'it points at what it serves: exports, a bin or a plugin entry');
    for (const target of targets) t.ok(packed.has(path.posix.normalize(target)), `the tarball has ${target}`);
    if (pkg.exports) t.ok(pkg.types && packed.has(path.posix.normalize(pkg.types)), 'types');

    // Dependencies install from a registry: no file:, link: or workspace: ranges, and Strata's own at a range its
    // sibling's version satisfies.
    for (const kind of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const) {
      for (const [name, range] of Object.entries(pkg[kind] ?? {})) {
        t.notMatch(range, /^(file|link|workspace|git|https?):/, `${kind} ${name}: ${range} is a registry range`);
        if (name.startsWith('@strata/')) {
          t.ok(versions.has(name), `${name} is a package of this repository`);
          t.ok(semver.satisfies(versions.get(name)!, range), `${name}@${range} takes ${versions.get(name)}`);
        }
      }
    }
  });
}

t.test('@strata/sdk carries no code of anyone else: a plugin bundles it, and none of the sandbox', async (t) => {
  const sdk = readPackage('sdk');
  // json-schema-to-ts gives ctx.params its type from a parameter schema: types only, nothing at run time.
  t.same(Object.keys(sdk.dependencies ?? {}), ['json-schema-to-ts'], 'one dependency, for its types');
  t.same(Object.keys(sdk.exports ?? {}).sort(), ['.', './package.json'], 'one entry point');
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: path.join(repoRoot, 'sdk') });
  const files = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((file) => file.path);
  const scripts = files.filter((name) => name.endsWith('.js'));
  t.ok(scripts.length >= 4, 'the built modules');
  for (const file of scripts) {
    // Comments left out: the doc comments' examples import @strata/sdk, as a plugin does.
    const text = readFileSync(path.join(repoRoot, 'sdk', file), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((match) => match[1]!);
    t.same(
      specifiers.filter((specifier) => !specifier.startsWith('./')),
      [],
      `${file} imports only its own files`,
    );
  }
});

t.test('the host finds its built-in plugins as packages it depends on', async (t) => {
  const host = readPackage('host');
  for (const name of [
    '@strata/extension-change-coupling',
    '@strata/extension-complexity',
    '@strata/extension-git-activity',
    '@strata/extension-hotspots',
    '@strata/extension-ownership',
    '@strata/extension-test-coverage',
    '@strata/extension-gpu-layout',
    '@strata/sandbox',
    '@strata/sdk',
  ]) {
    t.ok(host.dependencies?.[name], `@strata/host depends on ${name}`);
  }
});
