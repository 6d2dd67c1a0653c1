import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PluginPackage } from '@strata/sandbox';
import { SDK_VERSION } from '@strata/sdk';
import { Command } from 'commander';
import { HOST_VERSION } from '../host-version.js';
import { escapeControlCharacters } from '../logging/escape-control-characters.js';
import { UsageError } from './usage-error.js';
import { writeLine } from './write-line.js';

/** What a scaffolded plugin installs to check its types (the versions Strata is built with). */
const SCAFFOLD_TYPESCRIPT = '^6.0.3';
const SCAFFOLD_TYPES_NODE = '^24.19.2';

/** The builder and the manifest reader (with its compiled schema): loaded by the commands that use them, so that the rest of the CLI starts without them. */
function pluginTools() {
  return Promise.all([import('../plugins/plugin-builder.js'), import('@strata/sandbox')]);
}

/** `strata plugin new|build|test|pack`: make, bundle, test and pack overlay plugins. */
export function pluginCommand(): Command {
  const command = new Command('plugin').description('create, build, test and pack overlay plugins');
  command
    .command('new')
    .description('scaffold an overlay plugin (package.json with its strata field, source, and a test)')
    .argument('<name>', 'plugin id: lower-case letters, digits and dashes; also the folder name')
    .option('-d, --dir <dir>', 'parent folder (default: the current directory)')
    .action(async (name: string, options: { dir?: string }) => {
      if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(name)) throw new UsageError(`plugin name "${name}": use lower-case letters, digits and dashes (at most 64)`);
      const folder = path.resolve(options.dir ?? '.', name);
      if (existsSync(folder)) throw new UsageError(`${folder} already exists`);
      await scaffold(folder, name);
      const [{ buildPlugin }, { readPluginPackage }] = await pluginTools();
      const built = await buildPlugin(readPluginPackage(folder));
      writeLine(process.stdout, `Created ${folder} and built ${path.relative(process.cwd(), built.entryPath)}.`);
      writeLine(
        process.stdout,
        `\nNext:\n  cd ${escapeControlCharacters(path.relative(process.cwd(), folder) || '.')} && npm install      (the SDK, its test harness and the host, from your registry)\n` +
          `  npx strata serve <repo> --dev --plugins .\n` +
          `  curl -X POST http://127.0.0.1:5050/api/overlays/${name}/apply\n` +
          `Edit src/index.ts and save: the running host rebuilds, reloads and re-applies it. npm test runs its tests.`,
        { keepLineBreaks: true },
      );
    });
  command
    .command('build')
    .description("bundle a plugin's source into the single file its sandbox loads (esbuild)")
    .argument('[dir]', 'plugin folder', '.')
    .action(async (dir: string) => {
      await checkAndBuild(path.resolve(dir), { always: true });
    });
  command
    .command('test')
    .description("check a plugin as the host would, type-check it, build it, and run its tests (node --test) in the host's sandbox")
    .argument('[dir]', 'plugin folder', '.')
    .addHelpText(
      'after',
      `
Steps, each stopping the command when it fails:
  1. the manifest (package.json's "strata" field), checked as strata serve checks it
  2. tsc -p . when the plugin has a tsconfig.json (TypeScript from the plugin's own dependencies)
  3. strata plugin build, when the manifest names a "source"
  4. node --test on test/**/*.test.{ts,mts,js,mjs} (Node runs TypeScript tests as they are);
     PluginTester from @strata/sdk-testing runs the plugin in the same sandbox as the host`,
    )
    .action(async (dir: string) => {
      const folder = path.resolve(dir);
      const { glob } = await import('tinyglobby');
      const tests = await glob(['test/**/*.test.{ts,mts,js,mjs}'], { cwd: folder, absolute: false });
      if (tests.length === 0) throw new UsageError(`${folder}: no tests (test/**/*.test.ts, .mts, .js or .mjs)`);
      const pkg = await checkAndBuild(folder, { beforeBuild: () => typeCheck(folder) });
      writeLine(process.stdout, `Testing ${pkg.manifest.id}: ${tests.length} file${tests.length === 1 ? '' : 's'}`);
      const code = await runInherited(process.execPath, ['--test', '--test-reporter=spec', ...tests.sort()], folder);
      if (code !== 0) throw new PluginStepError(`the tests of ${pkg.manifest.id} failed`);
    });
  command
    .command('pack')
    .description('check and build a plugin, then pack it into a tarball ready to publish (npm pack), checked to carry its entry')
    .argument('[dir]', 'plugin folder', '.')
    .option('--out <dir>', 'where the tarball goes (default: the plugin folder)')
    .action(async (dir: string, options: { out?: string }) => {
      const folder = path.resolve(dir);
      const pkg = await checkAndBuild(folder, {});
      if (!existsSync(pkg.entryPath)) throw new UsageError(`${folder}: its entry ${pkg.manifest.entry} does not exist; build it with strata plugin build`);
      const out = path.resolve(options.out ?? folder);
      await mkdir(out, { recursive: true });
      const packed = await npmPack(folder, out);
      const entry = path.relative(folder, pkg.entryPath).split(path.sep).join('/');
      const tarball = path.join(out, packed.filename);
      if (!packed.files.includes(entry)) {
        await rm(tarball, { force: true });
        throw new UsageError(
          `the tarball would not carry the plugin's entry ${entry} (npm leaves out what package.json's "files", .npmignore or .gitignore exclude); it was not kept`,
        );
      }
      writeLine(
        process.stdout,
        `Packed ${pkg.manifest.id} ${pkg.version}: ${path.relative(process.cwd(), tarball) || tarball} (${packed.size} bytes, ${packed.files.length} files)`,
      );
    });
  return command;
}

