import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SDK_VERSION } from '@strata/sdk';
import t from 'tap';

const root = path.resolve(fileURLToPath(import.meta.url), '../../..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|js|mjs|cjs)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Import specifiers of a source file, comments left out. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

t.test('the SDK imports nothing from the host', async (t) => {
  const manifest = JSON.parse(readFileSync(path.join(root, 'sdk/package.json'), 'utf8'));
  const dependencies = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  t.notOk(dependencies.includes('@strata/host'), 'no dependency on @strata/host');
  const sdkSources = path.join(root, 'sdk/src');
  for (const file of sources(sdkSources)) {
    for (const specifier of importsOf(file)) {
      const allowed = specifier.startsWith('.')
        ? path.resolve(path.dirname(file), specifier).startsWith(sdkSources + path.sep)
        : specifier.startsWith('node:') || dependencies.includes(specifier);
      t.ok(allowed, `${path.relative(root, file)} imports ${specifier}: inside the SDK, Node's own, or a declared dependency`);
    }
  }
});

t.test('the SDK exports its version as semver', async (t) => {
  t.match(SDK_VERSION, /^\d+\.\d+\.\d+(-[\w.]+)?$/);
  const manifest = JSON.parse(readFileSync(path.join(root, 'sdk/package.json'), 'utf8'));
  t.equal(SDK_VERSION, manifest.version, 'SDK_VERSION is the package version');
});
