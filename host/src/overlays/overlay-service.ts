import type { NodeStyle } from '@strata/sdk';
import { applyFailure, checkApplyRequest, notLoaded, SandboxError, styleAt, type ApplyLimits, type ApplyProgress, type GraphPayload, type OverlayColumns } from '@strata/sandbox';
import { inject, injectable } from 'tsyringe';
import { StrataConfig } from '../config/strata-config.js';
import { StrataError } from '../errors/strata-error.js';
import { EventBus } from '../events/event-bus.js';
import { isPluginEvent } from '../events/event-types.js';
import { GraphColumnsCache } from '../graph/graph-columns.js';
import { Logger } from '../logging/logger.js';
import { PluginRegistry, type PluginRecord } from '../plugins/plugin-registry.js';
import { DataDirectory } from '../storage/data-directory.js';

/** Where an overlay plugin stands. */
export type OverlayState = 'inactive' | 'applying' | 'active' | 'failed';

/** The status record of `GET /api/overlays/{id}/status`. */
export interface OverlayStatus {
  pluginId: string;
  state: OverlayState;
  /** Parameters of the last apply. */
  params: Record<string, unknown> | null;
  /** Names of the inputs sent with the last apply. */
  inputs: string[];
  /** When the last apply started. */
  startedAt: string | null;
  /** When the current styles were computed. */
  appliedAt: string | null;
  /** How long the last finished apply took, in milliseconds. */
  durationMs: number | null;
  /** Nodes with at least one style, over every overlay of the plugin. */
  styledNodes: number;
  /** Graph revision the styles were computed on. */
  graphRevision: number | null;
  /** Figures the plugin reported about the last apply (files without data, unmapped authors...). */
  summary: Record<string, number | string>;
  /** Why the last apply failed. */
  error: { kind: string; message: string } | null;
  /** How far the apply under way has come, as the plugin last said (`ctx.progress`); null when none runs or it said nothing. */
  progress: (ApplyProgress & { at: string }) | null;
}

/** The styles of one overlay. */
export interface AppliedOverlay {
  id: string;
  legend: Record<string, string>;
  styles: Map<string, NodeStyle>;
}

interface PluginOverlays {
  status: OverlayStatus;
  overlays: AppliedOverlay[];
  /** Changes with every apply or removal: a finished apply whose generation is stale is dropped. */
  generation: number;
  inputs: Record<string, string[]>;
}

interface StoredOverlays {
  _id: string;
  status: string;
  inputs: string;
  overlays: Array<{ id: string; legend: string; ids: string[]; color: (string | null)[]; size: (number | null)[]; value: (number | null)[]; badge: (string | null)[] }>;
}

/** Quiet time after a graph change before active overlays are applied again. */
const GRAPH_SETTLE_MS = 500;

/** An apply request's body: the plugin's parameters, and input texts under `inputs`. */
export type ApplyBody = Record<string, unknown> & { inputs?: Record<string, string | string[]> };

/**
 * Applies and removes overlays, keeps their status, serves their styles to
 * the graph routes, and keeps active overlays in the store so that they
 * survive a restart.
 */
@injectable()
export class OverlayService {
  private readonly byPlugin = new Map<string, PluginOverlays>();
  private currentRevision = 0;
  private refreshTimer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> = Promise.resolve();

  constructor(
    @inject(PluginRegistry) private readonly plugins: PluginRegistry,
    @inject(GraphColumnsCache) private readonly graphColumns: GraphColumnsCache,
    @inject(DataDirectory) private readonly dataDirectory: DataDirectory,
    @inject(EventBus) private readonly events: EventBus,
    @inject(StrataConfig) private readonly config: StrataConfig,
    @inject(Logger) private readonly logger: Logger,
  ) {
    // What is served depends on which plugins are loaded: any change to them is a new revision.
    events.subscribe((event) => {
      if (!isPluginEvent(event.type)) return;
      this.currentRevision++;
      if (event.type === 'plugin.removed') void this.forget(event.data.pluginId).catch(() => undefined);
    });
  }

  /** Increases whenever any overlay's styles change. */
  get revision(): number {
    return this.currentRevision;
  }

