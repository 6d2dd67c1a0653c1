// Directories as regions on the real page (Debian's Chromium, software WebGL), after a layout computed by the
// server: each directory an outlined region labeled at its edge by the shortest path that tells it apart, no label
// over another, and a directory's overlay values shown as its region's tint, never as a disc grown over its files.
import t from 'tap';
import { launchBrowser, openPage, openUi } from '../helpers/browser.ts';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { computeLayout, postJson, startTestServer } from '../helpers/strata-server.ts';

t.setTimeout(600_000);
const browser = await launchBrowser(t);

/** A monorepo-like tree: two packages with a `src` each, docs, and imports across them. */
function monorepo(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of ['alpha', 'beta']) {
    for (let i = 0; i < 8; i++) {
      const next = i < 7 ? `import { f${i + 1} } from './f${i + 1}';\n` : '';
      files[`packages/${name}/src/f${i}.ts`] = `${next}export function f${i}(x: number) {\n  if (x > ${i}) return x;\n  return ${i};\n}\n`;
    }
    files[`packages/${name}/test/f0.test.ts`] = `import { f0 } from '../src/f0';\nf0(1);\n`;
  }
  files['packages/beta/src/f0.ts'] = `import { f0 as a } from '../../alpha/src/f0';\nexport function f0(x: number) {\n  return a(x);\n}\n`;
  for (let i = 0; i < 5; i++) files[`docs/page${i}.md`] = `# Page ${i}\n\nText.\n`;
  files['tools/build.ts'] = `import { f0 } from '../packages/alpha/src/f0';\nf0(2);\n`;
  return files;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface Region {
  id: string;
  name: string;
  label: string | undefined;
  labelBox: Box | undefined;
  box: Box;
  tint: string | undefined;
}

t.test('after a layout every directory is a labeled region, its label the shortest that tells it apart, none over another', async (t) => {
  const repo = await makeRepo(t, monorepo());
  const server = await startTestServer(t, repo);
  t.equal(await computeLayout(server, { iterations: 300 }), 200, 'a layout computed by the server');
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  await page.waitForFunction(() => (window as any).strata.still() && (window as any).strata.regions().length > 0);
  const regions = (await page.evaluate(() => (window as any).strata.regions())) as Region[];
  const byId = new Map(regions.map((region) => [region.id, region]));
  for (const id of ['dir:packages', 'dir:docs', 'dir:tools', 'dir:packages/alpha', 'dir:packages/beta', 'dir:packages/alpha/src', 'dir:packages/beta/src'])
    t.ok(byId.has(id), `${id} is drawn as a region`);
  t.notOk(byId.has('dir:.'), "the repository's own region (the whole picture) is not drawn");
  t.equal(byId.get('dir:packages/alpha/src')?.name, 'alpha/src/', 'two `src` directories: each labeled with its parent');
  t.equal(byId.get('dir:packages/beta/src')?.name, 'beta/src/');
  t.equal(byId.get('dir:docs')?.name, 'docs/', 'a unique name stands alone');
  const labeled = regions.filter((region) => region.labelBox);
  t.ok(labeled.length >= 5, `labels drawn (${labeled.map((region) => region.label).join(', ')})`);
  for (let i = 0; i < labeled.length; i++)
    for (let j = i + 1; j < labeled.length; j++) {
      const a = labeled[i]!.labelBox!;
      const b = labeled[j]!.labelBox!;
      const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
      if (!apart) t.fail(`labels ${labeled[i]!.label} and ${labeled[j]!.label} overlap`);
    }
  // Each file lies in its own top-level directory's region box on the page, and in no sibling's region box.
  const mapBox = await page.locator('#map').boundingBox();
  const inside = (at: { x: number; y: number }, box: Box): boolean =>
    at.x - mapBox!.x >= box.x && at.x - mapBox!.x <= box.x + box.width && at.y - mapBox!.y >= box.y && at.y - mapBox!.y <= box.y + box.height;
  for (const [file, own] of [
    ['file:packages/alpha/src/f3.ts', 'dir:packages/alpha'],
    ['file:packages/beta/src/f3.ts', 'dir:packages/beta'],
  ] as const) {
    const at = await page.evaluate((id) => (window as any).strata.nodeOnPage(id), file);
    t.ok(inside(at, byId.get(own)!.box), `${file} is inside its package's region`);
    const sibling = own === 'dir:packages/alpha' ? 'dir:packages/beta' : 'dir:packages/alpha';
    t.notOk(inside(at, byId.get(sibling)!.box), `${file} is outside the other package's region`);
  }
  t.same(watched.problems, [], 'no console error');
});

