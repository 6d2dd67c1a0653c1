// Every operation of the OpenAPI document, with random and crafted paths,
// queries, bodies, content types and methods (issue 19, point 9): no 5xx but
// a plugin's own failure, every error in the error shape with a code of the
// table and its status, the server serving after. A fixed seed per run of CI,
// printed, so that a finding can be replayed; bench:reliability sends more.
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { fuzzServer, operationsOf } from '../helpers/fuzz-requests.ts';
import { startTestServer } from '../helpers/strata-server.ts';

t.setTimeout(300_000);

const REQUESTS = 600;
const seed = Number(process.env.STRATA_FUZZ_SEED ?? Date.now() % 1_000_000);

t.test(`${REQUESTS} fuzzed requests over every operation (seed ${seed}: STRATA_FUZZ_SEED=${seed} replays them)`, async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo, { flags: { logLevel: 'warn' } });
  const operations = operationsOf((await server.api('/api/openapi.json')).body);
  t.ok(operations.length >= 15, `${operations.length} operations`);
  const report = await fuzzServer(server.url, operations, REQUESTS, seed);
  t.ok(report.requests > REQUESTS * 0.9, `${report.requests} requests sent`);
  t.same(report.findings.slice(0, 10), [], `no answer broke a rule (statuses: ${JSON.stringify(Object.fromEntries(report.byStatus))})`);
  t.ok(
    [...report.byStatus.keys()].some((status) => status < 300),
    'some requests were good ones',
  );
  t.equal((await server.api('/api/graph')).status, 200, 'the server serves on');
  t.notOk(
    server.logs.some((record) => record.msg === 'request failed unexpectedly'),
    'and logged no unexpected failure',
  );
});
