import { execFileSync } from 'node:child_process';
import path from 'node:path';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { nodePath, request, startTestServer } from '../helpers/strata-server.ts';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

t.test('GET /api/graph returns every directory and file in the envelope', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const { status, headers, body } = await server.api('/api/graph');
  t.equal(status, 200);
  t.match(headers.get('content-type'), /^application\/json/);
  t.match(body.meta.timestamp, ISO_UTC, 'meta.timestamp is ISO 8601 UTC');
  t.equal(body.meta.nodeCount, body.data.nodes.length, 'meta counts nodes');
  t.equal(body.meta.edgeCount, body.data.edges.length, 'meta counts edges');
  t.equal(body.meta.revision, 1);

  const paths = body.data.nodes
    .filter((node: { kind: string }) => node.kind === 'directory' || node.kind === 'file')
    .map((node: { path: string }) => node.path)
    .sort();
  t.same(
    paths,
    [
      '.',
      '.gitignore',
      'README.md',
      'config.cjs',
      'docs',
      'docs/.gitignore',
      'docs/guide.md',
      'docs/keep.md',
      'package.json',
      'src',
      'src/index.ts',
      'src/lazy.ts',
      'src/legacy',
      'src/legacy/index.js',
      'src/legacy/user.js',
      'src/types.ts',
      'src/util',
      'src/util/format.ts',
      'src/util/helper.ts',
    ],
    '.gitignore (nested too), node_modules, .git and the data directory are left out',
  );

  const byId = new Map(body.data.nodes.map((node: { id: string }) => [node.id, node]));
  t.same(byId.get('dir:.'), { id: 'dir:.', kind: 'directory', name: repo.split('/').pop(), path: '.', files: 14 });
  t.same(byId.get('dir:src/util'), { id: 'dir:src/util', kind: 'directory', name: 'util', path: 'src/util', parent: 'dir:src', files: 2 });
  t.same(
    byId.get('file:src/util/format.ts'),
    {
      id: 'file:src/util/format.ts',
      kind: 'file',
      name: 'format.ts',
      path: 'src/util/format.ts',
      parent: 'dir:src/util',
      language: 'typescript',
      bytes: Buffer.byteLength(SAMPLE_REPO['src/util/format.ts'] as string),
      lines: 5,
      loc: 3,
    },
    'a file node carries language, size, lines and lines of code (comments excluded)',
  );
  t.match(byId.get('file:src/index.ts'), { lines: 7, loc: 5 });
  t.match(byId.get('file:src/legacy/index.js'), { language: 'javascript' });
  t.match(byId.get('file:README.md'), { language: 'markdown', lines: 3, loc: 2 });
});

t.test('contains edges form the tree; imports edges follow relative imports of every kind', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const { body } = await server.api('/api/graph');
  const edges = body.data.edges as Array<{ id: string; source: string; target: string; kind: string; references?: string[]; specifiers?: string[] }>;

  const contains = edges.filter((edge) => edge.kind === 'contains');
  const contained = body.data.nodes.filter((node: { kind: string }) => node.kind !== 'package');
  t.equal(contains.length, contained.length - 1, 'every node but the root and packages has exactly one container');
  for (const node of contained) {
    if (node.id === 'dir:.') continue;
    t.ok(
      contains.some((edge) => edge.source === node.parent && edge.target === node.id),
      `${node.id} is contained by its parent`,
    );
  }

  const imports = edges
    .filter((edge) => edge.kind === 'imports')
    .map(({ source, target, references, specifiers, id }) => ({ id, source, target, references, specifiers }));
  imports.sort((a, b) => a.id.localeCompare(b.id));
  t.same(imports, [
    {
      id: 'imports:file:src/index.ts->file:src/lazy.ts',
      source: 'file:src/index.ts',
      target: 'file:src/lazy.ts',
      references: ['dynamic'],
      specifiers: ['./lazy.js'],
    },
    {
      id: 'imports:file:src/index.ts->file:src/types.ts',
      source: 'file:src/index.ts',
      target: 'file:src/types.ts',
      references: ['type-only'],
      specifiers: ['./types'],
    },
    {
      id: 'imports:file:src/index.ts->file:src/util/format.ts',
      source: 'file:src/index.ts',
      target: 'file:src/util/format.ts',
      references: ['re-export'],
      specifiers: ['./util/format'],
    },
    {
      id: 'imports:file:src/index.ts->file:src/util/helper.ts',
      source: 'file:src/index.ts',
      target: 'file:src/util/helper.ts',
      references: ['static'],
      specifiers: ['./util/helper.js'],
    },
    {
      id: 'imports:file:src/legacy/index.js->file:config.cjs',
      source: 'file:src/legacy/index.js',
      target: 'file:config.cjs',
      references: ['require'],
      specifiers: ['../../config.cjs'],
    },
    {
      id: 'imports:file:src/legacy/user.js->file:src/legacy/index.js',
      source: 'file:src/legacy/user.js',
      target: 'file:src/legacy/index.js',
      references: ['require'],
      specifiers: ['.'],
    },
    {
      id: 'imports:file:src/util/helper.ts->file:src/util/format.ts',
      source: 'file:src/util/helper.ts',
      target: 'file:src/util/format.ts',
      references: ['static'],
      specifiers: ['./format'],
    },
  ]);
});

