import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** File contents by repository-relative path; a `{ symlink }` entry makes a symbolic link. */
export type FixtureFiles = Record<string, string | Buffer | { symlink: string }>;

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** Writes a repository into a fresh temporary directory, removed when the test ends. */
export async function makeRepo(t: Teardown, files: FixtureFiles): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'strata-test-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await writeFiles(root, files);
  return root;
}

/** Adds or overwrites files in a repository. */
export async function writeFiles(root: string, files: FixtureFiles): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(root, relative);
    await mkdir(path.dirname(target), { recursive: true });
    if (typeof content === 'object' && !Buffer.isBuffer(content)) await symlink(content.symlink, target);
    else await writeFile(target, content);
  }
}

/** A small TypeScript project with every kind of relative import the indexer resolves. */
export const SAMPLE_REPO: FixtureFiles = {
  'package.json': JSON.stringify({ name: 'sample', type: 'module' }),
  '.gitignore': 'dist/\n*.log\n',
  'README.md': '# Sample\n\nA fixture.\n',
  'src/index.ts': [
    "import { helper } from './util/helper.js';",
    "import type { Shape } from './types';",
    "export { format } from './util/format';",
    "const lazy = () => import('./lazy.js');",
    '// a comment line',
    '',
    'export const main = (s: Shape) => helper(s) + lazy.length;',
    '',
  ].join('\n'),
  'src/types.ts': 'export interface Shape { size: number }\n',
  'src/lazy.ts': 'export default 1;\n',
  'src/util/helper.ts': "import { format } from './format';\nexport function helper(x: unknown) { return format(x); }\n",
  'src/util/format.ts': 'export function format(x: unknown) {\n  /* block\n     comment */\n  return String(x);\n}\n',
  'src/legacy/index.js': "const cfg = require('../../config.cjs');\nmodule.exports = cfg;\n",
  'src/legacy/user.js': "const legacy = require('.');\nmodule.exports = legacy;\n",
  'config.cjs': 'module.exports = { ok: true };\n',
  'dist/out.js': 'ignored\n',
  'debug.log': 'ignored\n',
  'node_modules/dep/index.js': 'ignored\n',
  'docs/.gitignore': 'private/\n!keep.md\n',
  'docs/guide.md': '# Guide\n',
  'docs/private/secret.md': 'ignored by a nested .gitignore\n',
  'docs/keep.md': 'kept\n',
};
