/**
 * The version of the SDK API this package implements. The host compares a
 * plugin's declared SDK range with this version (semver) before loading it.
 *
 * @example
 * ```ts
 * import { SDK_VERSION } from '@strata/sdk';
 *
 * console.log(`built with @strata/sdk ${SDK_VERSION}`); // built with @strata/sdk 0.1.0
 * ```
 */
export const SDK_VERSION = '0.1.0';
