// A full disk under the data directory: every write answers 507 DISK_FULL and changes nothing, neither what the
// server serves nor what a restart finds; stopping leaves no half-written file; a server starts on a full disk and
// serves what its store holds; freeing space is all it takes.
// The first test fills a real disk: a tmpfs of 2 MiB mounted by the test (mounting needs root, as CI runs). A write
// that fits in the free bytes of a file's last page succeeds even then, so its fixture makes every save and result
// larger than a page; the removals (a line of 40 bytes) are failed by the second test, whose store refuses every write.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { postJson, startTestServerWithBuiltIns, type TestServer } from '../helpers/strata-server.ts';

const TMPFS_MAGIC = 0x01021994;

/** A fresh tmpfs of `size` mounted on a new temporary folder, unmounted when the test ends. */
function smallDisk(t: { teardown(fn: () => void): void }, size: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'strata-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', folder], { stdio: 'pipe' });
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`this test mounts a small tmpfs to fill it, which needs root (CI runs as root): ${(error as Error).message}`);
  }
  t.teardown(() => {
    execFileSync('umount', ['-l', folder]);
    rmSync(folder, { recursive: true, force: true });
  });
  if (statfsSync(folder).type !== TMPFS_MAGIC) throw new Error(`${folder} is not the tmpfs the test mounted`);
  return folder;
}

