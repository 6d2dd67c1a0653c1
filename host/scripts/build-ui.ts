// Builds the web UI (host/ui) into host/dist/ui: the page, and its scripts and
// styles under assets/ with content hashes in their names, each also
// compressed with gzip and brotli so that the server sends them as they are.
// Run by the host's `build` script (and so by `npm ci` and `npm test`).
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { type BuildOptions, build } from 'esbuild';

const hostDir = path.resolve(fileURLToPath(import.meta.url), '../..');
const uiDir = path.join(hostDir, 'ui');
const outDir = path.join(hostDir, 'dist', 'ui');
const assetsDir = path.join(outDir, 'assets');

const common: BuildOptions = {
  bundle: true,
  format: 'esm',
  target: ['es2022', 'chrome110', 'firefox110', 'safari16'],
  minify: process.env.STRATA_UI_MINIFY !== 'false',
  sourcemap: 'linked',
  legalComments: 'linked',
  outdir: assetsDir,
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  metafile: true,
  logLevel: 'warning',
};

await rm(outDir, { recursive: true, force: true });
await mkdir(assetsDir, { recursive: true });

// The worker first: the page is told its hashed name.
const worker = await build({ ...common, entryPoints: { 'graph-worker': path.join(uiDir, 'src', 'graph-worker.ts') } });
const workerFile = outputNamed(worker.metafile!, '.js');
const page = await build({
  ...common,
  entryPoints: { strata: path.join(uiDir, 'src', 'main.ts') },
  define: { STRATA_GRAPH_WORKER_URL: JSON.stringify(`/assets/${workerFile}`) },
});
const script = outputNamed(page.metafile!, '.js');
// The first script: starts the worker and the graph's load while the browser still fetches and runs the page's bundle.
// It is written into the page as a classic script ahead of the stylesheet, so that it runs as the page is parsed: as a
// module file it ran only once the stylesheet and itself had arrived (200 ms later at start, with two cores busy). The
// server allows this one inline script by its hash (UiAssets).
const boot = await build({
  ...common,
  entryPoints: { boot: path.join(uiDir, 'src', 'boot.ts') },
  format: 'iife',
  sourcemap: false,
  legalComments: 'none',
  write: false,
  define: { STRATA_GRAPH_WORKER_URL: JSON.stringify(`/assets/${workerFile}`) },
});
const bootScript = boot.outputFiles.find((file) => file.path.endsWith('.js'))!.text.trim();
if (bootScript.includes('</script')) throw new Error('the boot script cannot be written into the page: it contains "</script"');
const style = outputNamed(page.metafile!, '.css');

const template = await readFile(path.join(uiDir, 'index.html'), 'utf8');
const html = template
  .replaceAll('%STYLE%', `/assets/${style}`)
  .replace('%BOOT%', () => bootScript)
  .replaceAll('%SCRIPT%', `/assets/${script}`)
  .replaceAll('%WORKER%', `/assets/${workerFile}`);
await writeFile(path.join(outDir, 'index.html'), html);
await writeFile(path.join(assetsDir, 'favicon.svg'), await readFile(path.join(uiDir, 'favicon.svg')));

// Compressed once here, so that the server never compresses a static file.
for (const file of [path.join(outDir, 'index.html'), ...(await readdir(assetsDir)).map((name) => path.join(assetsDir, name))]) {
  if (/\.(gz|br)$/.test(file)) continue;
  const bytes = await readFile(file);
  await writeFile(`${file}.gz`, gzipSync(bytes, { level: 9 }));
  await writeFile(
    `${file}.br`,
    brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
  );
}
process.stdout.write(
  `Built the web UI: ${path.relative(process.cwd(), outDir)} (index.html with its boot script inline, ${script}, ${style}, ${workerFile})\n`,
);

function outputNamed(metafile: { outputs: Record<string, unknown> }, extension: string): string {
  const names = Object.keys(metafile.outputs)
    .filter((output) => output.endsWith(extension))
    .map((output) => path.basename(output));
  if (names.length !== 1) throw new Error(`expected one ${extension} output, found ${names.join(', ') || 'none'}`);
  return names[0]!;
}
