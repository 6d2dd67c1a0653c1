/**
 * The analysis on its own (no sandbox): line counting, parsing fallbacks,
 * names, and a few figures worked out by hand from the two rules' sources.
 */
import t from 'tap';
import { analyzeSource, dialectOf, parseSource } from '../src/analyze.ts';
import { codeLineCounts, codeLinesBetween } from '../src/lines.ts';

const loc = (text: string, comments: Array<{ start: number; end: number }> = []): number => {
  const counts = codeLineCounts(text, comments);
  return counts[counts.length - 1]!;
};

t.test('code lines: blank lines, comments, line ends', async (t) => {
  t.equal(loc(''), 0);
  t.equal(loc('\n\n'), 0);
  t.equal(loc('a\n\n  b  \n'), 2);
  t.equal(loc('a\r\nb\r\n'), 2, 'CRLF');
  t.equal(loc('a\rb\u2028c'), 3, 'lone CR and U+2028 end lines, as they do for the parser');
  t.equal(loc('\ufeff\u00a0\t\n x'), 1, 'BOM and no-break space are blank');
  const text = '// one\n/* two\n three */ code\n  /* four */\nx // five';
  const span = (comment: string) => ({ start: text.indexOf(comment), end: text.indexOf(comment) + comment.length });
  const comments = ['// one', '/* two\n three */', '/* four */', '// five'].map(span);
  t.equal(loc(text, comments), 2, 'a line with code after a comment counts; comment-only lines do not');
  const counts = codeLineCounts(text, comments);
  t.equal(codeLinesBetween(counts, 1, 2), 0);
  t.equal(codeLinesBetween(counts, 3, 3), 1);
  t.equal(codeLinesBetween(counts, 3, 99), 2, 'past the last line is clamped');
  t.equal(codeLinesBetween(counts, 4, 3), 0);
});

t.test('dialects from names and languages', async (t) => {
  t.equal(dialectOf('a/b.ts', 'typescript'), 'typescript');
  t.equal(dialectOf('a/b.mts', ''), 'typescript');
  t.equal(dialectOf('a/b.d.ts', 'typescript'), 'dts');
  t.equal(dialectOf('a/b.tsx', 'tsx'), 'tsx');
  t.equal(dialectOf('a/b.cjs', 'javascript'), 'javascript');
  t.equal(dialectOf('a/b.jsx', 'javascript'), 'javascript');
  t.equal(dialectOf('bin/tool', 'javascript'), 'javascript', 'a script without extension, by its language');
  t.equal(dialectOf('a/b.json', 'json'), undefined);
  t.equal(dialectOf('README.md', 'markdown'), undefined);
});

t.test('parsing: recovery, CommonJS, not parsed', async (t) => {
  t.equal(analyzeSource('with (a) { b }', 'javascript', 'a.js').recoveredErrors, 0, 'sloppy-mode code parses as a script');
  t.equal(analyzeSource('return 1;', 'javascript', 'a.cjs').recoveredErrors, 0, 'top-level return in CommonJS');
  t.equal(
    analyzeSource('const a = 1; const a = 2;', 'typescript', 'a.ts').recoveredErrors,
    1,
    'an error the parser recovers from is counted, the file still measured',
  );
  t.throws(() => analyzeSource('export const = ;', 'typescript', 'a.ts'), /Unexpected token/);
  t.throws(() => analyzeSource('function f(x: number) {}', 'javascript', 'a.js'), 'JavaScript is parsed without Flow');
  t.equal(parseSource('class A { @d m(@p x) {} }', 'typescript', 'a.ts').errors.length, 0, 'parameter decorators (legacy)');
  t.equal(parseSource('class A { accessor x = 1 }', 'typescript', 'a.ts').errors.length, 0, 'auto-accessors');
});

t.test('names as the indexer gives them', async (t) => {
  const metrics = analyzeSource(
    [
      'export function f() { const g = () => 1; }',
      'export default class { get size() { return 1; } static make() {} #p() {} x = () => 2; [k]() {} }',
      'class C { constructor() {} set v(x) {} }',
      'const o = { m() {}, n: function () {}, get q() { return 1; } };',
      'exports.h = function () {};',
      'export default function () {}',
    ].join('\n'),
    'typescript',
    'a.ts',
  );
  t.same(
    metrics.units.filter((unit) => unit.kind === 'function').map((unit) => unit.name),
    ['f', 'g', 'default.get size', 'default.make', 'default.#p', 'default.x', 'default.k', 'C.constructor', 'C.set v', 'm', 'n', 'get q', 'h', 'default'],
  );
  t.same(
    metrics.classes.map((c) => c.name),
    ['default', 'C'],
  );
  t.same(
    metrics.units.map((unit) => unit.kind).filter((kind) => kind !== 'function'),
    ['class-field-initializer'],
  );
});

t.test('figures worked out by hand', async (t) => {
  // complexity: 1 + if + && + ?: + default value + ?. + ??= = 7
  // cognitive: if +1, && +1 (one sequence), ?: +2 (nested in the if)
  const one = analyzeSource('function f(a, b = 1) { if (a && b) { return a ? b : a?.c; } a ??= b; }', 'javascript', 'a.js');
  t.same({ cyclomatic: one.units[0]!.cyclomatic, cognitive: one.units[0]!.cognitive }, { cyclomatic: 7, cognitive: 4 });
  // || and ?? sequences add nothing to cognitive complexity in SonarJS v4; && sequences add 1 each.
  const two = analyzeSource('function f(a, b, c) { return (a || b) && c || (a ?? b) && (b && c); }', 'javascript', 'a.js');
  t.same({ cyclomatic: two.units[0]!.cyclomatic, cognitive: two.units[0]!.cognitive }, { cyclomatic: 7, cognitive: 2 });
  // Nested functions count on their own; the enclosing one is not charged for them.
  const three = analyzeSource('function f(xs) { return xs.map((x) => { if (x) return 1; return 2; }); }', 'javascript', 'a.js');
  t.same(
    three.units.map((unit) => [unit.cyclomatic, unit.cognitive]),
    [
      [1, 0],
      [2, 1],
    ],
  );
  // SonarJS's file figure: a top-level function with structural complexity is charged its nested functions, one level deeper.
  t.equal(analyzeSource('function f(xs) { if (xs) xs.map((x) => { if (x) return 1; }); }', 'javascript', 'a.js').cognitive, 1 + 3);
  t.equal(three.cognitive, 1, '...and one without is not');
});
