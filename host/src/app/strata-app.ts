import { inject, injectable } from 'tsyringe';
import { GraphJsonCache } from '../api/graph-json.js';
import { GraphMapCache } from '../api/graph-map.js';
import { FIRST_CLIENTS_MS, ForegroundRequests } from '../concurrency/foreground-requests.js';
import { StrataConfig } from '../config/strata-config.js';
import { EventBus } from '../events/event-bus.js';
import { type BuildProgress, GraphSource } from '../graph/graph-source.js';
import { GraphStore } from '../graph/graph-store.js';
import { LiveGraphUpdater } from '../graph/live-graph-updater.js';
import { HttpServer } from '../http/http-server.js';
import { ResponseCompressor } from '../http/response-compression.js';
import { LayoutComputation } from '../layout/layout-computation.js';
import { LayoutPositionStore } from '../layout/layout-position-store.js';
import { LivePlacement } from '../layout/live-placement.js';
import { Logger } from '../logging/logger.js';
import { OverlayReapplier } from '../overlays/overlay-reapplier.js';
import { OverlayService } from '../overlays/overlay-service.js';
import { ServedOverlays } from '../overlays/served-overlays.js';
import { PluginRegistry } from '../plugins/plugin-registry.js';
import { PluginWatcher } from '../plugins/plugin-watcher.js';
import { DataDirectory } from '../storage/data-directory.js';

/** Where a started host answers. */
export interface ServingAddress {
  host: string;
  port: number;
  /** Base URL, without the `/api` prefix. */
  url: string;
}

/** Starts and stops the host's parts in the right order. */
@injectable()
export class StrataApp {
  private stopping: Promise<void> | undefined;
  /** The watch of the repository being set up (`LiveGraphUpdater.start`, which never rejects). */
  private watching: Promise<void> | undefined;
  /** After a start: the plugins found at start loading, then what follows them (the dev watcher, re-applies). Never rejects. */
  private pluginsStarting: Promise<void> | undefined;
  /** The graph changes announced so far, one after the other (`graph.changed`). */
  private announcing: Promise<void> = Promise.resolve();

