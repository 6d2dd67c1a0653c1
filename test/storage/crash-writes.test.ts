// kill -9 in the middle of writes (issue 19, point 9, the fault half): a
// server is sent a stream of writes of every kind (layout saves and clears,
// overlay applies and removals) and killed at a moment that differs per
// round; the next server on the same data directory must start, and serve
// what the last acknowledged write left, or what the write in flight would
// have: an acknowledged write is never lost, and nothing in between appears.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { type Outcome, served, writeUntilKilled } from '../helpers/crash-writes.ts';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { runStrata } from '../helpers/strata-cli.ts';

t.setTimeout(300_000);

const ROUNDS = 6;

t.test(`kill -9 during writes, ${ROUNDS} rounds: the next start serves the last acknowledged write or the one in flight`, async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const dataDir = path.join(repo, '.strata');
  let acknowledged: Outcome = { position: undefined, complexity: false };
  let writes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const server = runStrata(t, ['serve', repo, '--port', '0', '--no-watch', '--log-level', 'warn']);
    const url = await server.url();
    const before = await served(url);
    t.same(before, acknowledged, `round ${round}: the start serves what was acknowledged last (or what was in flight, taken as acknowledged)`);

    // A stream of writes, one after the other, killed after a delay that differs per round.
    const result = await writeUntilKilled(url, round * 1000, 150 + round * 130, acknowledged, async () => {
      server.child.kill('SIGKILL');
      await server.exited;
    });
    acknowledged = result.acknowledged;
    writes += result.writes;
    const inFlight = result.inFlight;

    // The next start: the last acknowledged write, or the one in flight if it landed.
    const next = runStrata(t, ['serve', repo, '--port', '0', '--no-watch', '--log-level', 'warn']);
    const after = await served(await next.url());
    const allowed = [acknowledged, ...(inFlight ? [inFlight.after(acknowledged)] : [])];
    t.ok(
      allowed.some((outcome) => JSON.stringify(outcome) === JSON.stringify(after)),
      `round ${round}: after ${writes} writes, killed with "${inFlight?.name ?? 'none'}" in flight: ${JSON.stringify(after)} is one of ${JSON.stringify(allowed)}`,
    );
    acknowledged = after;
    next.child.kill('SIGTERM');
    await next.exited;
  }
  t.ok(writes >= ROUNDS * 2, `${writes} writes acknowledged in all`);
  // A write cut short leaves part of a line; a store with too many such lines is copied aside and read line by line.
  t.comment(`store files kept aside as unreadable: ${readdirSync(dataDir).filter((name) => /unreadable/.test(name)).length}`);
});
