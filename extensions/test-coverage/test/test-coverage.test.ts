/**
 * test-coverage in the sandbox (PluginTester): bands, legend, merging by
 * file from line hits, <sources> mapping, files without data, directory and
 * symbol aggregation, and every malformed input. Expected values come from
 * the reports' own <line hits>, counted here by `oracle`.
 */

import { PluginTester } from '@strata/sdk-testing';
import t from 'tap';
import { cobertura, DOCTYPE, graphOf, lineRun, oracle } from './fixtures/cobertura.ts';

const tester = new PluginTester(new URL('..', import.meta.url));

const RED = '#e53935';
const YELLOW = '#fdd835';
const LIGHT_GREEN = '#9ccc65';
const GREEN = '#2e7d32';
const GRAY = '#9e9e9e';

t.test('the legend: percentages from 0% to 100% with the four bands', async (t) => {
  const result = await tester.run({ graph: graphOf([['src/a.ts', 'typescript']]), inputs: { report: cobertura([{ filename: 'src/a.ts', lines: [[1, 1]] }]) } });
  const legend = result.overlays.coverage!.legend;
  t.same(legend, { '0%': RED, '30%': YELLOW, '70%': LIGHT_GREEN, '90%': GREEN, '100%': GREEN });
  t.same(Object.keys(legend), ['0%', '30%', '70%', '90%', '100%'], 'in order, low to high');
});

t.test('the four bands at their exact boundaries', async (t) => {
  // [file, valid lines, covered lines, expected value, expected color]
  const cases: Array<[string, number, number, number, string]> = [
    ['zero.ts', 4, 0, 0, RED],
    ['p29_99.ts', 10000, 2999, 29.99, RED],
    ['p29_996.ts', 25000, 7499, 29.99, RED], // 29.996 %: red, so never shown as 30
    ['p30.ts', 10, 3, 30, YELLOW],
    ['p69_99.ts', 10000, 6999, 69.99, YELLOW],
    ['p70.ts', 10, 7, 70, LIGHT_GREEN],
    ['p89_99.ts', 10000, 8999, 89.99, LIGHT_GREEN],
    ['p90.ts', 10, 9, 90, GREEN],
    ['p99_999.ts', 100000, 99999, 99.99, GREEN], // not shown as 100 while a line is missed
    ['p100.ts', 5, 5, 100, GREEN],
  ];
  const classes = cases.map(([name, valid, covered]) => ({ filename: `src/${name}`, lines: lineRun(valid, covered) }));
  const result = await tester.run({ graph: graphOf(cases.map(([name]) => [`src/${name}`, 'typescript'])), inputs: { report: cobertura(classes) } });
  for (const [name, valid, covered, value, color] of cases) {
    const expected = oracle(lineRun(valid, covered));
    t.equal(expected.covered, covered, `${name}: the report's own hits`);
    t.same(result.style('coverage', `file:src/${name}`), { color, value }, `${name}: ${covered}/${valid}`);
  }
  t.equal(result.summary.filesWithData, cases.length);
  t.equal(result.summary.filesWithoutData, 0);
});

t.test('several <class> elements with one filename are merged from their line hits, not their rates', async (t) => {
  // Class A: lines 1..3, line 1 hit; class B, same file: lines 3..5, line 3 and 5 hit.
  // Union: lines 1..5 (5 valid); covered: 1, 3, 5 -> 60 %. Adding the rates (1.0 + 1.0) or
  // averaging them would give 200 % or 100 %; counting line 3 twice would give 4/6.
  const a: Array<[number, number]> = [
    [1, 4],
    [2, 0],
    [3, 0],
  ];
  const b: Array<[number, number]> = [
    [3, 2],
    [4, 0],
    [5, 1],
  ];
  const expected = oracle(a, b);
  t.same(expected, { valid: 5, covered: 3, percent: 60 });
  const report = cobertura([
    { filename: 'src/a.ts', name: 'A', lineRate: '1.0', lines: a, methodLines: [[1, 4]] },
    { filename: 'src/a.ts', name: 'B', lineRate: '1.0', lines: b, methodLines: [[3, 2]] },
  ]);
  const result = await tester.run({ graph: graphOf([['src/a.ts', 'typescript']]), inputs: { report } });
  t.same(result.style('coverage', 'file:src/a.ts'), { color: YELLOW, value: expected.percent });
  t.equal(result.summary.linesValid, 5);
  t.equal(result.summary.linesCovered, 3);
});

