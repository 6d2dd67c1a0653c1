import { inject, injectable } from 'tsyringe';
import { type BuildProgress, GraphSource } from '../graph/graph-source.js';
import { GraphStore } from '../graph/graph-store.js';
import { OverlayService } from '../overlays/overlay-service.js';
import { ServedOverlays } from '../overlays/served-overlays.js';
import { PluginRegistry } from '../plugins/plugin-registry.js';
import { DataDirectory } from '../storage/data-directory.js';

/** What offline work is given: the overlays and plugins, and the graph on demand. */
export interface OfflineSession {
  overlays: OverlayService;
  /** The overlays' results and statuses. */
  served: ServedOverlays;
  plugins: PluginRegistry;
  /** Indexes the repository into the graph (once; later calls wait for the same build). Only applying needs it. */
  buildGraph(): Promise<void>;
}

/**
 * Overlay operations without a server (`strata overlay` when none answers):
 * loads the plugins and the stored overlays, does the work on the same data
 * directory `strata serve` uses, and writes the store out, so the next
 * `strata serve` shows the result. The repository is indexed only when the
 * work asks for the graph, so listing, status and removal answer at once
 * and an apply that cannot run says so before indexing.
 */
@injectable()
export class OfflineOverlays {
  constructor(
    @inject(GraphSource) private readonly source: GraphSource,
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(PluginRegistry) private readonly plugins: PluginRegistry,
    @inject(OverlayService) private readonly overlays: OverlayService,
    @inject(ServedOverlays) private readonly served: ServedOverlays,
    @inject(DataDirectory) private readonly dataDirectory: DataDirectory,
  ) {}

  /** Does `work`; with `onlyPlugin`, loads that plugin alone (one sandbox process instead of one per plugin). */
  async run<T>(work: (session: OfflineSession) => Promise<T>, onProgress?: (progress: BuildProgress) => void, onlyPlugin?: string): Promise<T> {
    let building: Promise<void> | undefined;
    try {
      await Promise.all([this.overlays.load(), this.plugins.loadAll(onlyPlugin === undefined ? {} : { only: onlyPlugin })]);
      const buildGraph = (): Promise<void> => (building ??= this.source.build(onProgress).then((graph) => this.graph.replace(graph)));
      return await work({ overlays: this.overlays, served: this.served, plugins: this.plugins, buildGraph });
    } finally {
      await building?.catch(() => undefined);
      await this.plugins.close();
      await this.source.close();
      await this.dataDirectory.close();
    }
  }
}
