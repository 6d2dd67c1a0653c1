import { indexRepository } from '@strata/host';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';

type FileNode = { kind: string; path: string; lines?: number; loc?: number; error?: string; binary?: boolean };
type SymbolNode = { kind: string; path: string; name: string; startLine: number; endLine: number };

// One body, read twice: on its own (only the top level of the tree is read) and with a
// `require()` (the whole tree is walked). Multi-byte characters come before every symbol,
// so that offsets counted in bytes instead of characters would give wrong lines.
const BODY = [
  /* 1 */ '// héllo wörld — “quotes” 🎉',
  /* 2 */ 'const greeting = "ça va? 日本語"; /* trailing comment */',
  /* 3 */ '',
  /* 4 */ '/* a block',
  /* 5 */ '   comment 🎉 */ export function afterComment() {',
  /* 6 */ '  return 1; // 🎉',
  /* 7 */ '}',
  /* 8 */ '   ',
  /* 9 */ 'export class Ünïcode {',
  /* 10 */ '  método() { return "ü"; }',
  /* 11 */ '}',
  /* 12 */ '/** doc */',
  /* 13 */ 'export type Last = "🎉";',
].join('\n');

t.test('line numbers, lines and lines of code are right with multi-byte characters, on either way of reading the tree', async (t) => {
  const repo = await makeRepo(t, {
    'lazy.ts': `${BODY}\n`,
    'walked.ts': `${BODY}\nconst fs = require('node:fs');\n`,
    'crlf.ts': `${BODY.replaceAll('\n', '\r\n')}\r\n`,
    'bom.ts': `\ufeff${BODY}`,
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  const file = (path: string): FileNode => graph.nodes.find((node) => node.kind === 'file' && node.path === path) as FileNode;
  const symbols = (path: string): Array<[string, number, number]> =>
    (graph.nodes as SymbolNode[])
      .filter((node) => node.kind !== 'file' && node.kind !== 'directory' && node.path === path)
      .map((node) => [node.name, node.startLine, node.endLine]);
  const expected: Array<[string, number, number]> = [
    ['afterComment', 5, 7],
    ['Ünïcode', 9, 11],
    ['método', 10, 10],
    ['Last', 13, 13],
  ];
  // Code on lines 2, 5, 6, 7, 9, 10, 11, 13: line 1 and 12 hold only comments, 3 and 8 only white space, 4 opens a comment.
  for (const path of ['lazy.ts', 'crlf.ts', 'bom.ts']) {
    t.same(symbols(path), expected, `${path}: symbols and their lines`);
    t.match(file(path), { lines: 13, loc: 8 }, `${path}: lines and lines of code`);
  }
  t.same(symbols('walked.ts'), expected, 'the walked file gives the same symbols');
  t.match(file('walked.ts'), { lines: 14, loc: 9 });
  t.ok(
    graph.edges.some((edge) => edge.source === 'file:walked.ts' && edge.target === 'pkg:node:fs'),
    'the require() is found',
  );
});

t.test('lines of code of files that are not parsed, and of files that are not UTF-8', async (t) => {
  const repo = await makeRepo(t, {
    'notes.md': '# Title\n\n   \n\tindented\nlast line without end',
    'empty.txt': '',
    'one.txt': '\n',
    'blank-end.txt': 'a\r\n\r\n  ',
    'bom-only.txt': '\ufeff',
    'bom-blank.txt': '\ufeff \n\v\f\n x',
    'latin1.ts': Buffer.from('// caf\xe9\nexport function f() {}\n', 'latin1'),
    'script.js': '#!/usr/bin/env node\n// comment\nconsole.log(1);\n',
    'bom-script.ts': '\ufeff#!/usr/bin/env node\nconsole.log(1);\n',
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  const file = (path: string): FileNode => graph.nodes.find((node) => node.kind === 'file' && node.path === path) as FileNode;
  t.match(file('notes.md'), { lines: 5, loc: 3 });
  t.match(file('empty.txt'), { lines: 0, loc: 0 });
  t.match(file('one.txt'), { lines: 1, loc: 0 });
  t.match(file('blank-end.txt'), { lines: 3, loc: 1 }, 'a last line of white space without an end is a line');
  t.match(file('bom-only.txt'), { lines: 1, loc: 0 }, 'a byte order mark alone is one blank line');
  t.match(file('bom-blank.txt'), { lines: 3, loc: 1 }, 'vertical tab and form feed are white space');
  t.match(file('latin1.ts'), { lines: 2, loc: 1, error: 'not valid UTF-8; read as Latin-1' });
  t.ok(
    graph.nodes.some((node) => node.path === 'latin1.ts' && node.name === 'f'),
    'a Latin-1 file is still parsed',
  );
  t.match(file('script.js'), { lines: 3, loc: 1 }, 'a hashbang line is not code');
  t.match(file('bom-script.ts'), { lines: 2, loc: 1 }, 'nor after a byte order mark');
});
