/**
 * The version of the SDK API this package implements. The host compares a
 * plugin's declared SDK range with this version (semver) before loading it.
 */
export const SDK_VERSION = '0.1.0';
