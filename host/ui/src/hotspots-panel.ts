// "Where are the hotspots?": the sidebar's ranked list of the files that
// change most and are most complex (the hotspots plugin's ranking: its
// status summary), each a link to the file; shown when that plugin is
// loaded, ranked on request, and read again whenever it is applied.
import { type ApiClient, ApiError } from './api-client.js';
import { element, replaceChildren } from './dom.js';
import type { FollowedEvent } from './event-stream.js';
import type { GraphModel } from './graph-model.js';
import { count } from './numbers.js';

const PLUGIN = 'hotspots';

/** One ranked file, as the plugin's summary lists it (`hotspot<rank>`: a JSON object). */
interface Hotspot {
  rank: number;
  score: number;
  commits: number;
  complexity: number;
  path: string;
}

interface HotspotsStatus {
  state: string;
  summary?: Record<string, unknown>;
}

export class HotspotsPanel {
  readonly root = element('section', { class: 'panel hotspots', 'aria-labelledby': 'hotspots-title', hidden: true });
  private status: HotspotsStatus | undefined;
  private ranking = false;

  constructor(
    private readonly api: ApiClient,
    private readonly model: GraphModel,
    private readonly events: { select(id: string): void; error(message: string): void },
  ) {}

  /** Reads the plugin's status: hidden when it is not loaded (asked of the plugin list first: no 404 for a plugin not there). */
  async load(): Promise<void> {
    try {
      const { plugins } = await this.api.get<{ plugins: Array<{ id: string; loaded?: boolean }> }>('/api/overlays');
      const loaded = plugins.some((plugin) => plugin.id === PLUGIN && plugin.loaded !== false);
      this.status = loaded ? (await this.api.get<{ data: HotspotsStatus }>(`/api/overlays/${PLUGIN}/status`)).data : undefined;
    } catch (error) {
      this.status = undefined;
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    } finally {
      this.render();
    }
  }

  private reload(): Promise<void> {
    return this.load().catch((error: unknown) => this.events.error(`Could not read the hotspots: ${(error as Error).message}`));
  }

  /** The hotspots plugin was applied, removed, loaded or dropped: read it again. */
  onEvent(event: FollowedEvent): void {
    const data = event.data as { pluginId?: string } | undefined;
    if (data?.pluginId === PLUGIN && /^(overlay\.(applied|removed|failed)|plugin\.(ready|loaded|removed))$/.test(event.type)) void this.reload();
  }

  private async rank(): Promise<void> {
    this.ranking = true;
    this.render();
    try {
      await this.api.post(`/api/overlays/${PLUGIN}/apply`, {});
    } catch (error) {
      this.events.error(`Ranking the hotspots failed: ${(error as Error).message}`);
    }
    this.ranking = false;
    await this.reload();
  }

  private render(): void {
    this.root.hidden = this.status === undefined;
    if (!this.status) return replaceChildren(this.root);
    const hotspots = this.status.state === 'active' ? hotspotsOf(this.status.summary ?? {}) : undefined;
    replaceChildren(
      this.root,
      element('h2', { id: 'hotspots-title' }, 'Hotspots'),
      element('p', { class: 'muted' }, 'Files that change most and are most complex: commits in the range × cyclomatic complexity.'),
      element(
        'button',
        { type: 'button', disabled: this.ranking || this.status.state === 'applying', onclick: () => void this.rank() },
        this.ranking || this.status.state === 'applying' ? 'Ranking…' : hotspots ? 'Rank again' : 'Rank the hotspots',
      ),
      hotspots && this.list(hotspots, this.status.summary ?? {}),
    );
  }

  private list(hotspots: Hotspot[], summary: Record<string, unknown>): HTMLElement {
    const range = `${dayOf(summary.since)} to ${dayOf(summary.until)}`;
    if (hotspots.length === 0) return element('p', { role: 'status' }, `No hotspots from ${range}: ${String(summary.message ?? 'no file scored')}.`);
    return element(
      'div',
      {},
      element(
        'p',
        { role: 'status' },
        `From ${range}: ${count(Number(summary.commits ?? 0))} commits, ${count(Number(summary.filesScored ?? 0))} files scored.`,
      ),
      element(
        'ol',
        { class: 'answer-list', 'aria-label': 'Hotspots, highest first' },
        ...hotspots.map((hotspot) => {
          const id = `file:${hotspot.path}`;
          return element(
            'li',
            {},
            element(
              'button',
              { type: 'button', class: 'link', title: hotspot.path, disabled: !this.model.nodes.has(id), onclick: () => this.events.select(id) },
              hotspot.path.slice(hotspot.path.lastIndexOf('/') + 1),
            ),
            element(
              'small',
              { class: 'muted' },
              `${hotspot.path.includes('/') ? hotspot.path.slice(0, hotspot.path.lastIndexOf('/') + 1) : './'} · score ${hotspot.score.toFixed(2)} · ${count(hotspot.commits)} ${hotspot.commits === 1 ? 'commit' : 'commits'} · complexity ${count(hotspot.complexity)}`,
            ),
          );
        }),
      ),
    );
  }
}

/** The ranked files of the summary, in rank order. */
function hotspotsOf(summary: Record<string, unknown>): Hotspot[] {
  const hotspots: Hotspot[] = [];
  for (let rank = 1; ; rank++) {
    const entry = summary[`hotspot${rank}`];
    if (typeof entry !== 'string') break;
    try {
      hotspots.push(JSON.parse(entry) as Hotspot);
    } catch {
      break;
    }
  }
  return hotspots;
}

/** A date-time of the summary as its day (`2026-06-02`), as people read a range. */
function dayOf(value: unknown): string {
  const text = String(value ?? '');
  return /^\d{4}-\d\d-\d\d/.test(text) ? text.slice(0, 10) : text;
}