t.test('two reports covering the same file are merged line by line', async (t) => {
  const first: Array<[number, number]> = [
    [1, 1],
    [2, 0],
    [3, 0],
    [4, 0],
  ];
  const second: Array<[number, number]> = [
    [3, 0],
    [4, 5],
    [5, 0],
    [6, 0],
  ];
  const expected = oracle(first, second); // lines 1..6, covered 1 and 4: 33.33 %
  t.same(expected, { valid: 6, covered: 2, percent: 33.33 });
  const bLines = lineRun(8, 8);
  const result = await tester.run({
    graph: graphOf([
      ['src/a.ts', 'typescript'],
      ['src/b.ts', 'typescript'],
    ]),
    inputs: {
      report: [
        cobertura([{ filename: 'src/a.ts', lines: first }], ['/ci/one/app']),
        cobertura(
          [
            { filename: 'a.ts', lines: second },
            { filename: 'b.ts', lines: bLines },
          ],
          ['/ci/two/app/src'],
        ),
      ],
    },
  });
  t.same(result.style('coverage', 'file:src/a.ts'), { color: YELLOW, value: expected.percent });
  t.same(result.style('coverage', 'file:src/b.ts'), { color: GREEN, value: 100 });
  t.match(result.summary, { reports: 2, filesWithData: 2, filesWithoutData: 0, reportFilesNotInGraph: 0, linesValid: 14, linesCovered: 10 });
});

t.test('file names are mapped through <sources>, from absolute paths of another machine', async (t) => {
  const graph = graphOf([
    ['src/a.ts', 'typescript'],
    ['src/b.ts', 'typescript'],
    ['src/util/c.ts', 'typescript'],
    ['src/util/d.ts', 'typescript'],
    ['src/index.ts', 'typescript'],
    ['lib/index.ts', 'typescript'],
    ['packages/x/src/e.ts', 'typescript'],
    ['packages/y/src/e.ts', 'typescript'],
    ['src/a&b.ts', 'typescript'],
  ]);
  const lines: Array<[number, number]> = [
    [1, 1],
    [2, 0],
  ]; // 50 %
  const reports = [
    // istanbul on a CI runner: the source is the checkout, file names relative to it.
    cobertura([{ filename: 'src/a.ts', lines }], ['/home/runner/work/app/app']),
    // coverage.py style: the source is the package folder; Windows separators.
    cobertura([{ filename: 'util\\c.ts', lines }], ['C:\\build\\agent\\app\\src']),
    // an absolute file name and no sources at all.
    cobertura([{ filename: '/var/ci/checkout/src/b.ts', lines }], []),
    // a bare file name whose source is not this repository: the file name alone matches.
    cobertura([{ filename: 'd.ts', lines }], ['/somewhere/else']),
    // a monorepo package: packages/x, not packages/y.
    cobertura([{ filename: 'src/e.ts', lines }], ['/ci/repo/packages/x']),
    // several sources, the file under both: the first source wins.
    cobertura([{ filename: 'index.ts', lines: [[1, 1]] }], ['/ci/repo/lib', '/ci/repo/src']),
    // entities in a file name.
    cobertura([{ filename: 'src/a&amp;b.ts', lines }], ['/ci/repo']),
    // not in the graph, and ambiguous (two e.ts would fit "e.ts" alone).
    cobertura(
      [
        { filename: 'lib/zzz.ts', lines },
        { filename: 'e.ts', lines },
      ],
      ['/elsewhere'],
    ),
  ];
  const result = await tester.run({ graph, inputs: { report: reports } });
  for (const id of ['file:src/a.ts', 'file:src/util/c.ts', 'file:src/b.ts', 'file:src/util/d.ts', 'file:packages/x/src/e.ts', 'file:src/a&b.ts']) {
    t.same(result.style('coverage', id), { color: YELLOW, value: 50 }, id);
  }
  t.same(result.style('coverage', 'file:lib/index.ts'), { color: GREEN, value: 100 }, 'the first source wins');
  t.same(result.style('coverage', 'file:src/index.ts'), { color: GRAY }, 'the other index.ts has no data');
  t.same(result.style('coverage', 'file:packages/y/src/e.ts'), { color: GRAY });
  t.match(result.summary, { reports: 8, filesWithData: 7, filesWithoutData: 2, reportFilesNotInGraph: 2, reportFilesAmbiguous: 1 });
  t.match(result.summary.reportFilesNotInGraphSample, /elsewhere\/lib\/zzz\.ts/);
});

