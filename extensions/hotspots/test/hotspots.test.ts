/**
 * hotspots in the sandbox (PluginTester) over a repository with a known,
 * dated history: the graph is the host's indexer's (fixtureRepository),
 * git.log is answered by git itself on that repository, and every expected
 * score is worked out by hand below.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GitCommit } from '@strata/sdk';
import { fixtureRepository, PluginTestError, PluginTester } from '@strata/sdk-testing';
import t from 'tap';

const pluginFolder = fileURLToPath(new URL('..', import.meta.url));
const strataRoot = path.resolve(pluginFolder, '../..');
// The sandbox loads the built bundle.
execFileSync(process.execPath, [path.join(strataRoot, 'host/bin/strata.js'), 'plugin', 'build', pluginFolder], { stdio: ['ignore', 'pipe', 'pipe'] });
const tester = new PluginTester(pluginFolder);

const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null', TZ: 'UTC' };

// The files as they are at the end, with their cyclomatic complexity counted by hand (ESLint's rule for
// TypeScript: 1 per function plus 1 per branch; McCabe's for Python, as the indexer counts it).
const FILES = {
  // pick: 1 + if + else-if = 3; twice: 1; its callback: 1. The file: 5.
  'src/a.ts': `export function pick(x: number): string {
  if (x > 1) return 'a';
  else if (x > 0) return 'b';
  return 'c';
}
export const twice = (xs: number[]) => xs.map((x) => x * 2);
`,
  // m: 1 + ?. + ?? = 3.
  'src/moved.ts': 'export function m(a?: { b?: number }): number {\n  return a?.b ?? 0;\n}\n',
  // f: 1 + if + and + for + if = 5; g: 1. The file: 6.
  'lib/tool.py': `def f(x):
    if x > 0 and x < 10:
        return 1
    for i in range(x):
        if i:
            return i
    return 0


def g():
    return 1
`,
  // No function: 0.
  'src/types.ts': 'export type T = { a: number };\nexport const k = 1;\n',
  // old: 1 + if + if + for + if + while + && + ?? = 8, the highest, in a file no commit of the range touched.
  'src/old.ts': `export function old(x: number, y?: number): number {
  if (x > 0) return 1;
  if (x < 0) return 2;
  for (const z of [1]) {
    if (z) x++;
  }
  while (x > 10 && x < 20) x--;
  return y ?? x;
}
`,
};

/** The history: one commit before the range, six in 2026-01-01..2026-06-01 (a rename among them), newest last. */
async function historyRepo(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const repo = await mkdtemp(path.join(tmpdir(), 'strata-hotspots-'));
  t.teardown(() => rm(repo, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: GIT_ENV });
  const commit = async (date: string, files: Record<string, string>, renames: Array<[string, string]> = []) => {
    for (const [from, to] of renames) git('mv', from, to);
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(repo, file)), { recursive: true });
      await writeFile(path.join(repo, file), content);
      git('add', file);
    }
    const who = { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };
    execFileSync('git', ['commit', '-q', '-m', `at ${date}`], { cwd: repo, env: { ...GIT_ENV, ...who, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
  };
  git('init', '-q', '-b', 'main');
  await commit('2025-01-05T10:00:00Z', { 'src/old.ts': FILES['src/old.ts'], 'src/a.ts': 'export const a = 1;\n' });
  await commit('2026-01-10T10:00:00Z', { 'src/a.ts': 'export const a = 2;\n', 'lib/tool.py': 'def g():\n    return 1\n', 'docs/guide.md': '# Guide\n' });
  await commit('2026-02-10T10:00:00Z', { 'src/a.ts': 'export const a = 3;\n', 'src/b.ts': FILES['src/moved.ts'] });
  await commit('2026-03-10T10:00:00Z', { 'src/moved.ts': FILES['src/moved.ts'].replace('0;', '0 ;'), 'lib/tool.py': FILES['lib/tool.py'] }, [
    ['src/b.ts', 'src/moved.ts'],
  ]);
  await commit('2026-04-10T10:00:00Z', { 'src/a.ts': FILES['src/a.ts'], 'src/moved.ts': FILES['src/moved.ts'], 'docs/guide.md': '# Guide\n\nMore.\n' });
  await commit('2026-05-10T10:00:00Z', { 'src/types.ts': FILES['src/types.ts'], 'docs/guide.md': '# Guide\n\nMore, again.\n' });
  await commit('2026-05-20T10:00:00Z', { 'docs/guide.md': '# Guide\n\nThe last word.\n' });
  return repo;
}

/** git.log answered by git on the repository, as the host asks it (numstat, renames found, newest first). */
function gitLog(repo: string) {
  return (options: { since?: string; until?: string; maxCommits?: number } = {}): GitCommit[] => {
    const args = ['log', '--numstat', '-z', '--find-renames', '--format=%x1e%H%x1f%aN%x1f%aE%x1f%aI%x1f%s'];
    if (options.since) args.push(`--since=${options.since}`);
    if (options.until) args.push(`--until=${options.until}`);
    if (options.maxCommits) args.push(`--max-count=${options.maxCommits}`);
    const output = execFileSync('git', args, { cwd: repo, env: GIT_ENV, encoding: 'utf8' });
    return output
      .split('\x1e')
      .filter((record) => record.trim() !== '')
      .map((record) => {
        const tokens = record.split('\0');
        const [hash, authorName, authorEmail, date, subject] = tokens.shift()!.split('\x1f') as [string, string, string, string, string];
        const files: GitCommit['files'] = [];
        for (let i = 0; i < tokens.length; i++) {
          const match = /^(\d+)\t(\d+)\t(.*)$/s.exec(tokens[i]!.replace(/^\n/, ''));
          if (!match) continue;
          const counts = { added: Number(match[1]), deleted: Number(match[2]), binary: false };
          if (match[3] === '') files.push({ previousPath: tokens[++i]!, path: tokens[++i]!, ...counts });
          else files.push({ path: match[3]!, ...counts });
        }
        return { hash, authorName, authorEmail, date, subject, files };
      });
  };
}

const repo = await historyRepo(t);
const fixture = await fixtureRepository(repo);
const capabilities = { ...fixture.capabilities, 'git:log': gitLog(repo) };
const RANGE = { since: '2026-01-01', until: '2026-06-01' };

// Commits in the range: src/a.ts 3 (Jan, Feb, Apr), src/moved.ts 3 (Feb as src/b.ts, Mar, Apr: the rename is
// followed), lib/tool.py 2, src/types.ts 1, docs/guide.md 4, src/old.ts 0. The most commits of a file with a complexity
// figure: 3 (docs/guide.md has none, so its 4 do not count). The highest complexity: 8 (src/old.ts).
const EXPECTED = [
  { path: 'src/a.ts', commits: 3, complexity: 5, score: (3 / 3) * (5 / 8) },
  { path: 'lib/tool.py', commits: 2, complexity: 6, score: (2 / 3) * (6 / 8) },
  { path: 'src/moved.ts', commits: 3, complexity: 3, score: (3 / 3) * (3 / 8) },
];
const size = (complexity: number) => 0.5 + 2.5 * Math.sqrt(complexity / 8);

t.test('scores, sizes, ranks and the summary, as worked out by hand', async (t) => {
  const result = await tester.run({ graph: fixture.graph, params: RANGE, capabilities });
  t.same(
    result.calls.filter((call) => call.capability === 'git:log').map((call) => call.args),
    [[RANGE]],
    'one git log of the range',
  );
  t.same(
    EXPECTED.map((file) => file.score),
    [0.625, 0.5, 0.375],
    'the scores',
  );
  for (const [index, file] of EXPECTED.entries()) {
    const style = result.style('hotspots', `file:${file.path}`);
    t.equal(style?.value, file.score, `${file.path}: score ${file.score}`);
    t.equal(style?.size, size(file.complexity), `${file.path}: sized by complexity ${file.complexity}`);
    t.equal(style?.badge, `#${index + 1}`, `${file.path}: rank ${index + 1}`);
    t.match(style?.color, /^#[0-9a-f]{6}$/);
  }
  const color = (file: string) => result.style('hotspots', `file:${file}`)!.color!;
  t.not(color('src/a.ts'), color('src/moved.ts'), 'the color follows the score');

  for (const file of ['src/old.ts', 'src/types.ts', 'docs/guide.md'])
    t.equal(result.style('hotspots', `file:${file}`), undefined, `${file}: no commits in the range, a complexity of 0, or none: not painted`);
  const painted = Object.keys(result.overlays.hotspots!.styles).filter((id) => id.startsWith('file:'));
  t.same(painted.sort(), ['file:lib/tool.py', 'file:src/a.ts', 'file:src/moved.ts'], 'only the scored files');
  t.notOk(
    Object.keys(result.overlays.hotspots!.styles).some((id) => id.startsWith('sym:')),
    'symbols are not painted',
  );

  // Directories: their hottest file's score; their size from the complexity of every measured file below (src: 5 + 3 + 0 + 8).
  t.match(result.style('hotspots', 'dir:src'), { value: 0.625, size: size(16) });
  t.match(result.style('hotspots', 'dir:lib'), { value: 0.5, size: size(6) });
  t.match(result.style('hotspots', 'dir:.'), { value: 0.625, size: size(22) });
  t.equal(result.style('hotspots', 'dir:docs'), undefined, 'a directory without a scored file is not painted');

  t.match(result.summary, {
    since: RANGE.since,
    until: RANGE.until,
    commits: 6,
    filesTouched: 5,
    filesMeasured: 5,
    filesNotParsed: 0,
    filesNotRead: 0,
    filesScored: 3,
    maxCommits: 3,
    maxComplexity: 8,
    ranked: 3,
  });
  for (const [index, file] of EXPECTED.entries())
    t.same(JSON.parse(String(result.summary[`hotspot${index + 1}`])), { rank: index + 1, ...file }, `summary.hotspot${index + 1}`);
  t.equal(result.summary.hotspot4, undefined);

  const legend = result.overlays.hotspots!.legend;
  t.same(Object.keys(legend), ['score 0.00', 'score 0.25', 'score 0.50', 'score 0.75', 'score 1.00 = 3 commits × complexity 8'], 'the legend, in figures');
});

t.test('top ranks fewer files; the others keep their score', async (t) => {
  const result = await tester.run({ graph: fixture.graph, params: { ...RANGE, top: 2 }, capabilities });
  t.equal(result.style('hotspots', 'file:lib/tool.py')?.badge, '#2');
  t.match(result.style('hotspots', 'file:src/moved.ts'), { value: 0.375 });
  t.equal(result.style('hotspots', 'file:src/moved.ts')?.badge, undefined, 'rank 3 is not badged');
  t.match(result.summary, { ranked: 2, filesScored: 3 });
  t.ok(result.summary.hotspot2);
  t.equal(result.summary.hotspot3, undefined);
});

t.test('a range without commits paints nothing, and says why', async (t) => {
  const result = await tester.run({ graph: fixture.graph, params: { since: '2020-01-01', until: '2020-12-31' }, capabilities });
  t.same(result.overlays.hotspots!.styles, {});
  t.match(result.summary, { commits: 0, filesScored: 0, message: /^no commits in the range/ });
});

t.test('bad parameters are refused, naming the field', async (t) => {
  const refused = async (params: Record<string, unknown>) => {
    try {
      await tester.run({ graph: fixture.graph, params, capabilities });
    } catch (error) {
      if (error instanceof PluginTestError) return { code: error.code, message: error.message };
      throw error;
    }
    return undefined;
  };
  t.match(await refused({ since: '2026-02-30' }), { code: 'INVALID_PARAMETER', message: /since: "2026-02-30" is not a valid date/ });
  t.match(await refused({ since: '2026-05-01', until: '2026-01-01' }), { code: 'INVALID_PARAMETER', message: /since .* is after until/ });
  t.match(await refused({ since: 'last week' }), { code: 'INVALID_PARAMETER', message: /body\.since/ });
  t.match(await refused({ top: 0 }), { code: 'INVALID_PARAMETER', message: /body\.top/ });
  t.match(await refused({ top: 31 }), { code: 'INVALID_PARAMETER', message: /body\.top/ });
});
