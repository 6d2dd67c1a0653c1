import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { type Static, Type } from '@sinclair/typebox';
import { CAPABILITIES, type Capability, type PluginInput, SDK_COMPATIBLE_VERSIONS, SDK_VERSION } from '@strata/sdk';
import { Ajv } from 'ajv';
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';
import semver from 'semver';
import { checkWith, fieldName, type SchemaCheck } from './schema-check.js';

const PLUGIN_ID = '^[a-z0-9][a-z0-9-]{0,63}$';
/** Input names: what `ctx.inputs.get(name)` takes and the apply body's `inputs` holds. */
const INPUT_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** One entry of `accept`: a file extension (`.xml`) or a media type (`application/json`, `text/*`). */
const ACCEPT_ENTRY = /^(\.[A-Za-z0-9][A-Za-z0-9._+-]*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/(\*|[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*))$/;

/** An input a plugin reads, as its manifest declares it (`PluginInput` in the SDK). */
const PluginInputSchema = Type.Object(
  {
    description: Type.String({ minLength: 1, maxLength: 1000, description: 'What to send, for people.' }),
    accept: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'File types it takes, as an HTML accept attribute: extensions and media types, comma-separated.',
      }),
    ),
    multiple: Type.Optional(Type.Boolean({ description: 'Whether several texts may be sent under the name.' })),
  },
  { additionalProperties: false },
);

/** The `strata` field of a plugin's package.json (see `PluginManifest` in the SDK). */
export const PluginManifestSchema = Type.Object(
  {
    id: Type.String({ pattern: PLUGIN_ID, description: 'Lower-case letters, digits and dashes.' }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.String({ maxLength: 1000 }),
    sdk: Type.String({ minLength: 1, description: 'Semver range of SDK versions the plugin works with.' }),
    entry: Type.String({ minLength: 1 }),
    source: Type.Optional(Type.String({ minLength: 1 })),
    capabilities: Type.Optional(Type.Array(Type.Unsafe<Capability>({ type: 'string', enum: [...CAPABILITIES] }), { uniqueItems: true })),
    parameters: Type.Optional(Type.Object({ type: Type.Literal('object') }, { additionalProperties: true })),
    inputs: Type.Optional(Type.Record(Type.String(), PluginInputSchema, { maxProperties: 32 })),
  },
  { additionalProperties: false },
);

export type ValidManifest = Static<typeof PluginManifestSchema>;

// The input schema describes the SDK's `PluginInput`; these lines stop them drifting apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const inputSchemaMatchesSdk: Same<Static<typeof PluginInputSchema>, PluginInput> = true;
void inputSchemaMatchesSdk;

/** A plugin folder that cannot be used, and why. */
export class PluginManifestError extends Error {
  override readonly name = 'PluginManifestError';
  constructor(
    message: string,
    readonly reason: 'invalid' | 'incompatible',
    /** The id, when the manifest got as far as naming one. */
    readonly pluginId?: string,
    /** Its name and description, when the manifest is whole (a plugin for another SDK). */
    readonly described?: { name: string; description: string },
  ) {
    super(message);
  }
}

/** Checks an apply request's parameters (the body, without `inputs`); fills in the schema's defaults. */
export type ParameterCheck = (value: unknown) => { ok: true } | { ok: false; message: string };

/** A plugin folder whose manifest checks out. */
export interface PluginPackage {
  folder: string;
  manifest: ValidManifest;
  /** Version of the plugin's package. */
  version: string;
  /** Absolute path of the bundled entry. */
  entryPath: string;
  /** Absolute path of the source to bundle, when the plugin has one. */
  sourcePath: string | undefined;
  /**
   * The parameter schema in force: the manifest's `strata.parameters`, or
   * the one the plugin declares in `definePlugin` once it is loaded
   * (`withDeclaredParameters`); undefined when it takes none.
   */
  parameters: Record<string, unknown> | undefined;
  /** Checks apply parameters against `parameters` (none accepted when there is no schema). */
  checkParameters: ParameterCheck;
}

/** Compiled on the first manifest read (60 ms at the server's start, before it could listen, when made as the module loaded). */
let manifestCheck: SchemaCheck<ValidManifest> | undefined;
const checkManifest: SchemaCheck<ValidManifest> = (raw, rootName) => {
  manifestCheck ??= checkWith<ValidManifest>(
    new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: false }).compile(PluginManifestSchema),
  );
  return manifestCheck(raw, rootName);
};
/**
 * `pattern` and `patternProperties` of a plugin's schema run on RE2 (RE2JS),
 * which matches in linear time: a schema is plugin code, and a pattern such
 * as `^(a|a)*$` on JavaScript's backtracking engine held the host's event
 * loop for minutes on a 35-character parameter. RE2 has no lookaround or
 * backreferences; a schema that uses them does not load.
 */
