/**
 * Messages between a `PluginSandbox` (in the host) and its sandbox process.
 * Sent over the IPC channel with Node's advanced serialization, so typed
 * arrays cross as memory copies.
 */
import type { GraphPayload, RuntimeApplyOutcome, RuntimeApplyRequest, RuntimeRegisterOutcome } from './isolate-runtime.js';

/**
 * Limits of one plugin's sandbox.
 *
 * @example
 * ```ts
 * import type { SandboxLimits } from '@strata/sdk-testing';
 *
 * // A test that a runaway apply is stopped within a second of CPU time.
 * const tight: Partial<SandboxLimits> = { cpuTimeMs: 1000, wallTimeMs: 5000 };
 * ```
 */
export interface SandboxLimits {
  /**
   * Heap limit of the isolate, in MiB. isolated-vm's limit is soft: an
   * isolate can go past it before it is stopped, and memory outside the heap
   * escapes it. What gets past it ends the sandbox process, not the host.
   */
  memoryMb: number;
  /** CPU time one apply may use, in milliseconds. */
  cpuTimeMs: number;
  /**
   * Wall time one apply may take, in milliseconds, not counting the time it
   * waits on the host's capabilities (git, file reads): those are the host's
   * work, bounded by the host, and a large repository needs a lot of it.
   */
  wallTimeMs: number;
  /** Time loading the plugin (evaluating its entry) may take, in milliseconds. */
  loadTimeMs: number;
  /** Capability calls one apply may make. */
  maxCapabilityCalls: number;
}

/** Limits when none are configured. */
export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  memoryMb: 128,
  cpuTimeMs: 10_000,
  wallTimeMs: 60_000,
  loadTimeMs: 5_000,
  maxCapabilityCalls: 1_000_000,
});

/** Capability calls sent to the host at once, per apply; more wait their turn in the sandbox process. */
export const MAX_PENDING_CAPABILITY_CALLS = 64;

/**
 * Capability calls that may wait in the sandbox process behind those sent to
 * the host; one more is refused at once. Each waiting call holds its
 * arguments in that process: a flood of 100,000 calls grew it by 1.7 GB.
 */
export const MAX_QUEUED_CAPABILITY_CALLS = 10_000;

export type ToSandbox =
  | { type: 'load'; requestId: number; code: string; filename: string; limits: SandboxLimits }
  | { type: 'graph'; graph: GraphPayload }
  | { type: 'apply'; requestId: number; request: RuntimeApplyRequest; limits?: ApplyLimits }
  | { type: 'capabilityResult'; callId: number; ok: boolean; value: unknown };

/** The time limits of one apply, when they differ from the plugin's (the host scales them with the repository). */
export type ApplyLimits = Pick<SandboxLimits, 'cpuTimeMs' | 'wallTimeMs'>;

/**
 * How far an apply has come, as the plugin reports it with `ctx.progress`.
 *
 * @example
 * ```ts
 * import type { ApplyProgress } from '@strata/sdk-testing';
 *
 * const percent = (progress: ApplyProgress): string =>
 *   progress.total ? `${Math.round((100 * progress.done) / progress.total)} %` : `${progress.done}`;
 * percent({ done: 30, total: 120, message: 'blaming files' }); // '25 %'
 * ```
 */
export interface ApplyProgress {
  /** Work done so far, in the plugin's unit (files, commits...). */
  done: number;
  /** Work to do in all, when the plugin knows it. */
  total?: number;
  /** What the apply is doing ("blaming files"). */
  message?: string;
}

/**
 * Why a sandbox call failed.
 *
 * @example
 * ```ts
 * import type { SandboxFailureKind } from '@strata/sdk-testing';
 *
 * // Failures that a faster or smaller apply would avoid.
 * const isLimit = (kind: SandboxFailureKind): boolean => kind === 'cpu-time' || kind === 'wall-time' || kind === 'memory';
 * ```
 */
export type SandboxFailureKind =
  | 'load'
  | 'threw'
  | 'cpu-time'
  | 'wall-time'
  | 'memory'
  | 'crashed'
  | 'invalid-result'
  | 'invalid-input'
  | 'disposed'
  | 'cancelled';

export type FromSandbox =
  | { type: 'loaded'; requestId: number; outcome: RuntimeRegisterOutcome }
  | { type: 'applied'; requestId: number; outcome: RuntimeApplyOutcome }
  | { type: 'failed'; requestId: number; kind: SandboxFailureKind; message: string }
  | { type: 'capability'; callId: number; name: string; args: unknown[] }
  | { type: 'log'; message: string }
  | { type: 'progress'; progress: ApplyProgress }
  | { type: 'fatal'; message: string };
