import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FixtureFiles } from '../helpers/fixture-repo.ts';

/** A file name a spreadsheet would run as a formula. */
export const FORMULA_NAME = "=cmd|' calc'!A0.ts";
/** A file in the root whose path a spreadsheet would run as a formula: a CSV cell starts with it. */
export const FORMULA_ROOT_FILE = "=cmd|' calc'!A0.js";
/** A directory whose name holds a quote, markup and an ampersand. */
export const MARKUP_DIRECTORY = 'src/we"ird<&]';
/** A file name with a line break in it (Linux allows one). */
export const LINE_BREAK_NAME = 'src/line\nbreak.ts';
/** A file name with a right-to-left override in it. */
export const BIDI_NAME = 'src/\u202eevil.ts';
/** Files in `clique/`, each importing every other: more edges than Mermaid draws. */
export const CLIQUE_SIZE = 24;

/**
 * A repository for the exports: `src/a.ts` and `src/b.ts` import each
 * other, `src/b.ts` imports react, files with hostile names import
 * `src/a.ts` (one in the root, named as a formula), and a clique of files, each importing every other.
 */
export function exportRepo(): FixtureFiles {
  const files: FixtureFiles = {
    'package.json': JSON.stringify({ name: 'export-fixture', type: 'module' }),
    'src/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
    'src/b.ts': "import { a } from './a.js';\nimport React from 'react';\nexport const b = [a, React];\n",
    [`${MARKUP_DIRECTORY}/${FORMULA_NAME}`]: "import { a } from '../a.js';\nimport type { b } from '../b.js';\nexport const c: typeof b = a();\n",
    [FORMULA_ROOT_FILE]: "import { a } from './src/a.js';\nexport const g = a;\n",
    [LINE_BREAK_NAME]: "import { a } from './a.js';\nexport const d = a;\n",
    [BIDI_NAME]: "import { a } from './a.js';\nexport const e = a;\n",
    'strata.config.json': JSON.stringify({
      rules: { forbidden: [{ name: '=no-markup-imports', severity: 'error', from: { path: 'we' }, to: { path: '^src/a\\.ts$' } }] },
    }),
  };
  for (let i = 0; i < CLIQUE_SIZE; i++) {
    const imports = [];
    for (let j = 0; j < CLIQUE_SIZE; j++) if (j !== i) imports.push(`import { c${j} } from './c${j}.js';`);
    files[`clique/c${i}.ts`] = `${imports.join('\n')}\nexport const c${i} = ${i};\n`;
  }
  return files;
}

/** Adds a file whose name is not UTF-8 (byte 0xff) to `src/`. */
export async function addNonUtf8File(repo: string): Promise<void> {
  const name = Buffer.concat([Buffer.from(path.join(repo, 'src/')), Buffer.from([0x66, 0xff]), Buffer.from('.ts')]);
  await writeFile(name, "import { a } from './a.js';\nexport const f = a;\n");
}
