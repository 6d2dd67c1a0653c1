/**
 * `@strata/sandbox`: the isolate runner the Strata host and the testing
 * harness (`@strata/sdk-testing`) share. Plugin code never imports it.
 */

export { graphPayloadInSlices, graphPayloadOf } from './graph-payload.js';
export { createIsolateRuntime, type GraphPayload, type IsolateRuntime, type OverlayColumns, type RuntimeApplyOutcome } from './isolate-runtime.js';
export { styleAt } from './overlay-styles.js';
export { applyFailure, notLoaded, type PluginAnswerCode } from './plugin-answers.js';
export {
  type CheckedApplyRequest,
  checkApplyRequest,
  isPluginFolder,
  type ParameterCheck,
  PluginManifestError,
  PluginManifestSchema,
  type PluginPackage,
  readPluginPackage,
  type ValidManifest,
  withDeclaredParameters,
} from './plugin-manifest.js';
export {
  type DeclaredOverlay,
  PluginSandbox,
  type PluginSandboxOptions,
  type SandboxApplyOptions,
  type SandboxApplyResult,
  SandboxError,
} from './plugin-sandbox.js';
export {
  type ApplyLimits,
  type ApplyProgress,
  DEFAULT_SANDBOX_LIMITS,
  MAX_PENDING_CAPABILITY_CALLS,
  type SandboxFailureKind,
  type SandboxLimits,
} from './protocol.js';
export { FORK_ON_DEMAND, forkSandboxProcess, SANDBOX_NODE_FLAGS, type SandboxProcessSource, SpareSandboxProcess } from './sandbox-processes.js';
export { checkWith, fieldName, type SchemaCheck } from './schema-check.js';
