import type { FixtureFiles } from './fixture-repo.ts';

/**
 * A TypeScript project with import cycles of every shape the analysis tells
 * apart, for the cycle, impact and metrics tests (and the peers run on it):
 *
 * - `src/ring`: one -> two -> three -> one (a cycle of three, no shorter one);
 * - `src/core`: a <-> b, b -> c -> a (one component of three, shortest cycle a, b);
 * - `src/types`: x <-> y through `import type` only;
 * - `src/mixed`: m -> n by `import type`, n -> m by a value import;
 * - `src/lazy`: p -> q by a dynamic `import()`, q -> p by a static one;
 * - `src/legacy`: e <-> f by `require` (CommonJS);
 * - `src/left`, `src/right`: no file cycle, but each directory imports the other;
 * - `src/app.ts` imports into all of them but `src/legacy` (and `node:fs`), and nothing imports it.
 */
export const IMPORT_CYCLES_REPO: FixtureFiles = {
  'package.json': JSON.stringify({ name: 'cycles', type: 'module' }),
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, allowJs: true } }),
  'src/ring/one.ts': "import { two } from './two.js';\nexport const one = () => two();\n",
  'src/ring/two.ts': "import { three } from './three.js';\nexport const two = () => three();\n",
  'src/ring/three.ts': "import { one } from './one.js';\nexport const three = () => one;\n",
  'src/core/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
  'src/core/b.ts': "import { a } from './a.js';\nimport { c } from './c.js';\nexport const b = () => [a, c];\n",
  'src/core/c.ts': "import { a } from './a.js';\nexport const c = () => a;\n",
  'src/types/x.ts': "import type { Y } from './y.js';\nexport interface X { y: Y }\n",
  'src/types/y.ts': "import type { X } from './x.js';\nexport interface Y { x?: X }\n",
  'src/mixed/m.ts': "import type { N } from './n.js';\nexport const m = (n: N) => n;\n",
  'src/mixed/n.ts': "import { m } from './m.js';\nexport type N = { f: typeof m };\n",
  'src/lazy/p.ts': "export const p = () => import('./q.js');\n",
  'src/lazy/q.ts': "import { p } from './p.js';\nexport const q = p;\n",
  'src/legacy/e.cjs': "const f = require('./f.cjs');\nmodule.exports = { e: () => f };\n",
  'src/legacy/f.cjs': "const e = require('./e.cjs');\nmodule.exports = { f: () => e };\n",
  'src/left/l1.ts': "import { r1 } from '../right/r1.js';\nexport const l1 = r1;\n",
  'src/left/l2.ts': 'export const l2 = 2;\n',
  'src/right/r1.ts': 'export const r1 = 1;\n',
  'src/right/r2.ts': "import { l2 } from '../left/l2.js';\nexport const r2 = l2;\n",
  'src/app.ts': [
    "import { one } from './ring/one.js';",
    "import { a } from './core/a.js';",
    "import { l1 } from './left/l1.js';",
    "import { r2 } from './right/r2.js';",
    "import { q } from './lazy/q.js';",
    "import { m } from './mixed/m.js';",
    "import type { X } from './types/x.js';",
    "import { readFileSync } from 'node:fs';",
    'export const app = [one, a, l1, r2, q, m, readFileSync] as unknown as X;',
    '',
  ].join('\n'),
};

/** The components of IMPORT_CYCLES_REPO with every import counted, largest first, then by first member. */
export const EXPECTED_FILE_CYCLES = [
  { members: ['file:src/core/a.ts', 'file:src/core/b.ts', 'file:src/core/c.ts'], edgeCount: 4, cycle: ['file:src/core/a.ts', 'file:src/core/b.ts'] },
  {
    members: ['file:src/ring/one.ts', 'file:src/ring/three.ts', 'file:src/ring/two.ts'],
    edgeCount: 3,
    cycle: ['file:src/ring/one.ts', 'file:src/ring/two.ts', 'file:src/ring/three.ts'],
  },
  { members: ['file:src/lazy/p.ts', 'file:src/lazy/q.ts'], edgeCount: 2, cycle: ['file:src/lazy/p.ts', 'file:src/lazy/q.ts'] },
  { members: ['file:src/legacy/e.cjs', 'file:src/legacy/f.cjs'], edgeCount: 2, cycle: ['file:src/legacy/e.cjs', 'file:src/legacy/f.cjs'] },
  { members: ['file:src/mixed/m.ts', 'file:src/mixed/n.ts'], edgeCount: 2, cycle: ['file:src/mixed/m.ts', 'file:src/mixed/n.ts'] },
  { members: ['file:src/types/x.ts', 'file:src/types/y.ts'], edgeCount: 2, cycle: ['file:src/types/x.ts', 'file:src/types/y.ts'] },
];
