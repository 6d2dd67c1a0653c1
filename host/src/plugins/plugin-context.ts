import type { Disposable } from '../events/disposable.js';

/**
 * What the host's parts hold for one plugin while it is known (its log
 * lines, its share of git processes, its overlays' results), each held here
 * as a disposable and released together when the plugin goes: its folder
 * removed, or its manifest renamed it. The way a VS Code extension's context
 * releases its subscriptions. A stop of the host releases nothing: what is
 * kept on disk is served again after a restart.
 */
export class PluginContext implements Disposable {
  private readonly held: Disposable[] = [];
  private disposed = false;

  constructor(readonly pluginId: string) {}

  /** Whether the plugin has gone. */
  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Holds `disposable` until the plugin goes, and returns it; once it has gone, releases it at once. */
  hold<T extends Disposable>(disposable: T): T {
    if (this.disposed) void Promise.resolve(disposable.dispose()).catch(() => undefined);
    else this.held.push(disposable);
    return disposable;
  }

  /**
   * Releases everything held, the last held first, each whether or not an
   * earlier one failed; rejects with the failures after all were tried.
   */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const failures: unknown[] = [];
    for (const disposable of this.held.splice(0).reverse()) {
      try {
        await disposable.dispose();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, `releasing what plugin "${this.pluginId}" held: ${failures.length} failed`);
  }
}
