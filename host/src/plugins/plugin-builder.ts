import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PluginPackage } from '@strata/sandbox';
import { build, type Plugin } from 'esbuild';

/** A build that failed; the message lists esbuild's errors with their locations. */
export class PluginBuildError extends Error {
  override readonly name = 'PluginBuildError';
}

/**
 * Bundles a plugin's source into the single ES module its sandbox loads
 * (esbuild): `@strata/sdk` and any other dependency are inlined, Node's
 * modules are not available.
 */
export async function buildPlugin(pkg: PluginPackage): Promise<{ entryPath: string; bytes: number; warnings: string[] }> {
  if (!pkg.sourcePath) throw new PluginBuildError(`plugin "${pkg.manifest.id}" has no source to build (add src/index.ts or strata.source)`);
  await mkdir(path.dirname(pkg.entryPath), { recursive: true });
  try {
    const result = await build({
      entryPoints: [pkg.sourcePath],
      outfile: pkg.entryPath,
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2023',
      mainFields: ['module', 'main'],
      conditions: ['import', 'default'],
      write: true,
      logLevel: 'silent',
      legalComments: 'inline',
      // dist/plugin.js.map: where a plugin throws is told in its own source (sdk's thrownAt).
      sourcemap: true,
      sourcesContent: false,
      absWorkingDir: pkg.folder,
      metafile: true,
      plugins: [fallbackSdk, confinedTo(pkg.folder)],
    });
    const bytes = Object.entries(result.metafile.outputs).reduce((sum, [file, output]) => (file.endsWith('.map') ? sum : sum + output.bytes), 0);
    return { entryPath: pkg.entryPath, bytes, warnings: result.warnings.map(formatMessage) };
  } catch (error) {
    const errors = (error as { errors?: Parameters<typeof formatMessage>[0][] }).errors;
    throw new PluginBuildError(errors?.length ? `build failed: ${errors.map(formatMessage).join('; ')}` : `build failed: ${(error as Error).message}`);
  }
}

function formatMessage(message: { text: string; location?: { file: string; line: number; column: number } | null }): string {
  const where = message.location ? `${message.location.file}:${message.location.line}:${message.location.column + 1}: ` : '';
  return `${where}${message.text}`;
}

/** The SDK the host ships with, for plugins that have none installed (a fresh `strata plugin new`). */
const hostSdkEntry = createRequire(import.meta.url).resolve('@strata/sdk');
const hostSdkDir = path.dirname(path.dirname(realpathSync(hostSdkEntry)));

/**
 * Refuses imports from outside the plugin's folder, its dependencies
 * (`node_modules`) and the SDK: a bundle must not carry files of the machine
 * that built it (`import secret from '../../.env.json'`). A workspace
 * package linked into `node_modules` (the plugin is a package of an npm
 * workspace, as the built-in extensions are) is a dependency too: a package
 * name that resolves through such a link gives the files inside the link's
 * target, when that target is a package of the same workspace (inside the
 * folder above the plugin whose package.json declares `workspaces`), and no
 * file outside it. A link a plugin folder carries to anywhere else (its own
 * `node_modules/x -> ~/.ssh`) is refused as before.
 */
function confinedTo(folder: string): Plugin {
  const root = realpathSync(folder);
  const inside = (file: string, dir: string): boolean => file === dir || file.startsWith(dir + path.sep);
  const workspace = workspaceRootAbove(root);
  /** Real folders of linked dependencies the build has reached by package name. */
  const linked = new Set<string>();
  return {
    name: 'strata-confined',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === 'confined' || args.pluginData === 'fallback' || args.kind === 'entry-point') return undefined;
        const resolved = await pluginBuild.resolve(args.path, {
          resolveDir: args.resolveDir,
          kind: args.kind,
          importer: args.importer,
          pluginData: 'confined',
        });
        if (resolved.errors.length > 0 || resolved.external || !path.isAbsolute(resolved.path)) return resolved;
        const file = realpathSync(resolved.path);
        if (inside(file, root) || file.split(path.sep).includes('node_modules') || inside(file, hostSdkDir)) return resolved;
        const target = workspace === undefined ? undefined : linkedPackage(args.path, args.resolveDir);
        if (target !== undefined && inside(target, workspace!) && existsSync(path.join(target, 'package.json')) && inside(file, target)) {
          linked.add(target);
          return resolved;
        }
        // A linked dependency's own imports of its files (esbuild names the importer by its real path).
        if ([...linked].some((dir) => inside(args.importer, dir) && inside(file, dir))) return resolved;
        return { errors: [{ text: `"${args.path}" resolves to ${file}, outside the plugin folder and its dependencies` }] };
      });
    },
  };
}

/** The real folder above `folder` whose package.json declares npm `workspaces`, if any. */
function workspaceRootAbove(folder: string): string | undefined {
  for (let dir = path.dirname(folder); ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { workspaces?: unknown };
      if (manifest.workspaces !== undefined) return realpathSync(dir);
    } catch {
      // No package.json here (or not JSON): look further up.
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The real folder of the package a bare specifier names (`@scope/name/sub/path`
 * names `@scope/name`), found as Node finds it: in the `node_modules` of
 * `resolveDir` or of a folder above it. Undefined for a relative or absolute
 * path, or a name no `node_modules` holds.
 */
function linkedPackage(specifier: string, resolveDir: string): string | undefined {
  if (specifier.startsWith('.') || path.isAbsolute(specifier)) return undefined;
  const segments = specifier.split('/');
  const name = specifier.startsWith('@') ? segments.slice(0, 2).join('/') : segments[0]!;
  for (let dir = resolveDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(candidate)) return realpathSync(candidate);
    if (path.dirname(dir) === dir) return undefined;
  }
}

const fallbackSdk: Plugin = {
  name: 'strata-sdk-fallback',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@strata\/sdk$/ }, async (args) => {
      if (args.pluginData === 'fallback' || args.pluginData === 'confined') return undefined;
      const own = await pluginBuild.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: 'fallback' });
      return own.errors.length === 0 ? own : { path: hostSdkEntry };
    });
  },
};
