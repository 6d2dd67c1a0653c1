// Overlays in the web UI, in a real browser: toggles apply plugins, forms
// come from parameter schemas and declared inputs, several overlays compose
// in the listed order, legends, hover card, failures and unloaded plugins.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { countMapPixels, launchBrowser, openPage, openUi } from '../helpers/browser.ts';
import { pluginCode, writePlugins } from '../helpers/fixture-plugins.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { startTestServerWithBuiltIns } from '../helpers/strata-server.ts';

const MAGENTA = '#ff00ff';
const CYAN = '#00ffff';

// A browser and a server per case: more than tap's default two minutes when the machine is busy.
t.setTimeout(600_000);
const browser = await launchBrowser(t);

async function pluginDir(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'strata-ui-plugins-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

t.test('toggles apply plugins; two overlays compose in the listed order; legends, hover card and node panel show them', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginDir(t);
  await writePlugins(plugins, [
    {
      id: 'magenta',
      code: pluginCode(
        `const o = ctx.overlay('paint'); for (const i of ctx.graph.nodesOfKind('file')) o.set(i, { color: '${MAGENTA}', value: 7, badge: 'M' });`,
        `[{ id: 'paint', name: 'Magenta Paint', type: 'color', legend: { all: '${MAGENTA}' } }]`,
      ),
    },
    {
      id: 'cyan',
      parameters: {
        type: 'object',
        properties: { label: { type: 'string', minLength: 1, description: 'Badge text' } },
        required: ['label'],
        additionalProperties: false,
      },
      code: pluginCode(
        `const o = ctx.overlay('paint'); for (const i of ctx.graph.nodesOfKind('file')) o.set(i, { color: '${CYAN}', value: 3, badge: ctx.params.label });`,
        `[{ id: 'paint', name: 'Cyan Paint', type: 'color', legend: { all: '${CYAN}' } }]`,
      ),
    },
    {
      id: 'sizes',
      code: pluginCode(
        `const o = ctx.overlay('size'); for (const i of ctx.graph.nodesOfKind('file')) o.set(i, { size: 2 });`,
        `[{ id: 'size', name: 'Big Files', type: 'size', legend: {} }]`,
      ),
    },
    { id: 'broken', code: pluginCode(`throw new Error('the report is missing');`, `[{ id: 'main', name: 'Broken Overlay', type: 'color', legend: {} }]`) },
    {
      id: 'pairs',
      code: pluginCode(
        `ctx.overlay('together').setEdge('file:src/index.ts', 'file:src/lazy.ts', { weight: 0.5 });`,
        `[{ id: 'together', name: 'Changed Together', type: 'edge', legend: { strong: '#e53935' } }]`,
      ),
    },
    { id: 'future', sdk: '^9.0.0', code: pluginCode('') },
  ]);
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { port: 0, plugins: { directories: [plugins] } } });
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  const panel = page.getByRole('region', { name: 'Overlays' });

  t.equal(await countMapPixels(page, MAGENTA), 0, 'nothing is magenta before');
  await panel.getByRole('switch', { name: 'Magenta Paint' }).check();
  await page.locator('.plugin[data-plugin="magenta"][data-state="active"]').waitFor();
  await panel.getByRole('figure', { name: 'Legend of Magenta Paint' }).waitFor();
  await page.waitForFunction(() => location.hash.includes('magenta'));
  t.ok((await countMapPixels(page, MAGENTA)) > 20, 'files turn magenta');
  t.equal((await server.api('/api/overlays/magenta/status')).body.data.state, 'active', 'the plugin was applied on the server');

  // A plugin with parameters opens its form first.
  await panel.getByRole('switch', { name: 'Cyan Paint' }).check();
  const form = panel.getByRole('form', { name: 'Apply Plugin cyan' });
  await form.waitFor();
  await form.getByLabel('label').fill('C!');
  await form.getByRole('button', { name: 'Apply' }).click();
  await page.locator('.plugin[data-plugin="cyan"][data-state="active"]').waitFor();
  await panel.getByRole('figure', { name: 'Legend of Cyan Paint' }).waitFor();
  t.same((await server.api('/api/overlays/cyan/status')).body.data.params, { label: 'C!' }, "the form's values were the parameters");
  const order = () =>
    panel
      .getByRole('list', { name: 'Visible overlays' })
      .locator('li')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-overlay')));
  t.same(await order(), ['cyan/paint', 'magenta/paint'], 'the overlay turned on last is on top');
  await page.waitForFunction(() => !document.querySelector('.plugin[data-state="applying"]'));
  t.ok((await countMapPixels(page, CYAN)) > 20, 'the topmost color overlay colors the files');
  t.equal(await countMapPixels(page, MAGENTA), 0, 'the one below does not show through');

  await panel.getByRole('button', { name: 'Move Magenta Paint up' }).click();
  t.same(await order(), ['magenta/paint', 'cyan/paint']);
  await page.waitForTimeout(200);
  t.ok((await countMapPixels(page, MAGENTA)) > 20, 'reordered: magenta on top');
  t.equal(await countMapPixels(page, CYAN), 0);

  // The hover card and the node panel give every visible overlay's value; badges side by side.
  const at = await page.evaluate(() => (window as any).strata.nodeOnPage('file:src/index.ts'));
  await page.mouse.move(at.x, at.y);
  const card = page.getByRole('tooltip');
  await card.waitFor();
  t.match(await card.textContent(), /Magenta Paint: 7/);
  t.match(await card.textContent(), /Cyan Paint: 3/);
  t.same(await card.locator('.badge').allTextContents(), ['M', 'C!'], "badges in the list's order");
  await page.mouse.click(at.x, at.y);
  const nodePanel = page.getByRole('complementary', { name: 'Node' });
  await nodePanel.locator('[data-overlay="magenta/paint"]').waitFor();
  t.match(await nodePanel.locator('[data-overlay="cyan/paint"]').textContent(), /Cyan Paint: 3, badge C!/);
  await page.keyboard.press('Escape');

  // An edge overlay: its legend says the map does not draw its edges yet.
  await panel.getByRole('switch', { name: 'Changed Together' }).check();
  const edgeLegend = panel.getByRole('figure', { name: 'Legend of Changed Together' });
  await edgeLegend.waitFor();
  t.match(await edgeLegend.textContent(), /not drawn on the map yet; GET \/api\/overlays\/pairs\/edges serves them/);
  await panel.getByRole('switch', { name: 'Changed Together' }).uncheck();

  // A size overlay with an empty legend.
  await panel.getByRole('switch', { name: 'Big Files' }).check();
  await page.locator('.plugin[data-plugin="sizes"][data-state="active"]').waitFor();
  t.match(await panel.getByRole('figure', { name: 'Legend of Big Files' }).textContent(), /Shown as size/);

  // Off hides it; Remove takes it off the server.
  await panel.getByRole('switch', { name: 'Magenta Paint' }).uncheck();
  await page.waitForTimeout(200);
  t.equal(await countMapPixels(page, MAGENTA), 0, 'turned off, it is hidden');
  t.ok((await countMapPixels(page, CYAN)) > 20, 'and the next one shows');
  t.equal((await server.api('/api/overlays/magenta/status')).body.data.state, 'active', 'hiding does not remove it');
  await panel.getByRole('button', { name: 'Remove Plugin cyan' }).click();
  await page.locator('.plugin[data-plugin="cyan"][data-state="inactive"]').waitFor();
  t.equal((await server.api('/api/overlays/cyan/status')).body.data.state, 'inactive', 'removed on the server');
  await page.waitForTimeout(300);
  t.equal(await countMapPixels(page, CYAN), 0, 'and from the map');

  // A plugin that fails says why; one that did not load is listed with its reason.
  // (click, not check: after the failed apply the switch is off again)
  await panel.getByRole('switch', { name: 'Broken Overlay' }).click();
  const failure = page.locator('.plugin[data-plugin="broken"] .plugin-error');
  await failure.waitFor();
  t.match(await failure.textContent(), /the report is missing/);
  t.notOk(await panel.getByRole('switch', { name: 'Broken Overlay' }).isChecked(), 'the switch is off again');
  t.match(await panel.locator('.not-loaded [data-plugin="future"]').textContent(), /\^9\.0\.0/, 'the unloaded plugin and why');
  t.same(
    watched.problems.filter((problem) => !/status of 500/.test(problem)),
    [],
    "no console error besides the browser's note of the failed apply (500 PLUGIN_FAILED)",
  );
});