/** `npm pack` of a folder into `out`: the tarball's name, size and files (npm's own report). */
async function npmPack(folder: string, out: string): Promise<{ filename: string; size: number; files: string[] }> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const output = await new Promise<string>((resolve, reject) => {
    // On Windows npm is a .cmd file, which Node starts only through a shell.
    const child = spawn(npm, ['pack', '--json', '--pack-destination', out], {
      cwd: folder,
      stdio: ['ignore', 'pipe', 'inherit'],
      shell: process.platform === 'win32',
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', (error) => reject(new UsageError(`npm pack could not run (${error.message}); is npm installed?`)));
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new PluginStepError(`npm pack failed (exit code ${code})`))));
  });
  const [report] = JSON.parse(output) as Array<{ filename: string; size: number; files: Array<{ path: string }> }>;
  if (!report) throw new PluginStepError('npm pack reported nothing');
  return { filename: report.filename, size: report.size, files: report.files.map((file) => file.path) };
}

/** A step of `strata plugin test` or `pack` failed (its output is above). */
export class PluginStepError extends Error {
  override readonly name = 'PluginStepError';
}

/**
 * Reads the manifest as the host does, then builds the plugin (`always`, or
 * when it has a source: a plugin written as its bundled entry has nothing to
 * build); `beforeBuild` runs in between.
 */
async function checkAndBuild(folder: string, options: { always?: boolean; beforeBuild?: () => Promise<void> }): Promise<PluginPackage> {
  const [{ buildPlugin, PluginBuildError }, { readPluginPackage, PluginManifestError }] = await pluginTools();
  let pkg;
  try {
    pkg = readPluginPackage(folder);
  } catch (error) {
    if (error instanceof PluginManifestError) throw new UsageError(`${folder}: ${error.message}`);
    throw error;
  }
  await options.beforeBuild?.();
  if (!pkg.sourcePath && !options.always) return pkg;
  try {
    const built = await buildPlugin(pkg);
    for (const warning of built.warnings) writeLine(process.stderr, `warning: ${warning}`);
    writeLine(process.stdout, `Built ${pkg.manifest.id}: ${path.relative(process.cwd(), built.entryPath) || built.entryPath} (${built.bytes} bytes)`);
  } catch (error) {
    if (error instanceof PluginBuildError) throw new UsageError(error.message);
    throw error;
  }
  return pkg;
}