  constructor(
    @inject(GraphSource) private readonly source: GraphSource,
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(GraphJsonCache) private readonly graphJson: GraphJsonCache,
    @inject(GraphMapCache) private readonly graphMap: GraphMapCache,
    @inject(LayoutPositionStore) private readonly layout: LayoutPositionStore,
    @inject(HttpServer) private readonly http: HttpServer,
    @inject(DataDirectory) private readonly dataDirectory: DataDirectory,
    @inject(LiveGraphUpdater) private readonly liveUpdater: LiveGraphUpdater,
    @inject(PluginRegistry) private readonly plugins: PluginRegistry,
    @inject(OverlayService) private readonly overlays: OverlayService,
    @inject(OverlayReapplier) private readonly reapplier: OverlayReapplier,
    @inject(ServedOverlays) private readonly servedOverlays: ServedOverlays,
    @inject(PluginWatcher) private readonly pluginWatcher: PluginWatcher,
    @inject(EventBus) private readonly events: EventBus,
    @inject(LayoutComputation) private readonly layoutComputation: LayoutComputation,
    @inject(LivePlacement) private readonly livePlacement: LivePlacement,
    @inject(StrataConfig) private readonly config: StrataConfig,
    @inject(ForegroundRequests) private readonly foreground: ForegroundRequests,
    @inject(ResponseCompressor) private readonly compressor: ResponseCompressor,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  /**
   * Loads saved state and indexes the repository, then listens. The port is
   * bound first (so that a port in use fails at once), and requests that
   * arrive while indexing runs wait for it.
   */
  async start(onProgress?: (progress: BuildProgress) => void): Promise<ServingAddress> {
    await Promise.all([this.layout.load(), this.overlays.load()]);
    let markReady!: () => void;
    let markFailed!: (error: unknown) => void;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    const address = await this.http.listen(ready);
    let pluginsLoaded: Promise<unknown> | undefined;
    try {
      // The watch is set up (the watcher walks the tree in a thread of its own: 0.6 s for payload's 3,200
      // directories) while the saved graph is checked and served; a build from the files lists them once it holds
      // (what changes while it runs is then reported), and after a saved graph the check once it holds says
      // whether what changed before is served.
      this.watching = this.config.watch ? this.liveUpdater.start() : undefined;
      const watching = this.watching;
      this.graph.replace(await this.source.build(onProgress, watching && (() => watching)));
      this.livePlacement.start();
      this.liveUpdater.applyChanges();
      // The graph is served from here on; the overlay routes wait for the plugins, so a
      // plugin that is slow to load delays only them.
      markReady();
      // The first clients go first. The graph is serialized (and gzipped, on libuv's threads) ahead for them, then the
      // map, with a turn between them for a request that came meanwhile (on payload's 29,000 nodes each takes about
      // 0.25 s; a request that comes first serializes it itself); the start's background work waits until both are
      // done and the server has then answered nothing for a moment.
      const serializing = this.foreground.hold();
      const ahead = (prepare: () => void) => () => {
        try {
          if (!this.stopping) prepare();
        } catch (error) {
          // A request serializes them itself, and says why it cannot.
          this.logger.warn({ err: error }, 'serializing the graph ahead failed');
        }
      };
      setImmediate(() => {
        ahead(() => {
          const { body } = this.graphJson.current();
          if (this.config.compressResponses) this.compressor.prepare(body);
        })();
        setImmediate(() => {
          ahead(() => this.graphMap.prepare())();
          serializing();
        });
      });
      // Plugins start (one sandbox process each, their manifests checked on this thread) once the graph is served and
      // the first requests are answered: on two cores their starts took the CPU a warm start needs, and a client that
      // asks as soon as the URL is out (a script, a test, the page `--open` opens) waited behind them.
      // Under --dev the plugin folders are watched from before the loads: the loads count as done (requests waiting
      // for them go on) only once the watch holds, so that a plugin saved after it loaded is reloaded, never missed
      // while the watch was being set up (a request that applied it at once, then a save, found no reload).
      const pluginWatch = this.config.dev
        ? this.pluginWatcher.start().catch((error: unknown) => this.logger.error({ err: error }, 'watching the plugin folders failed'))
        : undefined;
      pluginsLoaded = this.plugins.loadAll({ after: Promise.all([this.foreground.whenQuiet(FIRST_CLIENTS_MS), pluginWatch]) });
      if (this.source.servedKeptGraph)
        void this.watching?.then(() => this.liveUpdater.checkAgainstFiles('the saved graph was served before the watch was set up'));
    } catch (error) {
      markFailed(error);
      // Everything started is stopped, so that nothing keeps the process alive: the reading threads, the watcher,
      // the store's lock, and the plugins' sandboxes (a load under way would start its process after the close).
      this.logger.error({ err: error }, 'the first index failed: stopping');
      await pluginsLoaded?.catch(() => {});
      await this.stop().catch((stopError: unknown) => this.logger.warn({ err: stopError }, 'stopping after the failed start failed too'));
      throw error;
    }
    // The start is done once the graph is served: the plugins go on loading (each a sandbox process; a warm start
    // of a 7,000-file repository printed its URL 7 s after its graph was ready, waiting for them). Overlays restored
    // from the store were computed on an older graph: they are applied again once their plugins are in.
    const loads = pluginsLoaded;
    this.pluginsStarting = (async () => {
      await loads;
      // Stored overlays of plugins that were still loading were served meanwhile; those whose plugin did not come are not.
      this.servedOverlays.changed();
      if (this.stopping) return;
      this.reapplier.reapplyRestored();
      const plugins = this.plugins.list();
      const loaded = plugins.filter((plugin) => plugin.state === 'loaded').length;
      this.logger.info({ plugins: loaded, pluginsNotLoaded: plugins.length - loaded }, 'plugins loaded');
    })().catch((error: unknown) => this.logger.error({ err: error }, 'loading the plugins failed'));
    this.liveUpdater.onDidUpdate((update) => {
      this.reapplier.graphChanged();
      this.graphMap.graphChanged();
      // The nodes the graph gained are placed in the saved layout now, in the turn the revision was taken (placeNew
      // places before its first await): no request reads the revision without its new nodes' positions, and a client
      // following graph.changed finds them. The announcements keep their order.
      const placed = this.livePlacement.placeNew().catch((error: unknown) => this.logger.warn({ err: error }, 'placing the new nodes failed'));
      this.announcing = this.announcing.then(async () => {
        await placed;
        this.events.publish('graph.changed', { revision: update.revision, changedPaths: update.changedPaths });
      });
    });
    this.logger.info({ url: address.url, nodes: this.graph.nodeCount, edges: this.graph.edgeCount }, 'serving');
    return address;
  }

  /** Stops accepting requests, lets those in flight finish, and writes the store out. Safe to call twice. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      // Plugins still loading, and a watch being set up, finish first (so that nothing starts after the close).
      await this.pluginsStarting;
      await this.watching;
      await this.liveUpdater.stop();
      await this.pluginWatcher.stop();
      this.graphMap.close();
      // Event streams end, then requests in flight are answered, before what they use closes.
      this.events.close();
      await this.http.close();
      await this.reapplier.close();
      await this.layoutComputation.close();
      await this.source.close();
      await this.plugins.close();
      await this.dataDirectory.close();
      this.logger.info('stopped');
      this.logger.flush();
    })();
    return this.stopping;
  }
}
