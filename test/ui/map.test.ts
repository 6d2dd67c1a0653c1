// The web UI in a real browser (Debian's Chromium, software WebGL): the map,
// the node panel, search, filters and the view in the URL.
import { createHash } from 'node:crypto';
import t from 'tap';
import { launchBrowser, openPage, openUi } from '../helpers/browser.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { postJson, startTestServer } from '../helpers/strata-server.ts';

// A browser and a server per case: more than tap's default two minutes when the machine is busy.
t.setTimeout(600_000);
const browser = await launchBrowser(t);
// One server for the cases that only read: each start loads the built-in plugins' sandboxes.
const sampleRepo = await makeRepo(t, SAMPLE_REPO);
const sample = await startTestServer(t, sampleRepo);

t.test('the page loads without a console error and shows the graph the API serves', async (t) => {
  const server = sample;
  const graph = await server.api('/api/graph');
  const watched = await openPage(browser);
  await openUi(watched, server.url);
  const summary = watched.page.locator('[data-role="summary"]');
  t.equal(await summary.getAttribute('data-nodes'), String(graph.body.meta.nodeCount), "the node count is the API's");
  t.equal(await summary.getAttribute('data-edges'), String(graph.body.meta.edgeCount), "the edge count is the API's");
  t.match(await summary.textContent(), /\d+ nodes · \d+ files/);
  t.ok(await watched.page.evaluate(() => (window as any).strata.isVisible('file:src/index.ts')), 'files are drawn');
  t.notOk(
    await watched.page.evaluate(() => (window as any).strata.isVisible('sym:src/util/format.ts#format')),
    'symbols are not drawn until their file is expanded',
  );
  t.equal(await watched.page.getByText('No saved layout').count(), 1, 'without a saved layout the page offers to compute one');
  t.same(watched.problems, [], 'no console error');
});

t.test('the page and its assets: cached by hash, compressed, served without a token', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo, { flags: { port: 0, authToken: 'a-secret-token-of-some-length' } });
  const page = await fetch(`${server.url}/`, { headers: { 'accept-encoding': 'gzip, br' } });
  t.equal(page.status, 200, 'the page needs no token (it asks for one)');
  t.match(page.headers.get('content-encoding'), /^(br|gzip)$/, 'compressed');
  t.equal(page.headers.get('cache-control'), 'no-cache', 'the page is revalidated, so a new build is seen');
  const policy = page.headers.get('content-security-policy') ?? '';
  t.match(policy, /default-src 'self'/);
  const html = await page.text();
  const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
  t.equal(inline.length, 1, 'one inline script: the boot script, which starts the graph worker while the page loads');
  const scriptSources = /script-src ([^;]*)/.exec(policy)?.[1]?.split(' ') ?? [];
  t.same(
    scriptSources,
    ["'self'", `'sha256-${createHash('sha256').update(inline[0]!, 'utf8').digest('base64')}'`],
    "scripts: this server's, and that inline script by its hash only",
  );
  const script = /src="(\/assets\/strata-[A-Z0-9]{8}\.js)"/.exec(html)?.[1];
  t.ok(script, 'the script is named by its hash');
  const asset = await fetch(server.url + script!, { headers: { 'accept-encoding': 'gzip' } });
  t.equal(asset.status, 200);
  t.equal(asset.headers.get('content-encoding'), 'gzip');
  t.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const etag = asset.headers.get('etag')!;
  await asset.arrayBuffer();
  const again = await fetch(server.url + script!, { headers: { 'if-none-match': etag } });
  t.equal(again.status, 304, 'a cached copy is confirmed by its ETag');
  const api = await fetch(`${server.url}/api/graph`);
  t.equal(api.status, 401, 'the API still needs the token');
  const missing = await fetch(`${server.url}/assets/nothing-here.js`);
  t.equal(missing.status, 404);
  t.equal((await missing.json()).error.code, 'NOT_FOUND');
  const sneaky = await fetch(`${server.url}/assets/..%2Fapi%2Fgraph`);
  t.not(sneaky.status, 200, 'an encoded path is not an asset');
});

