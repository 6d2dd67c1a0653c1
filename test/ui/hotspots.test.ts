// "Where are the hotspots?" on the real page: with the hotspots plugin
// loaded, the sidebar ranks the files that change most and are most complex
// (the plugin's ranking), each a link to its file; without it the panel is
// not there.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { launchBrowser, openPage, openUi } from '../helpers/browser.ts';
import { makeRepo, writeFiles } from '../helpers/fixture-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';

t.setTimeout(600_000);
const browser = await launchBrowser(t);
const HOTSPOTS_PLUGIN = path.resolve(fileURLToPath(import.meta.url), '../../../extensions/hotspots');

/** Commits within the default range (the last six months): src/a.ts 3 times and most complex (5: 1, if, for, ??, a default), src/b.ts twice (2), src/c.ts once (1). */
async function historyRepo(t: Parameters<typeof makeRepo>[0]): Promise<string> {
  const repo = await makeRepo(t, {});
  const git = (args: string[], daysAgo?: number) => {
    const date = daysAgo === undefined ? undefined : new Date(Date.now() - daysAgo * 86_400_000).toISOString();
    execFileSync('git', args, {
      cwd: repo,
      env: {
        ...process.env,
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_SYSTEM: '/dev/null',
        GIT_AUTHOR_NAME: 'Ada',
        GIT_AUTHOR_EMAIL: 'ada@example.com',
        GIT_COMMITTER_NAME: 'Ada',
        GIT_COMMITTER_EMAIL: 'ada@example.com',
        ...(date && { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }),
      },
    });
  };
  const a = (n: number) => `export function a(x?: number, ys: number[] = []) {\n  if (x) return ${n};\n  for (const y of ys) x = y;\n  return x ?? 2;\n}\n`;
  const commit = async (daysAgo: number, files: Record<string, string>) => {
    await writeFiles(repo, files);
    git(['add', '.']);
    git(['commit', '-q', '-m', `${daysAgo} days ago`], daysAgo);
  };
  git(['init', '-q', '-b', 'main']);
  await commit(40, {
    'src/a.ts': a(1),
    'src/b.ts': 'export function b(x: number) {\n  if (x) return 1;\n  return 0;\n}\n',
    'src/c.ts': 'export function c() {\n  return 1;\n}\n',
  });
  await commit(30, { 'src/a.ts': a(2), 'src/b.ts': 'export function b(x: number) {\n  if (x) return 2;\n  return 0;\n}\n' });
  await commit(20, { 'src/a.ts': a(3) });
  return repo;
}

t.test('the hotspots ranked on request, highest first, each a link to its file', async (t) => {
  const repo = await historyRepo(t);
  const server = await startTestServer(t, repo, { flags: { watch: false, plugins: { directories: [HOTSPOTS_PLUGIN] } } });
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  const panel = page.getByRole('region', { name: 'Hotspots' });
  await panel.getByRole('button', { name: 'Rank the hotspots' }).click();
  const list = panel.getByRole('list', { name: 'Hotspots, highest first' });
  await list.waitFor();
  t.match(await panel.getByRole('status').textContent(), /^From \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d: 3 commits, 3 files scored\.$/);
  t.same(await list.getByRole('button').allTextContents(), ['a.ts', 'b.ts', 'c.ts'], 'most changed and complex first, by name');
  t.same(await list.locator('small').allTextContents(), [
    'src/ · score 1.00 · 3 commits · complexity 5',
    'src/ · score 0.27 · 2 commits · complexity 2',
    'src/ · score 0.07 · 1 commit · complexity 1',
  ]);
  await list.getByRole('button', { name: 'b.ts' }).click();
  await page.getByRole('complementary', { name: 'Node' }).getByRole('heading', { name: 'b.ts' }).waitFor();
  t.equal(await page.getByRole('button', { name: 'Rank again' }).count(), 1, 'ranked: it can rank again');
  t.same(watched.problems, [], 'no console error');
});

t.test('without the hotspots plugin there is no hotspots panel', async (t) => {
  const repo = await makeRepo(t, { 'a.ts': 'export const a = 1;\n' });
  const server = await startTestServer(t, repo);
  const watched = await openPage(browser);
  await openUi(watched, server.url);
  await watched.page.getByRole('region', { name: 'Import cycles' }).waitFor();
  t.equal(await watched.page.getByRole('region', { name: 'Hotspots' }).count(), 0);
  t.same(watched.problems, [], 'no console error: the 404 of a plugin not loaded is expected');
});
