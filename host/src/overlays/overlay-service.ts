import {
  type ApplyLimits,
  type ApplyProgress,
  applyFailure,
  checkApplyRequest,
  type GraphPayload,
  notLoaded,
  type OverlayColumns,
  type SandboxApplyResult,
  SandboxError,
} from '@strata/sandbox';
import { inject, injectable } from 'tsyringe';
import { StrataConfig } from '../config/strata-config.js';
import { StrataError } from '../errors/strata-error.js';
import { EventBus } from '../events/event-bus.js';
import { GraphColumnsCache } from '../graph/graph-columns.js';
import { Logger } from '../logging/logger.js';
import type { PluginContext } from '../plugins/plugin-context.js';
import { type PluginRecord, PluginRegistry } from '../plugins/plugin-registry.js';
import { OverlayEdges } from './overlay-edges.js';
import { OverlayResultStore } from './overlay-result-store.js';
import { type AppliedOverlay, type ApplyBody, inactiveStatus, type OverlayStatus } from './overlay-status.js';
import { OverlayStyles } from './overlay-styles.js';
import { type PluginResult, ServedOverlays } from './served-overlays.js';

/** An apply under way: what it was asked, and the version of the plugin it runs on (it moves to a reloaded one). */
interface ApplyUnderWay {
  /** What a new version checks again: the parameters as sent (or last applied), with `inputs`. */
  sent: ApplyBody;
  /** The request as the version it runs on checked it. */
  request: { params: Record<string, unknown>; inputs: Record<string, string[]> };
  ranOn: PluginRecord;
}

/**
 * The overlays' state machine: applies and removes a plugin's overlays
 * (inactive, applying, active, failed), keeps the last good result serving
 * through a failed apply, and keeps every result in the store before it is
 * served, so that what is served and what a restart finds agree. What is
 * served is read from `ServedOverlays`; when to apply again is
 * `OverlayReapplier`'s.
 */
@injectable()
export class OverlayService {
  /** The plugin contexts that hold this service's results (so that they are dropped with their plugin). */
  private readonly holding = new WeakSet<PluginContext>();
  /** The apply under way of each plugin that has one, until it ends. */
  private readonly underWay = new Map<string, Promise<OverlayStatus>>();
  /** The versions of plugins (their records) that an apply has ended on: a reload of theirs needs no re-apply. */
  private readonly appliedOn = new WeakSet<PluginRecord>();

