// "Are there cycles?" on the real page: the sidebar lists the import cycles
// the server finds (largest first, type-only imports left out unless asked),
// and choosing one draws it: its shortest cycle in the strongest color with
// its imports, the rest of its component lighter, everything else faded.
import t from 'tap';
import { launchBrowser, openPage, openUi } from '../helpers/browser.ts';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';

t.setTimeout(600_000);
const browser = await launchBrowser(t);

/** palette.ts's light theme: a cycle's files, the rest of its component, and faded. */
const CYCLE = '#b8440b';
const COMPONENT = '#f0a35e';
const FADED = '#eaeef2';

/**
 * a -> b -> c -> a with a shortcut c -> b (so b, c is the shortest cycle), x <-> y, a type-only cycle
 * t1 <-> t2, and a lone file.
 */
const FILES: FixtureFiles = {
  'src/a.ts': "import { b } from './b';\nexport const a = b;\n",
  'src/b.ts': "import { c } from './c';\nexport const b = () => c;\n",
  'src/c.ts': "import { a } from './a';\nimport { b } from './b';\nexport const c = () => [a, b];\n",
  'lib/x.ts': "import { y } from './y';\nexport const x = () => y;\n",
  'lib/y.ts': "import { x } from './x';\nexport const y = () => x;\n",
  'types/t1.ts': "import type { T2 } from './t2';\nexport type T1 = { t: T2 };\n",
  'types/t2.ts': "import type { T1 } from './t1';\nexport type T2 = { t: T1 };\n",
  'src/lone.ts': 'export const lone = 1;\n',
};

t.test('the cycles listed, largest first; one chosen is drawn; type-only cycles when asked', async (t) => {
  const repo = await makeRepo(t, FILES);
  const server = await startTestServer(t, repo);
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  const panel = page.getByRole('region', { name: 'Import cycles' });
  const colors = (ids: string[]) => page.evaluate((ids) => ids.map((id) => (window as any).strata.shownColor(id) as string), ids);
  const imports = async () =>
    ((await page.evaluate(() => (window as any).strata.shownImports())) as Array<{ source: string; target: string }>)
      .map((edge) => `${edge.source}->${edge.target}`)
      .sort();

  await panel.getByRole('button', { name: 'Find import cycles' }).click();
  await t.resolveMatch(panel.locator('[role="status"]:not(.muted)').textContent(), '2 cycles, 5 files in them.', 'type-only imports left out');
  const items = panel.getByRole('list', { name: 'Cycles, largest first' }).getByRole('button');
  t.same(await items.allTextContents(), ['3 files: b.ts → c.ts → b.ts', '2 files: x.ts → y.ts → x.ts'], 'largest first, each with its shortest cycle');
  const files = ['src/a.ts', 'src/b.ts', 'src/c.ts', 'lib/x.ts', 'lib/y.ts', 'src/lone.ts'].map((path) => `file:${path}`);
  const before = await colors(files);

  await items.first().click();
  t.equal(await items.first().getAttribute('aria-pressed'), 'true');
  const [a, b, c, x, y, lone] = await colors(files);
  t.equal(c, CYCLE, 'the shortest cycle in the strongest color');
  t.not(b, FADED, 'its first file stands out too');
  t.equal(a, COMPONENT, 'the rest of the component lighter');
  t.same([x, y, lone], [FADED, FADED, FADED], 'everything else faded');
  t.same(await imports(), ['file:src/b.ts->file:src/c.ts', 'file:src/c.ts->file:src/b.ts'], "the cycle's imports drawn, and only those");

  await items.first().click();
  t.same(await colors(files), before, 'chosen again: drawn no more');

  await items.nth(1).click();
  t.same(await imports(), ['file:lib/x.ts->file:lib/y.ts', 'file:lib/y.ts->file:lib/x.ts']);
  await panel.getByLabel('Leave out type-only imports').uncheck();
  await t.resolveMatch(panel.locator('[role="status"]:not(.muted)').textContent(), '3 cycles, 7 files in them.', 'with type-only imports: the types cycle too');
  t.same(await colors(files), before, 'a new answer: nothing chosen');
  t.same(watched.problems, [], 'no console error');
});

t.test('a repository without cycles says so', async (t) => {
  const repo = await makeRepo(t, { 'a.ts': "import { b } from './b';\nexport const a = b;\n", 'b.ts': 'export const b = 1;\n' });
  const server = await startTestServer(t, repo);
  const watched = await openPage(browser);
  await openUi(watched, server.url);
  const panel = watched.page.getByRole('region', { name: 'Import cycles' });
  await panel.getByRole('button', { name: 'Find import cycles' }).click();
  await t.resolveMatch(panel.locator('[role="status"]:not(.muted)').textContent(), 'No import cycle.');
  t.same(watched.problems, []);
});