/** `tsc -p .` with the plugin's own TypeScript, when it has a tsconfig.json. */
async function typeCheck(folder: string): Promise<void> {
  if (!existsSync(path.join(folder, 'tsconfig.json'))) return;
  let tsc: string;
  try {
    tsc = createRequire(path.join(folder, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    throw new UsageError(`${folder} has a tsconfig.json but no TypeScript installed: run npm install there`);
  }
  process.stdout.write('Type-checking (tsc -p .)\n');
  const code = await runInherited(process.execPath, [tsc, '-p', '.'], folder);
  if (code !== 0) throw new PluginStepError('the type check failed');
}

/** Runs a command with this process's output; its exit code. */
function runInherited(command: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function scaffold(folder: string, id: string): Promise<void> {
  const title = id
    .split('-')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');
  const [major, minor] = SDK_VERSION.split('.');
  await mkdir(path.join(folder, 'src'), { recursive: true });
  await mkdir(path.join(folder, 'test'), { recursive: true });
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(
      {
        name: id,
        version: '0.1.0',
        private: true,
        type: 'module',
        description: `${title}: a Strata overlay plugin`,
        // What `strata plugin pack` (npm pack) puts in the tarball, whatever a .gitignore says of dist/.
        files: ['dist', 'src'],
        // esbuild, which builds the plugin, strips types without checking them: tsc checks them.
        scripts: { build: 'strata plugin build', typecheck: 'tsc -p .', test: 'strata plugin test' },
        strata: {
          id,
          name: title,
          description: 'Sizes files by their lines of code.',
          sdk: `^${major}.${minor}.0`,
          entry: 'dist/plugin.js',
          source: 'src/index.ts',
          capabilities: ['graph:read'],
        },
        // From the registry, as any package: Strata's packages are released together, under one version.
        devDependencies: {
          '@strata/host': `^${HOST_VERSION}`,
          '@strata/sdk': `^${SDK_VERSION}`,
          '@strata/sdk-testing': `^${HOST_VERSION}`,
          typescript: SCAFFOLD_TYPESCRIPT,
          '@types/node': SCAFFOLD_TYPES_NODE,
        },
      },
      null,
      2,
    )}\n`,
    'src/index.ts': `import { colorScale, definePlugin, scaleLegend } from '@strata/sdk';

const color = colorScale(['#c6dbef', '#08306b'], [0, 1000]);

export default definePlugin({
  // The apply parameters, declared once: the host checks requests against this schema (and fills in defaults),
  // the UI makes its form from it, and ctx.params gets its type from it (here { scale: number }).
  parameters: {
    type: 'object',
    properties: {
      scale: { type: 'number', exclusiveMinimum: 0, maximum: 1000, default: 200, description: 'Lines of code that make a node twice as large.' },
    },
    additionalProperties: false,
  },
  overlays: [
    {
      id: 'size',
      name: '${title}',
      type: 'size',
      description: 'Bigger files are drawn bigger and darker.',
      legend: scaleLegend(color, [0, 1000], 5, (loc) => \`\${loc} loc\`),
    },
  ],
  apply(ctx) {
    const scale = ctx.params.scale;
    const { loc } = ctx.graph.nodes;
    const overlay = ctx.overlay('size');
    for (const node of ctx.graph.nodesOfKind('file')) {
      const lines = Number.isNaN(loc[node]!) ? 0 : loc[node]!;
      overlay.set(node, { size: Math.min(10, 1 + lines / scale), color: color(lines), value: lines });
    }
  },
});
`,
    'test/plugin.test.ts': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PluginTester } from '@strata/sdk-testing';

const tester = new PluginTester(new URL('..', import.meta.url));

test('files are sized by their lines of code', async () => {
  const result = await tester.run({
    graph: {
      nodes: [
        { id: 'dir:.', kind: 'directory', name: '.', path: '.' },
        { id: 'file:a.ts', kind: 'file', name: 'a.ts', path: 'a.ts', parent: 'dir:.', loc: 200 },
      ],
    },
    params: { scale: 100 },
  });
  assert.equal(result.style('size', 'file:a.ts')?.size, 3);
  assert.equal(result.style('size', 'file:a.ts')?.value, 200);
  assert.equal(result.style('size', 'dir:.'), undefined);
});
`,
    'tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2023',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noUncheckedIndexedAccess: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          skipLibCheck: true,
          types: ['node'],
        },
        include: ['src', 'test'],
      },
      null,
      2,
    )}\n`,
    '.gitignore': 'node_modules/\n',
    'README.md': `# ${title}\n\nA Strata overlay plugin. \`npm test\` builds it and runs its tests in the same sandbox the host uses;\n\`strata serve <repo> --dev --plugins .\` serves it with hot reload. See the SDK's README.\n`,
  };
  for (const [name, content] of Object.entries(files)) await writeFile(path.join(folder, name), content);
}
