import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { SDK_VERSION } from '@strata/sdk';

const root = path.resolve(fileURLToPath(import.meta.url), '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|js|mjs|cjs)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

t.test('the SDK imports nothing from the host', async (t) => {
  const manifest = JSON.parse(readFileSync(path.join(root, 'sdk/package.json'), 'utf8'));
  const dependencies = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  t.notOk(dependencies.includes('@strata/host'), 'no dependency on @strata/host');
  for (const file of sources(path.join(root, 'sdk/src'))) {
    const text = readFileSync(file, 'utf8');
    const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
    for (const specifier of specifiers) {
      t.ok(specifier.startsWith('./') && !path.resolve(path.dirname(file), specifier).startsWith(path.join(root, 'host')), `${path.relative(root, file)} imports ${specifier}, inside the SDK`);
    }
  }
});

t.test('the SDK exports its version as semver', async (t) => {
  t.match(SDK_VERSION, /^\d+\.\d+\.\d+(-[\w.]+)?$/);
  const manifest = JSON.parse(readFileSync(path.join(root, 'sdk/package.json'), 'utf8'));
  t.equal(SDK_VERSION, manifest.version, 'SDK_VERSION is the package version');
});
