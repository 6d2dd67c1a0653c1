import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type DeclaredOverlay,
  FORK_ON_DEMAND,
  isPluginFolder,
  PluginManifestError,
  type PluginPackage,
  PluginSandbox,
  readPluginPackage,
  SandboxError,
  type SandboxProcessSource,
  SpareSandboxProcess,
  withDeclaredParameters,
} from '@strata/sandbox';
import { inject, injectable } from 'tsyringe';
import { Semaphore } from '../concurrency/semaphore.js';
import { StrataConfig } from '../config/strata-config.js';
import { StrataError } from '../errors/strata-error.js';
import { EventBus } from '../events/event-bus.js';
import { Logger } from '../logging/logger.js';
import { PluginContext } from './plugin-context.js';
import { PluginLogs } from './plugin-logs.js';
import { RepositoryCapabilities } from './repository-capabilities.js';

/** `loaded`: ready to apply. The others are listed with their reason and cannot be applied. */
export type PluginState = 'loaded' | 'invalid' | 'incompatible' | 'failed';

/** A plugin folder the host found, loaded or not. */
export interface PluginRecord {
  /** The plugin id, or the folder name when the manifest names none. */
  id: string;
  folder: string;
  builtIn: boolean;
  state: PluginState;
  /** Why the plugin is not loaded. */
  reason?: string;
  /** The last reload that failed while an earlier version kept serving. */
  reloadError?: string;
  name: string;
  description: string;
  version?: string;
  sdkRange?: string;
  capabilities: string[];
  overlays: DeclaredOverlay[];
  package?: PluginPackage;
  sandbox?: PluginSandbox;
  loadedAt?: string;
}

/**
 * The built-in overlay plugins: packages the host depends on, found where
 * Node resolves them from the host (`node_modules` of an installed host; in
 * this repository, links to the `extensions/` workspaces).
 */
export const BUILT_IN_PLUGIN_PACKAGES = [
  '@strata/extension-change-coupling',
  '@strata/extension-complexity',
  '@strata/extension-git-activity',
  '@strata/extension-hotspots',
  '@strata/extension-ownership',
  '@strata/extension-test-coverage',
] as const;

/** The folder of each built-in plugin package that resolves (real paths, so that a workspace link is watched at its target). */
export function builtInPluginFolders(): string[] {
  const require = createRequire(import.meta.url);
  const folders: string[] = [];
  for (const name of BUILT_IN_PLUGIN_PACKAGES) {
    try {
      folders.push(path.dirname(realpathSync(require.resolve(`${name}/package.json`))));
    } catch {
      // Not installed: the host serves without it (GET /api/overlays does not list it).
    }
  }
  return folders;
}

