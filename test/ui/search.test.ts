// The search box in a real browser: how it ranks what matches (an exact file
// name first, in a repository of many near names), and Escape clearing it,
// in the box or on the map.
import t from 'tap';
import { launchBrowser, openPage, openUi } from '../helpers/browser.ts';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';

t.setTimeout(600_000);
const browser = await launchBrowser(t);

/**
 * One file named App.tsx, deep down, among many names that fuzzy matching
 * finds too (excalidraw-app/, app/apps/app-N.tsx, its own methods), names
 * that start with it or only contain it, and a directory and symbols named
 * like it.
 */
const MANY_APPS: FixtureFiles = {
  // Its methods' paths match too (as in excalidraw, whose App.tsx has hundreds): over a thousand matches, more
  // than uFuzzy ranks.
  'packages/excalidraw/components/App.tsx': [
    'export function App() { return 1; }',
    'export class AppComponent {',
    ...Array.from({ length: 1100 }, (_, i) => `  handle${i}() { return ${i}; }`),
    '}',
    '',
  ].join('\n'),
  'packages/excalidraw/components/App.tsx.snap': 'snapshot\n',
  'packages/excalidraw/components/MyApp.tsx': 'export const myApp = 1;\n',
  'packages/excalidraw/components/AppState.tsx': 'export const appState = 1;\n',
  'src/WrappedApp.tsx': 'export const wrapped = 1;\n',
  'src/app.tsx/index.ts': 'export const inside = 1;\n',
};
for (let i = 0; i < 30; i++) MANY_APPS[`excalidraw-app/components/AppPart${i}.tsx`] = `export const part${i} = ${i};\n`;
for (let i = 0; i < 40; i++) MANY_APPS[`src/app/apps/app-${i}.tsx`] = `export const app${i} = ${i};\n`;
for (let i = 0; i < 10; i++) MANY_APPS[`src/features/App${i}View.tsx`] = `export function App${i}View() { return ${i}; }\n`;

const repo = await makeRepo(t, MANY_APPS);
const server = await startTestServer(t, repo);

/** Types into the search box and reads the results' node ids, in their order. */
async function searchFor(page: import('playwright-core').Page, text: string): Promise<string[]> {
  const search = page.getByRole('combobox', { name: 'Search' });
  await search.fill(text);
  const results = page.getByRole('listbox', { name: 'Search results' });
  await results.getByRole('option').first().waitFor();
  return results.getByRole('option').evaluateAll((items) => items.map((item) => item.getAttribute('data-node') ?? item.textContent ?? ''));
}

t.test('an exact file name comes first, then names starting with it, then paths with a segment starting with it, then fuzzy matches', async (t) => {
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  const found = await searchFor(page, 'App.tsx');
  t.equal(found[0], 'file:packages/excalidraw/components/App.tsx', `the file named App.tsx is first (${found.slice(0, 5).join(', ')})`);
  t.equal(found[1], 'dir:src/app.tsx', 'then the same name in another case (a directory)');
  t.equal(found[2], 'file:packages/excalidraw/components/App.tsx.snap', 'then a name starting with it');
  t.ok(
    found.slice(3).every((id) => id.startsWith('sym:packages/excalidraw/components/App.tsx#')),
    "then paths with a segment starting with it, in the same case first: the file's symbols",
  );
  t.equal(found.length, 20);

  // In lower case: the directory first, then the file, then what is under the directory; what merely contains it after.
  const lower = await searchFor(page, 'app.tsx');
  t.same(
    lower.slice(0, 4),
    ['dir:src/app.tsx', 'file:packages/excalidraw/components/App.tsx', 'file:packages/excalidraw/components/App.tsx.snap', 'file:src/app.tsx/index.ts'],
    `exact names, a name starting with it, a path segment (${lower.slice(0, 5).join(', ')})`,
  );
  t.notOk(
    lower.slice(0, 5).some((id) => id.includes('WrappedApp') || id.includes('MyApp') || id.includes('/apps/')),
    'names that merely contain it, and fuzzy matches, come after',
  );

  // A shorter name: the same case first; among the names starting with it, the shortest.
  const named = await searchFor(page, 'App');
  t.same(
    named.slice(0, 3),
    ['sym:packages/excalidraw/components/App.tsx#App', 'dir:src/app', 'file:packages/excalidraw/components/App.tsx'],
    'the symbol named App, the directory named app, then the file App.tsx',
  );
  t.same(watched.problems, [], 'no console error');
});

t.test('Escape clears the search box and closes its results', async (t) => {
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  await page.locator('body').press('/');
  const search = page.getByRole('combobox', { name: 'Search' });
  await searchFor(page, 'App');
  const results = page.getByRole('listbox', { name: 'Search results' });
  t.ok(await results.isVisible(), 'the results are listed');
  await search.press('Escape');
  t.equal(await search.inputValue(), '', 'the text is cleared');
  t.notOk(await results.isVisible(), 'the results are closed');
  t.equal(await search.getAttribute('aria-expanded'), 'false');
  // Back in the box: nothing comes back.
  await search.click();
  await page.waitForTimeout(300);
  t.notOk(await results.isVisible(), 'focused again, the cleared box lists nothing');

  // A result chosen with the mouse leaves its text in the box; Escape on the map clears it with the selection.
  await searchFor(page, 'MyApp');
  await results.locator('[data-node="file:packages/excalidraw/components/MyApp.tsx"]').click();
  const panel = page.getByRole('complementary', { name: 'Node' });
  await panel.getByRole('heading', { name: 'MyApp.tsx' }).waitFor();
  t.equal(await search.inputValue(), 'MyApp', 'the chosen search stays in the box');
  await page.locator('body').press('Escape');
  await panel.waitFor({ state: 'hidden' });
  t.equal(await search.inputValue(), '', 'Escape cleared the box with the selection');
  await search.click();
  await page.waitForTimeout(300);
  t.notOk(await results.isVisible(), 'and the box, focused again, lists nothing');
  t.same(watched.problems, [], 'no console error');
});
