/**
 * The sandbox process: holds one plugin's isolate (isolated-vm) and runs its
 * loads and applies under the limits it was given. It is a separate process
 * so that what isolated-vm cannot contain (allocations past the isolate's
 * soft memory limit, a fatal V8 error) ends this process, never the host.
 *
 * Started by `PluginSandbox` with `--no-node-snapshot`, which isolated-vm
 * requires on Node 20 and later.
 */
import ivm from 'isolated-vm';
import { createIsolateRuntime, type GraphPayload, type RuntimeApplyRequest, type RuntimeRegisterOutcome } from './isolate-runtime.js';
import { PausableDeadline } from './pausable-deadline.js';
import { ProgressThrottle } from './progress-throttle.js';
import {
  type ApplyLimits,
  type FromSandbox,
  MAX_PENDING_CAPABILITY_CALLS,
  MAX_QUEUED_CAPABILITY_CALLS,
  type SandboxFailureKind,
  type SandboxLimits,
  type ToSandbox,
} from './protocol.js';

/** How often CPU time is checked while an apply awaits. */
const CPU_CHECK_MS = 20;

interface LoadedIsolate {
  isolate: ivm.Isolate;
  context: ivm.Context;
  apply: ivm.Reference<unknown>;
  setGraph: ivm.Reference<unknown>;
  settle: ivm.Reference<unknown>;
  /** Revision of the graph copied into the isolate, -1 for none. */
  graphRevision: number;
  /** MiB of its heap limit allowed for the graph, on top of the plugin's own `memoryMb`. */
  graphAllowanceMb: number;
}

/**
 * MiB of an isolate's heap the graph's columns take, allowed on top of the
 * plugin's own limit (`memoryMb` is for what the plugin makes): the strings
 * of ids, names and paths, the typed columns twice (they are copied for each
 * apply) and the edges, with half as much again for the engine's overhead.
 * At 302,000 nodes and 545,000 edges (100,000 files of 4 KB) it is about
 * 130 MiB, which alone was past the default limit of 128: every built-in
 * overlay failed with "Array buffer allocation failed".
 */
function allowanceFor(payload: GraphPayload): number {
  const { nodes, edges } = payload;
  let characters = 0;
  for (let i = 0; i < nodes.id.length; i++) characters += nodes.id[i]!.length + nodes.name[i]!.length + nodes.path[i]!.length;
  const bytes = characters + nodes.id.length * (3 * 24 + 2 * 55) + edges.source.length * 2 * 9;
  return Math.ceil((1.5 * bytes) / 2 ** 20);
}

class Failure extends Error {
  constructor(
    readonly kind: SandboxFailureKind,
    message: string,
  ) {
    super(message);
  }
}

let plugin: { code: string; filename: string; limits: SandboxLimits } | undefined;
let loaded: LoadedIsolate | undefined;
let graph: GraphPayload | undefined;
/** What the current graph needs of an isolate's heap (`graphAllowanceMb`). */
let graphAllowanceMb = 0;
/** The apply under way: capability calls from any other moment are never answered. */
let activeApply: ApplyState | undefined;
/** The limits of the apply under way (the plugin's, or those the host gave for it). */
let activeLimits: SandboxLimits | undefined;
/** The progress reports of the apply under way, on their way to the host (five a second, and the last). */
let activeProgress: ProgressThrottle | undefined;

/** The capability calls of one apply: those waiting for the host, and those queued behind them. */
interface ApplyState {
  calls: number;
  pending: Set<number>;
  queued: Array<{ runtimeCallId: number; name: string; args: unknown[] }>;
  /** The apply's wall time: it stands still while calls wait on the host. */
  wallTime?: PausableDeadline;
}
let nextCallId = 1;
/** Maps the host-side call id to the runtime's call id. */
const calls = new Map<number, { runtimeCallId: number; apply: ApplyState }>();

function send(message: FromSandbox): void {
  process.send?.(message);
}

