// The web UI kept live, in a real browser: files changed on disk, plugins
// saved under --dev, the layout computed and cancelled, a token, and a server
// that stops and comes back.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { countMapPixels, launchBrowser, openPage, openUi } from '../helpers/browser.ts';
import { pluginCode, writePlugin } from '../helpers/fixture-plugins.ts';
import { type FixtureFiles, makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { computeLayout, nodePath, startTestServer } from '../helpers/strata-server.ts';
import { until } from '../helpers/until.ts';

// A browser and a server per case: more than tap's default two minutes when the machine is busy.
t.setTimeout(600_000);
const browser = await launchBrowser(t);

t.test('a file added on disk appears next to its directory, without a reload, the camera and the other nodes left in place', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  const requests: string[] = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname + new URL(request.url()).search));
  await page.mouse.move(700, 400);
  await page.mouse.wheel(0, -300);
  // The wheel's zoom is animated: wait until the page says the camera holds still. (Two equal readings 150 ms
  // apart were taken for it, and on a busy machine the animation's frames came later: the camera went on zooming
  // after the test had read it, and "did not move" failed in CI.)
  await page.waitForFunction(() => (window as any).strata.camera().ratio < 1 && (window as any).strata.still(), undefined, { timeout: 10_000 });
  const before = await page.evaluate(() => ({
    camera: (window as any).strata.camera(),
    index: (window as any).strata.position('file:src/index.ts'),
    util: (window as any).strata.position('dir:src/util'),
  }));

  await writeFile(path.join(repo, 'src/util/added.ts'), "import { format } from './format';\nexport const added = format(1);\n");
  await page.waitForFunction(() => (window as any).strata.isVisible('file:src/util/added.ts'), undefined, { timeout: 10_000 });
  const after = await page.evaluate(() => ({
    camera: (window as any).strata.camera(),
    index: (window as any).strata.position('file:src/index.ts'),
    added: (window as any).strata.position('file:src/util/added.ts'),
  }));
  t.same(after.camera, before.camera, 'the camera did not move');
  t.same(after.index, before.index, 'nodes already placed stay');
  const graph = (await server.api('/api/graph')).body;
  const xs = graph.data.nodes.map((node: { id: string }) => node.id);
  t.equal(await page.locator('[data-role="summary"]').getAttribute('data-nodes'), String(xs.length), 'the count follows');
  const positions = await page.evaluate((ids: string[]) => ids.map((id) => (window as any).strata.position(id)), xs);
  const extent = Math.max(...positions.map((p: { x: number }) => p.x)) - Math.min(...positions.map((p: { x: number }) => p.x));
  t.ok(Math.hypot(after.added.x - before.util.x, after.added.y - before.util.y) < extent * 0.1, 'the new file sits next to its directory');
  t.ok(
    requests.some((url) => url.startsWith('/api/graph/changes?since=')),
    'the page asked for the change',
  );
  t.notOk(requests.includes('/api/graph'), 'and not for the whole graph');

  // The node panel follows a change of the node it shows.
  await page.getByRole('combobox', { name: 'Search' }).fill('format.ts');
  await page.locator('#search-results [data-node="file:src/util/format.ts"]').click();
  const panel = page.getByRole('complementary', { name: 'Node' });
  await panel.locator('button[data-node="file:src/util/added.ts"]').waitFor();
  t.pass('the new importer is listed among the incoming edges');
  t.same(watched.problems, []);
});

t.test('with a saved layout, a file added on disk is drawn where the server placed and saved it', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  t.equal(await computeLayout(server, { iterations: 100, seed: 2 }), 200, 'a layout is computed');
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  await writeFile(path.join(repo, 'src/util/placed.ts'), "import { format } from './format';\nexport const placed = format(2);\n");
  await page.waitForFunction(() => (window as any).strata.isVisible('file:src/util/placed.ts'), undefined, { timeout: 10_000 });
  const saved = (await server.api(nodePath('file:src/util/placed.ts'))).body.data.position;
  t.ok(saved, `the server placed it (${JSON.stringify(saved)})`);
  t.same(await page.evaluate(() => (window as any).strata.position('file:src/util/placed.ts')), saved, 'the page draws it at that position');
  t.same(watched.problems, []);
});

