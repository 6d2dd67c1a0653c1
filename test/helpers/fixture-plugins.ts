import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A plugin folder written straight as its bundled entry (no build step). */
export interface FixturePlugin {
  id: string;
  /** The entry: an ES module whose default export is the descriptor. */
  code: string;
  capabilities?: string[];
  parameters?: Record<string, unknown>;
  sdk?: string;
  /** Replaces the whole `strata` field (for malformed manifests). */
  manifest?: unknown;
}

/** The descriptor around an `apply` body, as `definePlugin` makes it. */
export function pluginCode(apply: string, overlays = `[{ id: 'main', name: 'Main', type: 'color', legend: { low: '#00ff00', high: '#ff0000' } }]`): string {
  return `export default { strataPlugin: 1, sdkVersion: '0.1.0', overlays: ${overlays}, async apply(ctx) {\n${apply}\n} };\n`;
}

/** A temporary folder holding these plugins (removed when the test ends): what `plugins.directories` takes. */
export async function pluginsFolder(t: { teardown(fn: () => unknown): void }, plugins: FixturePlugin[]): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'strata-plugins-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writePlugins(dir, plugins);
  return dir;
}

/** Writes plugin folders under `dir` (one per plugin, named by id). */
export async function writePlugins(dir: string, plugins: FixturePlugin[]): Promise<void> {
  for (const plugin of plugins) await writePlugin(path.join(dir, plugin.id), plugin);
}

export async function writePlugin(folder: string, plugin: FixturePlugin): Promise<void> {
  await mkdir(path.join(folder, 'dist'), { recursive: true });
  const strata = plugin.manifest ?? {
    id: plugin.id,
    name: `Plugin ${plugin.id}`,
    description: `Fixture plugin ${plugin.id}`,
    sdk: plugin.sdk ?? '^0.1.0',
    entry: 'dist/plugin.js',
    capabilities: plugin.capabilities ?? ['graph:read'],
    ...(plugin.parameters && { parameters: plugin.parameters }),
  };
  await writeFile(path.join(folder, 'package.json'), JSON.stringify({ name: plugin.id, version: '1.0.0', type: 'module', strata }, null, 2));
  await writeFile(path.join(folder, 'dist', 'plugin.js'), plugin.code);
}

/** Colors every file node by its lines of code. */
export const LOC_PLUGIN: FixturePlugin = {
  id: 'loc',
  code: pluginCode(`
    const { loc } = ctx.graph.nodes;
    const overlay = ctx.overlay('main');
    for (const i of ctx.graph.nodesOfKind('file')) overlay.set(i, { color: loc[i] > 3 ? '#ff0000' : '#00ff00', value: Number.isNaN(loc[i]) ? 0 : loc[i], badge: 'f' });
  `),
  parameters: { type: 'object', properties: { threshold: { type: 'integer', minimum: 0 } }, additionalProperties: false },
};
