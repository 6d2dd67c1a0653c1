// Focus on a directory, in a real browser: the map frames the directory's
// whole subtree, every descendant in view and the subtree filling it.
import t from 'tap';
import { launchBrowser, openPage, openUi } from '../helpers/browser.ts';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';
import { postJson, startTestServer } from '../helpers/strata-server.ts';

t.setTimeout(600_000);
const browser = await launchBrowser(t);

t.test("focusing on a directory frames its subtree, not the whole map's frame", async (t) => {
  // A small directory in a corner of a large map: framed whole, its files would sit in a few pixels.
  const files: FixtureFiles = { 'small/inner/a.ts': 'export const a = 1;\n', 'small/b.ts': 'export const b = 2;\n' };
  for (let i = 0; i < 12; i++) files[`big/f${i}.ts`] = `export const f${i} = ${i};\n`;
  const repo = await makeRepo(t, files);
  const server = await startTestServer(t, repo);
  const positions: Record<string, { x: number; y: number }> = {
    'dir:.': { x: 0, y: 0 },
    'dir:big': { x: -500, y: 0 },
    'dir:small': { x: 900, y: 900 },
    'dir:small/inner': { x: 940, y: 930 },
    'file:small/inner/a.ts': { x: 960, y: 960 },
    'file:small/b.ts': { x: 880, y: 950 },
  };
  for (let i = 0; i < 12; i++) positions[`file:big/f${i}.ts`] = { x: -1000 + 150 * i, y: i % 2 === 0 ? -1000 : 800 };
  t.equal((await server.api('/api/graph/layout', postJson({ positions }))).status, 200);
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, `${server.url}/#node=${encodeURIComponent('dir:small')}`);
  await page.getByRole('complementary', { name: 'Node' }).getByRole('button', { name: 'Focus on this directory' }).click();
  await page.locator('[data-role="focus"]').waitFor();
  await page.waitForFunction(() => (window as any).strata.still());

  const subtree = ['dir:small', 'dir:small/inner', 'file:small/inner/a.ts', 'file:small/b.ts'];
  const map = await page.locator('#map').boundingBox();
  const at = await page.evaluate((ids) => ids.map((id) => (window as any).strata.nodeOnPage(id) as { x: number; y: number } | undefined), subtree);
  t.ok(
    at.every((point) => point && point.x >= map!.x && point.x <= map!.x + map!.width && point.y >= map!.y && point.y <= map!.y + map!.height),
    `every node of the subtree is in view (${JSON.stringify(at)})`,
  );
  const xs = at.map((point) => point!.x);
  const ys = at.map((point) => point!.y);
  const spread = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  t.ok(
    spread > Math.min(map!.width, map!.height) / 3,
    `the subtree fills the view (spread ${Math.round(spread)} px of ${Math.round(map!.width)}x${Math.round(map!.height)})`,
  );
  t.same(watched.problems, []);
});
