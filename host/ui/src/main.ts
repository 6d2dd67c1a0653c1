// The page: puts the panels around the map and keeps them in step with the
// server (the graph, its changes, overlays, layout) through /api alone.
import './styles.css';
import { ApiClient, ApiError, ServerUnreachableError, TokenStore } from './api-client.js';
import type { EarlyGraphLoad } from './boot.js';
import { CyclesPanel } from './cycles-panel.js';
import { element, replaceChildren } from './dom.js';
import { EventStream, type FollowedEvent } from './event-stream.js';
import { FilterPanel } from './filter-panel.js';
import { isSymbol, type NodeStyle } from './graph-data.js';
import { type GraphChanges, GraphModel } from './graph-model.js';
import type { GraphWorkerRequest, GraphWorkerResponse, GraphWorkerStarted } from './graph-worker.js';
import { HotspotsPanel } from './hotspots-panel.js';
import { LayoutPanel } from './layout-panel.js';
import { MapView, type VisibilityFilter } from './map-view.js';
import { figure, NodePanel } from './node-panel.js';
import { Notices } from './notices.js';
import { count } from './numbers.js';
import { composeStyle, type OverlayRef, styleFor } from './overlay-composition.js';
import { OverlayPanel } from './overlay-panel.js';
import { languageColors } from './palette.js';
import { SearchBox } from './search-box.js';
import { installShortcuts } from './shortcuts.js';
import { askForToken } from './token-dialog.js';
import { readViewState, writeViewState } from './view-state.js';

/** The graph worker's URL, set by the build (the file's name holds its hash). */
declare const STRATA_GRAPH_WORKER_URL: string;

const THEME_KEY = 'strata.theme';
/** The body's class until the first graph is drawn (or fails to load): the panels are hidden meanwhile (styles.css). */
const LOADING = 'loading';