t.test('source files without data are gray, without value, and counted', async (t) => {
  const graph = graphOf([
    ['src/a.ts', 'typescript'],
    ['src/b.ts', 'typescript'],
    ['src/c.js', 'javascript'],
    ['src/types.d.ts', 'typescript'],
    ['src/empty.ts', 'typescript', 0],
    ['docs/README.md', 'markdown'],
    ['scripts/run.py', 'python'],
    ['other/x.ts', 'typescript'],
  ]);
  const report = cobertura([{ filename: 'src/a.ts', lines: [[1, 1]] }]);
  const result = await tester.run({ graph, inputs: { report } });
  t.same(result.style('coverage', 'file:src/b.ts'), { color: GRAY });
  t.same(result.style('coverage', 'file:src/c.js'), { color: GRAY });
  t.same(result.style('coverage', 'file:other/x.ts'), { color: GRAY });
  t.equal(result.style('coverage', 'file:src/types.d.ts'), undefined, 'declaration files hold no code');
  t.equal(result.style('coverage', 'file:src/empty.ts'), undefined, 'files with no lines of code');
  t.equal(result.style('coverage', 'file:docs/README.md'), undefined, 'not a source language');
  t.equal(result.style('coverage', 'file:scripts/run.py'), undefined);
  t.same(result.style('coverage', 'dir:other'), { color: GRAY }, 'a directory with no data below it, but source files');
  t.equal(result.style('coverage', 'dir:docs'), undefined, 'a directory without source files');
  t.match(result.summary, {
    filesWithData: 1,
    filesWithoutData: 3,
    languagesCounted: 'javascript, tsx, typescript',
    languagesWithoutData: 'javascript, typescript',
  });

  const python = await tester.run({ graph, params: { languages: ['python'] }, inputs: { report } });
  t.same(python.style('coverage', 'file:scripts/run.py'), { color: GRAY }, 'the languages are a parameter');
  t.equal(python.style('coverage', 'file:src/b.ts'), undefined);
  t.match(python.summary, { filesWithData: 1, filesWithoutData: 1, languagesCounted: 'python', languagesWithoutData: 'python' });

  const pyReport = cobertura([{ filename: 'run.py', lines: [[1, 0]] }], ['/ci/app/scripts']);
  const both = await tester.run({ graph, inputs: { report: [report, pyReport] } });
  t.same(both.style('coverage', 'file:scripts/run.py'), { color: RED, value: 0 });
  t.match(
    both.summary,
    { filesWithData: 2, filesWithoutData: 3, languagesCounted: 'javascript, python, tsx, typescript', languagesWithoutData: 'javascript, typescript' },
    'the languages the reports cover count too',
  );

  const covered = graphOf([
    ['src/a.ts', 'typescript'],
    ['src/b.tsx', 'tsx'],
    ['docs/README.md', 'markdown'],
  ]);
  const all = await tester.run({
    graph: covered,
    inputs: {
      report: cobertura([
        { filename: 'src/a.ts', lines: [[1, 1]] },
        { filename: 'src/b.tsx', lines: [[1, 0]] },
      ]),
    },
  });
  t.match(all.summary, { filesWithData: 2, filesWithoutData: 0 });
  t.notOk('languagesWithoutData' in all.summary, 'every source file has data: no language is listed as without it');
});