/** Why an isolate stopped, from isolated-vm's error text. */
function classify(error: unknown, fallback: SandboxFailureKind): Failure {
  if (error instanceof Failure) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/memory limit/i.test(message))
    return new Failure(
      'memory',
      `the plugin went over its memory limit of ${plugin?.limits.memoryMb} MiB${graphAllowanceMb > 0 ? ` (and ${graphAllowanceMb} MiB for the graph)` : ''}`,
    );
  if (/timed out/i.test(message))
    return new Failure('cpu-time', `the plugin ran past its CPU time limit of ${activeLimits?.cpuTimeMs ?? plugin?.limits.cpuTimeMs} ms`);
  return new Failure(fallback, message);
}

function disposeIsolate(): void {
  const current = loaded;
  loaded = undefined;
  if (current && !current.isolate.isDisposed) current.isolate.dispose();
  for (const [callId, call] of calls) if (!activeApply || call.apply === activeApply) calls.delete(callId);
}

/**
 * Runs `task` against the isolate, disposing it when wall time or CPU time
 * runs out: `timeout` in isolated-vm covers only synchronous code, not time
 * spent awaiting, and not work queued as microtasks.
 */
async function guarded<T>(
  task: (isolate: ivm.Isolate) => Promise<T>,
  isolate: ivm.Isolate,
  wallMs: number,
  cpuMs: number,
  what: string,
  apply?: ApplyState,
): Promise<T> {
  const cpuStart = isolate.cpuTime;
  let stopped: Failure | undefined;
  const stop = (failure: Failure): void => {
    if (stopped) return;
    stopped = failure;
    disposeIsolate();
  };
  const waitsOnHost = apply ? ', not counting the time its capability calls waited on the host' : '';
  const wallTime = new PausableDeadline(wallMs, () =>
    stop(new Failure('wall-time', `${what} took longer than its wall-time limit of ${wallMs} ms${waitsOnHost}`)),
  );
  if (apply) apply.wallTime = wallTime;
  const cpuTimer = setInterval(() => {
    if (isolate.isDisposed) return;
    if (Number(isolate.cpuTime - cpuStart) / 1e6 > cpuMs) stop(new Failure('cpu-time', `${what} ran past its CPU time limit of ${cpuMs} ms`));
  }, CPU_CHECK_MS);
  try {
    const result = await task(isolate);
    if (stopped) throw stopped;
    return result;
  } catch (error) {
    // The plugin's own errors come back as outcomes: an exception here means
    // the call was cut short (a limit, a disposal), and the isolate's state
    // can no longer be trusted. The next call gets a fresh one.
    // An isolate that ended without us ending it went over its heap limit
    // (isolated-vm then abandons the promises in it).
    const failure =
      stopped ??
      (isolate.isDisposed
        ? new Failure(
            'memory',
            `the plugin went over its memory limit of ${plugin?.limits.memoryMb} MiB${graphAllowanceMb > 0 ? ` (and ${graphAllowanceMb} MiB for the graph)` : ''}`,
          )
        : classify(error, 'threw'));
    disposeIsolate();
    throw failure;
  } finally {
    wallTime.cancel();
    clearInterval(cpuTimer);
  }
}