  /** Restores the overlays that were active when the host last stopped. */
  async load(): Promise<void> {
    const collection = await this.dataDirectory.collection('overlays');
    const documents = (await collection.find({})) as unknown as StoredOverlays[];
    for (const document of documents) {
      try {
        const status: OverlayStatus = { ...(JSON.parse(document.status) as OverlayStatus), progress: null };
        const overlays = document.overlays.map((stored) => {
          const styles = new Map<string, NodeStyle>();
          for (let i = 0; i < stored.ids.length; i++) {
            const style: NodeStyle = {};
            if (stored.color[i] != null) style.color = stored.color[i]!;
            if (stored.size[i] != null) style.size = stored.size[i]!;
            if (stored.value[i] != null) style.value = stored.value[i]!;
            if (stored.badge[i] != null) style.badge = stored.badge[i]!;
            styles.set(stored.ids[i]!, style);
          }
          return { id: stored.id, legend: JSON.parse(stored.legend) as Record<string, string>, styles };
        });
        this.byPlugin.set(document._id, { status, overlays, generation: 0, inputs: JSON.parse(document.inputs) as Record<string, string[]> });
      } catch (error) {
        this.logger.warn({ pluginId: document._id, err: error }, 'a stored overlay could not be read; it is dropped');
      }
    }
    this.currentRevision++;
  }

  /** The status of a plugin's overlays, once the plugins found at start are loaded. */
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
  private snapshot(pluginId: string): OverlayStatus {
    const status = this.byPlugin.get(pluginId)?.status ?? inactive(pluginId);
    const record = this.plugins.get(pluginId);
    if (record && record.state !== 'loaded' && (status.state === 'active' || status.state === 'applying')) {
      const message = `plugin "${pluginId}" is not loaded (${record.reason ?? record.state}); its overlays are applied again once it loads`;
      return { ...structuredClone(status), state: 'inactive', styledNodes: 0, error: { kind: 'not-loaded', message } };
    }
    return structuredClone(status);
  }

  /** The legends of the active overlays of a plugin, by overlay id. */
  legends(pluginId: string): Map<string, Record<string, string>> {
    const entry = this.byPlugin.get(pluginId);
    const legends = new Map<string, Record<string, string>>();
    if (entry?.status.state === 'active') for (const overlay of entry.overlays) legends.set(overlay.id, overlay.legend);
    return legends;
  }

