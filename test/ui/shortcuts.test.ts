// The keyboard shortcuts and their help dialog in a real browser: Escape
// closes the dialog, and no shortcut acts behind an open dialog.
import t from 'tap';
import { launchBrowser, openPage, openUi } from '../helpers/browser.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';

t.setTimeout(600_000);
const browser = await launchBrowser(t);
const server = await startTestServer(t, await makeRepo(t, SAMPLE_REPO));

t.test('the shortcuts dialog closes on Escape, and the shortcuts wait while it is open', async (t) => {
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  const camera = () => page.evaluate(() => (window as any).strata.camera() as { x: number; y: number; ratio: number });
  const still = () => page.waitForFunction(() => (window as any).strata.still());
  // Zoomed in, with a node selected: what `0`, `-` and Escape would undo.
  const at = await page.evaluate(() => (window as any).strata.nodeOnPage('file:src/index.ts'));
  await page.mouse.click(at.x, at.y);
  const panel = page.getByRole('complementary', { name: 'Node' });
  await panel.getByRole('heading', { name: 'index.ts' }).waitFor();
  await page.locator('body').press('+');
  await page.waitForFunction(() => (window as any).strata.camera().ratio < 0.9);
  await still();
  const zoomed = await camera();

  await page.locator('body').press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await help.waitFor();
  const theme = await page.evaluate(() => document.documentElement.dataset.theme);
  for (const key of ['0', '-', '+', '/', 't', 'u']) await page.keyboard.press(key);
  await page.waitForTimeout(500);
  await still();
  t.same(await camera(), zoomed, 'the camera did not move: 0, - and + did nothing behind the dialog');
  t.notOk(await page.getByRole('combobox', { name: 'Search' }).evaluate((input) => input === document.activeElement), '/ did not focus the search box');
  t.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme, 't did not switch the theme');
  t.ok(await help.isVisible(), 'the dialog is still open');

  await page.keyboard.press('Escape');
  await help.waitFor({ state: 'hidden' });
  t.pass('Escape closed the dialog');
  t.ok(await panel.getByRole('heading', { name: 'index.ts' }).isVisible(), 'and only that: the selection stays (neither u nor Escape changed it)');

  // Closed, the shortcuts act again.
  await page.keyboard.press('0');
  await page.waitForFunction((ratio) => (window as any).strata.camera().ratio > ratio, zoomed.ratio);
  t.pass('0 fits the graph again');
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'hidden' });
  t.pass('Escape clears the selection');

  // The help button opens the same dialog; Escape closes it too.
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await help.waitFor();
  await page.keyboard.press('Escape');
  await help.waitFor({ state: 'hidden' });
  t.pass('opened with the button, closed with Escape');
  t.same(watched.problems, [], 'no console error');
});