t.test('a plugin saved under --dev repaints the map', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await mkdtemp(path.join(tmpdir(), 'strata-ui-dev-'));
  t.teardown(() => rm(plugins, { recursive: true, force: true }));
  const painter = (color: string) => ({
    id: 'painter',
    code: pluginCode(
      `const o = ctx.overlay('paint'); for (const i of ctx.graph.nodesOfKind('file')) o.set(i, { color: '${color}', value: 1 });`,
      `[{ id: 'paint', name: 'Paint', type: 'color', legend: { all: '${color}' } }]`,
    ),
  });
  await writePlugin(path.join(plugins, 'painter'), painter('#ff00ff'));
  const server = await startTestServer(t, repo, { flags: { port: 0, dev: true, plugins: { directories: [plugins] } } });
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  await page.getByRole('switch', { name: 'Paint' }).check();
  await page.locator('.plugin[data-plugin="painter"][data-state="active"]').waitFor();
  await page.waitForTimeout(300);
  t.ok((await countMapPixels(page, '#ff00ff')) > 20, 'painted magenta');

  const saved = Date.now();
  await writePlugin(path.join(plugins, 'painter'), painter('#00ffff'));
  let cyan = 0;
  while (Date.now() - saved < 15_000 && (cyan = await countMapPixels(page, '#00ffff')) < 20) await page.waitForTimeout(100);
  t.ok(cyan >= 20, `the save repainted the map (in ${Date.now() - saved} ms here; npm run bench:ui measures it)`);
  t.equal(await countMapPixels(page, '#ff00ff'), 0, 'the old color is gone');
  t.same(watched.problems, []);
});

t.test('the layout: compute with progress, cancel, drag a node, save and reset', async (t) => {
  const files: FixtureFiles = { 'package.json': '{"name":"big","type":"module"}' };
  for (let d = 0; d < 12; d++)
    for (let f = 0; f < 25; f++) files[`src/d${d}/f${f}.ts`] = `import '../d${(d + 1) % 12}/f${f}.js';\nexport const v${f} = ${f};\n`;
  const repo = await makeRepo(t, files);
  const server = await startTestServer(t, repo);
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  const layout = page.getByRole('region', { name: 'Layout' });
  // The page does not wait for it: the server's first answer loads TensorFlow.js in a worker.
  await layout
    .locator('[data-role="layout-device"]')
    .filter({ hasText: /Computes on (wasm|cpu|tensorflow)/ })
    .waitFor({ timeout: 30_000 });
  t.match(await layout.locator('[data-role="layout-device"]').textContent(), /Computes on (wasm|cpu|tensorflow)/, 'the backend, and whether a GPU computes');
  t.match(await layout.locator('[data-role="layout-device"]').textContent(), /no GPU/, 'no GPU on this machine');

  await layout.getByLabel('Iterations').fill('10000');
  await layout.getByRole('button', { name: 'Compute layout' }).click();
  const status = layout.getByRole('status', { name: 'Layout status' });
  await page.waitForFunction(() => /Running: [1-9]\d* of 10000/.test(document.querySelector('[aria-label="Layout status"]')?.textContent ?? ''), undefined, {
    timeout: 30_000,
  });
  t.ok(Number(await layout.locator('progress').getAttribute('value')) >= 0, 'a progress bar');
  // The panel is brought up to date at every poll while the computation runs:
  // what is typed meanwhile stays, and so does the focus (keys 400 ms apart, polls 300 ms).
  const iterations = layout.getByLabel('Iterations');
  await iterations.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('30', { delay: 400 });
  await page.waitForTimeout(700);
  t.equal(await iterations.inputValue(), '30', 'what was typed while the computation ran is kept');
  t.ok(await iterations.evaluate((input) => document.activeElement === input), 'and so is the focus');
  await layout.getByRole('button', { name: 'Cancel layout' }).click();
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('[aria-label="Layout status"]')?.textContent ?? ''));
  t.equal((await server.api('/api/graph/layout/compute/status')).body.data.state, 'cancelled');

  const before = await page.evaluate(() => (window as any).strata.position('file:src/d0/f0.ts'));
  await layout.getByRole('button', { name: 'Compute layout' }).click();
  await page.waitForFunction(() => /Completed/.test(document.querySelector('[aria-label="Layout status"]')?.textContent ?? ''), undefined, { timeout: 30_000 });
  await page.waitForFunction(() => !document.querySelector('[data-role="no-layout"]'));
  const computed = await page.evaluate(() => (window as any).strata.position('file:src/d0/f0.ts'));
  const saved = (await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/d0/f0.ts')}`)).body.data.position;
  t.same(computed, saved, 'the map draws the computed positions');
  t.not(computed.x, before.x);
  t.match(await status.textContent(), /Completed: 30 of 30/);

  // Drag a node, then save.
  const from = await page.evaluate(() => (window as any).strata.nodeOnPage('file:src/d3/f3.ts'));
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 60, from.y + 40, { steps: 5 });
  await page.mouse.up();
  const dragged = await page.evaluate(() => (window as any).strata.position('file:src/d3/f3.ts'));
  t.ok(await layout.getByRole('button', { name: 'Save layout' }).isEnabled(), 'a drag makes the layout savable');
  await layout.getByRole('button', { name: 'Save layout' }).click();
  let stored: { x: number; y: number } | undefined;
  for (let i = 0; i < 50 && stored?.x !== dragged.x; i++) {
    stored = (await server.api(`/api/graph/nodes/${encodeURIComponent('file:src/d3/f3.ts')}`)).body.data.position;
    if (stored?.x !== dragged.x) await page.waitForTimeout(100);
  }
  t.same(stored, dragged, 'the dragged position was saved');

  await layout.getByRole('button', { name: 'Reset layout' }).click();
  await layout.locator('[data-role="no-layout"]').waitFor();
  t.equal((await server.api('/api/graph')).body.meta.positionCount, 0, 'reset cleared the saved layout');
  t.same(watched.problems, []);
});

