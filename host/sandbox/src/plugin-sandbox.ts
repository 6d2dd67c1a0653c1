/**
 * `PluginSandbox`: one plugin, loaded into an isolate that lives in a
 * supervised child process. The host uses it for every plugin, and the
 * testing harness uses the very same class, so a plugin behaves in its
 * author's tests exactly as it does in the host.
 *
 * What it guarantees to its caller:
 * - every call settles: within the wall-time limit plus a grace period the
 *   process either answers or is killed (an apply's wall time stands still
 *   while the host answers its capability calls, here as in the process);
 * - a process that dies (memory, fatal V8 error, kill) is started again on
 *   the next call, with a fresh isolate;
 * - results are checked before they are returned (lengths, colors, sizes,
 *   finite numbers, badge lengths, legends).
 */
import type { ChildProcess } from 'node:child_process';
import { type Capability, isHexColor, MAX_BADGE_LENGTH, MAX_EDGE_LABEL_LENGTH, MAX_OVERLAY_EDGES, type OverlayType, STYLE_SIZE_BOUNDS } from '@strata/sdk';
import type { GraphPayload, OverlayColumns, RuntimeApplyOutcome, RuntimeRegisterOutcome } from './isolate-runtime.js';
import { PausableDeadline } from './pausable-deadline.js';
import { ProgressThrottle } from './progress-throttle.js';
import {
  type ApplyLimits,
  type ApplyProgress,
  DEFAULT_SANDBOX_LIMITS,
  type FromSandbox,
  type SandboxFailureKind,
  type SandboxLimits,
  type ToSandbox,
} from './protocol.js';
import { FORK_ON_DEMAND, type SandboxProcessSource } from './sandbox-processes.js';
import { thrownAt } from './thrown-at.js';

/** Time the process gets beyond the wall-time limit to answer before it is killed. */
const GRACE_MS = 3000;

/** A plugin's load or apply failed; `kind` says how. */
export class SandboxError extends Error {
  override readonly name = 'SandboxError';
  constructor(
    readonly kind: SandboxFailureKind,
    message: string,
  ) {
    super(message);
  }
}

/** An overlay as the plugin declared it, checked. */
export interface DeclaredOverlay {
  id: string;
  name: string;
  type: OverlayType;
  description: string;
  legend: Record<string, string>;
}

/** A successful apply: one set of columns per declared overlay, aligned with the graph it ran on. */
export interface SandboxApplyResult {
  graphRevision: number;
  overlays: OverlayColumns[];
  /** Time spent inside the sandbox's apply, in milliseconds. */
  durationMs: number;
  /** What the plugin's apply returned as `summary`. */
  summary: Record<string, number | string>;
}

/** What a sandbox needs to start. */
export interface PluginSandboxOptions {
  pluginId: string;
  /** The bundled entry (an ES module with no imports). */
  code: string;
  /** Shown in stack traces: the entry's file URL. */
  filename: string;
  /** The plugin's folder: where it threw is told relative to it (`src/index.ts:12:5`, through the build's source map). */
  folder?: string;
  /** Capabilities the plugin declared; others are refused in the isolate and again here. */
  capabilities: readonly Capability[];
  limits?: Partial<SandboxLimits>;
  /**
   * Answers a capability call; what it returns (or the message it throws)
   * goes back to the plugin. `signal` aborts when the apply that made the
   * call ends (finished, failed, cancelled): stop the work then.
   */
  callCapability(name: Capability, args: unknown[], signal: AbortSignal): Promise<unknown>;
  /** Lines the plugin logs (`plugin`), and what the sandbox process writes to stderr (`sandbox`). */
  log?(message: string, source: 'plugin' | 'sandbox'): void;
  /** Where its processes come from (default: each started when needed). */
  processes?: SandboxProcessSource;
}

interface Pending {
  resolve(message: FromSandbox): void;
  reject(error: SandboxError): void;
  deadline: PausableDeadline;
}

/** What an apply may be given besides its request. */
export interface SandboxApplyOptions {
  /** Time limits of this apply instead of the sandbox's. */
  limits?: ApplyLimits;
  /**
   * Hears the plugin's `ctx.progress` reports: at most five a second, and
   * the last one the plugin made before the apply's promise settles.
   */
  onProgress?(progress: ApplyProgress): void;
}

