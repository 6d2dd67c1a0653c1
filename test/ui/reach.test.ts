// "What depends on this?" on the real page: the node panel asks the server for
// a node's dependents or dependencies, counts them by depth, and the map draws
// the reach: each reached node colored by its depth (fading with it), the
// imports that reached them, everything else faded; a depth row limits the map
// to that depth, Clear (or another node) ends it. Also where the map draws
// imports only on demand (over 5,000 of them): the reach's imports are drawn.
import t from 'tap';
import { launchBrowser, openPage, openUi } from '../helpers/browser.ts';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';

t.setTimeout(600_000);
const browser = await launchBrowser(t);

/** palette.ts's light theme: reached directly, at depth 2, at 3, further; and faded. */
const REACH = ['#b8440b', '#e0711f', '#f0a35e', '#f6cfa6'];
const FADED = '#eaeef2';

/** core.ts <- api.ts <- ui.ts <- app.ts <- main.ts (each imports the one before), and util.ts imported by core.ts, lone.ts alone. */
const CHAIN: FixtureFiles = {
  'src/util.ts': 'export const util = 1;\n',
  'src/core.ts': "import { util } from './util';\nexport const core = util;\n",
  'src/api.ts': "import { core } from './core';\nexport const api = core;\n",
  'src/ui.ts': "import { api } from './api';\nexport const ui = api;\n",
  'src/app.ts': "import { ui } from './ui';\nexport const app = ui;\n",
  'src/main.ts': "import { app } from './app';\nconsole.log(app);\n",
  'src/lone.ts': 'export const lone = 1;\n',
};

/** The summary once the answer is in (not "Following the imports…"). */
const answer = (impact: ReturnType<import('playwright-core').Page['getByRole']>) => impact.locator('[role="status"]:not(.muted)').textContent();

interface Shown {
  id: string;
  source: string;
  target: string;
  color: string;
}

t.test('what depends on a file, by depth, on the map and in the panel; what it depends on; a depth limit; Clear', async (t) => {
  const repo = await makeRepo(t, CHAIN);
  const server = await startTestServer(t, repo);
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, `${server.url}/#node=${encodeURIComponent('file:src/core.ts')}`);
  const impact = page.getByRole('complementary', { name: 'Node' }).getByRole('region', { name: 'Impact' });
  const colors = (ids: string[]) => page.evaluate((ids) => ids.map((id) => (window as any).strata.shownColor(id) as string), ids);
  const imports = async () =>
    ((await page.evaluate(() => (window as any).strata.shownImports())) as Shown[]).map((edge) => `${edge.source}->${edge.target}`).sort();
  const files = ['api', 'ui', 'app', 'main', 'util', 'lone'].map((name) => `file:src/${name}.ts`);

  // Selected, core.ts's neighbours (api, util) stand out and the rest fades.
  const before = await colors(files);

  await impact.getByRole('button', { name: 'What depends on this' }).click();
  await t.resolveMatch(answer(impact), /^4 nodes depend on this, up to 4 imports away\.$/, 'the summary counts the dependents');
  t.same(await impact.getByRole('list', { name: 'Nodes by depth' }).locator('li').allTextContents(), [
    'directly: 1',
    'at depth 2: 1',
    'at depth 3: 1',
    'at depth 4: 1',
  ]);
  t.equal(await impact.getByRole('button', { name: 'What depends on this' }).getAttribute('aria-pressed'), 'true');
  t.same(await colors(files), [REACH[0], REACH[1], REACH[2], REACH[3], FADED, FADED], 'dependents by depth; util (a dependency) and lone faded');
  t.same(
    await imports(),
    ['file:src/api.ts->file:src/core.ts', 'file:src/app.ts->file:src/ui.ts', 'file:src/main.ts->file:src/app.ts', 'file:src/ui.ts->file:src/api.ts'],
    'the imports that reached them, and only those',
  );

  await impact.getByRole('button', { name: 'at depth 2: 1' }).click();
  t.same(await colors(files), [REACH[0], REACH[1], FADED, FADED, FADED, FADED], 'depths 1 and 2 only');
  t.same(await imports(), ['file:src/api.ts->file:src/core.ts', 'file:src/ui.ts->file:src/api.ts']);
  await impact.getByRole('button', { name: 'at depth 2: 1' }).click();
  t.same(await colors(files), [REACH[0], REACH[1], REACH[2], REACH[3], FADED, FADED], 'the same row again: every depth');

  await impact.getByRole('button', { name: 'What this depends on' }).click();
  await t.resolveMatch(answer(impact), /^This depends on 1 node, up to 1 import away\.$/);
  t.same(await colors(files), [FADED, FADED, FADED, FADED, REACH[0], FADED], 'the other way: util, directly');
  t.same(await imports(), ['file:src/core.ts->file:src/util.ts']);

  await impact.getByRole('button', { name: 'Clear' }).click();
  t.same(await colors(files), before, 'cleared: the selection as it was');
  t.notOk(
    (await colors(files)).some((color) => REACH.includes(color)),
    'no reach color left',
  );
  t.equal(await impact.getByRole('status').count(), 0, 'no summary left');

  // Another node ends the reach: its own panel asks nothing yet.
  await impact.getByRole('button', { name: 'What depends on this' }).click();
  await impact.getByRole('status').filter({ hasText: 'depend on this' }).waitFor();
  await page.keyboard.press('/');
  await page.keyboard.type('lone.ts');
  await page.keyboard.press('Enter');
  await page.getByRole('complementary', { name: 'Node' }).getByRole('heading', { name: 'lone.ts' }).waitFor();
  t.notOk(
    (await colors(files)).some((color) => REACH.includes(color)),
    'choosing another node clears the reach',
  );
  await impact.getByRole('button', { name: 'What depends on this' }).click();
  await t.resolveMatch(answer(impact), 'Nothing depends on this.', 'a file nothing imports says so');
  t.same(watched.problems, [], 'no console error');
});

t.test('a directory and over 5,000 imports: the reach of the files below it, its imports drawn though imports are drawn on demand', async (t) => {
  // 2,600 files importing two hubs each: 5,200 imports, past the map's 5,000 drawn one by one.
  const files: FixtureFiles = {
    'hub/a.ts': 'export const a = 1;\n',
    'hub/b.ts': "import { a } from './a';\nexport const b = a;\n",
  };
  for (let i = 0; i < 2600; i++)
    files[`leaves/d${i % 26}/leaf${i}.ts`] = `import { a } from '../../hub/a';\nimport { b } from '../../hub/b';\nexport const leaf${i} = a + b;\n`;
  const repo = await makeRepo(t, files);
  const server = await startTestServer(t, repo);
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, `${server.url}/#node=${encodeURIComponent('dir:hub')}`);
  const impact = page.getByRole('complementary', { name: 'Node' }).getByRole('region', { name: 'Impact' });
  await impact.getByRole('button', { name: 'What depends on this' }).click();
  await t.resolveMatch(answer(impact), /^2,600 nodes depend on this, up to 1 import away\.$/, 'fetched over three pages');
  const shown = (await page.evaluate(() => (window as any).strata.shownImports())) as Shown[];
  t.equal(shown.length, 2600, 'one import drawn for each dependent: the one that reached it');
  t.ok(
    shown.every((edge) => edge.source.startsWith('file:leaves/') && edge.target.startsWith('file:hub/') && edge.color === REACH[0]),
    'from the dependents to the hub, in the first depth color',
  );
  t.equal(await page.evaluate(() => (window as any).strata.shownColor('file:leaves/d3/leaf3.ts')), REACH[0]);
  t.same(watched.problems, [], 'no console error');
});
