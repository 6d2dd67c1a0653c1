import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { build, type Plugin } from 'esbuild';
import type { PluginPackage } from './plugin-manifest.js';

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
      absWorkingDir: pkg.folder,
      metafile: true,
      plugins: [fallbackSdk],
    });
    const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
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

const fallbackSdk: Plugin = {
  name: 'strata-sdk-fallback',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@strata\/sdk$/ }, async (args) => {
      if (args.pluginData === 'fallback') return undefined;
      const own = await pluginBuild.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: 'fallback' });
      return own.errors.length === 0 ? own : { path: hostSdkEntry };
    });
  },
};