t.test("built-in plugins: dates for git-activity, a file picker for test-coverage's report", async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: repo, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null' } });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'add', '.');
  // Committed in the range picked below (git log's --since and --until look at the committer's date).
  execFileSync('git', ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'commit', '-q', '-m', 'first', '--date', '2026-01-10T10:00:00Z'], {
    cwd: repo,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null', GIT_COMMITTER_DATE: '2026-01-10T10:00:00Z' },
  });
  const report = path.join(repo, 'coverage.xml');
  await writeFile(
    report,
    `<?xml version="1.0"?><coverage line-rate="0.5" version="1"><sources><source>${repo}</source></sources><packages><package name="src"><classes>` +
      `<class name="a" filename="src/index.ts" line-rate="1"><lines><line number="1" hits="1"/><line number="7" hits="1"/></lines></class>` +
      `<class name="b" filename="src/util/format.ts" line-rate="0"><lines><line number="4" hits="0"/></lines></class>` +
      `</classes></package></packages></coverage>`,
  );
  const server = await startTestServerWithBuiltIns(t, repo);
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  const panel = page.getByRole('region', { name: 'Overlays' });

  await panel.getByRole('switch', { name: 'Change Frequency' }).check();
  const gitForm = panel.getByRole('form', { name: 'Apply Git Activity' });
  await gitForm.waitFor();
  t.equal(await gitForm.getByLabel('since').getAttribute('type'), 'date', 'a date picker for the range');
  await gitForm.getByLabel('since').fill('2025-12-01');
  await gitForm.getByLabel('until').fill('2026-06-30');
  await gitForm.getByRole('button', { name: 'Apply' }).click();
  await page.locator('.plugin[data-plugin="git-activity"][data-state="active"]').waitFor();
  const status = (await server.api('/api/overlays/git-activity/status')).body.data;
  t.same(status.params, { since: '2025-12-01', until: '2026-06-30' });
  t.ok(status.styledNodes > 0);
  await panel.getByRole('figure', { name: 'Legend of Change Frequency' }).waitFor();

  await panel.getByRole('switch', { name: 'Line Coverage' }).check();
  const coverageForm = panel.getByRole('form', { name: 'Apply Test Coverage' });
  await coverageForm.waitFor();
  await coverageForm.locator('input[type="file"]').setInputFiles(report);
  await coverageForm.getByRole('button', { name: 'Apply' }).click();
  await page.locator('.plugin[data-plugin="test-coverage"][data-state="active"]').waitFor();
  t.same((await server.api('/api/overlays/test-coverage/status')).body.data.inputs, ['report'], 'the picked file was sent as the report input');
  const legend = await panel.getByRole('figure', { name: 'Legend of Line Coverage' }).textContent();
  t.match(legend, /%/, 'the coverage bands');
  t.same(watched.problems, [], 'no console error');
});