const re2: RegExpEngine = Object.assign(
  (pattern: string): { test(text: string): boolean; toString(): string } => {
    const compiled = RE2JS.compile(pattern);
    // Ajv keys its compiled patterns by toString(): each must be told apart.
    return { test: (text: string) => compiled.matcher(text).find(), toString: () => `RE2JS(${JSON.stringify(pattern)})` };
  },
  { code: 'RE2JS' },
);

/**
 * Parameter schemas are the plugin's own: compiled by their own Ajv so a bad one cannot disturb the host's.
 * `ownProperties`: a parameter named as a property every object inherits (`constructor`, `toString`) is present
 * only when it was sent (Ajv's checks would otherwise find the inherited one).
 */
const parameterAjv = new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: true, ownProperties: true, code: { regExp: re2 } });

/** Whether `folder` looks like a plugin: a package.json with a `strata` field. */
export function isPluginFolder(folder: string): boolean {
  const file = path.join(folder, 'package.json');
  if (!existsSync(file)) return false;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return typeof parsed === 'object' && parsed !== null && 'strata' in parsed;
  } catch {
    return true; // a broken package.json is reported, not skipped
  }
}

/** Reads and checks a plugin folder's manifest against this host's SDK version. */
export function readPluginPackage(folder: string): PluginPackage {
  const file = path.join(folder, 'package.json');
  let pkg: Record<string, unknown>;
  try {
    pkg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new PluginManifestError(`${file} is not valid JSON: ${(error as Error).message}`, 'invalid');
  }
  const raw = pkg.strata as Record<string, unknown> | undefined;
  const claimedId = typeof raw?.id === 'string' && new RegExp(PLUGIN_ID).test(raw.id) ? raw.id : undefined;
  const checked = checkManifest(raw, 'strata');
  if (!checked.ok) throw new PluginManifestError(`package.json: ${checked.message}`, 'invalid', claimedId);
  const manifest = checked.value;

  const range = semver.validRange(manifest.sdk);
  if (range === null) throw new PluginManifestError(`package.json: strata.sdk ${JSON.stringify(manifest.sdk)} is not a semver range`, 'invalid', manifest.id);
  // The host serves every SDK version its SDK still implements (`SDK_COMPATIBLE_VERSIONS`): a plugin built for ^0.1.0 loads on SDK 0.2.0.
  if (!SDK_COMPATIBLE_VERSIONS.some((version) => semver.satisfies(version, range, { includePrerelease: true }))) {
    throw new PluginManifestError(`built for SDK ${manifest.sdk}; this host provides SDK ${SDK_VERSION}`, 'incompatible', manifest.id, {
      name: manifest.name,
      description: manifest.description,
    });
  }

  checkInputs(manifest);
  const entryPath = inside(folder, manifest.entry, 'strata.entry', manifest.id);
  const defaultSource = path.join(folder, 'src', 'index.ts');
  const sourcePath =
    manifest.source !== undefined ? inside(folder, manifest.source, 'strata.source', manifest.id) : existsSync(defaultSource) ? defaultSource : undefined;

  const checkParameters = manifest.parameters ? parameterCheck(manifest.id, manifest.parameters, 'package.json: strata.parameters') : noParameters(manifest.id);
  return {
    folder,
    manifest,
    version: typeof pkg.version === 'string' ? pkg.version : '0.0.0',
    entryPath,
    sourcePath,
    parameters: manifest.parameters,
    checkParameters,
  };
}

/**
 * The package once its plugin is loaded: the parameter schema it declares in
 * `definePlugin` (`PluginSandbox.parameters`) is checked and put in force as
 * a manifest's would be. Throws `PluginManifestError` when the schema is not
 * usable, or when the manifest declares parameters too (one place only).
 */
