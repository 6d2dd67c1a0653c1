import { inject, injectable } from 'tsyringe';
import type { Disposable } from '../events/disposable.js';
import { Logger } from '../logging/logger.js';
import { PluginWatcher, type SavedReload } from '../plugins/plugin-watcher.js';
import { OverlayService } from './overlay-service.js';
import { ServedOverlays } from './served-overlays.js';

/** Quiet time after a graph change before active overlays are applied again. */
const GRAPH_SETTLE_MS = 500;

/**
 * When overlays are applied again without anyone asking: after a graph
 * change (once it is quiet), after a restart (the results restored from the
 * store were computed on an older graph), and after a save reloaded their
 * plugin (`strata serve --dev`). One plugin after the other.
 */
@injectable()
export class OverlayReapplier {
  private refreshTimer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> = Promise.resolve();
  private readonly reloads: Disposable;

  constructor(
    @inject(OverlayService) private readonly overlays: OverlayService,
    @inject(ServedOverlays) private readonly served: ServedOverlays,
    @inject(PluginWatcher) watcher: PluginWatcher,
    @inject(Logger) private readonly logger: Logger,
  ) {
    this.reloads = watcher.onDidReload((reload) => this.pluginReloaded(reload));
  }

  /**
   * The graph changed: once it has been quiet for `GRAPH_SETTLE_MS`, applies
   * the active overlays again (one plugin after the other) so that new and
   * changed nodes are painted too.
   */
  graphChanged(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      const active = [...this.served.results()].filter(([, result]) => result.status.state === 'active').map(([pluginId]) => pluginId);
      this.refreshing = this.refreshing.then(async () => {
        for (const pluginId of active) await this.overlays.reapply(pluginId);
      });
    }, GRAPH_SETTLE_MS);
  }

  /**
   * Applies again, in the background, the overlays restored from the store
   * (computed on the graph of an earlier run) that nobody has applied since.
   */
  reapplyRestored(): void {
    const restored = [...this.served.results()]
      .filter(([, result]) => result.generation === 0 && result.status.state === 'active')
      .map(([pluginId]) => pluginId);
    this.refreshing = this.refreshing.then(async () => {
      for (const pluginId of restored) if (this.served.result(pluginId)?.generation === 0) await this.overlays.reapply(pluginId);
    });
  }

  /** Stops re-applying and waits for a re-apply under way. */
  async close(): Promise<void> {
    this.reloads.dispose();
    clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
    await this.refreshing;
  }

  /**
   * A save reloaded a plugin: its overlays, if they were active or failed, are applied again with the last
   * parameters; an apply under way moves to the new version by itself, and is waited for.
   */
  private async pluginReloaded({ pluginId, startedAt }: SavedReload): Promise<{ ready: boolean }> {
    const status = await this.overlays.afterReload(pluginId);
    const ms = Math.round(performance.now() - startedAt);
    if (!status) this.logger.info({ pluginId, ms }, 'plugin reloaded');
    else if (status.error)
      this.logger.warn(
        { pluginId, ms, error: status.error },
        `plugin reloaded; applying its overlays again failed (${status.state === 'active' ? 'its last good result stays' : 'none are served'})`,
      );
    else this.logger.info({ pluginId, ms }, 'plugin reloaded and its overlays re-applied');
    return { ready: !status?.error };
  }
}