export class PluginSandbox {
  readonly limits: SandboxLimits;
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextRequestId = 1;
  private declared: { sdkVersion: string; overlays: DeclaredOverlay[]; parameters: Record<string, unknown> | undefined } | undefined;
  private sentGraphRevision = -1;
  private disposed = false;
  private disposeReason = 'the plugin was unloaded';
  /** Applies and loads run one at a time. */
  private turn: Promise<unknown> = Promise.resolve();
  /** Aborts when the apply under way ends. */
  private applyAbort = new AbortController();
  /** Why the last process ended, when it ended on its own. */
  private lastExit: string | undefined;
  /** Capability calls of the apply under way that the host is answering. */
  private capabilityCallsInFlight = 0;
  /** The host's own deadline of the apply under way: it stands still while capability calls are in flight. */
  private applyDeadline: PausableDeadline | undefined;
  /** The progress reports of the apply under way, to its `onProgress` (throttled here too: the process is not trusted). */
  private progress: ProgressThrottle | undefined;

  private constructor(private readonly options: PluginSandboxOptions) {
    this.limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
  }

  /** Starts a sandbox and loads the plugin; rejects with a `SandboxError` of kind `load` (or a limit) when it cannot. */
  static async start(options: PluginSandboxOptions): Promise<PluginSandbox> {
    const sandbox = new PluginSandbox(options);
    try {
      await sandbox.load();
    } catch (error) {
      await sandbox.dispose();
      throw error;
    }
    return sandbox;
  }

  /** The SDK version the plugin was built with, from its descriptor. */
  get sdkVersion(): string {
    return this.declared!.sdkVersion;
  }

  /** The overlays the plugin declares. */
  get overlays(): readonly DeclaredOverlay[] {
    return this.declared!.overlays;
  }

  /**
   * The parameter schema the plugin declares in `definePlugin`, as plain
   * JSON, unchecked: `parameterCheck` checks and compiles it, as it does a
   * manifest's `strata.parameters`.
   */
  get parameters(): Record<string, unknown> | undefined {
    return this.declared!.parameters;
  }

  /** The process id of the sandbox process, while one runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Runs the plugin's apply. `graph` is copied into the sandbox only when its
   * revision differs from the last one sent: the graph stays resident there.
   * Without a graph the plugin has no nodes to style.
   */
  apply(
    request: { params: Record<string, unknown>; inputs: Record<string, string[]> },
    graph?: GraphPayload,
    options: SandboxApplyOptions = {},
  ): Promise<SandboxApplyResult> {
    const next = this.turn.then(
      () => this.applyNow(request, graph, options),
      () => this.applyNow(request, graph, options),
    );
    this.turn = next.catch(() => undefined);
    return next;
  }

  private async applyNow(
    request: { params: Record<string, unknown>; inputs: Record<string, string[]> },
    graph: GraphPayload | undefined,
    options: SandboxApplyOptions,
  ): Promise<SandboxApplyResult> {
    if (this.disposed) throw new SandboxError('disposed', this.disposeReason);
    this.applyAbort = new AbortController();
    const onProgress = options.onProgress;
    const progress = onProgress ? new ProgressThrottle((report) => onProgress(report)) : undefined;
    this.progress = progress;
    try {
      return await this.applyInProcess(request, graph, options.limits);
    } finally {
      this.progress = undefined;
      progress?.flush();
      this.applyAbort.abort();
    }
  }

  private async applyInProcess(
    request: { params: Record<string, unknown>; inputs: Record<string, string[]> },
    graph: GraphPayload | undefined,
    applyLimits: ApplyLimits | undefined,
  ): Promise<SandboxApplyResult> {
    if (!this.child) await this.load();
    // The graph goes in whatever the capabilities: styles name nodes by id. Only
    // `graph:read` lets the plugin read it.
    if (graph && graph.revision !== this.sentGraphRevision) {
      this.post({ type: 'graph', graph });
      this.sentGraphRevision = graph.revision;
    }
    const wallTimeMs = applyLimits?.wallTimeMs ?? this.limits.wallTimeMs;
    const reply = await this.request(
      (requestId) => ({
        type: 'apply',
        requestId,
        request: { params: request.params, inputs: request.inputs, capabilities: [...this.options.capabilities] },
        ...(applyLimits && { limits: applyLimits }),
      }),
      // The process may first load a fresh isolate (after a limit ended the last one).
      wallTimeMs + this.limits.loadTimeMs + GRACE_MS,
      `an apply (wall time limit ${wallTimeMs} ms, not counting capability calls, plus ${this.limits.loadTimeMs} ms to load the plugin again if it had to)`,
      true,
    );
    if (reply.type !== 'applied') throw new SandboxError('invalid-result', 'the sandbox answered an apply with something else');
    return this.checkOutcome(reply.outcome, graph ? graph.nodes.id.length : 0);
  }