class StrataPage {
  private readonly api = new ApiClient(location.origin, new TokenStore());
  private readonly model = new GraphModel();
  /** boot.ts's worker and first request, when that script ran (it does unless it failed to load). */
  private early = (window as unknown as { strataBoot?: EarlyGraphLoad }).strataBoot;
  private readonly worker = this.early?.worker ?? new Worker(STRATA_GRAPH_WORKER_URL, { type: 'module' });
  private workerRequests = this.early?.requestId ?? 0;
  private readonly noticeBoard = new Notices();
  private readonly mapElement = element('div', { class: 'map', id: 'map', 'aria-label': 'Code map', role: 'img' });
  private readonly hoverCard = element('div', { class: 'hover-card', role: 'tooltip', hidden: true });
  private readonly summary = element('span', { class: 'summary', 'data-role': 'summary', 'aria-live': 'polite' }, 'Loading the graph…');
  private readonly map = new MapView(this.mapElement, this.model, {
    select: (id) => this.select(id),
    hover: (id, at) => this.hover(id, at),
    cameraChanged: () => this.scheduleUrlUpdate(),
    moved: () => this.layout.moved(),
  });
  private readonly overlays = new OverlayPanel(this.api, {
    visibleChanged: (visible) => {
      this.map.setOverlays(visible);
      this.scheduleUrlUpdate();
    },
    stylesChanged: (pluginId) => void this.refreshStyles([pluginId]),
    error: (message) => this.noticeBoard.error(message),
  });
  private readonly nodePanel = new NodePanel(this.api, this.model, {
    select: (id) => this.select(id, true),
    close: () => this.select(undefined),
    expand: (id) => (this.map.isExpanded(id) ? this.map.collapseFile(id) : this.map.expand(id)),
    toggleDirectory: (id) => this.map.toggleDirectory(id),
    focus: (id) => this.setFilter({ focus: id }),
    isExpanded: (id) => this.map.isExpanded(id),
    isCollapsed: (id) => this.map.isCollapsed(id),
    overlayName: (pluginId, overlayId) => this.overlays.overlayName({ pluginId, overlayId }),
    showReach: (reach) => {
      if (reach) this.cycles.deselect();
      this.map.showReach(reach);
    },
    error: (message) => this.noticeBoard.error(message),
  });
  private readonly cycles = new CyclesPanel(this.api, this.model, {
    show: (cycle) => {
      this.nodePanel.clearReach();
      this.map.showReach(cycle);
    },
    error: (message) => this.noticeBoard.error(message),
  });
  private readonly hotspots = new HotspotsPanel(this.api, this.model, {
    select: (id) => this.select(id, true),
    error: (message) => this.noticeBoard.error(message),
  });
  private readonly layout = new LayoutPanel(this.api, {
    positionsChanged: () => void this.reloadGraph(),
    positions: () => this.map.positions(),
    error: (message) => this.noticeBoard.error(message),
  });
  private readonly filters = new FilterPanel({
    change: (filter) => this.setFilter(filter),
    focusName: (id) => this.model.nodes.get(id)?.path ?? id,
  });
  private readonly search = new SearchBox(this.model, (id) => this.select(id, true));
  private readonly events = new EventStream(this.api, {
    event: (event) => void this.onEvent(event),
    connected: (reconnected, afterDrop) => {
      this.noticeBoard.online();
      // Dropped for falling behind: the same server says what changed since. Otherwise the server may have
      // restarted (its revisions start again): take everything anew.
      if (afterDrop) void this.catchUpAfterDrop();
      else if (reconnected) void this.resynchronize();
    },
    disconnected: (retryInMs, unauthorized) => {
      if (unauthorized) return void this.authorize(true).then(() => this.events.restart());
      this.noticeBoard.offline(`The Strata server is not answering. Reconnecting in ${Math.max(1, Math.round(retryInMs / 1000))} s…`);
    },
  });
  /** One graph request at a time; a change that arrives meanwhile is fetched after it. */
  private syncing: Promise<void> = Promise.resolve();
  private reloadQueued = false;
  private urlTimer: ReturnType<typeof setTimeout> | undefined;
  private loaded = false;
  /** How long the last graph load took, phase by phase (read by the benchmark through window.strata). */
  private timings: Record<string, number> = {};
  /** The first load of the overlays and layout panels. */
  private panelsLoaded: Promise<unknown> = Promise.resolve();
  /** The plugins whose styles the last graph load fetched. */
  private styledWithGraph = new Set<string>();

  async start(): Promise<void> {
    this.applyTheme();
    this.buildPage();
    this.api.onReachability((reachable) => {
      if (!reachable) this.noticeBoard.offline('The Strata server is not answering. Reconnecting…');
    });
    window.addEventListener('unhandledrejection', (event) => {
      event.preventDefault();
      this.noticeBoard.error(event.reason instanceof Error ? event.reason.message : String(event.reason));
    });
    const view = readViewState();
    // The panels load while the worker loads the graph; the styles of the plugins listed by then come with the graph.
    const panels = this.loadPanels(view);
    this.panelsLoaded = panels;
    // The renderer is made while the worker loads the graph; not before it has taken the request (the worker's
    // start needs this thread).
    void (this.early?.taken ?? Promise.resolve()).then(() => this.map.prepare());
    await this.loadWithRetry(true);
    this.layout.loadAvailability();
    if (view.focus && this.model.nodes.has(view.focus)) this.setFilter({ focus: view.focus });
    if (view.camera) this.map.setCamera(view.camera);
    // Asked before the token was given: asked again.
    if (!(await panels)) await this.loadPanels(view);
    await this.refreshStyles(this.overlays.pluginsWithStyles.filter((id) => !this.styledWithGraph.has(id)));
    if (view.node && this.model.nodes.has(view.node)) this.select(view.node, !view.camera);
    this.events.start();
    this.loaded = true;
    this.exposeForTools();
    document.body.dataset.ready = 'true';
  }

