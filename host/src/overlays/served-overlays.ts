import type { NodeStyle } from '@strata/sdk';
import { inject, injectable } from 'tsyringe';
import { EventBus } from '../events/event-bus.js';
import type { EventType } from '../events/event-types.js';
import { PluginRegistry } from '../plugins/plugin-registry.js';
import type { OverlayEdge } from './overlay-edges.js';
import { type AppliedOverlay, inactiveStatus, type OverlayState, type OverlayStatus } from './overlay-status.js';

/** The events after which a plugin's overlays may be served differently: it was loaded, reloaded, failed or removed. */
const PLUGIN_STATE_EVENTS: ReadonlySet<EventType> = new Set<EventType>(['plugin.loaded', 'plugin.reloaded', 'plugin.failed', 'plugin.removed']);

/** What is kept of one plugin's overlays: its status, its last good styles, and what they were made from. */
export interface PluginResult {
  status: OverlayStatus;
  overlays: AppliedOverlay[];
  /** Changes with every apply or removal: a finished apply whose generation is stale is dropped. */
  generation: number;
  /** The input texts of the apply, by name (a re-apply sends them again). */
  inputs: Record<string, string[]>;
}

/** `GET /api/overlays/{id}/styles`: the styles a plugin's overlays serve now. */
export interface ServedStyles {
  pluginId: string;
  state: OverlayState;
  serving: boolean;
  overlays: Array<{ id: string; legend: Record<string, string>; styles: Record<string, NodeStyle> }>;
}

/**
 * The overlays' results and what is served of them: every plugin's status
 * and styles, as the graph routes and the overlay routes read them. Only
 * `OverlayService` changes them (`set`, `delete`, `changed`).
 */
@injectable()
export class ServedOverlays {
  private readonly byPlugin = new Map<string, PluginResult>();
  private currentRevision = 0;

  constructor(
    @inject(PluginRegistry) private readonly plugins: PluginRegistry,
    @inject(EventBus) events: EventBus,
  ) {
    // What is served depends on which plugins are loaded: a plugin loaded, reloaded, failed or removed is a new
    // revision. A line it logged (plugin.log) or a reload's end (plugin.ready: its re-apply made its own) is not:
    // each new revision makes the next GET /api/graph serialize the whole graph again.
    events.subscribe((event) => {
      if (PLUGIN_STATE_EVENTS.has(event.type)) this.changed();
    });
  }

  /** Increases whenever any overlay's styles, or what is served of them, change. */
  get revision(): number {
    return this.currentRevision;
  }

  result(pluginId: string): PluginResult | undefined {
    return this.byPlugin.get(pluginId);
  }

  /** The plugins with a result, and their results. */
  results(): IterableIterator<[string, PluginResult]> {
    return this.byPlugin.entries();
  }

  set(pluginId: string, result: PluginResult): void {
    this.byPlugin.set(pluginId, result);
  }

  /** Drops a plugin's result; false when it had none. */
  delete(pluginId: string): boolean {
    return this.byPlugin.delete(pluginId);
  }

  /** Says that what is served changed (a new revision). */
  changed(): void {
    this.currentRevision++;
  }

  /** The status of a plugin's overlays, once the plugins found at start are loaded (`NOT_FOUND` for an unknown plugin). */
  async status(pluginId: string): Promise<OverlayStatus> {
    const record = await this.plugins.listed(pluginId);
    return this.snapshot(record.id);
  }

  /** Where a plugin's overlays stand now (for listings). */
  stateOf(pluginId: string): OverlayState {
    return this.snapshot(pluginId).state;
  }

  /**
   * A plugin's status as served. Overlays kept for a plugin that is not
   * loaded now (it failed to load, or its SDK range does not match) are not
   * served: inactive, saying why; they are applied again once it loads.
   */
  snapshot(pluginId: string): OverlayStatus {
    const status = this.byPlugin.get(pluginId)?.status ?? inactiveStatus(pluginId);
    const record = this.plugins.get(pluginId);
    if (record && record.state !== 'loaded' && (status.state === 'active' || status.state === 'applying')) {
      const message = `plugin "${pluginId}" is not loaded (${record.reason ?? record.state}); its overlays are applied again once it loads`;
      return { ...structuredClone(status), state: 'inactive', styledNodes: 0, error: { kind: 'not-loaded', message } };
    }
    return structuredClone(status);
  }

