import 'reflect-metadata';
import { type DependencyContainer, container as globalContainer } from 'tsyringe';
import { GraphAnalysis } from './analysis/graph-analysis.js';
import { AnalysisResource } from './api/analysis-resource.js';
import { EventResource } from './api/event-resource.js';
import { ExportResource } from './api/export-resource.js';
import { GraphJsonCache } from './api/graph-json.js';
import { GraphMapCache } from './api/graph-map.js';
import { GraphResource } from './api/graph-resource.js';
import { LayoutComputeResource } from './api/layout-compute-resource.js';
import { LayoutResource } from './api/layout-resource.js';
import { OverlayResource } from './api/overlay-resource.js';
import { OfflineOverlays } from './app/offline-overlays.js';
import { StrataApp } from './app/strata-app.js';
import { ForegroundRequests } from './concurrency/foreground-requests.js';
import { StrataConfig } from './config/strata-config.js';
import { EventBus } from './events/event-bus.js';
import { GraphExporter } from './export/graph-exporter.js';
import { GraphColumnsCache } from './graph/graph-columns.js';
import { GraphSource } from './graph/graph-source.js';
import { GraphStore, InMemoryGraphStore } from './graph/graph-store.js';
import { LiveGraphUpdater } from './graph/live-graph-updater.js';
import { RepositoryWatcher } from './graph/repository-watcher.js';
import { ApiResource } from './http/api-route.js';
import { HttpServer, RestifyHttpServer } from './http/http-server.js';
import { ResponseCompressor } from './http/response-compression.js';
import { UiAssets } from './http/ui-assets.js';
import { FileFactsCache } from './indexer/file-facts-cache.js';
import { RepositoryIndexer } from './indexer/repository-indexer.js';
import { LayoutComputation } from './layout/layout-computation.js';
import { LayoutPositionStore, NedbLayoutPositionStore } from './layout/layout-position-store.js';
import { LivePlacement } from './layout/live-placement.js';
import { Logger } from './logging/logger.js';
import { OverlayReapplier } from './overlays/overlay-reapplier.js';
import { OverlayResultStore } from './overlays/overlay-result-store.js';
import { OverlayService } from './overlays/overlay-service.js';
import { ServedOverlays } from './overlays/served-overlays.js';
import { FileCapabilities } from './plugins/file-capabilities.js';
import { GitCapabilities } from './plugins/git-capabilities.js';
import { GitRunner } from './plugins/git-runner.js';
import { PluginLogs } from './plugins/plugin-logs.js';
import { PluginRegistry } from './plugins/plugin-registry.js';
import { PluginWatcher } from './plugins/plugin-watcher.js';
import { RepositoryCapabilities } from './plugins/repository-capabilities.js';
import { RepositoryPaths } from './plugins/repository-paths.js';
import { DataDirectory, NedbDataDirectory } from './storage/data-directory.js';

/**
 * The composition root: the one place that knows which class implements
 * which token. Each host instance gets its own child container, so several
 * can run in one process (as the tests do).
 */
export function createContainer(config: StrataConfig, logger: Logger): DependencyContainer {
  const container = globalContainer.createChildContainer();
  container.register(StrataConfig, { useValue: config });
  container.register(Logger, { useValue: logger });

  container.registerSingleton(ForegroundRequests);
  container.registerSingleton(ResponseCompressor);
  container.registerSingleton(DataDirectory, NedbDataDirectory);
  container.registerSingleton(GraphStore, InMemoryGraphStore);
  container.registerSingleton(LayoutPositionStore, NedbLayoutPositionStore);
  container.registerSingleton(FileFactsCache);
  container.registerSingleton(GraphSource, RepositoryIndexer);
  container.registerSingleton(GraphJsonCache);
  container.registerSingleton(GraphMapCache);
  container.registerSingleton(RepositoryWatcher);
  container.registerSingleton(LiveGraphUpdater);
  container.registerSingleton(EventBus);
  container.registerSingleton(GraphColumnsCache);
  container.registerSingleton(GraphAnalysis);
  container.registerSingleton(GraphExporter);
  container.registerSingleton(GitRunner);
  container.registerSingleton(RepositoryPaths);
  container.registerSingleton(GitCapabilities);
  container.registerSingleton(FileCapabilities);
  container.registerSingleton(RepositoryCapabilities);
  container.registerSingleton(PluginLogs);
  container.registerSingleton(PluginRegistry);
  container.registerSingleton(OverlayResultStore);
  container.registerSingleton(ServedOverlays);
  container.registerSingleton(OverlayService);
  container.registerSingleton(OverlayReapplier);
  container.registerSingleton(PluginWatcher);
  container.registerSingleton(LayoutComputation);
  container.registerSingleton(LivePlacement);

  // API resources: each adds its routes to the HTTP server.
  container.registerSingleton(ApiResource, GraphResource);
  container.registerSingleton(ApiResource, AnalysisResource);
  container.registerSingleton(ApiResource, LayoutResource);
  container.registerSingleton(ApiResource, LayoutComputeResource);
  container.registerSingleton(ApiResource, OverlayResource);
  container.registerSingleton(ApiResource, EventResource);
  container.registerSingleton(ApiResource, ExportResource);

  container.registerSingleton(UiAssets);
  container.registerSingleton(HttpServer, RestifyHttpServer);
  container.registerSingleton(StrataApp);
  container.registerSingleton(OfflineOverlays);
  return container;
}