t.test('ids are the same after a restart and a re-index', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const first = await startTestServer(t, repo);
  const before = (await first.api('/api/graph')).body.data;
  await first.stop();
  const second = await startTestServer(t, repo);
  const after = (await second.api('/api/graph')).body.data;
  t.same(
    after.nodes.map((n: { id: string }) => n.id),
    before.nodes.map((n: { id: string }) => n.id),
  );
  t.same(
    after.edges.map((e: { id: string }) => e.id),
    before.edges.map((e: { id: string }) => e.id),
  );
});

t.test('files that cannot be read in full are still nodes, and what was skipped is reported', async (t) => {
  const repo = await makeRepo(t, {
    'src/a.ts': 'export const a = 1;\n',
    'src/broken.ts': "import { a } from './a';\nexport const = ;\n",
    'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0, 1, 2, 3]),
    'latin1.txt': Buffer.from("Un caf\u00e9 au lait, s'il vous pla\u00eet. O\u00f9 est la biblioth\u00e8que ?\n", 'latin1'),
    'big.js': `// ${'x'.repeat(5000)}\n`,
    loop: { symlink: '.' },
    dangling: { symlink: 'nowhere' },
    'link-to-a.ts': { symlink: 'src/a.ts' },
    'ping.ts': { symlink: 'pong.ts' },
    'pong.ts': { symlink: 'ping.ts' },
    'pipe-link.ts': { symlink: 'pipe' },
  });
  // A named pipe, and a link to it: opening one for reading would wait for a writer forever.
  execFileSync('mkfifo', [path.join(repo, 'pipe')]);
  const server = await startTestServer(t, repo, { configFile: undefined, flags: { index: { maxFileBytes: 1024 } } });
  const { body } = await server.api('/api/graph');
  const byId = new Map(body.data.nodes.map((node: { id: string }) => [node.id, node]));
  t.match(byId.get('file:src/broken.ts'), { error: /^syntax error/ }, 'a syntax error is recorded on the node');
  t.ok(
    body.data.edges.some((edge: { id: string }) => edge.id === 'imports:file:src/broken.ts->file:src/a.ts'),
    'imports before the error are kept',
  );
  t.match(byId.get('file:assets/logo.png'), { binary: true, bytes: 12 });
  t.notOk((byId.get('file:assets/logo.png') as { language?: string }).language, 'binary files get no language');
  t.match(byId.get('file:latin1.txt'), { error: /not valid UTF-8/ });
  t.match(byId.get('file:big.js'), { error: /over the limit of 1024/ });
  t.ok(byId.has('file:link-to-a.ts'), 'a link to a file is a file');
  t.same(
    body.meta.skipped,
    [
      { path: 'dangling', reason: 'broken symbolic link' },
      { path: 'loop', reason: 'symbolic link to a directory (not followed)' },
      { path: 'ping.ts', reason: 'symbolic link loop' },
      { path: 'pipe', reason: 'not a regular file' },
      { path: 'pipe-link.ts', reason: 'symbolic link to something other than a regular file' },
      { path: 'pong.ts', reason: 'symbolic link loop' },
    ],
    'links in a loop, pipes and links to them are skipped, and indexing goes on',
  );
});