t.test("a directory's overlay values tint its region, its disc is not grown over its files; uncolored files turn gray", async (t) => {
  const repo = await makeRepo(t, monorepo());
  const server = await startTestServer(t, repo, { flags: { plugins: { builtIns: true } } });
  const applied = await server.api('/api/overlays/complexity/apply', postJson({}));
  t.equal(applied.status, 200, applied.status === 200 ? 'complexity applied' : JSON.stringify(applied.body));
  const styles = (await server.api('/api/overlays/complexity/styles')).body.data.overlays.find((overlay: { id: string }) => overlay.id === 'loc').styles;
  const directory = 'dir:packages/alpha/src';
  t.ok(styles[directory]?.color && styles[directory]?.size > 1, 'the overlay colors and sizes the directory (as the plugin serves it)');
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  await page.waitForFunction(() => (window as any).strata.still());
  const sizeBefore = (await page.evaluate((id) => (window as any).strata.drawnSize(id), directory)) as number;
  const fileBefore = (await page.evaluate(() => (window as any).strata.drawnSize('file:packages/alpha/src/f0.ts'))) as number;
  const languageBefore = await page.evaluate(() => (window as any).strata.drawnColor('file:docs/page0.md'));
  await page.getByRole('region', { name: 'Overlays' }).getByRole('switch', { name: 'Lines of Code' }).check();
  await page.waitForFunction((id) => {
    const strata = (window as any).strata;
    return strata.still() && strata.regions().some((region: Region) => region.id === id && region.tint);
  }, directory);
  const region = ((await page.evaluate(() => (window as any).strata.regions())) as Region[]).find((r) => r.id === directory)!;
  t.equal(region.tint, styles[directory].color, "the region is tinted with the directory's overlay color");
  t.equal(await page.evaluate((id) => (window as any).strata.drawnSize(id), directory), sizeBefore, "the directory's disc keeps its size");
  t.not(await page.evaluate(() => (window as any).strata.drawnSize('file:packages/alpha/src/f0.ts')), fileBefore, 'a file is sized by the overlay');
  // A file the overlay does not color steps back to gray: its language's color would read as a value of the overlay.
  t.notOk(styles['file:docs/page0.md']?.color, 'the overlay does not color the Markdown page');
  t.equal(languageBefore, '#E69F00', "before, the page has its language's color (Markdown, the second language)");
  t.equal(await page.evaluate(() => (window as any).strata.drawnColor('file:docs/page0.md')), '#a0a0a0', 'with the color overlay shown, it is gray');
  t.same(watched.problems, [], 'no console error');
});