  /** Styles of one node: `{pluginId: {overlayId: style}}` over the active overlays, or undefined when none. */
  stylesOf(nodeId: string): Record<string, Record<string, NodeStyle>> | undefined {
    let out: Record<string, Record<string, NodeStyle>> | undefined;
    for (const [pluginId, entry] of this.byPlugin) {
      if (!this.serves(pluginId, entry)) continue;
      for (const overlay of entry.overlays) {
        const style = overlay.styles.get(nodeId);
        if (!style) continue;
        out ??= {};
        (out[pluginId] ??= {})[overlay.id] = style;
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
  async servedStyles(pluginId: string): Promise<{ pluginId: string; state: OverlayState; serving: boolean; overlays: Array<{ id: string; legend: Record<string, string>; styles: Record<string, NodeStyle> }> }> {
    const record = await this.plugins.listed(pluginId);
    const entry = this.byPlugin.get(record.id);
    const state = this.snapshot(record.id).state;
    if (!entry || !this.serves(record.id, entry)) return { pluginId: record.id, state, serving: false, overlays: [] };
    return {
      pluginId: record.id,
      state,
      serving: true,
      overlays: entry.overlays.map((overlay) => ({ id: overlay.id, legend: overlay.legend, styles: Object.fromEntries(overlay.styles) })),
    };
  }

  /** Whether any overlay is active (the graph serializer skips the lookups when none is). */
  get anyActive(): boolean {
    for (const [pluginId, entry] of this.byPlugin) if (this.serves(pluginId, entry)) return true;
    return false;
  }

  /** Drops a plugin's overlays for good (its folder is gone). */
  async forget(pluginId: string): Promise<void> {
    if (!this.byPlugin.delete(pluginId)) return;
    // The plugin is gone either way: a record left on a full disk is never served (only loaded plugins' are).
    await this.unstore(pluginId).catch((error: unknown) => this.logger.warn({ err: error, pluginId }, 'the overlays of a removed plugin stay in the store'));
    this.currentRevision++;
    this.events.publish('overlay.removed', { pluginId });
  }

  /**
   * Styles are served while active, and while an apply replaces them (the
   * last result stays until the new one is in); only for plugins loaded now
   * (a stored overlay may outlive its plugin).
   */
  private serves(pluginId: string, entry: PluginOverlays): boolean {
    return (entry.status.state === 'active' || entry.status.state === 'applying') && entry.overlays.length > 0 && this.plugins.get(pluginId)?.state === 'loaded';
  }

  /** Checks the request, runs the plugin, and resolves with the status once it has finished. */
  async apply(pluginId: string, body: ApplyBody | undefined): Promise<OverlayStatus> {
    const { record, params, inputs } = await this.checkApply(pluginId, body);
    return this.run(record, params, inputs);
  }

  /**
   * Throws what `apply` would answer with if it cannot run (no such plugin,
   * not loaded, bad parameters or inputs, busy); runs nothing.
   */
  async checkApply(pluginId: string, body: ApplyBody | undefined): Promise<{ record: PluginRecord; params: Record<string, unknown>; inputs: Record<string, string[]> }> {
    const record = await this.plugins.listed(pluginId);
    if (record.state !== 'loaded' || !record.sandbox || !record.package) throw new StrataError('PLUGIN_NOT_LOADED', notLoaded(pluginId, record.reason ?? record.state));
    const checked = checkApplyRequest(record.package, body);
    if (!checked.ok) throw new StrataError('INVALID_PARAMETER', checked.message);
    if (this.byPlugin.get(pluginId)?.status.state === 'applying') throw new StrataError('OVERLAY_BUSY', `plugin "${pluginId}" is applying already; wait for it or remove it`);
    return { record, ...checked.request };
  }

  /**
   * Applies again with the last parameters, if the plugin's overlays were
   * active or failed (after a reload); resolves with the status then (its
   * `error` set when this apply failed), or `undefined` when there was
   * nothing to apply.
   */
  async reapply(pluginId: string): Promise<OverlayStatus | undefined> {
    const entry = this.byPlugin.get(pluginId);
    const record = this.plugins.get(pluginId);
    if (!entry || !record || record.state !== 'loaded' || (entry.status.state !== 'active' && entry.status.state !== 'failed')) return undefined;
    this.logger.debug({ pluginId }, 'applying the overlays again');
    return this.run(record, entry.status.params ?? {}, entry.inputs).catch(() => this.snapshot(pluginId));
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
      const active = [...this.byPlugin].filter(([, entry]) => entry.status.state === 'active').map(([pluginId]) => pluginId);
      this.refreshing = this.refreshing.then(async () => {
        for (const pluginId of active) await this.reapply(pluginId);
      });
    }, GRAPH_SETTLE_MS);
  }

  /**
   * Applies again, in the background, the overlays restored from the store
   * (computed on the graph of an earlier run) that nobody has applied since.
   */
  reapplyRestored(): void {
    const restored = [...this.byPlugin].filter(([, entry]) => entry.generation === 0 && entry.status.state === 'active').map(([pluginId]) => pluginId);
    this.refreshing = this.refreshing.then(async () => {
      for (const pluginId of restored) if (this.byPlugin.get(pluginId)?.generation === 0) await this.reapply(pluginId);
    });
  }

  /** Stops re-applying on graph changes and waits for a re-apply under way. */
  async close(): Promise<void> {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
    await this.refreshing;
  }

  /** Removes the plugin's overlays; stops an apply under way. Harmless when nothing is applied. */
  async remove(pluginId: string): Promise<OverlayStatus> {
    const record = await this.plugins.listed(pluginId);
    const entry = this.byPlugin.get(record.id);
    if (entry) {
      // The store first: on a full disk nothing changes, and the overlays keep serving as the store keeps them.
      await this.unstore(record.id);
      if (this.byPlugin.get(record.id) !== entry) return this.snapshot(record.id);
      const wasApplying = entry.status.state === 'applying';
      this.byPlugin.delete(record.id);
      if (wasApplying) await record.sandbox?.cancel();
      this.currentRevision++;
      this.events.publish('overlay.removed', { pluginId: record.id });
    }
    return inactive(record.id);
  }

  /**
   * Runs the plugin and takes in its result. A failure keeps the last good
   * styles serving (the status keeps their parameters and says the error;
   * the event says `serving: 'last good result'`); with none, the status is
   * `failed` and nothing is served.
   */
  private async run(record: PluginRecord, params: Record<string, unknown>, inputs: Record<string, string[]>): Promise<OverlayStatus> {
    const previous = this.byPlugin.get(record.id);
    const previousStatus = previous?.status;
    const entry: PluginOverlays = {
      status: { ...(previous?.status ?? inactive(record.id)), state: 'applying', params, inputs: Object.keys(inputs), startedAt: new Date().toISOString(), error: null, progress: null },
      overlays: previous?.overlays ?? [],
      generation: (previous?.generation ?? 0) + 1,
      inputs,
    };
    this.byPlugin.set(record.id, entry);
    this.currentRevision++;
    this.events.publish('overlay.applying', { pluginId: record.id });
    const started = performance.now();
    const graph = this.graphColumns.current();
    const onProgress = (progress: ApplyProgress): void => {
      if (this.byPlugin.get(record.id) !== entry || entry.status.state !== 'applying') return;
      entry.status = { ...entry.status, progress: { ...progress, at: new Date().toISOString() } };
      this.events.publish('overlay.progress', { pluginId: record.id, ...progress, elapsedMs: Math.round(performance.now() - started) });
    };
    try {
      const result = await record.sandbox!.apply({ params, inputs }, graph, { limits: this.limitsFor(graph), onProgress });
      if (this.byPlugin.get(record.id) !== entry) return this.snapshot(record.id);
      const overlays = result.overlays.map((columns, i) => toApplied(columns, graph.nodes.id, record.overlays[i]!.legend));
      const durationMs = Math.round(performance.now() - started);
      const status: OverlayStatus = {
        ...entry.status,
        state: 'active',
        progress: null,
        appliedAt: new Date().toISOString(),
        durationMs,
        styledNodes: countStyled(overlays),
        graphRevision: graph.revision,
        summary: result.summary,
      };
      // Stored before it is served: a result the store refused (a full disk) is never served, so that what is
      // served and what a restart finds agree.
      await this.persist(record.id, { ...entry, overlays, status });
      if (this.byPlugin.get(record.id) !== entry) {
        // Removed while the result was being stored (the removal's write may have gone first): not kept either.
        if (!this.byPlugin.has(record.id)) {
          await this.unstore(record.id).catch((failure: unknown) => this.logger.warn({ err: failure, pluginId: record.id }, 'the result of a removed overlay stays in the store'));
        }
        return this.snapshot(record.id);
      }
      entry.overlays = overlays;
      entry.status = status;
      this.currentRevision++;
      this.events.publish('overlay.applied', { pluginId: record.id, styledNodes: status.styledNodes, durationMs });
      return structuredClone(entry.status);
    } catch (error) {
      if (this.byPlugin.get(record.id) !== entry) return this.snapshot(record.id);
      const diskFull = error instanceof StrataError && error.code === 'DISK_FULL';
      const kind = error instanceof SandboxError ? error.kind : diskFull ? 'disk-full' : 'internal';
      const message = error instanceof SandboxError || diskFull ? error.message : 'the host failed while applying; the server log has the details';
      if (!(error instanceof SandboxError) && !diskFull) this.logger.error({ err: error, pluginId: record.id }, 'apply failed in the host');
      // Whatever failed (bad input, a throw, a limit, a reload under the apply), the last good result keeps
      // serving, with the parameters and inputs it was made from (a later re-apply uses them) and the error.
      const lastGood = previous !== undefined && previousStatus?.state === 'active' && entry.overlays.length > 0;
      if (lastGood) {
        entry.status = { ...previousStatus, error: { kind, message }, progress: null };
        entry.inputs = previous.inputs;
      } else {
        entry.overlays = [];
        entry.status = { ...entry.status, state: 'failed', progress: null, durationMs: Math.round(performance.now() - started), styledNodes: 0, error: { kind, message } };
        await this.unstore(record.id).catch((failure: unknown) => this.logger.warn({ err: failure, pluginId: record.id }, 'a stored result of a failed plugin could not be removed'));
      }
      this.currentRevision++;
      this.events.publish('overlay.failed', { pluginId: record.id, error: { kind, message }, serving: lastGood ? 'last good result' : 'nothing' });
      const kept = lastGood ? `; its last good result (${entry.status.styledNodes} nodes, applied ${entry.status.appliedAt}) stays` : '';
      if (diskFull) throw new StrataError('DISK_FULL', `plugin "${record.id}": ${message}${kept}`);
      const answer = applyFailure(record.id, kind, message, kept);
      throw new StrataError(answer.code, answer.message);
    }
  }

  /**
   * The time limits of an apply on `graph`: the configured ones plus so much
   * per file, so that a plugin that fits a small repository fits a large one.
   */
  private limitsFor(graph: GraphPayload): ApplyLimits {
    const fileKind = graph.nodes.kindNames.indexOf('file');
    let files = 0;
    for (const kind of graph.nodes.kind) if (kind === fileKind) files++;
    const { cpuTimeMs, cpuTimeMsPerFile, wallTimeMs, wallTimeMsPerFile } = this.config.plugins;
    return { cpuTimeMs: Math.round(cpuTimeMs + cpuTimeMsPerFile * files), wallTimeMs: Math.round(wallTimeMs + wallTimeMsPerFile * files) };
  }

  private async persist(pluginId: string, entry: PluginOverlays): Promise<void> {
    const document: StoredOverlays = {
      _id: pluginId,
      status: JSON.stringify(entry.status),
      inputs: JSON.stringify(entry.inputs),
      overlays: entry.overlays.map((overlay) => {
        const stored: StoredOverlays['overlays'][number] = { id: overlay.id, legend: JSON.stringify(overlay.legend), ids: [], color: [], size: [], value: [], badge: [] };
        for (const [id, style] of overlay.styles) {
          stored.ids.push(id);
          stored.color.push(style.color ?? null);
          stored.size.push(style.size ?? null);
          stored.value.push(style.value ?? null);
          stored.badge.push(style.badge === undefined ? null : String(style.badge));
        }
        return stored;
      }),
    };
    await this.dataDirectory.write('overlays', `the result of plugin "${pluginId}"`, (collection) => collection.updateOne({ _id: pluginId }, document as unknown as Record<string, unknown>, { upsert: true }));
  }

  /** Removes the plugin's stored result (`DISK_FULL` when the disk is full: then nothing changed). */
  private unstore(pluginId: string): Promise<unknown> {
    return this.dataDirectory.write('overlays', `removing the overlays of plugin "${pluginId}"`, (collection) => collection.deleteOne({ _id: pluginId }, {}));
  }
}

function inactive(pluginId: string): OverlayStatus {
  return { pluginId, state: 'inactive', params: null, inputs: [], startedAt: null, appliedAt: null, durationMs: null, styledNodes: 0, graphRevision: null, summary: {}, error: null, progress: null };
}

function toApplied(columns: OverlayColumns, ids: readonly string[], declaredLegend: Record<string, string>): AppliedOverlay {
  const styles = new Map<string, NodeStyle>();
  for (let i = 0; i < ids.length; i++) {
    const style = styleAt(columns, i);
    if (style) styles.set(ids[i]!, style);
  }
  return { id: columns.id, legend: columns.legend ?? declaredLegend, styles };
}

function countStyled(overlays: AppliedOverlay[]): number {
  const ids = new Set<string>();
  for (const overlay of overlays) for (const id of overlay.styles.keys()) ids.add(id);
  return ids.size;
}