/** Writes `filler` in `folder` until the disk refuses a single byte more. */
function fillDisk(folder: string): void {
  const fd = openSync(path.join(folder, 'filler'), 'w');
  try {
    for (let chunk = 64 * 1024; chunk >= 1; ) {
      try {
        writeSync(fd, Buffer.alloc(chunk));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        chunk = Math.floor(chunk / 2);
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** 150 files of a few functions each: a layout or a complexity result over them is larger than a page of 4 KiB. */
const LARGE_REPO = Object.fromEntries(
  Array.from({ length: 150 }, (_, i) => [`src/module-${i}.ts`, `export function f${i}(x: number) {\n  if (x > ${i}) return x;\n  return ${i};\n}\n`]),
);

function positionsOfAll(x: number): Record<string, { x: number; y: number }> {
  return Object.fromEntries(Object.keys(LARGE_REPO).map((file, i) => [`file:${file}`, { x: x + i / 1000, y: -x - i / 1000 }]));
}

async function positionOf(server: TestServer, id: string): Promise<unknown> {
  return (await server.api(`/api/graph/nodes/${encodeURIComponent(id)}`)).body.data.position;
}

t.test('a full disk: saves, clears, applies and removals answer 507 DISK_FULL and change nothing, now or after a restart', async (t) => {
  const repo = await makeRepo(t, LARGE_REPO);
  const dataDir = smallDisk(t, '2m');
  const server = await startTestServerWithBuiltIns(t, repo, { flags: { dataDir } });
  const file = 'file:src/module-0.ts';

  t.equal((await server.api('/api/graph/layout', postJson({ positions: positionsOfAll(1) }))).status, 200);
  const applied = await server.api('/api/overlays/complexity/apply', postJson({}));
  t.equal(applied.status, 200, 'complexity applied');
  const styled = applied.body.data.styledNodes as number;
  t.ok(styled > 0);
  const styles = (await server.api('/api/overlays/complexity/styles')).body;

  fillDisk(dataDir);

  const save = await server.api('/api/graph/layout', postJson({ positions: positionsOfAll(7) }));
  t.equal(save.status, 507, 'a save on a full disk: 507');
  t.equal(save.body.error.code, 'DISK_FULL');
  t.match(save.body.error.message, /the layout was not saved: the disk that holds the data directory is full \(ENOSPC\)/);
  t.same(await positionOf(server, file), { x: 1, y: -1 }, 'the saved layout is the one before');

  const reapply = await server.api('/api/overlays/complexity/apply', postJson({}));
  t.equal(reapply.status, 507, 'an apply whose result cannot be stored: 507');
  t.equal(reapply.body.error.code, 'DISK_FULL');
  t.match(reapply.body.error.message, /last good result/);
  let status = (await server.api('/api/overlays/complexity/status')).body.data;
  t.equal(status.state, 'active', 'the last good result stays active');
  t.equal(status.styledNodes, styled);
  t.equal(status.error.kind, 'disk-full');

  t.same((await server.api('/api/overlays/complexity/styles')).body.data.overlays, styles.data.overlays, 'its styles are those of the last good result');

  t.same(
    readdirSync(dataDir).filter((name) => name.endsWith('~')),
    [],
    'no half-written file',
  );
  await server.stop();
  t.same(
    readdirSync(dataDir).filter((name) => name.endsWith('~')),
    [],
    'stopping on a full disk leaves no half-written file',
  );
  t.ok(
    server.logs.some((record) => /was not compacted: the disk that holds the data directory is full/.test(String(record.msg))),
    'and says why it did not compact',
  );

  rmSync(path.join(dataDir, 'filler'));
  const again = await startTestServerWithBuiltIns(t, repo, { flags: { dataDir } });
  t.same(await positionOf(again, file), { x: 1, y: -1 }, 'after a restart: the layout saved before the disk was full');
  // A start re-applies what was active on the graph as it is now: wait for that apply.
  status = (await again.api('/api/overlays/complexity/status')).body.data;
  for (let tries = 0; status.state === 'applying' && tries < 200; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    status = (await again.api('/api/overlays/complexity/status')).body.data;
  }
  t.equal(status.state, 'active', 'after a restart: complexity active');
  t.equal(status.styledNodes, styled);
  t.equal((await again.api('/api/graph/layout', postJson({ positions: positionsOfAll(5) }))).status, 200, 'with space again, a save works');
  t.same(await positionOf(again, file), { x: 5, y: -5 });
});

t.test('removals on a full disk: clearing the layout and removing an overlay answer 507 and keep serving what the store keeps', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServerWithBuiltIns(t, repo);
  t.equal((await server.api('/api/graph/layout', postJson({ positions: { 'file:src/index.ts': { x: 1, y: 2 } } }))).status, 200);
  t.equal((await server.api('/api/overlays/complexity/apply', postJson({}))).status, 200);
  const styles = (await server.api('/api/overlays/complexity/styles')).body.data.overlays;

  // From here the store's appends fail as on a full disk (nedb's storage module, the one the host loaded).
  const storage = createRequire(import.meta.url)('@seald-io/nedb/lib/storage.js') as { appendFileAsync: (...args: unknown[]) => Promise<void> };
  const append = storage.appendFileAsync;
  storage.appendFileAsync = async (file: unknown) => {
    throw Object.assign(new Error(`ENOSPC: no space left on device, write '${String(file)}'`), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  };
  t.teardown(() => (storage.appendFileAsync = append));

  const clear = await server.api('/api/graph/layout', { method: 'DELETE' });
  t.equal(clear.status, 507, 'clearing the layout: 507');
  t.equal(clear.body.error.code, 'DISK_FULL');
  t.match(clear.body.error.message, /clearing the layout was not saved/);
  t.same(await positionOf(server, 'file:src/index.ts'), { x: 1, y: 2 }, 'the layout is still there');

  const removal = await server.api('/api/overlays/complexity/apply', { method: 'DELETE' });
  t.equal(removal.status, 507, 'removing the overlay: 507');
  t.equal(removal.body.error.code, 'DISK_FULL');
  const status = (await server.api('/api/overlays/complexity/status')).body.data;
  t.equal(status.state, 'active', 'still active, as the store keeps it');
  t.same((await server.api('/api/overlays/complexity/styles')).body.data.overlays, styles, 'and its styles still served');

  storage.appendFileAsync = append;
  t.equal((await server.api('/api/overlays/complexity/apply', { method: 'DELETE' })).status, 200, 'with space again, the removal works');
  t.equal((await server.api('/api/overlays/complexity/status')).body.data.state, 'inactive');
  await server.stop();
  const again = await startTestServerWithBuiltIns(t, repo, { flags: { dataDir: path.join(repo, '.strata') } });
  t.equal((await again.api('/api/overlays/complexity/status')).body.data.state, 'inactive', 'and a restart agrees');
  t.same(await positionOf(again, 'file:src/index.ts'), { x: 1, y: 2 }, 'the layout too');
});

t.test('a server starts on a full disk: it serves what the store holds, and its writes answer 507', async (t) => {
  const repo = await makeRepo(t, LARGE_REPO);
  const dataDir = smallDisk(t, '2m');
  const first = await startTestServerWithBuiltIns(t, repo, { flags: { dataDir } });
  t.equal((await first.api('/api/graph/layout', postJson({ positions: positionsOfAll(3) }))).status, 200);
  t.equal((await first.api('/api/overlays/complexity/apply', postJson({}))).status, 200);
  await first.stop();

  fillDisk(dataDir);
  const full = await startTestServerWithBuiltIns(t, repo, { flags: { dataDir } });
  t.same(await positionOf(full, 'file:src/module-0.ts'), { x: 3, y: -3 }, 'the saved layout is served');
  const save = await full.api('/api/graph/layout', postJson({ positions: positionsOfAll(8) }));
  t.equal(save.status, 507, 'a save: 507');
  t.equal(save.body.error.code, 'DISK_FULL');
  t.same(await positionOf(full, 'file:src/module-0.ts'), { x: 3, y: -3 }, 'and the layout is unchanged');
  t.ok(
    full.logs.some((record) => /full/.test(String(record.msg)) && record.level === 'warn'),
    'the log says the disk is full',
  );
  await full.stop();
  t.same(
    readdirSync(dataDir).filter((name) => name.endsWith('~')),
    [],
    'no half-written file',
  );

  rmSync(path.join(dataDir, 'filler'));
  const again = await startTestServerWithBuiltIns(t, repo, { flags: { dataDir } });
  t.same(await positionOf(again, 'file:src/module-0.ts'), { x: 3, y: -3 }, 'with space again, the same layout');
  t.equal((await again.api('/api/graph/layout', postJson({ positions: positionsOfAll(9) }))).status, 200, 'and saves work');
});