t.test('search finds a node by a fuzzy name, with the keyboard, and the node panel leads along its edges', async (t) => {
  const server = sample;
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  await page.keyboard.press('/');
  const search = page.getByRole('combobox', { name: 'Search' });
  t.ok(await search.evaluate((input) => input === document.activeElement), '/ focuses the search box');
  await search.fill('helpr');
  const results = page.getByRole('listbox', { name: 'Search results' });
  await results.getByRole('option').first().waitFor();
  t.equal(await results.getByRole('option').first().getAttribute('data-node'), 'file:src/util/helper.ts', 'a typo still finds the file, ranked first');
  await search.fill('util form');
  await results.locator('[data-node="file:src/util/format.ts"]').waitFor();
  t.pass('terms match parts of the path');
  await search.fill('format');
  await results.locator('[data-node="file:src/util/format.ts"]').waitFor();
  const options = await results.getByRole('option').evaluateAll((items) => items.map((item) => item.getAttribute('data-node')));
  const target = options.indexOf('sym:src/util/format.ts#format');
  t.ok(target >= 0, 'symbols are found by name');
  for (let i = 0; i < target; i++) await search.press('ArrowDown');
  await search.press('Enter');
  const panel = page.getByRole('complementary', { name: 'Node' });
  await panel.getByRole('heading', { name: 'format' }).waitFor();
  t.match(await panel.textContent(), /function/);
  t.ok(await page.evaluate(() => (window as any).strata.isVisible('sym:src/util/format.ts#format')), 'choosing a symbol expands its file');
  await page.waitForFunction(() => location.hash.includes('node='));
  t.match(decodeURIComponent(await page.evaluate(() => location.hash)), /node=sym:src\/util\/format\.ts#format/, 'the URL holds the selection');

  // Along the edges: the file, then the file that imports it.
  await panel.getByRole('button', { name: 'Parent' }).click();
  await panel.getByRole('heading', { name: 'format.ts' }).waitFor();
  await panel.locator('button[data-node="file:src/util/helper.ts"]').click();
  await panel.getByRole('heading', { name: 'helper.ts' }).waitFor();
  t.match(await panel.textContent(), /Incoming \(\d+\)/);
  t.equal(
    await panel.getByRole('link', { name: 'Open in editor' }).getAttribute('href'),
    `vscode://file${encodeURI(sampleRepo)}/src/util/helper.ts:1`,
    'a link opens the file in the editor',
  );
  t.same(watched.problems, [], 'no console error');
});

t.test('the node panel shows the complexity the indexer measured (a Python function, its file)', async (t) => {
  // total: 1 + for + if = 3; cognitive: for 1, if (nesting 1) 2 = 3.
  const repo = await makeRepo(t, { 'app/calc.py': 'def total(xs):\n    s = 0\n    for x in xs:\n        if x > 0:\n            s += x\n    return s\n' });
  const server = await startTestServer(t, repo);
  const watched = await openPage(browser);
  await openUi(watched, `${server.url}/#node=${encodeURIComponent('sym:app/calc.py#total')}`);
  const panel = watched.page.getByRole('complementary', { name: 'Node' });
  await panel.getByRole('heading', { name: 'total' }).waitFor();
  const facts = await panel
    .locator('dl.facts')
    .evaluate((list) => Object.fromEntries([...list.querySelectorAll('dt')].map((term) => [term.textContent, term.nextElementSibling?.textContent])));
  t.match(facts, { 'Cyclomatic complexity': '3', 'Cognitive complexity': '3', 'Lines of code': '6' });
  await panel.getByRole('button', { name: 'Parent' }).click();
  await panel.getByRole('heading', { name: 'calc.py' }).waitFor();
  t.match(await panel.textContent(), /Cyclomatic complexity3/, 'the file: the sum over its functions');
  t.same(watched.problems, [], 'no console error');
});

t.test('clicking a node on the map selects it and highlights its neighbours; a copied link shows the same view', async (t) => {
  const server = sample;
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  const at = await page.evaluate(() => (window as any).strata.nodeOnPage('file:src/index.ts'));
  t.ok(at, 'the file is drawn');
  await page.mouse.click(at.x, at.y);
  const panel = page.getByRole('complementary', { name: 'Node' });
  await panel.getByRole('heading', { name: 'index.ts' }).waitFor();
  // The node panel takes room from the map: the map is drawn again at its new width, not left covering the panel.
  const widths = () =>
    page.evaluate(() => {
      const map = document.getElementById('map')!;
      return {
        map: Math.round(map.getBoundingClientRect().width),
        canvases: [...map.querySelectorAll('canvas')]
          .filter((canvas) => getComputedStyle(canvas).display !== 'none')
          .map((canvas) => Math.round(canvas.getBoundingClientRect().width)),
      };
    });
  await page.waitForFunction(() => (window as any).strata.still());
  const drawn = await widths();
  t.ok(
    drawn.canvases.length > 0 && drawn.canvases.every((width) => width === drawn.map),
    `sigma's canvases are as wide as the map beside the node panel (${JSON.stringify(drawn)})`,
  );
  await page.waitForFunction(() => location.hash.includes('camera='));
  const link = await page.evaluate(() => location.href);

  const other = await openPage(browser);
  await openUi(other, link);
  await other.page.getByRole('complementary', { name: 'Node' }).getByRole('heading', { name: 'index.ts' }).waitFor();
  const [first, second] = await Promise.all([page, other.page].map((p) => p.evaluate(() => (window as any).strata.camera())));
  t.ok(Math.abs(first.x - second.x) < 1e-3 && Math.abs(first.y - second.y) < 1e-3 && Math.abs(first.ratio - second.ratio) < 1e-3, 'same camera');
  t.same([...watched.problems, ...other.problems], []);
});

t.test('a node that the map brings under a still pointer is hovered', async (t) => {
  const server = sample;
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  const still = (ratio: number) => page.waitForFunction((r) => (window as any).strata.camera().ratio === r && (window as any).strata.still(), ratio);
  const fitted = await page.evaluate(() => (window as any).strata.nodeOnPage('file:src/index.ts'));
  // Zoomed in, the file is elsewhere; the pointer waits where the fit will bring it back.
  await page.locator('body').press('+');
  await still(1 / 1.5);
  const zoomed = await page.evaluate(() => (window as any).strata.nodeOnPage('file:src/index.ts'));
  t.ok(Math.hypot(zoomed.x - fitted.x, zoomed.y - fitted.y) > 20, 'the zoom moved the file away from the pointer');
  await page.mouse.move(fitted.x, fitted.y);
  const card = page.getByRole('tooltip');
  t.notMatch((await card.isVisible()) ? await card.textContent() : '', /index\.ts/, 'the file is not under the pointer yet');
  await page.locator('body').press('0');
  await card.filter({ hasText: 'index.ts' }).waitFor();
  t.pass('the fit brought the file under the pointer, and it is hovered without a move');
  t.same(watched.problems, []);
});

t.test('files are drawn over directories: on a crowded map a directory does not hide the files under it', async (t) => {
  const repo = await makeRepo(t, { 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': "import { a } from './a';\n", 'lib/c.ts': 'export const c = 3;\n' });
  const server = await startTestServer(t, repo);
  // The file where its directory is (as on a dense map, where discs cover each other), the rest far off.
  const positions = {
    'dir:.': { x: 0, y: 10 },
    'dir:src': { x: 0, y: 0 },
    'file:src/a.ts': { x: 0, y: 0 },
    'file:src/b.ts': { x: -10, y: -5 },
    'dir:lib': { x: 10, y: -5 },
    'file:lib/c.ts': { x: 10, y: 5 },
  };
  t.equal((await server.api('/api/graph/layout', postJson({ positions }))).status, 200);
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  await page.waitForFunction(() => (window as any).strata.still());
  const at = await page.evaluate(() => (window as any).strata.nodeOnPage('file:src/a.ts'));
  const png = await page.screenshot({ clip: { x: Math.round(at.x), y: Math.round(at.y), width: 1, height: 1 } });
  const [r, g, b] = await page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const context = new OffscreenCanvas(1, 1).getContext('2d')!;
    context.drawImage(image, 0, 0);
    return [...context.getImageData(0, 0, 1, 1).data];
  }, png.toString('base64'));
  // TypeScript, the graph's first language, is the Okabe-Ito blue (#0072B2); a directory is gray (#6e7781).
  t.ok(
    Math.abs(r! - 0x00) < 40 && Math.abs(g! - 0x72) < 40 && Math.abs(b! - 0xb2) < 40,
    `the file's color at its center, not its directory's (rgb ${r}, ${g}, ${b})`,
  );
  t.same(watched.problems, []);
});

t.test('filters, focus, collapse and keyboard shortcuts', async (t) => {
  const server = sample;
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  const visible = (id: string) => page.evaluate((node) => (window as any).strata.isVisible(node), id);
  const languages = page.getByRole('group', { name: 'Languages' });
  await languages.getByLabel('javascript').uncheck();
  t.notOk(await visible('file:src/legacy/index.js'), 'a language filtered out is not drawn');
  t.ok(await visible('file:src/index.ts'));
  await languages.getByLabel('javascript').check();
  t.ok(await visible('file:src/legacy/index.js'));

  // Select a directory with search, collapse it with "e", focus on it with "f".
  await page.getByRole('combobox', { name: 'Search' }).fill('src/util');
  await page.locator('#search-results [data-node="dir:src/util"]').waitFor();
  await page.locator('#search-results [data-node="dir:src/util"]').click();
  await page.getByRole('complementary', { name: 'Node' }).getByRole('heading', { name: 'util' }).waitFor();
  await page.locator('body').press('e');
  t.notOk(await visible('file:src/util/helper.ts'), 'a collapsed directory hides its files');
  t.ok(await visible('dir:src/util'), 'the directory itself stays');
  await page.locator('body').press('e');
  t.ok(await visible('file:src/util/helper.ts'), 'and shows them again');
  await page.locator('body').press('f');
  t.notOk(await visible('file:src/index.ts'), 'outside the focused directory nothing is drawn');
  t.ok(await visible('file:src/util/format.ts'));
  t.match(await page.locator('[data-role="focus"]').textContent(), /Focused on src\/util/);
  await page.locator('body').press('f');
  t.ok(await visible('file:src/index.ts'), 'f again shows everything');

  await page.locator('body').press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await help.waitFor();
  t.match(await help.textContent(), /Search/);
  await page.keyboard.press('Escape');
  await page.locator('body').press('t');
  t.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark', 't switches the theme');
  t.same(watched.problems, []);
});

t.test('the theme follows the system', async (t) => {
  const server = sample;
  const watched = await openPage(browser, { colorScheme: 'dark' });
  await openUi(watched, server.url);
  t.equal(await watched.page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  t.equal(await watched.page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(13, 17, 23)');
  t.same(watched.problems, []);
});

t.test('an empty repository and a graph of one node render without errors', async (t) => {
  const repositories: Array<Record<string, string>> = [{}, { 'only.ts': 'export const x = 1;\n' }];
  for (const files of repositories) {
    const repo = await makeRepo(t, files);
    const server = await startTestServer(t, repo);
    const graph = await server.api('/api/graph');
    const watched = await openPage(browser);
    await openUi(watched, server.url);
    t.equal(await watched.page.locator('[data-role="summary"]').getAttribute('data-nodes'), String(graph.body.meta.nodeCount));
    t.same(watched.problems, [], `no console error with ${graph.body.meta.nodeCount} node(s)`);
  }
});
