import { createRequire } from 'node:module';

/** The version of `@strata/host`, from its package.json. */
export const HOST_VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
