/**
 * The version of the SDK API this package implements. The host compares a
 * plugin's declared SDK range with this version (semver) before loading it.
 *
 * @example
 * ```ts
 * import { SDK_VERSION } from '@strata/sdk';
 *
 * console.log(`built with @strata/sdk ${SDK_VERSION}`); // built with @strata/sdk 0.2.0
 * ```
 */
export const SDK_VERSION = '0.2.0';

/**
 * The SDK versions whose plugins a host of this SDK loads: each version
 * adds to the one before and takes nothing away (0.2.0 added edge
 * overlays), so a plugin whose `strata.sdk` range one of them satisfies
 * (`^0.1.0`) loads; a plugin built for a later SDK does not.
 *
 * @example
 * ```ts
 * import { SDK_COMPATIBLE_VERSIONS } from '@strata/sdk';
 *
 * console.log(SDK_COMPATIBLE_VERSIONS.join(', ')); // 0.1.0, 0.2.0
 * ```
 */
export const SDK_COMPATIBLE_VERSIONS: readonly string[] = ['0.1.0', SDK_VERSION];
