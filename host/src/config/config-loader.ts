import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
// The one module of the sandbox it needs: its entry loads Ajv's compiler, semver and the sandbox (a quarter of a second).
import { checkWith } from '@strata/sandbox/schema-check';
import { SETTING_LEAVES, validateSettings } from './settings-validator.generated.js';
import { DEFAULT_SETTINGS, type StrataConfig, type StrataSettings } from './strata-config.js';

/** The name of the configuration file looked for at the repository root. */
export const CONFIG_FILE_NAME = 'strata.config.json';

/** A configuration that cannot be used; the message names the source and the key. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** What the configuration is built from, lowest precedence first after the defaults. */
export interface ConfigSources {
  /** Path of the repository to serve (absolute, or relative to `cwd`). */
  repository: string;
  /** A configuration file named with `--config`; replaces `strata.config.json` of the repository. */
  configFile?: string;
  /** Environment variables; only `STRATA_*` ones are read. */
  env?: Record<string, string | undefined>;
  /** Settings given as flags, already named as in the schema. */
  flags?: StrataSettings;
  /** Directory relative paths of flags and variables are taken from. */
  cwd?: string;
}

/** The schema's checks are generated ahead of time (`scripts/generate-settings-validator.ts`): nothing is compiled at start. */
const checkSettings = checkWith<StrataSettings>(validateSettings);

/**
 * Builds the configuration: defaults < configuration file < `STRATA_*`
 * variables < flags. Each source is validated on its own so that an error
 * names where the bad key came from.
 */
export function loadConfig(sources: ConfigSources): StrataConfig {
  const cwd = sources.cwd ?? process.cwd();
  const repositoryRoot = path.resolve(cwd, sources.repository);

  const fileSettings = readConfigFile(
    sources.configFile ? path.resolve(cwd, sources.configFile) : path.join(repositoryRoot, CONFIG_FILE_NAME),
    Boolean(sources.configFile),
  );
  const envSettings = settingsFromEnv(sources.env ?? {});
  const flagSettings = validated(sources.flags ?? {}, 'flag');

  // Relative data directories: from the repository in the file, from cwd elsewhere.
  const dataDirSource =
    flagSettings.dataDir !== undefined
      ? { dir: flagSettings.dataDir, from: cwd }
      : envSettings.dataDir !== undefined
        ? { dir: envSettings.dataDir, from: cwd }
        : fileSettings.settings.dataDir !== undefined
          ? { dir: fileSettings.settings.dataDir, from: repositoryRoot }
          : { dir: DEFAULT_SETTINGS.dataDir, from: repositoryRoot };

  // Plugin folders likewise, from whichever source named them last.
  const pluginDirsFrom = flagSettings.plugins?.directories !== undefined || envSettings.plugins?.directories !== undefined ? cwd : repositoryRoot;

  const merged = [fileSettings.settings, envSettings, flagSettings].reduce<Record<string, unknown>>(
    (acc, layer) => deepMerge(acc, layer as Record<string, unknown>),
    structuredClone(DEFAULT_SETTINGS) as unknown as Record<string, unknown>,
  ) as Required<StrataSettings> & {
    index: { maxFileBytes: number; cache: boolean };
    plugins: (typeof DEFAULT_SETTINGS)['plugins'];
    layout: StrataConfig['layout'];
    allowedHosts: string[];
    cors: { origins?: string[] };
  };

  return Object.freeze({
    repositoryRoot,
    dataDir: path.resolve(dataDirSource.from, dataDirSource.dir),
    port: merged.port,
    host: merged.host,
    logLevel: merged.logLevel,
    logFormat: merged.logFormat,
    maxBodyBytes: merged.maxBodyBytes,
    requestTimeoutMs: merged.requestTimeoutMs,
    headersTimeoutMs: Math.min(merged.headersTimeoutMs, merged.requestTimeoutMs),
    maxConnections: merged.maxConnections,
    maxConnectionsPerAddress: merged.maxConnectionsPerAddress,
    compressResponses: merged.compressResponses,
    authToken: merged.authToken,
    watch: merged.watch,
    dev: merged.dev,
    allowedHosts: Object.freeze(merged.allowedHosts.map((name) => name.toLowerCase())),
    cors: Object.freeze({ origins: Object.freeze((merged.cors.origins ?? []).map((origin) => origin.toLowerCase())) }),
    plugins: Object.freeze({
      ...merged.plugins,
      directories: Object.freeze(merged.plugins.directories.map((dir) => path.resolve(pluginDirsFrom, dir))),
    }),
    layout: Object.freeze({ backend: merged.layout.backend, maxIterations: merged.layout.maxIterations }),
    index: Object.freeze({ maxFileBytes: merged.index.maxFileBytes, cache: merged.index.cache }),
    rules: fileSettings.settings.rules === undefined ? undefined : Object.freeze({ value: fileSettings.settings.rules, source: fileSettings.file }),
  });
}

function readConfigFile(file: string, named: boolean): { settings: StrataSettings; file: string } {
  if (!existsSync(file)) {
    if (named) throw new ConfigError(`config file ${file} does not exist`);
    return { settings: {}, file };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  return { settings: validated(parsed, file), file };
}

function validated(settings: unknown, source: string): StrataSettings {
  const result = checkSettings(settings, '');
  if (result.ok) return result.value;
  const reason = result.message.slice(result.field.length + 2);
  if (source === 'flag') {
    const flag =
      '--' +
      result.field
        .replace(/\./g, '-')
        .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
        .toLowerCase();
    throw new ConfigError(`${flag}: ${reason}`);
  }
  throw new ConfigError(`${source}: ${result.field === '' ? '' : `key "${result.field}" `}${reason}`);
}

/** The environment variable that sets a setting: `index.maxFileBytes` is `STRATA_INDEX_MAX_FILE_BYTES`. */
export function envVariableName(settingPath: readonly string[]): string {
  return `STRATA_${settingPath.map((part) => part.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()).join('_')}`;
}

function settingsFromEnv(env: Record<string, string | undefined>): StrataSettings {
  const settings: Record<string, unknown> = {};
  const known = new Set<string>();
  for (const leaf of SETTING_LEAVES) {
    const name = envVariableName(leaf.path);
    known.add(name);
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const value = coerce(raw, leaf.type);
    const result = checkWith(leaf.validate)(value, name);
    if (!result.ok) throw new ConfigError(`environment variable ${result.message}`);
    let target = settings;
    for (const key of leaf.path.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
    target[leaf.path.at(-1)!] = value;
  }
  for (const name of Object.keys(env)) {
    if (name.startsWith('STRATA_') && !known.has(name)) {
      throw new ConfigError(`environment variable ${name}: is not a known setting (known: ${[...known].join(', ')})`);
    }
  }
  return settings as StrataSettings;
}

/** A variable's text as a value of the setting's JSON type (left as text when it is not one, for the check to name). */
function coerce(raw: string, type: string): unknown {
  if (type === 'integer' || type === 'number') {
    const n = Number(raw);
    return raw.trim() !== '' && Number.isFinite(n) ? n : raw;
  }
  if (type === 'array')
    return raw
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
  if (type === 'boolean') return raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : raw;
  return raw;
}

function deepMerge(base: Record<string, unknown>, layer: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(layer)) {
    if (value === undefined) continue;
    const existing = out[key];
    out[key] = isPlainObject(value) && isPlainObject(existing) ? deepMerge(existing, value) : value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
