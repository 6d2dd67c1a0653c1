/**
 * `@strata/sdk/sandbox`: the isolate runner the Strata host and the testing
 * harness share. Plugin code never imports it.
 */
export { PluginSandbox, SandboxError, SANDBOX_NODE_FLAGS, type DeclaredOverlay, type PluginSandboxOptions, type SandboxApplyOptions, type SandboxApplyResult } from './plugin-sandbox.js';
export { DEFAULT_SANDBOX_LIMITS, MAX_PENDING_CAPABILITY_CALLS, type ApplyLimits, type ApplyProgress, type SandboxFailureKind, type SandboxLimits } from './protocol.js';
export { graphPayloadOf } from './graph-payload.js';
export { createIsolateRuntime, type GraphPayload, type OverlayColumns, type RuntimeApplyOutcome, type IsolateRuntime } from './isolate-runtime.js';