  /**
   * Stops whatever the plugin is doing by ending its process; calls in flight
   * fail with kind `cancelled`. The next call starts a fresh process.
   */
  cancel(): Promise<void> {
    return this.endProcess(new SandboxError('cancelled', 'the apply was cancelled'));
  }

  /** Ends the sandbox process. Calls in flight fail with kind `disposed` and `reason`. */
  dispose(reason = 'the plugin was unloaded'): Promise<void> {
    this.disposed = true;
    this.disposeReason = reason;
    return this.endProcess(new SandboxError('disposed', reason));
  }

  /** Fails the calls in flight with `reason`, then kills the process and waits for it to exit. */
  private async endProcess(reason: SandboxError): Promise<void> {
    this.applyAbort.abort();
    this.failPending(reason);
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    }
  }

  private async load(): Promise<void> {
    this.spawn();
    const reply = await this.request(
      (requestId) => ({ type: 'load', requestId, code: this.options.code, filename: this.options.filename, limits: this.limits }),
      this.limits.loadTimeMs + GRACE_MS + 2000,
      `the plugin's load (load time limit ${this.limits.loadTimeMs} ms, plus the process's start)`,
    );
    if (reply.type !== 'loaded') throw new SandboxError('load', 'the sandbox answered a load with something else');
    this.declared = this.checkRegistration(reply.outcome);
  }

  private spawn(): void {
    const child = (this.options.processes ?? FORK_ON_DEMAND).take();
    this.child = child;
    this.sentGraphRevision = -1;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => this.options.log?.(text.trimEnd().slice(0, 2000), 'sandbox'));
    child.on('message', (message: FromSandbox) => this.receive(child, message));
    child.once('exit', (code, signal) => {
      if (this.child !== child) return;
      this.child = undefined;
      this.lastExit = this.lastExit ?? (signal ? `signal ${signal}` : `exit code ${code}`);
      this.failPending(new SandboxError('crashed', `the sandbox process ended (${this.lastExit}); it is started again on the next call`));
      this.lastExit = undefined;
    });
  }

  private receive(child: ChildProcess, message: FromSandbox): void {
    if (child !== this.child) return;
    switch (message.type) {
      case 'capability':
        void this.answerCapability(child, message.callId, message.name, message.args);
        return;
      case 'log':
        this.options.log?.(message.message, 'plugin');
        return;
      case 'progress':
        this.progress?.report(message.progress);
        return;
      case 'fatal':
        this.lastExit = `fatal error in the isolate: ${message.message}`;
        return;
      default: {
        const pending = this.pending.get(message.requestId);
        if (!pending) return;
        this.pending.delete(message.requestId);
        pending.deadline.cancel();
        if (message.type === 'failed') pending.reject(new SandboxError(message.kind, message.message));
        else pending.resolve(message);
      }
    }
  }

  private async answerCapability(child: ChildProcess, callId: number, name: string, args: unknown[]): Promise<void> {
    const deadline = this.applyDeadline;
    if (++this.capabilityCallsInFlight === 1) deadline?.pause();
    try {
      await this.answerCapabilityCall(child, callId, name, args);
    } finally {
      if (--this.capabilityCallsInFlight === 0) deadline?.resume();
    }
  }

  private async answerCapabilityCall(child: ChildProcess, callId: number, name: string, args: unknown[]): Promise<void> {
    let reply: ToSandbox;
    if (!this.options.capabilities.includes(name as Capability)) {
      reply = { type: 'capabilityResult', callId, ok: false, value: `capability "${name}" was not declared` };
    } else {
      try {
        reply = {
          type: 'capabilityResult',
          callId,
          ok: true,
          value: await this.options.callCapability(name as Capability, Array.isArray(args) ? args : [], this.applyAbort.signal),
        };
      } catch (error) {
        reply = { type: 'capabilityResult', callId, ok: false, value: error instanceof Error ? error.message : String(error) };
      }
    }
    if (child === this.child && child.connected) child.send(reply, () => undefined);
  }

  /**
   * Sends a request and waits for its answer; `what` names it in the error
   * when none comes in `timeoutMs`. An apply's time (`apply`) stands still
   * while the host answers its capability calls.
   */
  private request(make: (requestId: number) => ToSandbox, timeoutMs: number, what: string, apply = false): Promise<FromSandbox & { requestId: number }> {
    const requestId = this.nextRequestId++;
    const child = this.child;
    return new Promise((resolve, reject) => {
      const deadline = new PausableDeadline(timeoutMs, () => {
        // The process did not answer in time: it is stuck where the isolate's own limits do not reach.
        this.pending.delete(requestId);
        if (this.applyDeadline === deadline) this.applyDeadline = undefined;
        const current = child === this.child;
        reject(
          new SandboxError(
            'wall-time',
            `the sandbox process did not answer ${what} within ${timeoutMs} ms${current ? "; it was stopped where the isolate's own limits could not stop it, and the next call starts a fresh one" : ''}`,
          ),
        );
        if (current) this.kill('unresponsive');
      });
      if (apply) {
        this.applyDeadline = deadline;
        if (this.capabilityCallsInFlight > 0) deadline.pause();
      }
      const settle =
        <T>(then: (value: T) => void) =>
        (value: T): void => {
          if (this.applyDeadline === deadline) this.applyDeadline = undefined;
          then(value);
        };
      this.pending.set(requestId, { resolve: settle(resolve as Pending['resolve']), reject: settle(reject), deadline });
      this.post(make(requestId));
    });
  }

  private post(message: ToSandbox): void {
    const child = this.child;
    if (!child?.connected) {
      this.failPending(new SandboxError('crashed', 'the sandbox process is not running'));
      return;
    }
    child.send(message, (error) => {
      if (error && child === this.child) this.kill(`could not send to it: ${error.message}`);
    });
  }

  private kill(reason: string): void {
    const child = this.child;
    if (!child) return;
    this.lastExit = reason;
    child.kill('SIGKILL');
  }

  private failPending(error: SandboxError): void {
    for (const [id, pending] of this.pending) {
      pending.deadline.cancel();
      this.pending.delete(id);
      pending.reject(error);
    }
  }

  private checkRegistration(outcome: RuntimeRegisterOutcome): {
    sdkVersion: string;
    overlays: DeclaredOverlay[];
    parameters: Record<string, unknown> | undefined;
  } {
    if (!isObject(outcome)) throw new SandboxError('load', 'the plugin registration gave nothing usable');
    if (outcome.ok !== true)
      throw new SandboxError('load', `the plugin is not valid: ${String((outcome as { error?: { message?: unknown } }).error?.message ?? 'unknown reason')}`);
    const overlays = Array.isArray(outcome.overlays) ? outcome.overlays : [];
    if (typeof outcome.sdkVersion !== 'string' || overlays.length === 0)
      throw new SandboxError('load', 'the plugin descriptor has no SDK version or no overlays');
    let parameters: Record<string, unknown> | undefined;
    if (outcome.parameters !== undefined) {
      let parsed: unknown;
      try {
        parsed = typeof outcome.parameters === 'string' && outcome.parameters.length <= 64 * 1024 ? JSON.parse(outcome.parameters) : undefined;
      } catch {
        parsed = undefined;
      }
      if (!isObject(parsed) || Array.isArray(parsed))
        throw new SandboxError('load', 'the parameters the plugin declares are not a JSON schema object of at most 64 KB');
      parameters = parsed;
    }
    return {
      sdkVersion: outcome.sdkVersion,
      parameters,
      overlays: overlays.slice(0, 16).map((overlay, index) => {
        // Checked again here: the plugin shares its isolate with the runtime that checked it first.
        const where = `overlays[${index}]`;
        if (typeof overlay.id !== 'string' || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(overlay.id))
          throw new SandboxError('load', `${where}.id is not lower-case letters, digits and dashes`);
        if (typeof overlay.name !== 'string' || overlay.name.length === 0 || overlay.name.length > 100)
          throw new SandboxError('load', `${where}.name must be a string of 1 to 100 characters`);
        if (!(OVERLAY_TYPES as readonly unknown[]).includes(overlay.type))
          throw new SandboxError('load', `${where}.type must be one of ${OVERLAY_TYPES.join(', ')}`);
        return {
          id: overlay.id,
          name: overlay.name,
          type: overlay.type as OverlayType,
          description: String(overlay.description ?? '').slice(0, 500),
          legend: checkedLegend(overlay.legend, `overlay ${overlay.id}`),
        };
      }),
    };
  }

  /** Checks what came out of the isolate: the runtime there checks as the plugin writes, but the plugin shares its isolate. */
  private checkOutcome(outcome: RuntimeApplyOutcome, nodeCount: number): SandboxApplyResult {
    if (!isObject(outcome)) throw new SandboxError('invalid-result', 'the apply gave nothing usable');
    if (outcome.ok !== true) {
      const error = isObject(outcome.error) ? outcome.error : { name: 'Error', message: 'unknown failure', stack: '' };
      if (error.name === 'InvalidInputError') throw new SandboxError('invalid-input', String(error.message).slice(0, 2000));
      const name = typeof error.name === 'string' && error.name !== 'Error' ? `${error.name}: ` : '';
      const at = thrownAt(typeof error.stack === 'string' ? error.stack : '', this.options.filename, this.options.folder);
      throw new SandboxError('threw', `${name}${String(error.message).slice(0, 2000)}${at ? ` (at ${at})` : ''}`);
    }
    const declared = this.declared!.overlays;
    if (!Array.isArray(outcome.overlays) || outcome.overlays.length !== declared.length)
      throw new SandboxError('invalid-result', 'the apply did not give one result per overlay');
    const overlays = outcome.overlays.map((columns, i) => checkColumns(columns, declared[i]!.id, nodeCount));
    // Entries defined as own properties, here and in legends: one named `__proto__` is kept as the plugin named it,
    // and the object stays an ordinary one (an author's deepStrictEqual against `{...}` holds).
    const summary: Record<string, number | string> = {};
    if (isObject(outcome.summary)) {
      for (const [name, value] of Object.entries(outcome.summary).slice(0, 50)) {
        if ((typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value.length <= 500))
          defineEntry(summary, name.slice(0, 100), value);
      }
    }
    return { graphRevision: Number(outcome.graphRevision) || 0, overlays, durationMs: Number(outcome.durationMs) || 0, summary };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const OVERLAY_TYPES = ['color', 'size', 'badge', 'edge'] as const;

/** Sets an own, enumerable entry, whatever its name (`__proto__` too: an assignment would set the prototype). */
function defineEntry<T>(target: Record<string, T>, name: string, value: T): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

function checkedLegend(legend: unknown, where: string): Record<string, string> {
  if (legend === null || legend === undefined) return {};
  if (!isObject(legend)) throw new SandboxError('invalid-result', `${where}: the legend is not an object`);
  const entries = Object.entries(legend);
  if (entries.length > 64) throw new SandboxError('invalid-result', `${where}: the legend has ${entries.length} entries; at most 64`);
  const out: Record<string, string> = {};
  for (const [label, color] of entries) {
    if (label.length > 64 || !isHexColor(color))
      throw new SandboxError('invalid-result', `${where}: legend entry ${JSON.stringify(label.slice(0, 64))} is not label -> hex color`);
    defineEntry(out, label, color);
  }
  return out;
}

function checkColumns(columns: OverlayColumns, id: string, nodeCount: number): OverlayColumns {
  const where = `overlay "${id}"`;
  if (!isObject(columns) || columns.id !== id) throw new SandboxError('invalid-result', `${where}: results came back out of order`);
  const { badgeText } = columns;
  if (
    !(columns.color instanceof Uint32Array) ||
    !(columns.size instanceof Float64Array) ||
    !(columns.value instanceof Float64Array) ||
    !(columns.badge instanceof Int32Array) ||
    !Array.isArray(badgeText)
  ) {
    throw new SandboxError('invalid-result', `${where}: the result columns have the wrong types`);
  }
  for (const column of [columns.color, columns.size, columns.value, columns.badge]) {
    if (column.length !== 0 && column.length !== nodeCount)
      throw new SandboxError('invalid-result', `${where}: the result columns do not have one entry per node (${nodeCount})`);
  }
  // A column no node used came back empty: from here on every column has one entry per node.
  const color = columns.color.length === nodeCount ? columns.color : new Uint32Array(nodeCount);
  const size = columns.size.length === nodeCount ? columns.size : new Float64Array(nodeCount).fill(NaN);
  const value = columns.value.length === nodeCount ? columns.value : new Float64Array(nodeCount).fill(NaN);
  const badge = columns.badge.length === nodeCount ? columns.badge : new Int32Array(nodeCount).fill(-1);
  if (badgeText.length > nodeCount) throw new SandboxError('invalid-result', `${where}: more badges than nodes`);
  let styled = 0;
  for (let i = 0; i < nodeCount; i++) {
    const c = color[i]!;
    const s = size[i]!;
    const v = value[i]!;
    const b = badge[i]!;
    if (c !== 0 && (c < 0x1000000 || c > 0x1ffffff)) throw new SandboxError('invalid-result', `${where}: node ${i} has an invalid color`);
    if (!Number.isNaN(s) && !(s >= STYLE_SIZE_BOUNDS.min && s <= STYLE_SIZE_BOUNDS.max))
      throw new SandboxError('invalid-result', `${where}: node ${i} has a size out of bounds`);
    if (!Number.isNaN(v) && !Number.isFinite(v)) throw new SandboxError('invalid-result', `${where}: node ${i} has a value that is not finite`);
    if (b !== -1 && (b < 0 || b >= badgeText.length || typeof badgeText[b] !== 'string' || badgeText[b].length > MAX_BADGE_LENGTH)) {
      throw new SandboxError('invalid-result', `${where}: node ${i} has an invalid badge`);
    }
    if (c !== 0 || !Number.isNaN(s) || !Number.isNaN(v) || b !== -1) styled++;
  }
  return {
    id,
    legend: columns.legend === null ? null : checkedLegend(columns.legend, where),
    color,
    size,
    value,
    badge,
    badgeText,
    styled,
    edges: checkEdges(columns.edges, where, nodeCount),
  };
}

/** The edge columns of a result, checked as the runtime checked each edge: a sandbox's answer is never trusted. */
function checkEdges(edges: OverlayColumns['edges'] | undefined, where: string, nodeCount: number): OverlayColumns['edges'] {
  if (edges === undefined) return { source: new Int32Array(0), target: new Int32Array(0), weight: new Float64Array(0), value: new Float64Array(0), label: [] };
  const { source, target, weight, value, label } = edges;
  if (
    !(source instanceof Int32Array) ||
    !(target instanceof Int32Array) ||
    !(weight instanceof Float64Array) ||
    !(value instanceof Float64Array) ||
    !Array.isArray(label)
  )
    throw new SandboxError('invalid-result', `${where}: the edge columns have the wrong types`);
  const n = source.length;
  if (target.length !== n || weight.length !== n || value.length !== n || label.length !== n)
    throw new SandboxError('invalid-result', `${where}: the edge columns are not of one length`);
  if (n > MAX_OVERLAY_EDGES) throw new SandboxError('invalid-result', `${where}: ${n} edges; at most ${MAX_OVERLAY_EDGES}`);
  const seen = new Set<number>();
  for (let k = 0; k < n; k++) {
    const s = source[k]!;
    const t = target[k]!;
    if (s < 0 || s >= nodeCount || t < 0 || t >= nodeCount || s === t)
      throw new SandboxError('invalid-result', `${where}: edge ${k} does not join two nodes of the graph`);
    const key = s * nodeCount + t;
    if (seen.has(key)) throw new SandboxError('invalid-result', `${where}: edge ${k} repeats an earlier one`);
    seen.add(key);
    if (!Number.isFinite(weight[k]!) || weight[k]! < 0)
      throw new SandboxError('invalid-result', `${where}: edge ${k} has a weight that is not a finite number of at least 0`);
    if (!Number.isNaN(value[k]!) && !Number.isFinite(value[k]!)) throw new SandboxError('invalid-result', `${where}: edge ${k} has a value that is not finite`);
    const text = label[k];
    if (text !== null && (typeof text !== 'string' || text.length > MAX_EDGE_LABEL_LENGTH))
      throw new SandboxError('invalid-result', `${where}: edge ${k} has an invalid label`);
  }
  return { source, target, weight, value, label: label as Array<string | null> };
}