  /** Loads the overlays and layout panels; false when the server wants a token first. */
  private async loadPanels(view: { overlays: OverlayRef[] }): Promise<boolean> {
    let unauthorized = false;
    const settle = (error: unknown): void => {
      if (error instanceof ApiError && error.status === 401) unauthorized = true;
      else this.report(error);
    };
    await Promise.all([this.overlays.load(view.overlays).catch(settle), this.layout.load().catch(settle), this.hotspots.load().catch(settle)]);
    return !unauthorized;
  }

  private buildPage(): void {
    const themeButton = element(
      'button',
      { type: 'button', class: 'icon', 'aria-label': 'Switch between light and dark', title: 'Theme (t)', onclick: () => this.toggleTheme() },
      '◐',
    );
    const helpButton = element(
      'button',
      { type: 'button', class: 'icon', 'aria-label': 'Keyboard shortcuts', title: 'Keyboard shortcuts (?)', onclick: () => shortcuts.openHelp() },
      '?',
    );
    const header = element(
      'header',
      { class: 'top' },
      element('h1', {}, element('img', { src: '/assets/favicon.svg', alt: '', width: 20, height: 20 }), 'Strata'),
      this.summary,
      this.search.root,
      element(
        'div',
        { class: 'zoom' },
        element('button', { type: 'button', class: 'icon', 'aria-label': 'Zoom in', onclick: () => this.map.zoom(1.5) }, '+'),
        element('button', { type: 'button', class: 'icon', 'aria-label': 'Zoom out', onclick: () => this.map.zoom(1 / 1.5) }, '−'),
        element('button', { type: 'button', class: 'icon', 'aria-label': 'Fit the whole graph', onclick: () => this.map.fit() }, '⤢'),
      ),
      themeButton,
      helpButton,
    );
    const sidebar = element(
      'div',
      { class: 'sidebar', role: 'complementary', 'aria-label': 'Overlays, filters and layout' },
      this.overlays.root,
      this.hotspots.root,
      this.cycles.root,
      this.filters.root,
      this.layout.root,
    );
    document.body.classList.add(LOADING);
    document.body.append(header, this.noticeBoard.root, element('main', { class: 'workspace' }, sidebar, this.mapElement, this.nodePanel.root), this.hoverCard);
    const shortcuts = installShortcuts([
      { keys: '/', description: 'Search', run: () => this.search.focus() },
      {
        keys: 'Escape',
        description: 'Clear the selection and the search',
        run: () => {
          this.search.clear();
          this.select(undefined);
        },
      },
      { keys: '+ or =', description: 'Zoom in', run: () => this.map.zoom(1.5) },
      { keys: '-', description: 'Zoom out', run: () => this.map.zoom(1 / 1.5) },
      { keys: '0', description: 'Fit the whole graph', run: () => this.map.fit() },
      { keys: 'e', description: "Show or hide the selected file's symbols, collapse or expand the selected directory", run: () => this.expandSelected() },
      { keys: 'u', description: 'Select the parent of the selected node', run: () => this.selectParent() },
      { keys: 'f', description: 'Focus on the selected directory (again: show everything)', run: () => this.focusSelected() },
      { keys: 't', description: 'Switch between light and dark', run: () => this.toggleTheme() },
    ]);
    window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.applyTheme());
  }

  /** Loads the whole graph through the worker, asking for a token when the server wants one. */
  private async loadWithRetry(fit: boolean): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.loadGraph(fit);
        this.noticeBoard.online();
        return;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          await this.authorize(this.api.tokens.get() !== undefined);
          continue;
        }
        if (error instanceof ServerUnreachableError) {
          const wait = Math.min(500 * 2 ** attempt, 10_000);
          this.noticeBoard.offline(`The Strata server is not answering. Reconnecting in ${Math.max(1, Math.round(wait / 1000))} s…`);
          await new Promise((resolve) => setTimeout(resolve, wait));
          continue;
        }
        this.report(error);
        replaceChildren(this.summary, `The graph could not be loaded: ${(error as Error).message}`);
        document.body.classList.remove(LOADING);
        throw error;
      }
    }
  }

  private async authorize(refused: boolean): Promise<void> {
    this.api.tokens.set(undefined);
    this.api.tokens.set(await askForToken(refused));
  }

  /** Asks the worker for the graph; the first time, takes the answer to boot.ts's request instead. */
  private askWorker(): { askedAt: number; answer: Promise<GraphWorkerResponse> } {
    const early = this.early;
    if (early) {
      this.early = undefined;
      return { askedAt: early.askedAt, answer: early.answer };
    }
    const id = ++this.workerRequests;
    const answer = new Promise<GraphWorkerResponse>((resolve) => {
      const onMessage = (event: MessageEvent<GraphWorkerResponse | GraphWorkerStarted>): void => {
        if (event.data.id !== id || 'started' in event.data) return;
        this.worker.removeEventListener('message', onMessage);
        resolve(event.data);
      };
      this.worker.addEventListener('message', onMessage);
    });
    const askedAt = performance.now();
    const request: GraphWorkerRequest = { id, baseUrl: this.api.baseUrl, token: this.api.tokens.get() };
    this.worker.postMessage(request);
    return { askedAt, answer };
  }

  private async loadGraph(fit: boolean): Promise<void> {
    const { askedAt, answer } = this.askWorker();
    const response = await answer;
    if (!response.ok)
      throw response.status === 0 ? new ServerUnreachableError(response.message) : new ApiError(response.status, response.code, response.message);
    const received = performance.now();
    // On the page's clock (from the navigation's start): when the worker's script started, took the request and fetched.
    const { workerStartedAt, receivedAt, fetchStartedAt, ...phases } = response.timings;
    const onPageClock = (epochMs: number | undefined): number => (epochMs ?? NaN) - performance.timeOrigin;
    this.timings = {
      askedAt,
      workerStartedAt: onPageClock(workerStartedAt),
      receivedAt: onPageClock(receivedAt),
      fetchStartedAt: onPageClock(fetchStartedAt),
      ...phases,
      transferMs: performance.timeOrigin + received - response.sentAt,
    };
    // On the first load, the symbols (half the nodes, drawn only when their file is expanded) join the model after
    // the first frame. A later load keeps the selection and the node panel, which may show a symbol: all at once.
    this.model.replace(response.graph, { deferSymbols: !this.loaded });
    const modelled = performance.now();
    this.timings.modelMs = modelled - received;
    // Overlay styles come per plugin (GET /api/overlays/{id}/styles), for the plugins listed by now.
    const plugins = this.overlays.pluginsWithStyles;
    this.styledWithGraph = new Set(plugins);
    await this.fetchStyles(plugins).catch((error) => this.report(error));
    const styled = performance.now();
    this.timings.stylesMs = styled - modelled;
    this.showGraph(response.graph.savedPositions, fit);
    const shown = performance.now();
    this.timings.showMs = shown - styled;
    // `data-drawn`: the map shows the graph and the panels are filled (the benchmark's first complete frame follows).
    void this.panelsLoaded.then(() => {
      document.body.classList.remove(LOADING);
      document.body.dataset.drawn = 'true';
    });
    await new Promise((resolve) => requestAnimationFrame(resolve));
    this.timings.frameMs = performance.now() - shown;
    // The symbols join the model once that frame is on screen (with a software GPU the next animation frame comes
    // when the last one is drawn), so that they do not hold it up.
    await new Promise((resolve) => requestAnimationFrame(resolve));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const symbolsStarted = performance.now();
    if (this.model.completeSymbols()) {
      this.search.invalidate();
      this.map.symbolsAdded();
    }
    this.timings.symbolsMs = performance.now() - symbolsStarted;
  }

  /** Draws the model anew (it was replaced). */
  private showGraph(savedPositions: number, fit: boolean): void {
    this.map.render(fit);
    this.search.invalidate();
    this.layout.graphLoaded(savedPositions, this.model.nodeCount);
    this.renderFilters();
    this.renderSummary();
    if (this.nodePanel.shown && !this.model.nodes.has(this.nodePanel.shown)) this.select(undefined);
    else if (this.nodePanel.shown) {
      this.map.select(this.nodePanel.shown);
      void this.nodePanel.refresh();
    }
  }

  private renderSummary(): void {
    let files = 0;
    let symbols = this.model.deferredSymbolCount;
    for (const node of this.model.nodes.values()) {
      if (node.kind === 'file') files += 1;
      else if (isSymbol(node)) symbols += 1;
    }
    const repository = this.model.repository.split(/[\\/]/).filter(Boolean).pop() ?? '';
    const edges = this.model.edgeCount;
    this.summary.textContent = `${repository} · ${count(this.model.nodeCount)} nodes · ${count(files)} files · ${count(symbols)} symbols · ${count(edges)} edges`;
    this.summary.dataset.nodes = String(this.model.nodeCount);
    this.summary.dataset.edges = String(edges);
    this.summary.dataset.revision = String(this.model.revision);
    document.title = repository ? `${repository} · Strata` : 'Strata';
  }

  private renderFilters(): void {
    this.filters.render(this.map.currentFilter, languageColors(this.model.languages()));
  }

  private setFilter(filter: Partial<VisibilityFilter>): void {
    this.map.setFilter(filter);
    this.renderFilters();
    if ('focus' in filter) {
      const focus = this.map.currentFilter.focus;
      if (focus === undefined) this.map.fit();
      else this.map.fitNodes(this.model.subtreeOf(focus));
      this.scheduleUrlUpdate();
    }
  }

  /** Fetches the styles these plugins serve now into the model. */
  private async fetchStyles(pluginIds: readonly string[]): Promise<void> {
    const answers = await Promise.all(
      pluginIds.map((id) =>
        this.api
          .get<{ data: { pluginId: string; overlays: Array<{ id: string; styles: Record<string, NodeStyle> }> } }>(
            `/api/overlays/${encodeURIComponent(id)}/styles`,
          )
          .then(
            (answer) => answer.data,
            // A plugin removed meanwhile serves nothing.
            (error: unknown) => {
              if (error instanceof ApiError && error.status === 404) return { pluginId: id, overlays: [] };
              throw error;
            },
          ),
      ),
    );
    for (const answer of answers) this.model.setPluginStyles(answer.pluginId, answer.overlays);
  }

  /**
   * A plugin's styles changed on the server (applied, removed, reloaded under
   * `--dev`): only its styles are fetched, and the map repainted with them.
   */
  private refreshStyles(pluginIds: readonly string[]): Promise<void> {
    if (pluginIds.length === 0) return this.syncing;
    this.syncing = this.syncing.then(async () => {
      const started = performance.now();
      try {
        await this.fetchStyles(pluginIds);
      } catch (error) {
        this.report(error);
        return;
      }
      const fetched = performance.now();
      this.map.restyle();
      const styled = performance.now();
      const shown = this.nodePanel.shown;
      if (shown) void this.nodePanel.refresh();
      await new Promise((resolve) => requestAnimationFrame(resolve));
      this.timings = { stylesFetchMs: fetched - started, restyleMs: styled - fetched, frameMs: performance.now() - styled };
    });
    return this.syncing;
  }

  /** Fetches the whole graph again (positions changed, or the server restarted), keeping the camera. */
  private reloadGraph(): Promise<void> {
    if (this.reloadQueued) return this.syncing;
    this.reloadQueued = true;
    this.syncing = this.syncing.then(async () => {
      this.reloadQueued = false;
      try {
        await this.loadGraph(false);
      } catch (error) {
        this.report(error);
      }
    });
    return this.syncing;
  }

  private async resynchronize(): Promise<void> {
    // The plugins first: the graph load fetches the styles of those that serve some.
    await this.overlays.load().catch((error) => this.report(error));
    await Promise.all([this.reloadGraph(), this.layout.load().catch((error) => this.report(error))]);
    // Another server may have started, with another backend.
    this.layout.loadAvailability();
  }

  /**
   * The server dropped the event stream (the page fell behind) and it is
   * open again: what the events missed meanwhile would have said is asked
   * instead, of the same server: the graph's changes since the page's
   * revision, the overlays' states, and the styles of the plugins that had
   * or have some.
   */
  private async catchUpAfterDrop(): Promise<void> {
    const styledBefore = this.overlays.pluginsWithStyles;
    await this.overlays.load().catch((error) => this.report(error));
    const styled = [...new Set([...styledBefore, ...this.overlays.pluginsWithStyles])];
    await Promise.all([this.catchUp(), this.refreshStyles(styled), this.layout.load().catch((error) => this.report(error))]);
  }

  /** Applies what changed since the graph the page has; the whole graph when the server cannot say. */
  private catchUp(): Promise<void> {
    this.syncing = this.syncing.then(async () => {
      try {
        const changes = (await this.api.get<{ data: GraphChanges }>(`/api/graph/changes?since=${this.model.revision}`)).data;
        if (changes.reset) {
          await this.loadGraph(false);
          return;
        }
        if (changes.revision === this.model.revision) return;
        const diff = this.model.apply(changes);
        this.map.update(diff);
        this.search.invalidate();
        this.renderSummary();
        if (diff.added.some((node) => node.kind === 'file')) this.renderFilters();
        const shown = this.nodePanel.shown;
        if (
          shown &&
          (diff.updated.some((node) => node.id === shown) ||
            changes.edges.some((edge) => edge.source === shown || edge.target === shown) ||
            changes.removedEdges.length > 0)
        )
          void this.nodePanel.refresh();
      } catch (error) {
        this.report(error);
      }
    });
    return this.syncing;
  }

  private async onEvent(event: FollowedEvent): Promise<void> {
    if (!this.loaded) return;
    if (event.type === 'graph.changed') {
      if (event.data.revision <= this.model.revision) return;
      await this.catchUp();
    } else if (event.type === 'layout.started' || event.type === 'layout.finished') {
      this.layout.onEvent(event.type);
    } else {
      if (event.type === 'plugin.failed') this.noticeBoard.error(`${event.data.pluginId}: ${event.data.error ?? event.type}`);
      if (event.type === 'overlay.failed') this.noticeBoard.error(`${event.data.pluginId}: ${event.data.error.message}`);
      this.hotspots.onEvent(event);
      await this.overlays.onEvent(event);
    }
  }

  private select(id: string | undefined, reveal = false): void {
    if (id !== undefined && reveal) this.map.reveal(id);
    this.map.select(id);
    void this.nodePanel.show(id);
    this.scheduleUrlUpdate();
  }

  private hover(id: string | undefined, at: { x: number; y: number }): void {
    const node = id !== undefined ? this.model.nodes.get(id) : undefined;
    if (!node) {
      this.hoverCard.hidden = true;
      return;
    }
    const visible = this.overlays.visibleOverlays;
    const composed = composeStyle(node, visible);
    replaceChildren(
      this.hoverCard,
      element('strong', {}, node.name),
      element(
        'div',
        { class: 'muted' },
        `${node.kind}${node.language ? ` · ${node.language}` : ''}${node.lines !== undefined ? ` · ${node.lines} lines` : ''}`,
      ),
      element('div', { class: 'muted path' }, node.path),
      ...visible.map((ref) => {
        const style = styleFor(node, ref);
        const shown = style ? (style.value !== undefined ? figure(style.value) : (style.badge ?? '—')) : 'no data';
        return element('div', { class: 'hover-overlay' }, `${this.overlays.overlayName(ref)}: `, String(shown));
      }),
      composed.badges.length > 0 && element('div', { class: 'badges' }, ...composed.badges.map((badge) => element('span', { class: 'badge' }, badge))),
    );
    const rect = this.mapElement.getBoundingClientRect();
    this.hoverCard.style.left = `${Math.min(rect.left + at.x + 14, window.innerWidth - 280)}px`;
    this.hoverCard.style.top = `${Math.min(rect.top + at.y + 14, window.innerHeight - 120)}px`;
    this.hoverCard.hidden = false;
  }

  private expandSelected(): void {
    const id = this.map.selection;
    const node = id !== undefined ? this.model.nodes.get(id) : undefined;
    if (!node) return;
    if (node.kind === 'file') {
      if (this.map.isExpanded(node.id)) this.map.collapseFile(node.id);
      else this.map.expand(node.id);
    } else if (node.kind === 'directory') this.map.toggleDirectory(node.id);
    void this.nodePanel.refresh();
  }

  private selectParent(): void {
    const parent = this.map.selection !== undefined ? this.model.nodes.get(this.map.selection)?.parent : undefined;
    if (parent !== undefined) this.select(parent, true);
  }

  private focusSelected(): void {
    if (this.map.currentFilter.focus !== undefined) return this.setFilter({ focus: undefined });
    const id = this.map.selection;
    if (id !== undefined && this.model.nodes.get(id)?.kind === 'directory') this.setFilter({ focus: id });
  }

  private applyTheme(): void {
    const chosen = localStorage.getItem(THEME_KEY);
    const dark = chosen ? chosen === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    this.map.setTheme();
  }

  private toggleTheme(): void {
    localStorage.setItem(THEME_KEY, document.documentElement.dataset.theme === 'dark' ? 'light' : 'dark');
    this.applyTheme();
  }

  private scheduleUrlUpdate(): void {
    clearTimeout(this.urlTimer);
    this.urlTimer = setTimeout(() => {
      const camera = this.map.camera();
      writeViewState({
        node: this.map.selection,
        overlays: this.overlays.visibleOverlays,
        focus: this.map.currentFilter.focus,
        camera: camera && { x: camera.x, y: camera.y, ratio: camera.ratio },
      });
    }, 200);
  }

  /**
   * `window.strata`: read-only facts about what the map draws, for browser
   * tests and benchmarks (a canvas has no DOM to query) and for the console.
   */
  private exposeForTools(): void {
    const map = this.map;
    const model = this.model;
    Object.defineProperty(window, 'strata', {
      value: Object.freeze({
        /** Where a drawn node is, in page pixels; undefined when it is not drawn. */
        nodeOnPage: (id: string) => {
          const at = map.screenPosition(id);
          const rect = this.mapElement.getBoundingClientRect();
          return at && { x: rect.left + at.x, y: rect.top + at.y };
        },
        isVisible: (id: string) => map.isVisible(id),
        camera: () => map.camera(),
        still: () => map.still(),
        drawn: () => map.drawnCount,
        /** The directory regions of the last frame: label, label box, region box (map pixels) and tint. */
        regions: () => map.drawnRegions(),
        /** Imports summed between the regions drawn (maps with many imports): source and target region, count. */
        regionEdges: () => map.drawnRegionEdges(),
        /** A drawn node's size (sigma's), undefined when it is not drawn. */
        drawnSize: (id: string) => map.drawnSize(id),
        /** A drawn node's color (before highlights), undefined when it is not drawn. */
        drawnColor: (id: string) => map.drawnColor(id),
        /** A drawn node's color as shown now (selection, hover and a reach drawn). */
        shownColor: (id: string) => map.shownColor(id),
        /** The import edges drawn now, with their colors. */
        shownImports: () => map.shownImports(),
        /** The nodes whose labels are drawn whatever the label grid says. */
        forcedLabels: () => map.forcedLabels(),
        revision: () => model.revision,
        timings: () => ({ ...this.timings }),
        position: (id: string) => {
          const node = model.nodes.get(id);
          return node && { x: node.x, y: node.y };
        },
      }),
    });
  }

  private report(error: unknown): void {
    if (error instanceof ServerUnreachableError) return; // the banner says it, and reconnection follows
    this.noticeBoard.error(error instanceof Error ? error.message : String(error));
  }
}

void new StrataPage().start();
