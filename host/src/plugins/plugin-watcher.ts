import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isPluginFolder, PluginManifestError, readPluginPackage } from '@strata/sandbox';
import { type FSWatcher, watch } from 'chokidar';
import { inject, injectable } from 'tsyringe';
import type { Disposable } from '../events/disposable.js';
import { EventBus } from '../events/event-bus.js';
import { Logger } from '../logging/logger.js';
import { buildPlugin, PluginBuildError } from './plugin-builder.js';
import { PluginRegistry } from './plugin-registry.js';

/** Quiet time after the last save before a plugin is rebuilt and reloaded. */
const SETTLE_MS = 60;

/** A reload a save started: the plugin, and when the save was seen (`performance.now()`). */
export interface SavedReload {
  pluginId: string;
  startedAt: number;
}

/**
 * Work that follows a reload (applying the plugin's overlays again); it
 * logs its own outcome, and resolves `ready: false` when it failed, so that
 * no `plugin.ready` follows its failure event.
 */
export type ReloadFollower = (reload: SavedReload) => Promise<{ ready: boolean }>;

/**
 * Hot reload (`strata serve --dev`): watches the plugin folders; on a save
 * the plugin is rebuilt when it has sources, loaded into a fresh sandbox
 * (the old one is disposed only once the new one works), and its active
 * overlays are applied again. A broken save leaves the last good version
 * serving, with the error in the plugin's listing and status.
 */
@injectable()
export class PluginWatcher {
  private watcher: FSWatcher | undefined;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly changed = new Map<string, Set<string>>();
  /** Refreshes of one folder run in order; folders do not wait for each other. */
  private readonly queues = new Map<string, Promise<void>>();
  /** Hash of the entry each folder's plugin was last reloaded from: a change that leaves it so is not a new save. */
  private readonly reloadedFrom = new Map<string, string>();
  private stopped = false;
  private readonly followers = new Set<ReloadFollower>();

  constructor(
    @inject(PluginRegistry) private readonly plugins: PluginRegistry,
    @inject(EventBus) private readonly events: EventBus,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  /** Calls `follower` after each successful reload a save started; `plugin.ready` waits for every follower. */
  onDidReload(follower: ReloadFollower): Disposable {
    this.followers.add(follower);
    return { dispose: () => void this.followers.delete(follower) };
  }

  async start(): Promise<void> {
    const roots = this.plugins.roots.map((root) => root.dir);
    const watcher = watch(roots, {
      ignoreInitial: true,
      atomic: true,
      ignored: (file) => /[\\/](node_modules|\.git)([\\/]|$)/.test(file),
    });
    this.watcher = watcher;
    watcher.on('all', (_event, file) => this.onChange(file));
    watcher.on('error', (error) => this.logger.warn({ err: error }, 'plugin watcher error'));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    this.logger.info({ roots }, 'watching plugin folders (dev mode)');
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await this.watcher?.close();
    this.watcher = undefined;
    await Promise.all(this.queues.values());
  }

  private onChange(file: string): void {
    const folder = this.pluginFolderOf(file);
    if (!folder) return;
    let files = this.changed.get(folder);
    if (!files) this.changed.set(folder, (files = new Set()));
    files.add(file);
    clearTimeout(this.timers.get(folder));
    this.timers.set(
      folder,
      setTimeout(() => {
        this.timers.delete(folder);
        const touched = this.changed.get(folder) ?? new Set<string>();
        this.changed.delete(folder);
        const queued = (this.queues.get(folder) ?? Promise.resolve())
          .then(() => this.refresh(folder, touched))
          .catch((error: unknown) => this.logger.error({ err: error, folder }, 'plugin reload failed'));
        this.queues.set(folder, queued);
      }, SETTLE_MS),
    );
  }

  /** The plugin folder a path belongs to: a root that is a plugin, or a root's direct child. */
  private pluginFolderOf(file: string): string | undefined {
    for (const { dir } of this.plugins.roots) {
      const relative = path.relative(dir, file);
      if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
      if (this.plugins.byFolder(dir) || isPluginFolder(dir)) return dir;
      const first = relative.split(path.sep)[0];
      return first ? path.join(dir, first) : undefined;
    }
    return undefined;
  }

  private async refresh(folder: string, touched: Set<string>): Promise<void> {
    if (this.stopped) return;
    const started = performance.now();
    if (!isPluginFolder(folder)) {
      // The registry says so (plugin.removed): whoever keeps something of the plugin lets it go then.
      const removed = await this.plugins.remove(folder);
      if (removed) this.logger.info({ pluginId: removed.id }, 'plugin removed');
      return;
    }
    let pkg;
    try {
      pkg = readPluginPackage(folder);
    } catch (error) {
      if (!(error instanceof PluginManifestError)) throw error;
      await this.plugins.reload(folder);
      return;
    }
    // The build's own output (the entry and its source map) is no reason to build again.
    const onlyEntry = [...touched].every((file) => file === pkg.entryPath || file === `${pkg.entryPath}.map`);
    if (pkg.sourcePath && !onlyEntry) {
      try {
        await buildPlugin(pkg);
      } catch (error) {
        if (!(error instanceof PluginBuildError)) throw error;
        this.plugins.recordFailure(folder, pkg.manifest.id, error.message);
        // The next good build loads even if it writes the entry last loaded (a change undone).
        this.reloadedFrom.delete(folder);
        return;
      }
    }
    // A change that leaves the entry as it was last loaded, or failed to load, changes nothing: the build's own
    // write, a file the build does not use, or one save seen twice (an editor's temporary file then the rename over
    // the source; a write seen as a truncation and then the bytes). The same bytes fail the same way: loaded again,
    // a broken save was told twice (two plugin.failed).
    const hash = await entryHash(pkg.entryPath);
    const manifestTouched = [...touched].some((file) => path.basename(file) === 'package.json');
    if (!manifestTouched && hash === this.reloadedFrom.get(folder)) return;
    this.reloadedFrom.set(folder, hash);
    const record = await this.plugins.reload(folder, undefined, { package: pkg });
    if (record?.state === 'loaded' && record.reloadError === undefined) {
      // Not awaited: a slow apply must not hold up the next save's reload.
      const reload = { pluginId: record.id, startedAt: started };
      if (this.followers.size === 0) this.logger.info({ pluginId: reload.pluginId, ms: Math.round(performance.now() - started) }, 'plugin reloaded');
      void Promise.all([...this.followers].map((follow) => follow(reload).catch(() => ({ ready: false })))).then((outcomes) => {
        // Ready means reloaded and followed (its overlays re-applied): after a failed apply the last event stays
        // overlay.failed (sent after it, ready made the page clear the error it had just shown).
        if (outcomes.every((outcome) => outcome.ready))
          this.events.publish('plugin.ready', { pluginId: reload.pluginId, ms: Math.round(performance.now() - started) });
      });
    }
  }
}

async function entryHash(file: string): Promise<string> {
  return createHash('sha1')
    .update(await readFile(file).catch(() => Buffer.alloc(0)))
    .digest('hex');
}