export function withDeclaredParameters(pkg: PluginPackage, declared: Record<string, unknown> | undefined): PluginPackage {
  if (declared === undefined) return pkg;
  const id = pkg.manifest.id;
  if (pkg.manifest.parameters) {
    throw new PluginManifestError(
      'the parameters are declared twice, in package.json (strata.parameters) and in definePlugin: keep one (definePlugin also types ctx.params)',
      'invalid',
      id,
    );
  }
  if (declared.type !== 'object') throw new PluginManifestError('definePlugin parameters: must be an object schema ({"type": "object", ...})', 'invalid', id);
  return { ...pkg, parameters: declared, checkParameters: parameterCheck(id, declared, 'definePlugin parameters') };
}

/** An apply request, checked: its parameters (the schema's defaults filled in) and its input texts by name. */
export interface CheckedApplyRequest {
  params: Record<string, unknown>;
  inputs: Record<string, string[]>;
}

/**
 * Checks an apply request's body as the host does before it runs anything:
 * `inputs` against the inputs the manifest declares, the rest (the
 * parameters) against the parameter schema in force. A refusal's message
 * is the one the host answers 400 `INVALID_PARAMETER` with.
 */
export function checkApplyRequest(
  pkg: PluginPackage,
  body: Record<string, unknown> | undefined,
): { ok: true; request: CheckedApplyRequest } | { ok: false; message: string } {
  // Objects without a prototype: a key named as an inherited property (`constructor`, `__proto__`) is a key like any
  // other, to Ajv's defaults (it fills in a default where the key reads undefined) as to what follows.
  const params = withoutPrototypes(body ?? {});
  const rawInputs = params.inputs;
  delete params.inputs;
  const inputs = checkInputTexts(rawInputs, pkg);
  if (!inputs.ok) return inputs;
  const checked = pkg.checkParameters(params);
  if (!checked.ok) return checked;
  return { ok: true, request: { params, inputs: inputs.inputs } };
}

function checkInputTexts(raw: unknown, pkg: PluginPackage): { ok: true; inputs: Record<string, string[]> } | { ok: false; message: string } {
  const id = pkg.manifest.id;
  if (raw === undefined) return { ok: true, inputs: {} };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { ok: false, message: 'body.inputs: must be an object of name -> text (or array of texts)' };
  if (!pkg.manifest.capabilities?.includes('inputs:read'))
    return { ok: false, message: `body.inputs: plugin "${id}" reads no inputs (it does not declare inputs:read)` };
  // Inputs the manifest names are the only ones taken (a plugin that lists none reads whatever it is sent).
  const declared = Object.keys(pkg.manifest.inputs ?? {});
  const undeclared = declared.length > 0 ? Object.keys(raw).filter((name) => !declared.includes(name)) : [];
  if (undeclared.length > 0) {
    return {
      ok: false,
      message: `body.inputs: plugin "${id}" reads no input named ${undeclared
        .slice(0, 20)
        .map((name) => JSON.stringify(name))
        .join(', ')}; it reads ${declared.map((name) => JSON.stringify(name)).join(', ')}`,
    };
  }
  const inputs: Record<string, string[]> = Object.create(null);
  for (const [name, value] of Object.entries(raw)) {
    const texts: unknown = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(texts) || texts.some((text) => typeof text !== 'string'))
      return { ok: false, message: `body.inputs[${JSON.stringify(name)}]: must be a string or an array of strings` };
    inputs[name] = texts as string[];
  }
  return { ok: true, inputs };
}

/**
 * A copy of `value` (JSON: objects, arrays, scalars) whose objects have no
 * prototype, made without recursion (a body may nest deeper than the stack).
 */
function withoutPrototypes(value: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = Object.create(null);
  const pending: Array<[from: object, to: Record<string, unknown>]> = [[value, copy]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [from, to] = next;
    for (const [key, entry] of Object.entries(from)) {
      if (typeof entry !== 'object' || entry === null) to[key] = entry;
      else {
        const inner = Array.isArray(entry) ? new Array<unknown>(entry.length) : Object.create(null);
        pending.push([entry, inner]);
        to[key] = inner;
      }
    }
  }
  return copy;
}

/** A plugin that declares no parameters takes none: an option sent to it by mistake (`--since` to complexity) is refused, not ignored. */
function noParameters(pluginId: string): ParameterCheck {
  return (value) => {
    const sent = typeof value === 'object' && value !== null ? Object.keys(value) : [];
    return sent.length === 0
      ? { ok: true }
      : {
          ok: false,
          message: `body: plugin "${pluginId}" takes no parameters; it was sent ${sent
            .slice(0, 20)
            .map((key) => JSON.stringify(key))
            .join(', ')}`,
        };
  };
}

