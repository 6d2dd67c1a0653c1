/**
 * test-coverage served by a real host (the plugin is built in): the listing,
 * an apply over HTTP with reports in the body, and the 400s.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { startStrata } from '@strata/host';
import t from 'tap';
import { cobertura, oracle } from './fixtures/cobertura.ts';

type Tap = { teardown(fn: () => unknown): void };

async function serve(t: Tap) {
  const repo = await mkdtemp(path.join(tmpdir(), 'strata-coverage-'));
  t.teardown(() => rm(repo, { recursive: true, force: true }));
  const files: Record<string, string> = {
    'src/a.ts': 'export function a(x: number) {\n  if (x > 0) {\n    return 1;\n  }\n  return 2;\n}\n',
    'src/util/b.ts': 'export const b = 1;\nexport const c = 2;\n',
    'src/untested.ts': 'export const u = 1;\n',
    'README.md': '# app\n',
  };
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(repo, file)), { recursive: true });
    await writeFile(path.join(repo, file), content);
  }
  const strata = await startStrata({
    repository: repo,
    env: {},
    flags: { port: 0, logLevel: 'silent', watch: false },
    logDestination: new Writable({ write: (_c, _e, done) => done() }),
  });
  t.teardown(() => strata.stop());
  return async (p: string, init?: RequestInit) => {
    const response = await fetch(strata.url + p, init);
    return { status: response.status, body: (await response.json()) as any };
  };
}

const post = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

t.test('listed with its name and legend; applied over HTTP with reports in the body', async (t) => {
  const api = await serve(t);
  const plugin = (await api('/api/overlays')).body.plugins.find((p: { id: string }) => p.id === 'test-coverage');
  t.ok(plugin, 'the built-in plugin is listed');
  t.match(plugin.overlays, [
    {
      id: 'coverage',
      name: 'Line Coverage',
      type: 'color',
      legend: { '0%': '#e53935', '30%': '#fdd835', '70%': '#9ccc65', '90%': '#2e7d32', '100%': '#2e7d32' },
    },
  ]);

  const aLines: Array<[number, number]> = [
    [1, 1],
    [2, 1],
    [3, 0],
    [5, 1],
  ];
  const bFirst: Array<[number, number]> = [
    [1, 0],
    [2, 0],
  ];
  const bSecond: Array<[number, number]> = [[2, 3]];
  const reports = [
    cobertura(
      [
        { filename: 'src/a.ts', lines: aLines },
        { filename: 'src/util/b.ts', lines: bFirst },
      ],
      ['/home/ci/build/app'],
    ),
    cobertura(
      [
        { filename: 'util/b.ts', lines: bSecond },
        { filename: 'gone.ts', lines: [[1, 1]] },
      ],
      ['/other/machine/app/src'],
    ),
  ];
  const apply = await api('/api/overlays/test-coverage/apply', post({ inputs: { report: reports } }));
  t.equal(apply.status, 200, JSON.stringify(apply.body));
  t.match(apply.body.data.summary, { reports: 2, filesWithData: 2, filesWithoutData: 1, reportFilesNotInGraph: 1 });

  const style = async (id: string) => (await api(`/api/graph/nodes/${encodeURIComponent(id)}`)).body.data.overlays?.['test-coverage']?.coverage;
  const a = oracle(aLines); // 3/4
  const b = oracle(bFirst, bSecond); // 1/2
  t.same(await style('file:src/a.ts'), { color: '#9ccc65', value: a.percent });
  t.same(await style('file:src/util/b.ts'), { color: '#fdd835', value: b.percent });
  t.same(await style('file:src/untested.ts'), { color: '#9e9e9e' });
  t.same(await style('dir:src'), { color: '#fdd835', value: Math.round((10000 * (a.covered + b.covered)) / (a.valid + b.valid)) / 100 }, '4/6 lines');
  t.equal(await style('file:README.md'), undefined);
});

t.test('a malformed report, or none, is a 400 naming the problem', async (t) => {
  const api = await serve(t);
  for (const [body, message] of [
    [undefined, /no coverage report/],
    [{ inputs: { report: 'not xml at all' } }, /report 1 \(inputs\.report\[0\]\): is not well-formed XML/],
    [
      {
        inputs: {
          report: [
            cobertura([{ filename: 'src/a.ts', lines: [[1, 1]] }]),
            '<coverage><packages><package><classes><class filename="a.ts"><lines><line number="x" hits="1"/></lines></class></classes></package></packages></coverage>',
          ],
        },
      },
      /report 2 \(inputs\.report\[1\]\): <line> 1 of <class> 1 \(file a\.ts\) has number "x"/,
    ],
    [{ inputs: { report: '<!DOCTYPE coverage [<!ENTITY x SYSTEM "file:///etc/passwd">]><coverage>&x;</coverage>' } }, /declares entities/],
  ] as const) {
    const response = await api('/api/overlays/test-coverage/apply', body === undefined ? { method: 'POST' } : post(body));
    t.equal(response.status, 400, String(message));
    t.match(response.body.error, { code: 'INVALID_PARAMETER', message }, String(message));
  }
  const unknown = await api('/api/overlays/test-coverage/apply', post({ colour: 'red', inputs: { report: cobertura([]) } }));
  t.equal(unknown.status, 400, 'unknown parameters are refused by the schema');
});
