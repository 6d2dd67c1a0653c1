import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { IMPORT_CYCLES_REPO } from '../helpers/import-cycles-repo.ts';
import { runStrata } from '../helpers/strata-cli.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const NO_SERVER = 'http://127.0.0.1:9';

t.test('strata cycles: without a server it indexes the repository and lists the cycles, largest first', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const run = runStrata(t, ['cycles', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await run.exited, 0, run.stderr());
  const out = run.stdout();
  t.match(out, /^6 import cycles, 14 files in them:\n/);
  t.match(out, /\n1\. 3 files, 4 imports between them\n {3}shortest cycle: src\/core\/a\.ts -> src\/core\/b\.ts -> src\/core\/a\.ts\n {3}src\/core\/a\.ts\n/);
  t.match(out, /shortest cycle: src\/ring\/one\.ts -> src\/ring\/two\.ts -> src\/ring\/three\.ts -> src\/ring\/one\.ts/);
  t.match(run.stderr(), /No server answers at http:\/\/127\.0\.0\.1:9; indexing /);

  const runtime = runStrata(t, ['cycles', '--exclude', 'type-only,dynamic', '--json', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await runtime.exited, 0, runtime.stderr());
  const answer = JSON.parse(runtime.stdout());
  t.equal(answer.componentCount, 3);
  t.same(answer.excluded, ['type-only', 'dynamic']);

  const directories = runStrata(t, ['cycles', '--level', 'directory', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await directories.exited, 0);
  t.match(
    directories.stdout(),
    /^1 import cycle, 2 directories in them:\n\n1\. 2 directories, 2 imports between them\n {3}shortest cycle: src\/left -> src\/right -> src\/left\n/,
  );

  const limited = runStrata(t, ['cycles', '--limit', '1', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await limited.exited, 0);
  t.match(limited.stdout(), /^6 import cycles, 14 files in them; the 1 largest:\n/);
  t.notMatch(limited.stdout(), /\n2\. /);
});

t.test('strata impact, path and metrics ask a running server, paths taken from the working directory', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  const impact = runStrata(t, ['impact', 'src/core/c.ts', '--server', server.url], { cwd: repo });
  t.equal(await impact.exited, 0, impact.stderr());
  t.equal(
    impact.stdout(),
    [
      'src/core/c.ts: 3 files depend on it (1 at depth 1, 1 at depth 2, 1 at depth 3)',
      '    1  src/core/b.ts',
      '    2  src/core/a.ts',
      '    3  src/app.ts',
      '',
    ].join('\n'),
  );
  t.equal(impact.stderr(), '', 'a server answered: nothing indexed here');

  const fromSubdirectory = runStrata(t, ['impact', 'ring', '--depth', '1', '--repo', '..', '--server', server.url], { cwd: `${repo}/src` });
  t.equal(await fromSubdirectory.exited, 0, fromSubdirectory.stderr());
  t.equal(fromSubdirectory.stdout(), 'src/ring: 1 file depends on it (1 at depth 1)\n    1  src/app.ts\n', 'a directory, named from below the root');

  const dependencies = runStrata(t, ['impact', 'src/app.ts', '--dependencies', '--limit', '2', '--server', server.url], { cwd: repo });
  t.equal(await dependencies.exited, 0);
  t.match(
    dependencies.stdout(),
    /^src\/app\.ts: it depends on 17 files and packages \(8 at depth 1, 7 at depth 2, 2 at depth 3\)\n {4}1 {2}src\/core\/a\.ts\n {4}1 {2}src\/lazy\/q\.ts\n {2}\.\.\. and 15 more \(--limit\)\n$/,
  );

  const path = runStrata(t, ['path', 'src/app.ts', 'src/core/c.ts', '--server', server.url], { cwd: repo });
  t.equal(await path.exited, 0);
  t.equal(path.stdout(), 'src/app.ts -> src/core/a.ts -> src/core/b.ts -> src/core/c.ts  (3 imports)\n');
  const noPath = runStrata(t, ['path', 'src/core/c.ts', 'src/app.ts', '--server', server.url], { cwd: repo });
  t.equal(await noPath.exited, 1, 'no path: exit 1, as grep finding nothing');
  t.equal(noPath.stdout(), 'src/core/c.ts does not reach src/app.ts by imports.\n');

  const metrics = runStrata(t, ['metrics', '--kind', 'directory', '--top', '2', '--server', server.url], { cwd: repo });
  t.equal(await metrics.exited, 0);
  t.equal(
    metrics.stdout(),
    [
      ' fan-in  fan-out  instability  depth  path',
      '      2        1         0.33      1  src/left',
      '      2        1         0.33      1  src/right',
      '(2 of 10; --top for more)',
      '',
    ].join('\n'),
  );
});

t.test('mistakes: a usage error before any indexing (exit 2), an unknown path (exit 1)', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const badKind = runStrata(t, ['cycles', '--exclude', 'types', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await badKind.exited, 2);
  t.match(badKind.stderr(), /^strata: --exclude: "types" is not a reference kind \(one of static, dynamic, require, re-export, type-only\)\n$/);

  const badDepth = runStrata(t, ['impact', 'src/app.ts', '--depth', '0', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await badDepth.exited, 2);
  t.match(badDepth.stderr(), /--depth: must be a whole number of at least 1/);

  const outside = runStrata(t, ['impact', '/etc/passwd', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await outside.exited, 2);
  t.match(outside.stderr(), /\/etc\/passwd is outside the repository/);

  const unknown = runStrata(t, ['impact', 'src/nope.ts', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await unknown.exited, 1);
  t.match(unknown.stderr(), /strata: src\/nope\.ts: no file or directory of that name in the graph \(NOT_FOUND\)\n$/);
});