  /** The legends of the active overlays of a plugin, by overlay id. */
  legends(pluginId: string): Map<string, Record<string, string>> {
    const result = this.byPlugin.get(pluginId);
    const legends = new Map<string, Record<string, string>>();
    if (result?.status.state === 'active') for (const overlay of result.overlays) legends.set(overlay.id, overlay.legend);
    return legends;
  }

  /** Styles of one node: `{pluginId: {overlayId: style}}` over the served overlays, or undefined when none. */
  stylesOf(nodeId: string): Record<string, Record<string, NodeStyle>> | undefined {
    let out: Record<string, Record<string, NodeStyle>> | undefined;
    for (const [pluginId, result] of this.byPlugin) {
      if (!this.serves(pluginId, result)) continue;
      for (const overlay of result.overlays) {
        const style = overlay.styles.styleOf(nodeId);
        if (!style) continue;
        // Records without a prototype: a plugin named `constructor` (ids are lower-case letters, digits and dashes) is a
        // key like any other, never Object.prototype's, and its styles are never written onto Object itself.
        out ??= Object.create(null) as Record<string, Record<string, NodeStyle>>;
        (out[pluginId] ??= Object.create(null) as Record<string, NodeStyle>)[overlay.id] = style;
      }
    }
    return out;
  }

  /**
   * The styles a plugin's overlays serve now, overlay by overlay (what the
   * graph routes merge into each node's `overlays[pluginId]`), for a client
   * that follows one plugin without loading the graph again. Empty when the
   * plugin serves nothing (inactive, or not loaded).
   */
  async servedStyles(pluginId: string): Promise<ServedStyles> {
    const record = await this.plugins.listed(pluginId);
    const result = this.byPlugin.get(record.id);
    const state = this.snapshot(record.id).state;
    if (!result || !this.serves(record.id, result)) return { pluginId: record.id, state, serving: false, overlays: [] };
    return {
      pluginId: record.id,
      state,
      serving: true,
      overlays: result.overlays.map((overlay) => ({ id: overlay.id, legend: overlay.legend, styles: overlay.styles.toRecord() })),
    };
  }

  /**
   * The edges a plugin's `edge` overlays serve now, overlay by overlay (the
   * other overlays give none), on the same terms as `servedStyles`.
   */
  async servedEdges(pluginId: string): Promise<{
    pluginId: string;
    state: OverlayState;
    serving: boolean;
    overlays: Array<{ id: string; legend: Record<string, string>; edges: OverlayEdge[] }>;
  }> {
    const record = await this.plugins.listed(pluginId);
    const result = this.byPlugin.get(record.id);
    const state = this.snapshot(record.id).state;
    if (!result || !this.serves(record.id, result)) return { pluginId: record.id, state, serving: false, overlays: [] };
    const types = new Map(record.overlays.map((overlay) => [overlay.id, overlay.type]));
    return {
      pluginId: record.id,
      state,
      serving: true,
      overlays: result.overlays
        .filter((overlay) => types.get(overlay.id) === 'edge' || overlay.edges.count > 0)
        .map((overlay) => ({ id: overlay.id, legend: overlay.legend, edges: overlay.edges.list() })),
    };
  }

  /** Whether any overlay is served (the graph serializer skips the lookups when none is). */
  get anyServed(): boolean {
    for (const [pluginId, result] of this.byPlugin) if (this.serves(pluginId, result)) return true;
    return false;
  }

  /**
   * Styles are served while active, and while an apply replaces them (the
   * last result stays until the new one is in); only for plugins loaded now
   * (a stored overlay may outlive its plugin), or, while the plugins found at
   * start load (the graph is served meanwhile), for those not known yet.
   */
  private serves(pluginId: string, result: PluginResult): boolean {
    if (!((result.status.state === 'active' || result.status.state === 'applying') && result.overlays.length > 0)) return false;
    const record = this.plugins.get(pluginId);
    return record ? record.state === 'loaded' : this.plugins.loadingAtStart;
  }
}
