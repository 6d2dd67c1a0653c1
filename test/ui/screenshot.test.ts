// The README's picture, taken from the real page: Strata's own repository,
// a computed layout, the cognitive complexity overlay on and a file selected.
// STRATA_UPDATE_SCREENSHOTS=1 writes it to host/ui/screenshots/ (commit it);
// otherwise it goes to a temporary folder and is only checked.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { countMapPixels, launchBrowser, openPage, openUi } from '../helpers/browser.ts';
import { postJson, startTestServerWithBuiltIns } from '../helpers/strata-server.ts';

t.setTimeout(600_000);
const checkout = path.resolve(import.meta.dirname, '../..');
const browser = await launchBrowser(t);

t.test("Strata's own repository with an overlay on, at 1280x800", async (t) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'strata-screenshot-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const server = await startTestServerWithBuiltIns(t, checkout, { flags: { port: 0, dataDir, watch: false } });
  t.equal((await server.api('/api/graph/layout/compute', postJson({ iterations: 400, seed: 1 }))).status, 200);
  for (let i = 0; i < 600; i++) {
    const { state } = (await server.api('/api/graph/layout/compute/status')).body.data;
    if (state !== 'running') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.equal((await server.api('/api/graph/layout/compute/status')).body.data.state, 'completed', 'a computed layout');

  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  const panel = page.getByRole('region', { name: 'Overlays' });
  await panel.getByRole('switch', { name: 'Cognitive Complexity' }).check();
  await page.locator('.plugin[data-plugin="complexity"][data-state="active"]').waitFor({ timeout: 120_000 });
  await panel.getByRole('figure', { name: 'Legend of Cognitive Complexity' }).waitFor();
  await page.getByRole('combobox', { name: 'Search' }).fill('http-server.ts');
  await page.locator('#search-results [data-node="file:host/src/http/http-server.ts"]').click();
  await page.getByRole('complementary', { name: 'Node' }).getByRole('heading', { name: 'http-server.ts' }).waitFor();
  // The picture: the whole map in the overlay's colors (a selection fades the rest), hovering the selected file.
  await page.keyboard.press('Escape');
  await page.keyboard.press('0');
  await page.waitForFunction(() => {
    const camera = (window as any).strata.camera();
    return camera.x === 0.5 && camera.y === 0.5 && camera.ratio === 1 && (window as any).strata.still();
  });
  const at = await page.evaluate(() => (window as any).strata.nodeOnPage('file:host/src/http/http-server.ts'));
  await page.mouse.move(at.x, at.y);
  await page.getByRole('tooltip').waitFor();
  const legendColors = await panel
    .getByRole('figure', { name: 'Legend of Cognitive Complexity' })
    .locator('.swatch')
    .evaluateAll((swatches) => swatches.map((swatch) => getComputedStyle(swatch).backgroundColor));
  t.ok(legendColors.length > 1, 'the legend has its scale');
  const hexes = legendColors.map(
    (color) =>
      '#' +
      color
        .match(/\d+/g)!
        .slice(0, 3)
        .map((value) => Number(value).toString(16).padStart(2, '0'))
        .join(''),
  );
  let painted = 0;
  for (const hex of hexes) painted += await countMapPixels(page, hex, 6);
  t.ok(painted > 200, `the map shows the overlay's colors (${painted} pixels in the legend's colors)`);

  const folder = process.env.STRATA_UPDATE_SCREENSHOTS ? path.join(checkout, 'host/ui/screenshots') : dataDir;
  const file = path.join(folder, 'strata-ui.png');
  await page.screenshot({ path: file });
  t.ok((await stat(file)).size > 50_000, `a screenshot of the whole page: ${path.relative(checkout, file)}`);
  t.same(watched.problems, [], 'no console error');
});