t.test('directories aggregate covered over valid lines of the files below them', async (t) => {
  const c = lineRun(1, 1); // 1/1 = 100 %
  const d = lineRun(3, 1); // 1/3 = 33.33 %
  const a = lineRun(16, 12); // 12/16 = 75 %
  const graph = graphOf([
    ['src/util/c.ts', 'typescript'],
    ['src/util/d.ts', 'typescript'],
    ['src/a.ts', 'typescript'],
    ['src/none.ts', 'typescript'],
  ]);
  const report = cobertura([
    { filename: 'src/util/c.ts', lines: c },
    { filename: 'src/util/d.ts', lines: d },
    { filename: 'src/a.ts', lines: a },
  ]);
  const result = await tester.run({ graph, inputs: { report } });
  const util = oracle(c); // separate files: add their counts
  const utilCounts = { valid: util.valid + oracle(d).valid, covered: util.covered + oracle(d).covered };
  t.same(utilCounts, { valid: 4, covered: 2 });
  t.same(result.style('coverage', 'dir:src/util'), { color: YELLOW, value: 50 }, '2/4 lines = 50 %, not the mean of 100 % and 33.33 %');
  t.same(result.style('coverage', 'dir:src'), { color: LIGHT_GREEN, value: 70 }, '(2 + 12) / (4 + 16) = 70 %; files without data add nothing');
  t.same(result.style('coverage', 'dir:.'), { color: LIGHT_GREEN, value: 70 });
  t.same(result.style('coverage', 'file:src/none.ts'), { color: GRAY });
  t.equal(result.summary.lineCoverage, 70);
});

t.test('functions, methods and classes get the coverage of their line range', async (t) => {
  const graph = graphOf(
    [['src/a.ts', 'typescript']],
    [
      { id: 'sym:src/a.ts#f', kind: 'function', name: 'f', path: 'src/a.ts', parent: 'file:src/a.ts', startLine: 1, endLine: 4 },
      { id: 'sym:src/a.ts#K', kind: 'class', name: 'K', path: 'src/a.ts', parent: 'file:src/a.ts', startLine: 6, endLine: 12 },
      { id: 'sym:src/a.ts#K.m', kind: 'method', name: 'm', path: 'src/a.ts', parent: 'sym:src/a.ts#K', startLine: 7, endLine: 8 },
      { id: 'sym:src/a.ts#T', kind: 'type', name: 'T', path: 'src/a.ts', parent: 'file:src/a.ts', startLine: 14, endLine: 15 },
      { id: 'sym:src/a.ts#g', kind: 'function', name: 'g', path: 'src/a.ts', parent: 'file:src/a.ts', startLine: 20, endLine: 22 },
    ],
  );
  // f: lines 2, 3 valid, 2 hit -> 50 %; K: 7, 8, 10 valid, 10 hit -> 33.33 %; m: 7, 8 -> 0 %; g: no valid line.
  const lines: Array<[number, number]> = [
    [2, 3],
    [3, 0],
    [7, 0],
    [8, 0],
    [10, 1],
  ];
  const result = await tester.run({ graph, inputs: { report: cobertura([{ filename: 'src/a.ts', lines }]) } });
  t.same(result.style('coverage', 'sym:src/a.ts#f'), { color: YELLOW, value: 50 });
  t.same(result.style('coverage', 'sym:src/a.ts#K'), { color: YELLOW, value: 33.33 });
  t.same(result.style('coverage', 'sym:src/a.ts#K.m'), { color: RED, value: 0 });
  t.equal(result.style('coverage', 'sym:src/a.ts#T'), undefined, 'types are not code');
  t.equal(result.style('coverage', 'sym:src/a.ts#g'), undefined, 'no valid line in the range');
  t.same(result.style('coverage', 'file:src/a.ts'), { color: YELLOW, value: 40 });
  t.equal(result.summary.symbolsWithData, 3);
});

const goodClass = '<class name="A" filename="src/a.ts"><lines><line number="1" hits="1"/></lines></class>';
const wrap = (classes: string, head = `<?xml version="1.0"?>\n${DOCTYPE}\n`) =>
  `${head}<coverage><sources><source>/ci/app</source></sources><packages><package name="p"><classes>${classes}</classes></package></packages></coverage>`;

t.test('the usual DOCTYPE and a byte order mark are accepted', async (t) => {
  const result = await tester.run({ graph: graphOf([['src/a.ts', 'typescript']]), inputs: { report: `\ufeff${wrap(goodClass)}` } });
  t.same(result.style('coverage', 'file:src/a.ts'), { color: GREEN, value: 100 });
});