t.test('with authToken: the page asks for the token once, tells a wrong one, and never puts it in a URL', async (t) => {
  const token = 'correct-horse-battery-staple';
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo, { flags: { port: 0, authToken: token } });
  const watched = await openPage(browser);
  const { page } = watched;
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  await page.goto(server.url);
  const dialog = page.getByRole('dialog', { name: 'Access token' });
  await dialog.waitFor();
  await dialog.getByLabel('Token').fill('not-the-right-token-at-all');
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await page.getByText('The server refused that token').waitFor();
  t.pass('a wrong token is told as such');
  await page.getByRole('dialog', { name: 'Access token' }).getByLabel('Token').fill(token);
  await page.getByRole('dialog', { name: 'Access token' }).getByRole('button', { name: 'Connect' }).click();
  await page.waitForSelector('body[data-ready="true"]');
  t.ok(await page.evaluate(() => (window as any).strata.isVisible('file:src/index.ts')), 'the graph loads with the token');

  // The event stream carries it too: a new file shows.
  await writeFile(path.join(repo, 'src/fresh.ts'), 'export const fresh = 1;\n');
  await page.waitForFunction(() => (window as any).strata.isVisible('file:src/fresh.ts'), undefined, { timeout: 10_000 });
  t.pass('live updates arrive with the token');

  // A reload in the same tab does not ask again.
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  t.equal(await page.getByRole('dialog', { name: 'Access token' }).count(), 0, 'kept for the browser session');
  t.notOk(
    urls.some((url) => url.includes(token)),
    'the token is in no URL',
  );
  t.same(
    watched.problems.filter((problem) => !/status of 401/.test(problem)),
    [],
    "no console error besides the browser's notes of the 401 answers",
  );
});

t.test('a server that stops shows a banner; when it is back, the page reconnects and catches up', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const first = await startTestServer(t, repo);
  const port = Number(new URL(first.url).port);
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, first.url);
  await first.stop();
  const banner = page.locator('.banner');
  await banner.getByText('not answering').waitFor({ timeout: 15_000 });
  t.pass('the banner says the server is not answering');
  await writeFile(path.join(repo, 'src/while-down.ts'), 'export const x = 1;\n');
  await startTestServer(t, repo, { flags: { port } });
  await page.waitForFunction(() => (document.querySelector('.banner') as HTMLElement).hidden, undefined, { timeout: 30_000 });
  await page.waitForFunction(() => (window as any).strata.isVisible('file:src/while-down.ts'), undefined, { timeout: 15_000 });
  t.pass('back: the banner goes and what changed meanwhile shows');
  t.same(
    watched.problems.filter((problem) => !/ERR_CONNECTION_REFUSED|ERR_EMPTY_RESPONSE|ERR_CONNECTION_RESET/.test(problem)),
    [],
    "no console error besides the browser's notes of refused connections",
  );
});

t.test('a stream the server drops (the page fell behind) is opened again quietly, and the page catches up', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const watched = await openPage(browser);
  const { page } = watched;
  // The first stream is the server's last words to a client that fell behind (a page cannot be made to fall behind
  // on loopback); the next one, the page's reconnection, waits until the test lets it through.
  let streams = 0;
  let letThrough: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (letThrough = resolve));
  const dropped = { reason: 'too far behind', behindBytes: 1048600, limitBytes: 1048576, message: 'this client fell behind' };
  await page.route('**/api/events', async (route) => {
    if (++streams === 1) {
      await route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/event-stream; charset=utf-8' },
        body: `: strata events\n\nevent: stream.dropped\ndata: ${JSON.stringify({ at: new Date().toISOString(), ...dropped })}\n\n`,
      });
      return;
    }
    await released;
    await route.continue();
  });
  await openUi(watched, server.url);
  const requests: string[] = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname + new URL(request.url()).search));
  await until(() => streams === 2, 'the page opens the stream again', 15_000);
  t.ok(await page.locator('.banner').isHidden(), 'no banner while it reconnects: nothing for the user to do');

  // A change the page's stream was not there to hear.
  await writeFile(path.join(repo, 'src/while-dropped.ts'), 'export const x = 1;\n');
  await until(async () => (await server.api(nodePath('file:src/while-dropped.ts'))).status === 200, 'the server has the change', 15_000);
  letThrough();
  await page.waitForFunction(() => (window as any).strata.isVisible('file:src/while-dropped.ts'), undefined, { timeout: 15_000 });
  t.pass('once connected again, the page shows what changed meanwhile');
  t.ok(
    requests.some((url) => url.startsWith('/api/graph/changes?since=')),
    'asked of /api/graph/changes',
  );
  t.notOk(
    requests.some((url) => url === '/api/graph/map' || url === '/api/graph'),
    'not by loading the whole graph again',
  );
  t.ok(await page.locator('.banner').isHidden(), 'and no banner');
  t.same(watched.problems, [], 'no console error');
});