t.test("a selected hub's hundred neighbours do not all force their labels: the largest few do", async (t) => {
  const files: Record<string, string> = { 'src/hub.ts': 'export const hub = 1;\n' };
  for (let i = 0; i < 100; i++) files[`src/users/u${i}.ts`] = `import { hub } from '../hub';\nexport const u${i} = hub + ${i};\n`;
  const repo = await makeRepo(t, files);
  const server = await startTestServer(t, repo);
  t.equal(await computeLayout(server, { iterations: 200 }), 200, 'a layout computed by the server');
  const watched = await openPage(browser);
  const { page } = watched;
  await page.goto(`${server.url}/#node=${encodeURIComponent('file:src/hub.ts')}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  await page.waitForFunction(() => (window as any).strata.still() && (window as any).strata.forcedLabels().includes('file:src/hub.ts'));
  const forced = (await page.evaluate(() => (window as any).strata.forcedLabels())) as string[];
  const neighbours = forced.filter((id) => id.startsWith('file:src/users/'));
  t.ok(neighbours.length > 0 && neighbours.length <= 24, `${neighbours.length} of the 100 neighbours force their labels`);
  t.ok(forced.includes('file:src/hub.ts'), 'the selection is labeled');
  t.same(watched.problems, [], 'no console error');
});

t.test('a map with too many imports to draw one by one shows them summed between the regions drawn, split as a region opens', async (t) => {
  // 1,800 files in two top-level directories of six subdirectories each; each file imports three others: 5,400 imports.
  const files: Record<string, string> = {};
  const paths: string[] = [];
  for (const top of ['app', 'lib']) for (let d = 0; d < 6; d++) for (let f = 0; f < 150; f++) paths.push(`${top}/part${d}/m${f}.ts`);
  paths.forEach((file, i) => {
    const imports = [1, 7, 401].map((step) => paths[(i + step * (i % 5 === 0 ? 3 : 1)) % paths.length]!);
    const relative = (to: string): string => `${'../'.repeat(2)}${to.replace(/\.ts$/, '')}`;
    files[file] = `${imports.map((to, k) => `import { v as v${k} } from '${relative(to)}';`).join('\n')}\nexport const v = ${i};\n`;
  });
  const repo = await makeRepo(t, files);
  const server = await startTestServer(t, repo, { flags: { watch: false } });
  t.equal(await computeLayout(server, { iterations: 100 }), 200, 'a layout computed by the server');
  const graph = (await server.api('/api/graph')).body.data as { edges: Array<{ source: string; target: string; kind: string }> };
  const imports = graph.edges.filter((edge) => edge.kind === 'imports');
  t.ok(imports.length > 5_000, `${imports.length} imports: more than the map draws one by one`);
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  await page.waitForFunction(() => (window as any).strata.still() && (window as any).strata.regionEdges().length > 0);
  type Summed = { source: string; target: string; count: number };
  const below = (file: string, directory: string): boolean => file.startsWith(`file:${directory.slice('dir:'.length)}/`);
  const check = async (when: string): Promise<Summed[]> => {
    const edges = (await page.evaluate(() => (window as any).strata.regionEdges())) as Summed[];
    const drawn = new Set(((await page.evaluate(() => (window as any).strata.regions())) as Region[]).map((region) => region.id));
    t.ok(edges.length > 0, `${when}: ${edges.length} summed edges drawn`);
    t.ok(
      edges.every((edge) => drawn.has(edge.source) && drawn.has(edge.target) && edge.source !== edge.target),
      `${when}: each between two regions drawn`,
    );
    const heaviest = edges[0]!;
    const exact = imports.filter((edge) => below(edge.source, heaviest.source) && below(edge.target, heaviest.target)).length;
    t.equal(heaviest.count, exact, `${when}: the heaviest (${heaviest.source} -> ${heaviest.target}) sums the ${exact} imports between them`);
    return edges;
  };
  const far = await check('fitted');
  const depth = (id: string): number => id.split('/').length;
  for (let i = 0; i < 4; i++) await page.keyboard.press('+');
  await page.waitForFunction(() => (window as any).strata.still());
  await page.waitForTimeout(300);
  const near = await check('zoomed in');
  t.ok(
    Math.max(...near.map((edge) => Math.max(depth(edge.source), depth(edge.target)))) >
      Math.min(...far.map((edge) => Math.min(depth(edge.source), depth(edge.target)))),
    'zoomed in, regions open: their subdirectories take the ends',
  );
  t.same(watched.problems, [], 'no console error');
});
