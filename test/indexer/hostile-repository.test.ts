// An untrusted repository: links that lead out of it, ignore files built to
// break the walker, names that are not UTF-8. Whatever it holds, the indexer
// reads nothing outside the repository, never hangs, and loses no file.
import { rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { indexRepository } from '@strata/host';
import t from 'tap';
import { makeRepo, writeFiles } from '../helpers/fixture-repo.ts';
import { nextGraph } from '../helpers/live-graph.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const OUTSIDE = 'symbolic link to outside the repository (not followed)';
const SECRET_SOURCE = "import { key } from 'SECRET_sk_live_abc123';\nexport function SECRET_function() { return key; }\n";

/** A temporary folder with `repo/` (the files given) and `outside/secret.ts` beside it. */
async function repoBesideSecret(t: Parameters<typeof makeRepo>[0], files: Parameters<typeof makeRepo>[1]) {
  const base = await makeRepo(t, { 'outside/secret.ts': SECRET_SOURCE, 'outside/dir/more.ts': SECRET_SOURCE });
  const repo = path.join(base, 'repo');
  await writeFiles(repo, files);
  return { base, repo, secret: path.join(base, 'outside/secret.ts') };
}

/** Whether anything of the secret files reached the graph (their names, their imports). */
function leaks(graph: unknown): boolean {
  return JSON.stringify(graph).includes('SECRET');
}

t.test('a link whose real path leaves the repository is skipped with its reason, and its target never read', async (t) => {
  const { repo, base } = await repoBesideSecret(t, {
    'src/real.ts': "import { x } from './other';\nexport const real = x;\n",
    'src/other.ts': 'export const x = 1;\n',
    'src/leak.ts': { symlink: '../../outside/secret.ts' },
    'src/passwd.ts': { symlink: '/etc/passwd' },
    'src/chain-out-1.ts': { symlink: 'chain-out-2.ts' },
    'src/chain-out-2.ts': { symlink: '../../outside/secret.ts' },
    'src/chain-in-1.ts': { symlink: 'chain-in-2.ts' },
    'src/chain-in-2.ts': { symlink: 'real.ts' },
    'src/up-and-back.ts': { symlink: '../../repo/src/real.ts' },
    'lib-out': { symlink: '../outside/dir' },
    'lib-in': { symlink: 'src' },
  });
  symlinkSync(path.join(base, 'outside/secret.ts'), path.join(repo, 'src/absolute.ts'));
  const server = await startTestServer(t, repo);
  const { body } = await server.api('/api/graph');
  t.notOk(leaks(body), 'no name or import of a file outside the repository is in the graph');
  const ids = new Set(body.data.nodes.map((node: { id: string }) => node.id));
  for (const link of ['src/leak.ts', 'src/passwd.ts', 'src/absolute.ts', 'src/chain-out-1.ts', 'src/chain-out-2.ts', 'lib-out'])
    t.notOk(ids.has(`file:${link}`) || ids.has(`dir:${link}`), `${link} is no node`);
  t.same(
    body.meta.skipped,
    [
      { path: 'lib-in', reason: 'symbolic link to a directory (not followed)' },
      { path: 'lib-out', reason: OUTSIDE },
      { path: 'src/absolute.ts', reason: OUTSIDE },
      { path: 'src/chain-out-1.ts', reason: OUTSIDE },
      { path: 'src/chain-out-2.ts', reason: OUTSIDE },
      { path: 'src/leak.ts', reason: OUTSIDE },
      { path: 'src/passwd.ts', reason: OUTSIDE },
    ],
    'each is skipped, saying why',
  );
  // Links inside the repository are files as documented, chains and a way out and back in too.
  const byId = new Map(body.data.nodes.map((node: { id: string }) => [node.id, node]));
  for (const link of ['src/chain-in-1.ts', 'src/chain-in-2.ts', 'src/up-and-back.ts']) {
    t.match(byId.get(`file:${link}`), { kind: 'file', language: 'typescript', lines: 2 }, `${link}, a link inside, is read as its target`);
    t.notOk((byId.get(`file:${link}`) as { error?: string }).error, `${link} has no error`);
  }
  t.ok(
    body.data.edges.some((edge: { id: string }) => edge.id === 'imports:file:src/chain-in-1.ts->file:src/other.ts'),
    "a link inside resolves its target's imports from where the link is",
  );
});

t.test('a link swapped for one that leads outside, while the server runs, leaves the graph and is reported', async (t) => {
  const { repo } = await repoBesideSecret(t, {
    'src/real.ts': 'export const real = 1;\n',
    'src/swapped.ts': { symlink: 'real.ts' },
  });
  const server = await startTestServer(t, repo, { flags: { watch: true } });
  const first = (await server.api('/api/graph')).body;
  t.ok(
    first.data.nodes.some((node: { id: string }) => node.id === 'file:src/swapped.ts'),
    'the link inside is a file',
  );
  unlinkSync(path.join(repo, 'src/swapped.ts'));
  symlinkSync('../../outside/secret.ts', path.join(repo, 'src/swapped.ts'));
  symlinkSync('../../outside/secret.ts', path.join(repo, 'src/added.ts'));
  const after = await nextGraph(server, first.meta.revision, (graph) =>
    ['src/swapped.ts', 'src/added.ts'].every((p) => graph.meta.skipped.some((entry: { path: string }) => entry.path === p)),
  );
  t.notOk(leaks(after), 'nothing of the target is in the graph');
  t.notOk(
    after.data.nodes.some((node: { id: string }) => node.id === 'file:src/swapped.ts' || node.id === 'file:src/added.ts'),
    'neither link is a node',
  );
  t.same(
    after.meta.skipped.filter((entry: { path: string }) => entry.path.startsWith('src/')),
    [
      { path: 'src/added.ts', reason: OUTSIDE },
      { path: 'src/swapped.ts', reason: OUTSIDE },
    ],
  );
});

t.test('a link swapped for one that leads outside between the listing and the reading is not read', async (t) => {
  const { repo } = await repoBesideSecret(t, {
    'src/real.ts': 'export const real = 1;\n',
    'src/second.ts': 'export const second = 2;\n',
    'src/swapped.ts': { symlink: 'real.ts' },
  });
  const dataDir = path.join(repo, '.strata');
  // A first index fills the facts cache, so that the next one lists every file before it reads any. Files changed in
  // the last 2 s are not cached (their signature could hide a change), so the first index waits that long.
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  await indexRepository({ repository: repo, env: {}, flags: { dataDir } });
  unlinkSync(path.join(repo, 'src/swapped.ts'));
  symlinkSync('second.ts', path.join(repo, 'src/swapped.ts'));
  let swapped = false;
  const graph = await indexRepository({
    repository: repo,
    env: {},
    flags: { dataDir },
    onProgress: (progress) => {
      if (progress.phase !== 'reading' || swapped) return;
      swapped = true;
      unlinkSync(path.join(repo, 'src/swapped.ts'));
      symlinkSync('../../outside/secret.ts', path.join(repo, 'src/swapped.ts'));
    },
  });
  t.ok(swapped, 'the link was swapped once the files were listed');
  t.notOk(leaks(graph), 'nothing of the target is in the graph');
  t.match(
    graph.nodes.find((node) => node.id === 'file:src/swapped.ts'),
    { error: 'not read: a symbolic link to outside the repository' },
    'the listed file is a node that says why it was not read',
  );
  t.notOk((graph.nodes.find((node) => node.id === 'file:src/swapped.ts') as { bytes?: number }).bytes, "the target's size is not told");
  rmSync(dataDir, { recursive: true, force: true });
});

t.test('project files that are links out of the repository are not read either', async (t) => {
  const { repo, base } = await repoBesideSecret(t, {
    'src/a.ts': 'export const a = 1;\n',
    '.gitignore': { symlink: '../outside/ignore-rules' },
    'go.mod': { symlink: '../outside/go.mod' },
    'main.go': 'package main\n\nimport "example.com/secret/SECRET_pkg"\n\nfunc main() {}\n',
  });
  // Were the outside files read, the .gitignore would hide src/ and the go.mod would make the import a file of it.
  writeFileSync(path.join(base, 'outside/ignore-rules'), 'src/\n');
  writeFileSync(path.join(base, 'outside/go.mod'), 'module example.com/secret\n\ngo 1.21\n');
  const graph = await indexRepository({ repository: repo, env: {} });
  t.ok(
    graph.nodes.some((node) => node.id === 'file:src/a.ts'),
    'the ignore rules outside were not read',
  );
  t.ok(
    graph.edges.some((edge) => edge.target === 'pkg:go:example.com/secret/SECRET_pkg' || edge.target.startsWith('pkg:go:example.com')),
    'the module file outside was not read: the import is of a package, not of the repository',
  );
});

t.test('ignore files are bounded: rules past the limits are left out, each problem naming its file and line', async (t) => {
  const rules = Array.from({ length: 2_000 }, (_, i) => `generated-${i}.js`);
  const repo = await makeRepo(t, {
    // The 2,001st rule, and all after it, are left out: `*.tmp` does not apply.
    '.gitignore': `# rules\n${rules.join('\n')}\n*.tmp\n`,
    // A nested file: a pattern longer than any path, then rules that still apply.
    'docs/.gitignore': `\n${'x*'.repeat(3_000)}\n*.draft\n`,
    '.git/info/exclude': `${'y'.repeat(5_000)}\nlocal-only.txt\n`,
    'src/a.ts': 'export const a = 1;\n',
    'cache.tmp': 'kept: its rule is past the limit\n',
    'generated-7.js': 'ignored by a rule within the limit\n',
    'docs/guide.md': '# Guide\n',
    'docs/notes.draft': 'ignored\n',
    'local-only.txt': 'ignored by the exclude file\n',
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  const ids = new Set(graph.nodes.map((node) => node.id));
  t.ok(ids.has('file:cache.tmp'), 'a rule past the limit is not applied');
  t.notOk(ids.has('file:generated-7.js'), 'the rules within the limit are');
  t.notOk(ids.has('file:docs/notes.draft'), 'the rules after a pattern left out are');
  t.notOk(ids.has('file:local-only.txt'), 'and those of the exclude file after its long line');
  t.same(graph.build.skipped, [
    { path: '.git/info/exclude', reason: 'ignore rule on line 1 left out: 5000 characters, longer than any path can be (4096)' },
    { path: '.gitignore', reason: 'more than 2000 ignore rules: those from line 2002 on are left out' },
    { path: 'docs/.gitignore', reason: 'ignore rule on line 2 left out: 6000 characters, longer than any path can be (4096)' },
  ]);
});

t.test('an ignore file over 256 KiB is read up to there, and said so', async (t) => {
  const filler = `${'# a comment line to fill the file\n'.repeat(8_000)}`;
  const repo = await makeRepo(t, {
    '.gitignore': `*.log\n${filler}*.tmp\n`,
    'a.log': 'ignored\n',
    'b.tmp': 'kept: its rule is past the bytes read\n',
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  const ids = new Set(graph.nodes.map((node) => node.id));
  t.notOk(ids.has('file:a.log'));
  t.ok(ids.has('file:b.tmp'));
  t.same(graph.build.skipped, [{ path: '.gitignore', reason: 'ignore file over 262144 bytes: the lines after that are left out' }]);
});
