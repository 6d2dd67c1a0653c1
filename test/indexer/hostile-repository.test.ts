// An untrusted repository: links that lead out of it, ignore files built to
// break the walker, names that are not UTF-8. Whatever it holds, the indexer
// reads nothing outside the repository, never hangs, and loses no file.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { indexRepository } from '@strata/host';
import t from 'tap';
import { pluginCode, pluginsFolder, writePlugins } from '../helpers/fixture-plugins.ts';
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

t.test('names that are not UTF-8 are each a node of their own, quoted as git quotes them, read, live and readable by plugins', async (t) => {
  const repo = await makeRepo(t, {});
  // Written by bytes: the fixture helper takes string paths.
  const write = (relative: Buffer, content: string) => writeFileSync(Buffer.concat([Buffer.from(`${repo}/`), relative]), content);
  write(Buffer.from([0xff, 0x2e, 0x74, 0x73]), 'export function ff() { return 1; }\n');
  write(Buffer.from([0xfe, 0x2e, 0x74, 0x73]), 'export function fe() { return 2; }\nexport function more() { return 3; }\n');
  mkdirSync(Buffer.concat([Buffer.from(`${repo}/`), Buffer.from([0x64, 0xfc])]));
  // In it, Python resolves its imports over the listing; TypeScript's resolver (oxc) takes paths as text, so an
  // import from a directory whose name is not UTF-8 leads nowhere, and says so.
  write(Buffer.from([0x64, 0xfc, 0x2f, 0x61, 0x2e, 0x70, 0x79]), 'from . import b\n');
  write(Buffer.from([0x64, 0xfc, 0x2f, 0x62, 0x2e, 0x70, 0x79]), 'x = 1\n');
  write(Buffer.from([0x64, 0xfc, 0x2f, 0x78, 0x2e, 0x74, 0x73]), "import { ok } from './ok';\nexport const x = ok;\n");
  write(Buffer.from([0x64, 0xfc, 0x2f, 0x6f, 0x6b, 0x2e, 0x74, 0x73]), 'export const ok = 1;\n');
  write(Buffer.from([0xfd, 0x2e, 0x74, 0x73]), "import { ok } from './ok';\nexport const fd = ok;\n");
  writeFileSync(path.join(repo, 'ok.ts'), 'export const ok = 0;\n');
  // A UTF-8 name that begins with a quote is quoted too, so that it cannot pass for the quoted form of another.
  writeFileSync(path.join(repo, '"\\377.ts"'), 'export const literal = 4;\n');
  // Tracked by git, and ignored by a rule: what git tracks is listed whatever the rules say, by the same names.
  writeFileSync(path.join(repo, '.gitignore'), '*.ts\n');
  execFileSync('git', ['init', '-q'], { cwd: repo });
  execFileSync('git', ['add', '-f', '.'], { cwd: repo });
  const plugins = await pluginsFolder(t, [
    {
      id: 'sizes',
      capabilities: ['graph:read', 'files:read'],
      code: pluginCode(`
        const { path } = ctx.graph.nodes;
        const overlay = ctx.overlay('main');
        for (const i of ctx.graph.nodesOfKind('file')) if (path[i].endsWith('.ts"') || path[i].endsWith('.ts')) overlay.set(i, { color: '#00ff00', value: (await ctx.files.read(path[i])).length });
      `),
    },
  ]);
  // A quoted name is bytes to the file system: one written to reach out (`\057` is `/`) is refused.
  await writePlugins(plugins, [
    { id: 'forged', capabilities: ['files:read'], code: pluginCode(`await ctx.files.read('"..\\\\057..\\\\057..\\\\057etc\\\\057passwd"');`) },
  ]);
  const server = await startTestServer(t, repo, { flags: { watch: true, plugins: { directories: [plugins] } } });
  const { body } = await server.api('/api/graph');
  const byId = new Map<string, any>(body.data.nodes.map((node: { id: string }) => [node.id, node]));
  const ff = byId.get('file:"\\377.ts"');
  const fe = byId.get('file:"\\376.ts"');
  t.match(ff, { kind: 'file', language: 'typescript', lines: 1, name: '"\\377.ts"' }, '\\xff.ts is a TypeScript node, read');
  t.match(fe, { kind: 'file', language: 'typescript', lines: 2 }, '\\xfe.ts is another, read');
  t.notOk(ff.error ?? fe.error, 'neither is unreadable');
  t.ok(byId.has('sym:"\\377.ts"#ff') && byId.has('sym:"\\376.ts"#more'), 'their symbols are theirs');
  t.ok(byId.has('dir:"d\\374"'), 'a directory whose name is not UTF-8 is a node');
  const imports = body.data.edges.filter((edge: { kind: string }) => edge.kind === 'imports').map((edge: { id: string }) => edge.id);
  t.ok(imports.includes('imports:file:"d\\374"/a.py->file:"d\\374"/b.py'), 'the files in it are read and resolved');
  t.ok(imports.includes('imports:file:"\\375.ts"->file:ok.ts'), "a TypeScript file's imports resolve");
  t.same(
    body.meta.unresolved,
    [{ file: '"d\\374"/x.ts', specifier: './ok', reason: "Cannot find module './ok'" }],
    "one from a TypeScript file in that directory is unresolved, and listed (oxc's resolver takes paths as text)",
  );
  t.match(byId.get('file:"\\"\\\\377.ts\\""'), { lines: 1 }, 'a name that begins with a quote has a quoted id of its own');
  t.same(body.meta.skipped, [], 'nothing is skipped');
  t.equal((await server.api(`/api/graph/nodes/${encodeURIComponent('file:"\\377.ts"')}`)).status, 200, 'the node is served by its id');

  const applied = await server.api('/api/overlays/sizes/apply', { method: 'POST' });
  t.equal(applied.status, 200, `a plugin reads those files by their paths: ${JSON.stringify(applied.body)}`);
  const styles = (await server.api('/api/overlays/sizes/styles')).body.data.overlays[0].styles;
  t.equal(styles['file:"\\377.ts"']?.value, 35, "a plugin's files.read of a quoted path reads that file");
  t.equal(styles['file:"\\376.ts"']?.value, 72);

  const forged = await server.api('/api/overlays/forged/apply', { method: 'POST' });
  t.match(forged.body.error?.message, /files\.read: .* has a quoted name that is not one the graph gives/, 'a forged quoted name is refused');

  write(Buffer.from([0x64, 0xfc, 0x2f, 0xfb, 0x2e, 0x74, 0x73]), 'export const fb = 5;\n');
  const after = await nextGraph(server, body.meta.revision, (graph) => graph.data.nodes.some((node: { id: string }) => node.id === 'file:"d\\374"/"\\373.ts"'));
  t.match(
    after.data.nodes.find((node: { id: string }) => node.id === 'file:"d\\374"/"\\373.ts"'),
    { language: 'typescript', lines: 1 },
    'a file made while the server runs is found by its bytes',
  );
});