/** The id a plugin folder's manifest claims, without checking the rest of it; undefined when it names none. */
function claimedId(folder: string): string | undefined {
  try {
    const id = (JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as { strata?: { id?: unknown } }).strata?.id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** How long the loads that ran out of time at start wait, once the others are done, before they are tried again. */
const LOAD_RETRY_PAUSE_MS = 1000;

interface LoadOptions {
  /** A load among many at start: if it runs out of time, loadAll tries it again alone (its reason says so). */
  retriedAlone?: boolean;
  /** The folder's package as the caller just read it (the watcher, to decide on a build): not read again. */
  package?: PluginPackage;
}

/**
 * Finds plugin folders (the built-in packages, and those in the
 * configured directories), checks their manifests, and keeps one sandbox per
 * loaded plugin.
 */
@injectable()
export class PluginRegistry {
  private readonly records = new Map<string, PluginRecord>();
  /** What the host holds for each plugin it knows, released when the plugin goes. */
  private readonly contexts = new Map<string, PluginContext>();
  private loading: Promise<void> = Promise.resolve();
  /** Whether the plugins found at start are still loading (`loadAll` not settled): one not known yet may still load. */
  loadingAtStart = false;
  /** Reloads of one folder run one after the other. */
  private readonly reloads = new Map<string, Promise<PluginRecord | undefined>>();
  /** Folders whose last load ran out of time. */
  private readonly outOfTime = new Set<string>();
  private closing = false;
  /**
   * Under `strata serve --dev`, one sandbox process waits started, so that a
   * plugin saved by its author is reloaded without waiting for a process to
   * start (100 to 150 ms of the reload). Otherwise plugins load once: each
   * process is started when needed, and none is kept idle.
   */
  private readonly processes: SandboxProcessSource;
  private readonly builtInFolders: string[];

  constructor(
    @inject(StrataConfig) private readonly config: StrataConfig,
    @inject(RepositoryCapabilities) private readonly capabilities: RepositoryCapabilities,
    @inject(EventBus) private readonly events: EventBus,
    @inject(PluginLogs) private readonly logs: PluginLogs,
    @inject(Logger) private readonly logger: Logger,
  ) {
    this.processes = config.dev ? new SpareSandboxProcess() : FORK_ON_DEMAND;
    this.builtInFolders = config.plugins.builtIns ? builtInPluginFolders() : [];
  }

  /** The folders plugins are looked for in: built-in first, then configured. */
  get roots(): Array<{ dir: string; builtIn: boolean }> {
    return [...this.builtInFolders.map((dir) => ({ dir, builtIn: true })), ...this.config.plugins.directories.map((dir) => ({ dir, builtIn: false }))];
  }

  /** Plugin folders under the roots: a root may be a plugin itself or hold plugins one level down. */
  discover(): Array<{ folder: string; builtIn: boolean }> {
    const found: Array<{ folder: string; builtIn: boolean }> = [];
    for (const { dir, builtIn } of this.roots) {
      if (!existsSync(dir)) {
        if (!builtIn) this.logger.warn({ dir }, 'plugin directory does not exist');
        continue;
      }
      if (isPluginFolder(dir)) {
        found.push({ folder: dir, builtIn });
        continue;
      }
      for (const entry of readdirSync(dir).sort()) {
        const folder = path.join(dir, entry);
        if (entry !== 'node_modules' && !entry.startsWith('.') && statSync(folder, { throwIfNoEntry: false })?.isDirectory() && isPluginFolder(folder))
          found.push({ folder, builtIn });
      }
    }
    return found;
  }

  /**
   * Loads every plugin found; failures are recorded on their records, never
   * thrown. A few sandboxes start at a time: dozens of processes starting at
   * once on two busy cores ran past the load time limit (17 of 60 in a test
   * from outside), each limit measured while the others took the CPU. A load
   * that still runs out of time (the machine was busy, or the plugin hangs)
   * is tried once more, alone, once the others are done and after a pause.
   * With `after`, the loads begin once it resolves (the server lets its first
   * requests go first), but count as under way from the call on.
   */
  loadAll(options: { only?: string; after?: Promise<unknown> } = {}): Promise<void> {
    const slots = new Semaphore(Math.max(2, availableParallelism()));
    const outOfTime: Array<{ folder: string; builtIn: boolean }> = [];
    const loadInTurn = async (folder: string, builtIn: boolean): Promise<void> => {
      const release = await slots.acquire();
      try {
        await this.reload(folder, builtIn, { retriedAlone: true });
        if (this.outOfTime.has(folder)) outOfTime.push({ folder, builtIn });
      } finally {
        release();
      }
    };
    const loadAgainAlone = async (): Promise<void> => {
      if (outOfTime.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, LOAD_RETRY_PAUSE_MS));
      for (const { folder, builtIn } of outOfTime) {
        if (this.closing || this.byFolder(folder)?.state !== 'failed') continue;
        this.logger.info({ folder }, 'loading a plugin again, alone: its load ran out of time while the others loaded');
        await this.reload(folder, builtIn);
      }
    };
    const loadFound = (): Promise<unknown> => {
      if (this.closing) return Promise.resolve();
      let found = this.discover();
      // One plugin asked for (the CLI's offline apply, status, remove): only its folder is loaded, unless no folder
      // claims its id, and then all are (the answer lists the plugins there are).
      if (options.only !== undefined) {
        const claiming = found.filter(({ folder }) => claimedId(folder) === options.only);
        if (claiming.length > 0) found = claiming;
      }
      return Promise.all(found.map(({ folder, builtIn }) => loadInTurn(folder, builtIn)));
    };
    // Loading from now on (requests wait for it, as they do for the loads themselves), even while `after` holds it back.
    this.loadingAtStart = true;
    this.loading = (options.after ? options.after.then(loadFound) : loadFound()).then(loadAgainAlone).finally(() => {
      this.loadingAtStart = false;
    });
    return this.loading;
  }

  /** Resolves once the plugins found at start are loaded (or have failed to). */
  whenLoaded(): Promise<void> {
    return this.loading;
  }

  list(): PluginRecord[] {
    return [...this.records.values()].sort((a, b) => a.id.localeCompare(b.id));
  }

  /**
   * The record of plugin `id`, once the plugins found at start are loaded (a
   * request must not see them half loaded); `NOT_FOUND`, naming the plugins
   * there are, when there is none.
   */
  async listed(id: string): Promise<PluginRecord> {
    await this.whenLoaded();
    const record = this.get(id);
    if (!record) {
      const known = this.list()
        .map((plugin) => plugin.id)
        .sort();
      throw new StrataError('NOT_FOUND', `plugin "${id.slice(0, 200)}" does not exist; the plugins are: ${known.length > 0 ? known.join(', ') : 'none'}`);
    }
    return record;
  }

  get(id: string): PluginRecord | undefined {
    return this.records.get(id);
  }

  /**
   * The context of plugin `pluginId`: what a part of the host keeps for
   * that plugin, it holds there as a disposable, released when the plugin
   * goes (its folder removed, or renamed by its manifest).
   */
  context(pluginId: string): PluginContext {
    let context = this.contexts.get(pluginId);
    if (!context) {
      context = new PluginContext(pluginId);
      this.contexts.set(pluginId, context);
      context.hold({ dispose: () => this.logs.forget(pluginId) });
      context.hold({ dispose: () => this.capabilities.forget(pluginId) });
    }
    return context;
  }

  /** The record of the plugin in `folder`, if any. */
  byFolder(folder: string): PluginRecord | undefined {
    return [...this.records.values()].find((record) => record.folder === folder);
  }

  /**
   * (Re)loads the plugin in `folder` into a fresh sandbox. When a loaded
   * version exists and the new one fails, the old one keeps serving and the
   * error goes to `reloadError`. Resolves with the record.
   */
  reload(folder: string, builtIn = this.byFolder(folder)?.builtIn ?? false, options: LoadOptions = {}): Promise<PluginRecord | undefined> {
    const previous = this.reloads.get(folder) ?? Promise.resolve(undefined);
    const next = previous.then(
      () => this.load(folder, builtIn, options),
      () => this.load(folder, builtIn, options),
    );
    this.reloads.set(folder, next);
    return next;
  }

  /** Unloads the plugin of `folder` (its folder is gone). */
  async remove(folder: string): Promise<PluginRecord | undefined> {
    const record = this.byFolder(folder);
    if (!record) return undefined;
    this.records.delete(record.id);
    await record.sandbox?.dispose();
    await this.gone(record.id);
    return record;
  }

  /** Records a failure that happened before loading (a build error) on the plugin of `folder`. */
  recordFailure(folder: string, pluginId: string, reason: string): PluginRecord {
    const existing = this.byFolder(folder);
    return this.settleFailure(existing, {
      id: pluginId,
      folder,
      builtIn: existing?.builtIn ?? false,
      state: 'failed',
      reason,
      name: existing?.name ?? pluginId,
      description: existing?.description ?? '',
      capabilities: existing?.capabilities ?? [],
      overlays: existing?.overlays ?? [],
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.processes instanceof SpareSandboxProcess) this.processes.close();
    await Promise.all([...this.reloads.values()].map((reload) => reload.catch(() => undefined)));
    await Promise.all([...this.records.values()].map((record) => record.sandbox?.dispose()));
    await this.capabilities.close();
  }

  /** Keeps a plugin's record, and makes its context (what its logs and git calls keep is released with it). */
  private keep(record: PluginRecord): void {
    this.records.set(record.id, record);
    this.context(record.id);
  }

  /**
   * Plugin `pluginId` has gone (its record is already dropped): it is said
   * (`plugin.removed`), and what the host held for it is released; resolves
   * once it is.
   */
  private async gone(pluginId: string): Promise<void> {
    this.events.publish('plugin.removed', { pluginId });
    const context = this.contexts.get(pluginId);
    this.contexts.delete(pluginId);
    await context?.dispose().catch((error: unknown) => this.logger.warn({ err: error, pluginId }, 'what a removed plugin held was not all released'));
  }

  private async load(folder: string, builtIn: boolean, options: LoadOptions): Promise<PluginRecord | undefined> {
    this.outOfTime.delete(folder);
    const existing = this.byFolder(folder);
    const base = { folder, builtIn, capabilities: [] as string[], overlays: [] as DeclaredOverlay[] };
    let pkg: PluginPackage;
    try {
      pkg = options.package ?? readPluginPackage(folder);
    } catch (error) {
      if (!(error instanceof PluginManifestError)) throw error;
      return this.settleFailure(existing, {
        ...base,
        id: error.pluginId ?? path.basename(folder),
        state: error.reason,
        reason: error.message,
        name: error.described?.name ?? path.basename(folder),
        description: error.described?.description ?? '',
      });
    }
    const { manifest } = pkg;
    const owner = this.records.get(manifest.id);
    if (owner && owner.folder !== folder) {
      const record: PluginRecord = {
        ...base,
        id: `${manifest.id}@${path.basename(folder)}`,
        state: 'invalid',
        reason: `plugin id "${manifest.id}" is already used by ${owner.folder}`,
        name: manifest.name,
        description: manifest.description,
      };
      this.keep(record);
      this.logger.warn({ folder, pluginId: manifest.id }, record.reason);
      return record;
    }
    const described = {
      ...base,
      id: manifest.id,
      name: manifest.name,
      description: manifest.description,
      version: pkg.version,
      sdkRange: manifest.sdk,
      capabilities: manifest.capabilities ?? [],
      package: pkg,
    };
    let code: string;
    try {
      code = await readFile(pkg.entryPath, 'utf8');
    } catch {
      return this.settleFailure(existing, {
        ...described,
        state: 'failed',
        reason: `its entry ${manifest.entry} does not exist${pkg.sourcePath ? '; build it with strata plugin build' : ''}`,
      });
    }
    try {
      const sandbox = await PluginSandbox.start({
        pluginId: manifest.id,
        code,
        filename: pathToFileURL(pkg.entryPath).href,
        folder,
        capabilities: manifest.capabilities ?? [],
        limits: this.config.plugins,
        callCapability: (name, args, signal) => this.capabilities.call(manifest.id, name, args, signal),
        log: (message, source) => this.logs.append(manifest.id, source, message),
        processes: this.processes,
      });
      // The parameters the plugin declares in definePlugin are checked as a manifest's are.
      let loaded: PluginPackage;
      try {
        loaded = withDeclaredParameters(pkg, sandbox.parameters);
      } catch (error) {
        await sandbox.dispose('its parameter schema is not usable');
        if (!(error instanceof PluginManifestError)) throw error;
        return this.settleFailure(existing, { ...described, state: 'invalid', reason: error.message });
      }
      const record: PluginRecord = {
        ...described,
        package: loaded,
        state: 'loaded',
        overlays: [...sandbox.overlays],
        sandbox,
        loadedAt: new Date().toISOString(),
      };
      if (existing && existing.id !== record.id) this.records.delete(existing.id);
      this.keep(record);
      await existing?.sandbox?.dispose('the plugin was reloaded; its overlays are applied again with the new version');
      if (existing && existing.id !== record.id) await this.gone(existing.id);
      this.logger.info({ pluginId: record.id, folder, overlays: record.overlays.map((o) => o.id) }, existing ? 'plugin reloaded' : 'plugin loaded');
      this.events.publish(existing ? 'plugin.reloaded' : 'plugin.loaded', { pluginId: record.id, version: record.version });
      return record;
    } catch (error) {
      let reason = error instanceof SandboxError ? error.message : `could not start its sandbox: ${(error as Error).message}`;
      if (error instanceof SandboxError && error.kind === 'wall-time') {
        this.outOfTime.add(folder);
        if (options.retriedAlone) reason += '; it is loaded again, alone, once the other plugins have loaded';
      }
      return this.settleFailure(existing, { ...described, state: 'failed', reason });
    }
  }

  /** A load failed: keep a loaded earlier version serving, or record the failure. */
  private settleFailure(existing: PluginRecord | undefined, failed: PluginRecord): PluginRecord {
    if (existing?.state === 'loaded' && existing.id === failed.id) {
      existing.reloadError = failed.reason;
      this.logger.warn({ pluginId: existing.id, reason: failed.reason }, 'plugin reload failed; the previous version keeps serving');
      this.events.publish('plugin.failed', { pluginId: existing.id, error: failed.reason, serving: 'previous version' });
      return existing;
    }
    if (existing && existing.id !== failed.id) {
      this.records.delete(existing.id);
      void this.gone(existing.id);
    }
    void existing?.sandbox?.dispose('the plugin could not be loaded again');
    this.keep(failed);
    this.logger.warn({ pluginId: failed.id, folder: failed.folder, reason: failed.reason }, 'plugin not loaded');
    this.events.publish('plugin.failed', { pluginId: failed.id, error: failed.reason });
    return failed;
  }
}
