import { inject, injectable } from 'tsyringe';
import { GraphSource, type BuildProgress } from '../graph/graph-source.js';
import { GraphStore } from '../graph/graph-store.js';
import { OverlayService } from '../overlays/overlay-service.js';
import { PluginRegistry } from '../plugins/plugin-registry.js';
import { DataDirectory } from '../storage/data-directory.js';

/**
 * Overlay operations without a server (`strata overlay` when none answers):
 * indexes the repository, loads the plugins, does the work on the same data
 * directory `strata serve` uses, and writes the store out, so the next
 * `strata serve` shows the result.
 */
@injectable()
export class OfflineOverlays {
  constructor(
    @inject(GraphSource) private readonly source: GraphSource,
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(PluginRegistry) private readonly plugins: PluginRegistry,
    @inject(OverlayService) private readonly overlays: OverlayService,
    @inject(DataDirectory) private readonly dataDirectory: DataDirectory,
  ) {}

  async run<T>(work: (overlays: OverlayService, plugins: PluginRegistry) => Promise<T>, onProgress?: (progress: BuildProgress) => void): Promise<T> {
    try {
      await this.overlays.load();
      const loading = this.plugins.loadAll();
      this.graph.replace(await this.source.build(onProgress));
      await loading;
      return await work(this.overlays, this.plugins);
    } finally {
      await this.overlays.close();
      await this.plugins.close();
      await this.source.close();
      await this.dataDirectory.close();
    }
  }
}