t.test("apply forms label their fields by the schema's titles (else the names spelled out) and give the descriptions as help", async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginDir(t);
  await writePlugins(plugins, [
    {
      id: 'windows',
      parameters: {
        type: 'object',
        properties: {
          windowMonths: { type: 'integer', minimum: 1, description: 'Months of history read.' },
          since: { type: 'string', format: 'date', title: 'First day', description: 'The first day whose commits count.' },
          max_URL_length: { type: 'integer' },
        },
        additionalProperties: false,
      },
      code: pluginCode(
        `ctx.overlay('main').set(ctx.graph.nodesOfKind('file')[0], { color: '#00ff00' });`,
        `[{ id: 'main', name: 'Windowed', type: 'color', legend: {} }]`,
      ),
    },
  ]);
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { port: 0, plugins: { directories: [plugins] } } });
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  const panel = page.getByRole('region', { name: 'Overlays' });
  /** The form's fields: label, accessible description, and the parameter each sends. */
  const fields = (form: ReturnType<typeof panel.getByRole>) =>
    form.locator('.field').evaluateAll((items) =>
      items.map((item) => {
        const control = item.querySelector<HTMLInputElement>('input, select, textarea')!;
        const help = control.getAttribute('aria-describedby');
        return { label: item.querySelector('label')!.textContent, help: help && document.getElementById(help)?.textContent, sends: control.name };
      }),
    );

  await panel.getByRole('switch', { name: 'Windowed' }).check();
  const form = panel.getByRole('form', { name: 'Apply Plugin windows' });
  await form.waitFor();
  t.same(await fields(form), [
    { label: 'Window months', help: 'Months of history read.', sends: 'param:windowMonths' },
    { label: 'First day', help: 'The first day whose commits count.', sends: 'param:since' },
    { label: 'Max URL length', help: null, sends: 'param:max_URL_length' },
  ]);
  await form.getByLabel('Window months', { exact: true }).fill('3');
  await form.getByRole('button', { name: 'Apply' }).click();
  await page.locator('.plugin[data-plugin="windows"][data-state="active"]').waitFor();
  t.same((await server.api('/api/overlays/windows/status')).body.data.params, { windowMonths: 3 }, 'the labelled field sends its parameter');

  // The built-in plugins' forms read as words too: ownership's parameters and its team file.
  await panel.getByRole('switch', { name: 'Team Ownership' }).check();
  const ownership = panel.getByRole('form', { name: 'Apply Ownership' });
  await ownership.waitFor();
  const labels = (await fields(ownership)).map((field) => field.label);
  t.same(labels, ['Activity window (months)', 'Inactive after (months)', 'Until', 'Authors named', 'Teams']);
  t.match(await ownership.getByLabel('Activity window (months)').getAttribute('aria-describedby'), /help/);
  t.match(await fields(ownership), [{ help: /shows gray/ }, { help: /inactive/ }, { help: /now/ }, { help: /authors/ }, { help: /Team mapping file/ }]);
  const untitled = (await server.api('/api/overlays')).body.plugins.flatMap((plugin: { id: string; parameters?: { properties?: object } }) =>
    Object.entries(plugin.parameters?.properties ?? {})
      .filter(([, schema]) => typeof schema.title !== 'string' || typeof schema.description !== 'string')
      .map(([name]) => `${plugin.id}.${name}`),
  );
  t.same(untitled, ['windows.windowMonths', 'windows.max_URL_length'], "every built-in plugin's parameter has a title and a description");
  t.same(watched.problems, [], 'no console error');
});