async function load(): Promise<FromSandbox & { type: 'loaded' }> {
  if (!plugin) throw new Failure('load', 'no plugin was given to this sandbox');
  disposeIsolate();
  const { code, filename, limits } = plugin;
  const allowanceMb = graphAllowanceMb;
  const isolate = new ivm.Isolate({
    memoryLimit: limits.memoryMb + allowanceMb,
    onCatastrophicError: (message: string) => {
      // isolated-vm: the isolate is beyond recovery; end the process, the host starts another.
      send({ type: 'fatal', message });
      process.abort();
    },
  });
  loaded = undefined;
  const attempt = async (): Promise<FromSandbox & { type: 'loaded' }> => {
    const context = await isolate.createContext();
    // WebAssembly memory is allocated outside the isolate's heap, where its memory limit does not count it:
    // three WebAssembly.Memory of 1 GiB each passed a limit of 128 MiB. Plugins get no WebAssembly.
    await context.eval('delete globalThis.WebAssembly;', { timeout: limits.loadTimeMs });
    const factory = await context.eval(`(function (send, log, progress) { return (${createIsolateRuntime.toString()})({ send, log, progress }); })`, {
      reference: true,
      timeout: limits.loadTimeMs,
    });
    const sendCallback = new ivm.Callback((runtimeCallId: number, name: string, args: unknown[]) => requestCapability(runtimeCallId, name, args), {
      ignored: true,
    });
    const logCallback = new ivm.Callback((message: string) => send({ type: 'log', message: String(message).slice(0, 1000) }), { ignored: true });
    const progressCallback = new ivm.Callback(
      (done: unknown, total: unknown, message: unknown) => {
        if (activeApply) activeProgress?.report({ done, total, message });
      },
      { ignored: true },
    );
    const runtime = (await factory.apply(undefined, [sendCallback, logCallback, progressCallback], {
      result: { reference: true },
      timeout: limits.loadTimeMs,
    })) as ivm.Reference<Record<string, unknown>>;
    const member = (name: string): Promise<ivm.Reference<unknown>> => runtime.get(name as never, { reference: true }) as Promise<ivm.Reference<unknown>>;
    const [register, apply, setGraph, settle] = await Promise.all(['register', 'apply', 'setGraph', 'settle'].map(member));
    let module: ivm.Module;
    try {
      module = await isolate.compileModule(code, { filename });
    } catch (error) {
      throw new Failure('load', `the entry does not compile: ${(error as Error).message}`);
    }
    await module.instantiate(context, (specifier: string) => {
      throw new Failure('load', `the entry imports "${specifier}"; a plugin is one bundled file (build it with strata plugin build)`);
    });
    await module.evaluate({ timeout: limits.loadTimeMs });
    const outcome = (await register!.apply(undefined, [module.namespace.derefInto()], {
      result: { copy: true },
      timeout: limits.loadTimeMs,
    })) as RuntimeRegisterOutcome;
    if (outcome.ok) loaded = { isolate, context, apply: apply!, setGraph: setGraph!, settle: settle!, graphRevision: -1, graphAllowanceMb: allowanceMb };
    return { type: 'loaded', requestId: 0, outcome };
  };
  try {
    return await guarded(() => attempt(), isolate, limits.loadTimeMs, limits.loadTimeMs, 'loading the plugin');
  } catch (error) {
    if (!isolate.isDisposed) isolate.dispose();
    loaded = undefined;
    const failure = classify(error, 'load');
    throw new Failure(
      failure.kind === 'threw' ? 'load' : failure.kind,
      failure.kind === 'threw' ? `loading the plugin failed: ${failure.message}` : failure.message,
    );
  }
}

function requestCapability(runtimeCallId: number, name: string, args: unknown[]): void {
  const apply = activeApply;
  // Calls made outside an apply (a plugin trying to keep running) are never answered.
  if (!apply || !plugin) return;
  const refuse = (message: string): void => {
    void loaded?.settle.apply(undefined, [runtimeCallId, false, message], { arguments: { copy: true }, timeout: 1000 }).catch(() => undefined);
  };
  if (++apply.calls > plugin.limits.maxCapabilityCalls)
    return refuse(`capability call limit reached: one apply may make ${plugin.limits.maxCapabilityCalls} calls`);
  // At most MAX_PENDING_CAPABILITY_CALLS go to the host at once; the others wait their turn here, as many as
  // MAX_QUEUED_CAPABILITY_CALLS.
  if (apply.pending.size >= MAX_PENDING_CAPABILITY_CALLS) {
    if (apply.queued.length >= MAX_QUEUED_CAPABILITY_CALLS) {
      apply.calls--;
      return refuse(
        `too many capability calls at once: ${MAX_QUEUED_CAPABILITY_CALLS + MAX_PENDING_CAPABILITY_CALLS} are waiting for an answer already; await some before making more`,
      );
    }
    apply.queued.push({ runtimeCallId, name: String(name), args });
  } else dispatch(apply, runtimeCallId, String(name), args);
}

function dispatch(apply: ApplyState, runtimeCallId: number, name: string, args: unknown[]): void {
  apply.wallTime?.pause();
  const callId = nextCallId++;
  apply.pending.add(callId);
  calls.set(callId, { runtimeCallId, apply });
  send({ type: 'capability', callId, name, args });
}