  constructor(
    @inject(PluginRegistry) private readonly plugins: PluginRegistry,
    @inject(ServedOverlays) private readonly served: ServedOverlays,
    @inject(OverlayResultStore) private readonly store: OverlayResultStore,
    @inject(GraphColumnsCache) private readonly graphColumns: GraphColumnsCache,
    @inject(EventBus) private readonly events: EventBus,
    @inject(StrataConfig) private readonly config: StrataConfig,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  /** Restores the overlays that were active when the host last stopped. */
  async load(): Promise<void> {
    const kept = await this.store.readAll((pluginId, error) => this.logger.warn({ pluginId, err: error }, 'a stored overlay could not be read; it is dropped'));
    for (const [pluginId, result] of kept) {
      this.served.set(pluginId, { ...result, generation: 0 });
      this.holdResultsOf(pluginId);
    }
    this.served.changed();
  }

  /** Checks the request, runs the plugin, and resolves with the status once it has finished. */
  async apply(pluginId: string, body: ApplyBody | undefined): Promise<OverlayStatus> {
    const { record, params, inputs } = await this.checkApply(pluginId, body);
    return this.run(record, { params, inputs }, body ?? {});
  }

  /**
   * Throws what `apply` would answer with if it cannot run (no such plugin,
   * not loaded, bad parameters or inputs, busy); runs nothing.
   */
  async checkApply(
    pluginId: string,
    body: ApplyBody | undefined,
  ): Promise<{ record: PluginRecord; params: Record<string, unknown>; inputs: Record<string, string[]> }> {
    const record = await this.plugins.listed(pluginId);
    if (record.state !== 'loaded' || !record.sandbox || !record.package)
      throw new StrataError('PLUGIN_NOT_LOADED', notLoaded(pluginId, record.reason ?? record.state));
    const checked = checkApplyRequest(record.package, body);
    if (!checked.ok) throw new StrataError('INVALID_PARAMETER', checked.message);
    if (this.served.result(pluginId)?.status.state === 'applying')
      throw new StrataError('OVERLAY_BUSY', `plugin "${pluginId}" is applying already; wait for it or remove it`);
    return { record, ...checked.request };
  }

  /**
   * Applies again with the last parameters, if the plugin's overlays were
   * active or failed (after a reload); resolves with the status then (its
   * `error` set when this apply failed), or `undefined` when there was
   * nothing to apply.
   */
  async reapply(pluginId: string): Promise<OverlayStatus | undefined> {
    const result = this.served.result(pluginId);
    const record = this.plugins.get(pluginId);
    if (!result || !record || record.state !== 'loaded' || (result.status.state !== 'active' && result.status.state !== 'failed')) return undefined;
    this.logger.debug({ pluginId }, 'applying the overlays again');
    const params = result.status.params ?? {};
    return this.run(record, { params, inputs: result.inputs }, { ...params, inputs: result.inputs }).catch(() => this.served.snapshot(pluginId));
  }

  /**
   * What follows a reload of the plugin: once the apply under way has ended
   * (it moves to the new version by itself), nothing more if an apply has
   * ended on the version loaded now (the status then), else `reapply`.
   * Resolves as `reapply` does.
   */
  async afterReload(pluginId: string): Promise<OverlayStatus | undefined> {
    await this.underWay.get(pluginId)?.catch(() => undefined);
    const record = this.plugins.get(pluginId);
    if (record && this.appliedOn.has(record)) return this.served.snapshot(pluginId);
    return this.reapply(pluginId);
  }

  /** Removes the plugin's overlays; stops an apply under way. Harmless when nothing is applied. */
  async remove(pluginId: string): Promise<OverlayStatus> {
    const record = await this.plugins.listed(pluginId);
    const result = this.served.result(record.id);
    if (result) {
      // The store first: on a full disk nothing changes, and the overlays keep serving as the store keeps them.
      await this.store.remove(record.id);
      if (this.served.result(record.id) !== result) return this.served.snapshot(record.id);
      const wasApplying = result.status.state === 'applying';
      this.served.delete(record.id);
      if (wasApplying) await record.sandbox?.cancel();
      this.served.changed();
      this.events.publish('overlay.removed', { pluginId: record.id });
    }
    return inactiveStatus(record.id);
  }

  /**
   * A plugin's results go with it: its context (released when its folder is
   * removed, or its manifest renames it) holds their removal.
   */
  private holdResultsOf(pluginId: string): void {
    const context = this.plugins.context(pluginId);
    if (this.holding.has(context)) return;
    this.holding.add(context);
    context.hold({ dispose: () => this.forget(pluginId) });
  }

  /** Drops a plugin's overlays for good (its folder is gone). */
  private async forget(pluginId: string): Promise<void> {
    if (!this.served.delete(pluginId)) return;
    // The plugin is gone either way: a record left on a full disk is never served (only loaded plugins' are).
    await this.store
      .remove(pluginId)
      .catch((error: unknown) => this.logger.warn({ err: error, pluginId }, 'the overlays of a removed plugin stay in the store'));
    this.served.changed();
    this.events.publish('overlay.removed', { pluginId });
  }

  /**
   * Runs the plugin and takes in its result. A failure keeps the last good
   * styles serving (the status keeps their parameters and says the error;
   * the event says `serving: 'last good result'`); with none, the status is
   * `failed` and nothing is served.
   */
  private run(record: PluginRecord, request: ApplyUnderWay['request'], sent: ApplyBody): Promise<OverlayStatus> {
    const underWay: ApplyUnderWay = { sent, request, ranOn: record };
    const done = this.runUnderWay(underWay);
    this.underWay.set(record.id, done);
    const ended = (): void => {
      this.appliedOn.add(underWay.ranOn);
      if (this.underWay.get(record.id) === done) this.underWay.delete(record.id);
    };
    done.then(ended, ended);
    return done;
  }

  private async runUnderWay(underWay: ApplyUnderWay): Promise<OverlayStatus> {
    const record = underWay.ranOn;
    const { params, inputs } = underWay.request;
    const previous = this.served.result(record.id);
    const previousStatus = previous?.status;
    const entry: PluginResult = {
      status: {
        ...(previous?.status ?? inactiveStatus(record.id)),
        state: 'applying',
        params,
        inputs: Object.keys(inputs),
        startedAt: new Date().toISOString(),
        error: null,
        progress: null,
      },
      overlays: previous?.overlays ?? [],
      generation: (previous?.generation ?? 0) + 1,
      inputs,
    };
    this.served.set(record.id, entry);
    this.holdResultsOf(record.id);
    this.served.changed();
    this.events.publish('overlay.applying', { pluginId: record.id });
    const started = performance.now();
    const onProgress = (progress: ApplyProgress): void => {
      if (this.served.result(record.id) !== entry || entry.status.state !== 'applying') return;
      entry.status = { ...entry.status, progress: { ...progress, at: new Date().toISOString() } };
      this.events.publish('overlay.progress', { pluginId: record.id, ...progress, elapsedMs: Math.round(performance.now() - started) });
    };
    try {
      // Made a slice at a time: on a large graph, at once, it held up the server's answers and the file changes.
      const graph = await this.graphColumns.inSlices();
      const result = await this.applyInSandbox(underWay, entry, graph, onProgress);
      if (this.served.result(record.id) !== entry) return this.served.snapshot(record.id);
      const declared = underWay.ranOn.overlays;
      const overlays = result.overlays.map((columns, i) => toApplied(columns, graph.nodes.id, declared[i]!.legend));
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
      await this.store.save(record.id, { inputs: entry.inputs, overlays, status });
      if (this.served.result(record.id) !== entry) {
        // Removed while the result was being stored (the removal's write may have gone first): not kept either.
        if (!this.served.result(record.id)) {
          await this.store
            .remove(record.id)
            .catch((failure: unknown) => this.logger.warn({ err: failure, pluginId: record.id }, 'the result of a removed overlay stays in the store'));
        }
        return this.served.snapshot(record.id);
      }
      entry.overlays = overlays;
      entry.status = status;
      this.served.changed();
      this.events.publish('overlay.applied', {
        pluginId: record.id,
        styledNodes: status.styledNodes,
        edges: overlays.reduce((sum, overlay) => sum + overlay.edges.count, 0),
        durationMs,
      });
      return structuredClone(entry.status);
    } catch (error) {
      if (this.served.result(record.id) !== entry) return this.served.snapshot(record.id);
      const diskFull = error instanceof StrataError && error.code === 'DISK_FULL';
      const reloaded = error instanceof StrataError && error.code === 'PLUGIN_RELOADED';
      const kind = error instanceof SandboxError ? error.kind : diskFull ? 'disk-full' : reloaded ? 'reloaded' : 'internal';
      const told = error instanceof SandboxError || diskFull || reloaded;
      const message = told ? error.message : 'the host failed while applying; the server log has the details';
      if (!told) this.logger.error({ err: error, pluginId: record.id }, 'apply failed in the host');
      // Whatever failed (bad input, a throw, a limit, a reload under the apply), the last good result keeps
      // serving, with the parameters and inputs it was made from (a later re-apply uses them) and the error.
      const lastGood = previous !== undefined && previousStatus?.state === 'active' && entry.overlays.length > 0;
      if (lastGood) {
        entry.status = { ...previousStatus, error: { kind, message }, progress: null };
        entry.inputs = previous.inputs;
      } else {
        entry.overlays = [];
        entry.status = {
          ...entry.status,
          state: 'failed',
          progress: null,
          durationMs: Math.round(performance.now() - started),
          styledNodes: 0,
          error: { kind, message },
        };
        await this.store
          .remove(record.id)
          .catch((failure: unknown) => this.logger.warn({ err: failure, pluginId: record.id }, 'a stored result of a failed plugin could not be removed'));
      }
      this.served.changed();
      this.events.publish('overlay.failed', { pluginId: record.id, error: { kind, message }, serving: lastGood ? 'last good result' : 'nothing' });
      const kept = lastGood ? `; its last good result (${entry.status.styledNodes} nodes, applied ${entry.status.appliedAt}) stays` : '';
      if (diskFull) throw new StrataError('DISK_FULL', `plugin "${record.id}": ${message}${kept}`);
      if (reloaded) throw new StrataError('PLUGIN_RELOADED', `${message}${kept}`);
      const answer = applyFailure(record.id, kind, message, kept);
      throw new StrataError(answer.code, answer.message);
    }
  }

  /**
   * Runs the apply in the plugin's sandbox. When the plugin is reloaded
   * meanwhile (`strata serve --dev` ends the old version's sandbox under the
   * apply), it runs again on the new version, the request checked against
   * it: the request is answered by the version loaded when it ends.
   * `PLUGIN_RELOADED` when the new version refuses the request.
   */
  private async applyInSandbox(
    underWay: ApplyUnderWay,
    entry: PluginResult,
    graph: GraphPayload,
    onProgress: (progress: ApplyProgress) => void,
  ): Promise<SandboxApplyResult> {
    for (;;) {
      const current = underWay.ranOn;
      let result: SandboxApplyResult | undefined;
      let failure: unknown;
      try {
        result = await current.sandbox!.apply(underWay.request, graph, { limits: this.limitsFor(graph), onProgress });
      } catch (error) {
        failure = error;
      }
      const successor = this.plugins.get(current.id);
      if (successor === current || successor?.state !== 'loaded' || !successor.sandbox || !successor.package) {
        if (result) return result;
        throw failure;
      }
      underWay.ranOn = successor;
      this.logger.info({ pluginId: current.id }, 'the plugin was reloaded while it applied: applying with the new version');
      const checked = checkApplyRequest(successor.package, underWay.sent);
      if (!checked.ok)
        throw new StrataError(
          'PLUGIN_RELOADED',
          `plugin "${current.id}" was reloaded while it applied, and its new version refuses the request: ${checked.message}; apply again with what it takes`,
        );
      underWay.request = checked.request;
      entry.status = { ...entry.status, params: checked.request.params, inputs: Object.keys(checked.request.inputs) };
      entry.inputs = checked.request.inputs;
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
}

function toApplied(columns: OverlayColumns, ids: readonly string[], declaredLegend: Record<string, string>): AppliedOverlay {
  return {
    id: columns.id,
    legend: columns.legend ?? declaredLegend,
    styles: OverlayStyles.fromColumns(columns, ids),
    edges: OverlayEdges.fromColumns(columns, ids),
  };
}

function countStyled(overlays: AppliedOverlay[]): number {
  if (overlays.length === 1) return overlays[0]!.styles.count;
  const ids = new Set<string>();
  for (const overlay of overlays) for (const id of overlay.styles.ids) ids.add(id);
  return ids.size;
}