t.test("a long apply shows how far it has come on its plugin's line", async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const plugins = await pluginDir(t);
  const steps = `ctx.progress(0, 10, 'steps'); for (let step = 1; step <= 10; step++) { const until = Date.now() + 400; while (Date.now() < until) {} ctx.progress(step, 10, 'steps'); }
    const o = ctx.overlay('paint'); for (const i of ctx.graph.nodesOfKind('file')) o.set(i, { color: '${CYAN}' });`;
  await writePlugins(plugins, [{ id: 'slow', code: pluginCode(steps, `[{ id: 'paint', name: 'Slow Paint', type: 'color', legend: { all: '${CYAN}' } }]`) }]);
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { port: 0, plugins: { directories: [plugins], cpuTimeMs: 30_000 } } });
  const watched = await openPage(browser);
  const { page } = watched;
  await openUi(watched, server.url);
  const panel = page.getByRole('region', { name: 'Overlays' });
  await panel.getByRole('switch', { name: 'Slow Paint' }).check();
  const state = panel.getByRole('status', { name: 'Plugin slow state' });
  await state.filter({ hasText: /applying… \d+% \(steps\)/ }).waitFor();
  t.match(await state.textContent(), /^applying… \d+% \(steps\)$/, 'the share done and what the plugin is doing');
  await page.locator('.plugin[data-plugin="slow"][data-state="active"]').waitFor({ timeout: 60_000 });
  t.equal(await state.textContent(), 'active', 'then its state');
  t.same(watched.problems, []);
});

t.test(
  'a link to a symbol with an overlay that paints symbols: the symbol is shown with its value once the page is ready; the panels come with the map',
  async (t) => {
    const repo = await makeRepo(t, SAMPLE_REPO);
    const plugins = await pluginDir(t);
    await writePlugins(plugins, [
      {
        id: 'symbols',
        code: pluginCode(
          `const o = ctx.overlay('paint'); for (const i of ctx.graph.nodesOfKind('function')) o.set(i, { color: '${MAGENTA}', value: 42 });`,
          `[{ id: 'paint', name: 'Symbol Paint', type: 'color', legend: { all: '${MAGENTA}' } }]`,
        ),
      },
    ]);
    const server = await startTestServerWithBuiltIns(t, repo, { flags: { port: 0, plugins: { directories: [plugins] } } });
    t.equal((await server.api('/api/overlays/symbols/apply', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status, 200);
    const watched = await openPage(browser);
    const { page } = watched;
    // When the map is first drawn, and whether the panels were hidden until then (they are drawn with the map).
    await page.addInitScript(() => {
      const seen = ((window as any).__seen = {} as Record<string, unknown>);
      new MutationObserver(() => {
        const sidebarChild = document.querySelector('.sidebar > *');
        if (sidebarChild && seen.panelsWhileLoading === undefined) seen.panelsWhileLoading = getComputedStyle(sidebarChild).visibility;
        if (document.body?.dataset.drawn === 'true' && seen.panelsWhenDrawn === undefined) seen.panelsWhenDrawn = getComputedStyle(sidebarChild!).visibility;
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-drawn'] });
    });
    const symbol = 'sym:src/util/format.ts#format';
    await openUi(watched, `${server.url}/#node=${encodeURIComponent(symbol)}&overlays=symbols/paint`);
    t.same(
      await page.evaluate(() => (window as any).__seen),
      { panelsWhileLoading: 'hidden', panelsWhenDrawn: 'visible' },
      'the panels are hidden while the graph loads and shown with the map',
    );
    t.ok(await page.evaluate((id) => (window as any).strata.isVisible(id), symbol), 'the linked symbol is drawn (its file expanded)');
    const nodePanel = page.getByRole('complementary', { name: 'Node' });
    await nodePanel.getByRole('heading', { name: 'format' }).waitFor();
    // The hover card reads the page's own copy of the styles: the symbol's came with the graph, before the symbol did.
    // Where the symbol is once the camera, which centers on it, holds still.
    await page.waitForFunction(() => (window as any).strata.still());
    const at = await page.evaluate((id) => (window as any).strata.nodeOnPage(id), symbol);
    await page.mouse.move(at.x, at.y);
    const card = page.getByRole('tooltip');
    await card.waitFor();
    t.match(await card.textContent(), /Symbol Paint: 42/, "the symbol's overlay value");
    t.same(watched.problems, []);
  },
);
