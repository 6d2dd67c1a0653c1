/**
 * `@strata/sandbox`: the isolate runner the Strata host and the testing
 * harness (`@strata/sdk-testing`) share. Plugin code never imports it.
 */
export { PluginSandbox, SandboxError, type DeclaredOverlay, type PluginSandboxOptions, type SandboxApplyOptions, type SandboxApplyResult } from './plugin-sandbox.js';
export { DEFAULT_SANDBOX_LIMITS, MAX_PENDING_CAPABILITY_CALLS, type ApplyLimits, type ApplyProgress, type SandboxFailureKind, type SandboxLimits } from './protocol.js';
export { FORK_ON_DEMAND, forkSandboxProcess, SANDBOX_NODE_FLAGS, SpareSandboxProcess, type SandboxProcessSource } from './sandbox-processes.js';
export { graphPayloadOf } from './graph-payload.js';
export { createIsolateRuntime, type GraphPayload, type OverlayColumns, type RuntimeApplyOutcome, type IsolateRuntime } from './isolate-runtime.js';
export {
  checkApplyRequest,
  isPluginFolder,
  PluginManifestError,
  PluginManifestSchema,
  readPluginPackage,
  withDeclaredParameters,
  type CheckedApplyRequest,
  type ParameterCheck,
  type PluginPackage,
  type ValidManifest,
} from './plugin-manifest.js';
export { checkWith, fieldName, type SchemaCheck } from './schema-check.js';
export { styleAt } from './overlay-styles.js';
export { applyFailure, notLoaded, type PluginAnswerCode } from './plugin-answers.js';
