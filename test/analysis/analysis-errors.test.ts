import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { IMPORT_CYCLES_REPO } from '../helpers/import-cycles-repo.ts';
import { startTestServer } from '../helpers/strata-server.ts';

const c = encodeURIComponent('file:src/core/c.ts');

/** Each bad request, the status and code it gets, and what its message must name. */
const CASES: Array<[path: string, status: number, code: string, names: string | RegExp]> = [
  [`/api/graph/nodes/${encodeURIComponent('file:nope.ts')}/dependents`, 404, 'NOT_FOUND', 'node "file:nope.ts" does not exist'],
  [`/api/graph/nodes/${encodeURIComponent('file:nope.ts')}/dependencies`, 404, 'NOT_FOUND', 'file:nope.ts'],
  [`/api/graph/nodes/${encodeURIComponent('file:nope.ts')}/metrics`, 404, 'NOT_FOUND', 'file:nope.ts'],
  [`/api/graph/nodes/${c}/dependents?depth=0`, 400, 'INVALID_PARAMETER', 'query.depth'],
  [`/api/graph/nodes/${c}/dependents?depth=two`, 400, 'INVALID_PARAMETER', 'query.depth'],
  [`/api/graph/nodes/${c}/dependents?depth=-1`, 400, 'INVALID_PARAMETER', 'query.depth'],
  [
    `/api/graph/nodes/${c}/dependents?exclude=types`,
    400,
    'INVALID_PARAMETER',
    /query\.exclude: "types" is not a reference kind \(one of static, dynamic, require, re-export, type-only\)/,
  ],
  [`/api/graph/nodes/${c}/dependencies?exclude=static,`, 400, 'INVALID_PARAMETER', 'query.exclude: "" is not a reference kind'],
  [`/api/graph/nodes/${c}/dependents?limit=0`, 400, 'INVALID_PARAMETER', 'query.limit'],
  [`/api/graph/nodes/${c}/dependents?limit=100001`, 400, 'INVALID_PARAMETER', 'query.limit'],
  [`/api/graph/nodes/${c}/dependents?offset=x`, 400, 'INVALID_PARAMETER', 'query.offset'],
  ['/api/graph/cycles?level=module', 400, 'INVALID_PARAMETER', 'query.level'],
  ['/api/graph/cycles?exclude=TYPE-ONLY', 400, 'INVALID_PARAMETER', 'query.exclude'],
  ['/api/graph/cycles?edgeLimit=1000001', 400, 'INVALID_PARAMETER', 'query.edgeLimit'],
  ['/api/graph/path?from=file%3Asrc%2Fapp.ts', 400, 'INVALID_PARAMETER', 'query.to'],
  [`/api/graph/path?from=${encodeURIComponent('file:gone.ts')}&to=${c}`, 404, 'NOT_FOUND', 'from: node "file:gone.ts" does not exist'],
  [`/api/graph/path?from=${c}&to=${encodeURIComponent('dir:gone')}`, 404, 'NOT_FOUND', 'to: node "dir:gone" does not exist'],
  ['/api/graph/metrics?kind=symbol', 400, 'INVALID_PARAMETER', 'query.kind'],
  ['/api/graph/metrics?sort=size', 400, 'INVALID_PARAMETER', 'query.sort'],
  ['/api/graph/edges', 400, 'INVALID_PARAMETER', 'give one of `level`'],
  [`/api/graph/edges?level=1&parent=${encodeURIComponent('dir:src')}`, 400, 'INVALID_PARAMETER', 'give one of `level`'],
  ['/api/graph/edges?level=deep', 400, 'INVALID_PARAMETER', 'query.level'],
  [`/api/graph/edges?parent=${c}`, 400, 'INVALID_PARAMETER', 'query.parent: "file:src/core/c.ts" is not a directory'],
  [`/api/graph/edges?parent=${encodeURIComponent('dir:gone')}`, 404, 'NOT_FOUND', 'parent: node "dir:gone" does not exist'],
];

t.test('bad analysis requests: 404 for unknown nodes, 400 naming the parameter, nothing else', async (t) => {
  const repo = await makeRepo(t, IMPORT_CYCLES_REPO);
  const server = await startTestServer(t, repo);
  for (const [path, status, code, names] of CASES) {
    const response = await server.api(path);
    t.equal(response.status, status, `${path}: status`);
    t.equal(response.body?.error?.code, code, `${path}: code`);
    t.match(response.body?.error?.message, names, `${path}: the message names the problem`);
  }
  const after = await server.api('/api/graph/cycles');
  t.equal(after.status, 200, 'the server answers as before');
  t.equal(after.body.data.componentCount, 6);
});