t.test("meta.unresolved names paths relative to the repository, never the server's own", async (t) => {
  // The repository is a folder of the temporary directory, so that an import can lead outside it.
  const parent = await makeRepo(t, {
    'outside.ts': 'export {};\n',
    'repo/package.json': JSON.stringify({ name: 'app', imports: { '#bad': '../outside.js' } }),
    'repo/a.ts': "import '#missing';\nimport '#bad';\nimport '../outside.ts';\nimport './missing';\n",
    'repo/broken/package.json': '{ not json',
    'repo/broken/b.ts': "import '#x';\n",
  });
  const repo = path.join(parent, 'repo');
  const server = await startTestServer(t, repo);
  const { unresolved, unresolvedCount } = (await server.api('/api/graph')).body.meta;
  t.equal(unresolvedCount, 5);
  t.match(unresolved, [
    { file: 'a.ts', specifier: '#missing', reason: /"#missing" is not defined in package package\.json$/ },
    { file: 'a.ts', specifier: '#bad', reason: /"\.\.\/outside\.js" defined for '#bad' in the package config package\.json$/ },
    { file: 'a.ts', specifier: '../outside.ts', reason: 'resolves outside the repository (../outside.ts)' },
    { file: 'a.ts', specifier: './missing', reason: "Cannot find module './missing'" },
    { file: 'broken/b.ts', specifier: '#x', reason: /path: "broken\/package\.json"/ },
  ]);
  for (const { specifier, reason } of unresolved) {
    t.notOk(reason.includes(parent), `the reason for ${specifier} does not name the server's directories: ${reason}`);
    t.notMatch(reason, /(^|[\s'"(])\//, `the reason for ${specifier} has no absolute path: ${reason}`);
  }
});

t.test('an empty repository is a graph of one directory', async (t) => {
  const repo = await makeRepo(t, {});
  const server = await startTestServer(t, repo);
  const { body } = await server.api('/api/graph');
  t.equal(body.data.nodes.length, 1);
  t.equal(body.data.edges.length, 0);
  t.equal(body.data.nodes[0].id, 'dir:.');
});

t.test('nodes with long ids (deep paths, long names) are found', async (t) => {
  const deep = `src/${'nested-directory/'.repeat(12)}module.ts`;
  const repo = await makeRepo(t, { [deep]: 'export function aFunctionWithQuiteALongDescriptiveName() {}\n' });
  const server = await startTestServer(t, repo);
  for (const id of [`file:${deep}`, `sym:${deep}#aFunctionWithQuiteALongDescriptiveName`]) {
    t.ok(id.length > 200, `${id.length} characters`);
    const { status, body } = await server.api(nodePath(id));
    t.equal(status, 200, 'found');
    t.equal(body.data.id, id);
  }
  const missing = await server.api(nodePath(`file:${'x'.repeat(500)}.ts`));
  t.equal(missing.status, 404);
  t.match(missing.body.error.message, /^node "file:x+\.ts" does not exist/, 'a long id that is not there is a missing node, not a missing route');
});

t.test('GET /api/graph/nodes/{id} returns the node with its incoming and outgoing edges', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const { status, body } = await server.api(nodePath('file:src/util/format.ts'));
  t.equal(status, 200);
  t.match(body.meta.timestamp, ISO_UTC);
  t.match(body.data, { id: 'file:src/util/format.ts', kind: 'file', path: 'src/util/format.ts', language: 'typescript' });
  t.same(body.data.incoming.map((edge: { id: string }) => edge.id).sort(), [
    'contains:dir:src/util->file:src/util/format.ts',
    'imports:file:src/index.ts->file:src/util/format.ts',
    'imports:file:src/util/helper.ts->file:src/util/format.ts',
  ]);
  t.same(
    body.data.outgoing.map((edge: { id: string }) => edge.id),
    ['contains:file:src/util/format.ts->sym:src/util/format.ts#format'],
    'a file contains its symbols',
  );

  const directory = await server.api(nodePath('dir:.'));
  t.equal(directory.status, 200);
  t.equal(directory.body.data.outgoing.length, 6, 'the root contains its six entries');
});

t.test('ids with any character round-trip through encodeURIComponent', async (t) => {
  const names = ['with space.ts', 'hash#tag.ts', 'per%cent.ts', 'q?mark.ts', 'ünï-cødé.ts', 'plus+and&amp.ts', 'dots..ts'];
  const repo = await makeRepo(t, Object.fromEntries(names.map((name) => [`odd dir/${name}`, 'export {};\n'])));
  const server = await startTestServer(t, repo);
  for (const name of names) {
    const id = `file:odd dir/${name}`;
    const { status, body } = await server.api(nodePath(id));
    t.equal(status, 200, `${id} is found`);
    t.equal(body.data?.id, id);
  }
});

t.test('a missing node is 404 NOT_FOUND naming the id', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const { status, body } = await server.api(nodePath('file:no/such.ts'));
  t.equal(status, 404);
  t.same(body, { error: { code: 'NOT_FOUND', message: 'node "file:no/such.ts" does not exist' } });
});

t.test('meta.repositoryPath, for editor links, only from a server on a loopback address', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const local = await startTestServer(t, repo);
  t.equal((await local.api('/api/graph')).body.meta.repositoryPath, repo, 'bound to 127.0.0.1: the browser is on this machine');
  const everywhere = await startTestServer(t, repo, { flags: { port: 0, host: '0.0.0.0', dataDir: path.join(repo, '.strata-other') } });
  const meta = (await request(everywhere.url.replace('0.0.0.0', '127.0.0.1'), '/api/graph')).body.meta;
  t.equal(meta.repositoryPath, undefined, "bound to every address: the server's paths are its own");
  t.equal(meta.repository, path.basename(repo));
});