t.test('a malformed report is refused as invalid input naming the report and the problem', async (t) => {
  const graph = graphOf([['src/a.ts', 'typescript']]);
  const line = (attributes: string) => wrap(`<class name="A" filename="src/a.ts"><lines><line number="1" hits="1"/><line ${attributes}/></lines></class>`);
  const cases: Array<[string, string | string[] | undefined, RegExp]> = [
    ['no report at all', undefined, /no coverage report: send one or more Cobertura XML texts as inputs\.report/],
    ['an empty list of reports', [], /no coverage report/],
    ['an empty text', '', /report 1 \(inputs\.report\[0\]\): is empty/],
    ['not XML', 'this is not xml', /report 1 \(inputs\.report\[0\]\): is not well-formed XML: line 1, column 1: char 't' is not expected/],
    ['JSON', '{"coverage": 1}', /is not well-formed XML/],
    ['an unclosed element', '<coverage><packages></coverage>', /is not well-formed XML: .*packages/],
    ['no <coverage> root', '<?xml version="1.0"?>\n<report><file name="a.ts"/></report>', /the root element is <report>, not <coverage>/],
    ['two roots', '<coverage/><coverage/>', /has 2 root elements/],
    [
      'a DOCTYPE declaring entities',
      `<?xml version="1.0"?>\n<!DOCTYPE coverage [\n <!ENTITY lol "lol">\n <!ENTITY lol2 "&lol;&lol;&lol;">\n]>\n<coverage>&lol2;</coverage>`,
      /declares entities \(<!ENTITY at line 3\), which are refused/,
    ],
    [
      'an external entity',
      `<?xml version="1.0"?>\n<!DOCTYPE coverage [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<coverage><sources><source>&xxe;</source></sources></coverage>`,
      /declares entities/,
    ],
    [
      'a <class> without filename',
      wrap('<class name="A"><lines><line number="1" hits="1"/></lines></class>'),
      /<class> 1 \(name "A"\) has no filename attribute/,
    ],
    ['a <line> without number', line('hits="1"'), /<line> 2 of <class> 1 \(name "A"\) \(file src\/a\.ts\) has no number attribute/],
    ['a <line> with a number that is not a number', line('number="abc" hits="1"'), /<line> 2 .* has number "abc", not a line number/],
    ['a <line> with number 0', line('number="0" hits="1"'), /has number "0", not a line number/],
    ['a <line> with a negative number', line('number="-4" hits="1"'), /has number "-4", not a line number/],
    ['a <line> with a fractional number', line('number="2.5" hits="1"'), /has number "2\.5", not a line number/],
    ['a <line> without hits', line('number="2"'), /<line> 2 .* \(number 2\) has no hits attribute/],
    ['negative hits', line('number="2" hits="-1"'), /\(number 2\) has hits "-1": negative/],
    ['hits that are not a number', line('number="2" hits="many"'), /\(number 2\) has hits "many": not a number of hits/],
    ['empty hits', line('number="2" hits=""'), /has hits "": not a number of hits/],
  ];
  for (const [what, report, message] of cases) {
    const error = await tester.run({ graph, ...(report !== undefined && { inputs: { report } }) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    t.match(error, { name: 'PluginTestError', code: 'INVALID_PARAMETER', kind: 'invalid-input', message }, what);
  }
});

t.test('the failing report is named by its index', async (t) => {
  const graph = graphOf([['src/a.ts', 'typescript']]);
  const good = wrap(goodClass);
  await t.rejects(tester.run({ graph, inputs: { report: [good, good, '<coverage><oops></coverage>'] } }), {
    kind: 'invalid-input',
    message: /^plugin "test-coverage": report 3 \(inputs\.report\[2\]\): is not well-formed XML/,
  });
  await t.rejects(tester.run({ graph, inputs: { report: [good, '<nope/>'] } }), {
    kind: 'invalid-input',
    message: /^plugin "test-coverage": report 2 \(inputs\.report\[1\]\): the root element is <nope>/,
  });
});

t.test('reports larger than the limits are refused before they are parsed', async (t) => {
  const graph = graphOf([['src/a.ts', 'typescript']]);
  const big = wrap(goodClass) + ' '.repeat(50 * 1024 * 1024);
  await t.rejects(tester.run({ graph, inputs: { report: big }, limits: { memoryMb: 512 } }), {
    kind: 'invalid-input',
    message: /^plugin "test-coverage": report 1 \(inputs\.report\[0\]\): \d+ characters, more than the limit of 52428800 per report/,
  });
  const large = wrap(goodClass) + ' '.repeat(35 * 1024 * 1024);
  await t.rejects(tester.run({ graph, inputs: { report: [large, large, large] }, limits: { memoryMb: 512 } }), {
    kind: 'invalid-input',
    message: /the 3 reports add up to \d+ characters, more than the limit of 104857600/,
  });
});
