/**
 * Writes `host/src/config/settings-validator.generated.ts`: Ajv's standalone
 * validation code for the settings schema (`src/config/settings-schema.ts`)
 * and for each of its leaves (what one `STRATA_*` variable sets). Loading
 * TypeBox and Ajv and compiling the schema took about 90 ms at every start of
 * the CLI; the generated module loads in about 1 ms. Run it after changing
 * the schema, on a built host:
 *
 *   npm run build && npm run generate:settings -w @strata/host
 *
 * `test/config/settings-validator.test.ts` fails when the committed module is
 * not what this script writes.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
// The built schema: Node runs this script by stripping types, and cannot follow the sources' `.js` specifiers.
import { StrataSettingsSchema, settingLeaves } from '../dist/config/settings-schema.js';

export const SETTINGS_VALIDATOR_FILE = fileURLToPath(new URL('../src/config/settings-validator.generated.ts', import.meta.url));

/** The module's text. The same options as `compileSchema` (`src/validation/schema-validator.ts`), so errors read the same. */
export function settingsValidatorModule(): string {
  const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: false, code: { source: true, esm: true, lines: true } });
  const leaves = settingLeaves(StrataSettingsSchema);
  ajv.addSchema(StrataSettingsSchema, 'settings');
  for (const [i, leaf] of leaves.entries()) ajv.addSchema(leaf.schema, `leaf${i}`);
  const exported: Record<string, string> = { settings: 'settings' };
  for (const i of leaves.keys()) exported[`leaf${i}`] = `leaf${i}`;
  let code = standaloneCode.default(ajv, exported);
  // Ajv's ESM output still `require`s its runtime helpers (ucs2length for `minLength`): make them imports.
  const runtimes = new Map<string, string>();
  code = code.replace(/require\("([^"]+)"\)/g, (_match: string, specifier: string) => {
    if (!runtimes.has(specifier)) runtimes.set(specifier, `ajvRuntime${runtimes.size}`);
    return runtimes.get(specifier)!;
  });
  // Its own exports are replaced by the typed ones below.
  code = code.replace(/^"use strict";/, '').replace(/export const (\w+) = (\w+);/g, 'const $1 = $2;');
  const imports = [...runtimes].map(([specifier, name]) => `import ${name} from '${specifier.endsWith('.js') ? specifier : `${specifier}.js`}';`);
  const leafEntries = leaves.map(
    (leaf, i) => `  { path: ${JSON.stringify(leaf.path)}, type: ${JSON.stringify(leaf.schema.type)}, validate: leaf${i} as unknown as ValidateFunction },`,
  );
  return [
    "// @ts-nocheck -- Ajv's generated code; the exports at the end are typed.",
    '// Written by host/scripts/generate-settings-validator.ts from src/config/settings-schema.ts: do not edit.',
    "import type { ValidateFunction } from 'ajv';",
    ...imports,
    code.trim(),
    '',
    '/** Checks a whole settings object: a configuration file, or the flags. */',
    'export const validateSettings = settings as unknown as ValidateFunction;',
    '',
    '/** Each setting one `STRATA_*` variable sets: its path in the settings, its JSON type, and a check of one value. */',
    'export const SETTING_LEAVES: ReadonlyArray<{ path: readonly string[]; type: string; validate: ValidateFunction }> = [',
    ...leafEntries,
    '];',
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(SETTINGS_VALIDATOR_FILE, settingsValidatorModule());
  process.stdout.write(`wrote ${SETTINGS_VALIDATOR_FILE}\n`);
}
