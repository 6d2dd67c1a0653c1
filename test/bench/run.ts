/** Runs every benchmark under test/bench, one after the other: `npm run bench`. */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
let failed = 0;
for (const file of readdirSync(here)
  .filter((name) => name.endsWith('.bench.ts'))
  .sort()) {
  process.stdout.write(`\n## ${file}\n\n`);
  const result = spawnSync(process.execPath, [path.join(here, file), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
