import { indexRepository } from '@strata/host';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';

const SOURCE = [
  /* 1 */ '//! Crate docs.',
  /* 2 */ 'use std::fmt;',
  /* 3 */ '',
  /* 4 */ '/// A shape.',
  /* 5 */ 'pub struct Shape {',
  /* 6 */ '    side: f64,',
  /* 7 */ '}',
  /* 8 */ '',
  /* 9 */ 'pub(crate) enum Kind {',
  /* 10 */ '    Square,',
  /* 11 */ '}',
  /* 12 */ '',
  /* 13 */ 'pub trait Area {',
  /* 14 */ '    fn area(&self) -> f64;',
  /* 15 */ '    fn twice(&self) -> f64 {',
  /* 16 */ '        2.0 * self.area()',
  /* 17 */ '    }',
  /* 18 */ '}',
  /* 19 */ '',
  /* 20 */ 'impl Shape {',
  /* 21 */ '    pub fn new() -> Self {',
  /* 22 */ '        Shape { side: 1.0 }',
  /* 23 */ '    }',
  /* 24 */ '    fn hidden(&self) {}',
  /* 25 */ '}',
  /* 26 */ '',
  /* 27 */ 'impl Area for Shape {',
  /* 28 */ '    fn area(&self) -> f64 { self.side }',
  /* 29 */ '}',
  /* 30 */ '',
  /* 31 */ 'impl fmt::Display for Other {',
  /* 32 */ '    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }',
  /* 33 */ '}',
  /* 34 */ '',
  /* 35 */ 'type Alias = u8;',
  /* 36 */ 'union Bits { a: u8 }',
  /* 37 */ '',
  /* 38 */ '/* block',
  /* 39 */ '   comment */',
  /* 40 */ 'fn private() {}',
  /* 41 */ '',
  /* 42 */ '#[cfg(test)]',
  /* 43 */ 'mod tests {',
  /* 44 */ '    fn it_works() {}',
  /* 45 */ '}',
  '',
].join('\n');

t.test('Rust symbols: functions, structs, enums, traits, impl methods in their type, items of inline modules; exported when pub', async (t) => {
  const repo = await makeRepo(t, { 'Cargo.toml': '[package]\nname = "shapes"\nversion = "0.1.0"\n', 'src/lib.rs': SOURCE });
  const graph = await indexRepository({ repository: repo, env: {} });
  const symbols = graph.nodes
    .filter((node) => node.path === 'src/lib.rs' && node.kind !== 'file')
    .map(({ id, kind, parent, startLine, endLine, exported }) => ({ id, kind, parent, startLine, endLine, exported }));
  const sym = (name: string) => `sym:src/lib.rs#${name}`;
  const file = 'file:src/lib.rs';
  t.same(symbols, [
    { id: sym('Shape'), kind: 'class', parent: file, startLine: 5, endLine: 7, exported: true },
    { id: sym('Kind'), kind: 'type', parent: file, startLine: 9, endLine: 11, exported: true },
    { id: sym('Area'), kind: 'interface', parent: file, startLine: 13, endLine: 18, exported: true },
    // A trait's methods are public as the trait is.
    { id: sym('Area.area'), kind: 'method', parent: sym('Area'), startLine: 14, endLine: 14, exported: true },
    { id: sym('Area.twice'), kind: 'method', parent: sym('Area'), startLine: 15, endLine: 17, exported: true },
    { id: sym('Shape.new'), kind: 'method', parent: sym('Shape'), startLine: 21, endLine: 23, exported: true },
    { id: sym('Shape.hidden'), kind: 'method', parent: sym('Shape'), startLine: 24, endLine: 24, exported: false },
    { id: sym('Shape.area'), kind: 'method', parent: sym('Shape'), startLine: 28, endLine: 28, exported: false },
    // Other is declared elsewhere: the method is the file's, named after its type.
    { id: sym('Other.fmt'), kind: 'method', parent: file, startLine: 32, endLine: 32, exported: false },
    { id: sym('Alias'), kind: 'type', parent: file, startLine: 35, endLine: 35, exported: false },
    { id: sym('Bits'), kind: 'class', parent: file, startLine: 36, endLine: 36, exported: false },
    { id: sym('private'), kind: 'function', parent: file, startLine: 40, endLine: 40, exported: false },
    { id: sym('tests::it_works'), kind: 'function', parent: file, startLine: 44, endLine: 44, exported: false },
  ]);
  t.match(
    graph.nodes.find((node) => node.id === file),
    { language: 'rust', lines: 45, loc: 45 - 4 - 9 },
    'comments (4 lines) and blank lines (9) are not code',
  );
  t.ok(graph.edges.some((edge) => edge.id === 'imports:file:src/lib.rs->pkg:rust:std'));
});
