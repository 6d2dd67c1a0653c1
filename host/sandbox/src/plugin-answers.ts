/**
 * The host's words for a plugin that cannot run or failed, shared with the
 * test harness (`@strata/sdk-testing`) so that an author's test sees what a
 * client of the host would.
 */

/** Codes of the host's error table that these answers carry. */
export type PluginAnswerCode = 'INVALID_PARAMETER' | 'PLUGIN_FAILED';

/**
 * An apply that failed in the sandbox: 400 `INVALID_PARAMETER` when the
 * request was at fault (the plugin threw `InvalidInputError`), 500
 * `PLUGIN_FAILED` otherwise, saying how. `suffix` is what the host adds
 * (that a last good result stays).
 */
export function applyFailure(pluginId: string, kind: string, message: string, suffix = ''): { code: PluginAnswerCode; message: string } {
  if (kind === 'invalid-input') return { code: 'INVALID_PARAMETER', message: `plugin "${pluginId}": ${message}${suffix}` };
  return { code: 'PLUGIN_FAILED', message: `plugin "${pluginId}" failed (${kind}): ${message}${suffix}` };
}

/** A plugin that is listed but not loaded (409 `PLUGIN_NOT_LOADED`), with the reason. */
export function notLoaded(pluginId: string, reason: string): string {
  return `plugin "${pluginId}" is not loaded: ${reason}`;
}