function capabilityResult(callId: number, ok: boolean, value: unknown): void {
  const call = calls.get(callId);
  if (!call) return;
  calls.delete(callId);
  call.apply.pending.delete(callId);
  if (call.apply !== activeApply || !loaded) return;
  const next = call.apply.queued.shift();
  if (next) dispatch(call.apply, next.runtimeCallId, next.name, next.args);
  else if (call.apply.pending.size === 0) call.apply.wallTime?.resume();
  void loaded.settle.apply(undefined, [call.runtimeCallId, ok, value], { arguments: { copy: true }, timeout: plugin?.limits.cpuTimeMs }).catch(() => undefined);
}

async function apply(request: RuntimeApplyRequest, applyLimits: ApplyLimits | undefined): Promise<FromSandbox & { type: 'applied' }> {
  if (!plugin) throw new Failure('load', 'no plugin was given to this sandbox');
  if (!loaded || loaded.isolate.isDisposed || loaded.graphAllowanceMb < graphAllowanceMb) {
    // A previous apply ended the isolate, or the graph has grown past what its heap limit allows for it: a fresh one.
    const reloaded = await load();
    if (!reloaded.outcome.ok) throw new Failure('load', reloaded.outcome.error.message);
  }
  const current = loaded!;
  const limits = { ...plugin.limits, ...applyLimits };
  const applyState: ApplyState = { calls: 0, pending: new Set<number>(), queued: [] };
  const progress = new ProgressThrottle((report) => send({ type: 'progress', progress: report }));
  activeApply = applyState;
  activeLimits = limits;
  activeProgress = progress;
  try {
    const reply = await guarded(
      async () => {
        if (graph && current.graphRevision !== graph.revision) {
          await current.setGraph.apply(undefined, [graph], { arguments: { copy: true }, timeout: limits.cpuTimeMs });
          current.graphRevision = graph.revision;
        }
        const outcome = await current.apply.apply(undefined, [request], {
          arguments: { copy: true },
          result: { promise: true, copy: true },
          timeout: limits.cpuTimeMs,
        });
        return { type: 'applied' as const, requestId: 0, outcome: outcome as (FromSandbox & { type: 'applied' })['outcome'] };
      },
      current.isolate,
      limits.wallTimeMs,
      limits.cpuTimeMs,
      'the apply',
      applyState,
    );
    // The last report, which the runtime held back, goes before the outcome (a copy out of the isolate: plain data,
    // though perhaps not of the right shape; the host checks the rest).
    const outcome: unknown = reply.outcome;
    if (typeof outcome === 'object' && outcome !== null && 'progress' in outcome) {
      progress.report(outcome.progress);
      delete outcome.progress;
    }
    return reply;
  } finally {
    progress.flush();
    activeProgress = undefined;
    activeApply = undefined;
    activeLimits = undefined;
    applyState.queued.length = 0;
    for (const callId of applyState.pending) calls.delete(callId);
  }
}

/** Sends the reply of a request, or its failure classified (`fallback` when nothing more specific is known). */
function answer(requestId: number, work: Promise<FromSandbox & { type: 'loaded' | 'applied' }>, fallback: SandboxFailureKind): void {
  work.then(
    (reply) => send({ ...reply, requestId }),
    (error: unknown) => {
      const failure = classify(error, fallback);
      send({ type: 'failed', requestId, kind: failure.kind, message: failure.message });
    },
  );
}

process.on('message', (message: ToSandbox) => {
  switch (message.type) {
    case 'load':
      plugin = { code: message.code, filename: message.filename, limits: message.limits };
      answer(message.requestId, load(), 'load');
      break;
    case 'graph':
      graph = message.graph;
      graphAllowanceMb = Math.max(graphAllowanceMb, allowanceFor(message.graph));
      break;
    case 'apply':
      answer(message.requestId, apply(message.request, message.limits), 'threw');
      break;
    case 'capabilityResult':
      capabilityResult(message.callId, message.ok, message.value);
      break;
  }
});

// The host went away: so does the sandbox.
process.on('disconnect', () => process.exit(0));