/** Compiles a plugin's parameter schema (on RE2, see above); `where` names where it was declared, for its errors. */
function parameterCheck(pluginId: string, schema: Record<string, unknown>, where: string): ParameterCheck {
  const properties = (schema as { properties?: Record<string, unknown> }).properties ?? {};
  if (typeof properties === 'object' && properties !== null && Object.hasOwn(properties, 'inputs')) {
    throw new PluginManifestError(`${where} may not declare "inputs": that key of the apply body carries input texts`, 'invalid', pluginId);
  }
  if (declaresProtoProperty(schema)) {
    throw new PluginManifestError(
      `${where} declares a property named "__proto__", which Ajv (the JSON schema validator) never checks: name it otherwise`,
      'invalid',
      pluginId,
    );
  }
  let validate: ReturnType<Ajv['compile']>;
  try {
    validate = parameterAjv.compile(schema);
  } catch (error) {
    throw new PluginManifestError(`${where} is not a valid JSON schema: ${(error as Error).message}`, 'invalid', pluginId);
  }
  const check = checkWith(validate);
  const known = Object.keys(properties);
  return (value) => {
    const result = check(value, 'body');
    if (result.ok) return { ok: true };
    // A mistyped or misplaced option: say which ones the plugin takes.
    const takes =
      / is not a known field/.test(result.message) && known.length > 0
        ? `; plugin "${pluginId}" takes ${known.map((key) => JSON.stringify(key)).join(', ')}`
        : '';
    return { ok: false, message: result.message + takes };
  };
}

/** Whether some `properties` of `schema`, at any depth, declares `__proto__` (a key JSON.parse keeps). */
function declaresProtoProperty(schema: Record<string, unknown>): boolean {
  const pending: unknown[] = [schema];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next !== 'object' || next === null) continue;
    const properties = (next as { properties?: unknown }).properties;
    if (Object.hasOwn(next, 'properties') && typeof properties === 'object' && properties !== null && Object.hasOwn(properties, '__proto__')) return true;
    pending.push(...Object.values(next));
  }
  return false;
}

/** Checks what the schema cannot say well of `strata.inputs`: names, `accept` lists, and the capability to read them. */
function checkInputs(manifest: ValidManifest): void {
  const names = Object.keys(manifest.inputs ?? {});
  if (names.length === 0) return;
  for (const [name, input] of Object.entries(manifest.inputs!)) {
    const field = fieldName('strata.inputs', `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (!INPUT_NAME.test(name))
      throw new PluginManifestError(
        `package.json: ${field}: an input name is a letter followed by letters, digits, "-" or "_" (at most 64)`,
        'invalid',
        manifest.id,
      );
    if (input.accept !== undefined && !input.accept.split(',').every((entry) => ACCEPT_ENTRY.test(entry.trim()))) {
      throw new PluginManifestError(
        `package.json: ${field}.accept: ${JSON.stringify(input.accept)} must list file extensions (".xml") and media types ("application/json"), separated by commas`,
        'invalid',
        manifest.id,
      );
    }
  }
  if (!manifest.capabilities?.includes('inputs:read')) {
    const declared = names.map((name) => JSON.stringify(name)).join(', ');
    throw new PluginManifestError(
      `package.json: strata.inputs declares ${declared}, but strata.capabilities lacks "inputs:read", which reading inputs needs`,
      'invalid',
      manifest.id,
    );
  }
}

/** Resolves a manifest path, refusing one that leaves the plugin folder. */
function inside(folder: string, relative: string, field: string, pluginId: string): string {
  const resolved = path.resolve(folder, relative);
  const rel = path.relative(folder, resolved);
  if (rel.startsWith('..') || path.isAbsolute(rel))
    throw new PluginManifestError(`package.json: ${field} must stay inside the plugin folder`, 'invalid', pluginId);
  if (existsSync(resolved)) {
    const real = path.relative(realpathSync(folder), realpathSync(resolved));
    if (real.startsWith('..') || path.isAbsolute(real))
      throw new PluginManifestError(`package.json: ${field} links outside the plugin folder`, 'invalid', pluginId);
  }
  return resolved;
}
