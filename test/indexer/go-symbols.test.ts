import { indexRepository } from '@strata/host';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';

const SOURCE = [
  /* 1 */ '// Package shapes draws.',
  /* 2 */ 'package shapes',
  /* 3 */ '',
  /* 4 */ 'import "fmt"',
  /* 5 */ '',
  /* 6 */ '/* A block',
  /* 7 */ '   comment. */',
  /* 8 */ 'type Shape interface {',
  /* 9 */ '\tArea() float64',
  /* 10 */ '}',
  /* 11 */ '',
  /* 12 */ 'type square struct {',
  /* 13 */ '\tside float64',
  /* 14 */ '}',
  /* 15 */ '',
  /* 16 */ 'type (',
  /* 17 */ '\tID int',
  /* 18 */ '\tAlias = string',
  /* 19 */ '\tBox[T any] struct{ v T }',
  /* 20 */ ')',
  /* 21 */ '',
  /* 22 */ 'func (s *square) Area() float64 {',
  /* 23 */ '\treturn s.side * s.side',
  /* 24 */ '}',
  /* 25 */ '',
  /* 26 */ 'func (s square) scale() {}',
  /* 27 */ '',
  /* 28 */ 'func (b Box[T]) Get() T { return b.v }',
  /* 29 */ '',
  /* 30 */ 'func (c Circle) Area() float64 { return 0 }',
  /* 31 */ '',
  /* 32 */ 'func New() Shape {',
  /* 33 */ '\tinner := func() {}',
  /* 34 */ '\tinner()',
  /* 35 */ '\treturn &square{}',
  /* 36 */ '}',
  /* 37 */ '',
  /* 38 */ 'func ÜberMap[K comparable, V any]() {}',
  /* 39 */ 'func helper() { fmt.Println() }',
  /* 40 */ 'var Exported = 1',
  '',
].join('\n');

t.test('Go symbols: functions, methods in their receiver type, structs, interfaces and types, exported by an upper-case first letter', async (t) => {
  const repo = await makeRepo(t, { 'go.mod': 'module example.com/shapes\n', 'shapes.go': SOURCE, 'circle.go': 'package shapes\n\ntype Circle struct{}\n' });
  const graph = await indexRepository({ repository: repo, env: {} });
  const symbols = graph.nodes
    .filter((node) => node.path === 'shapes.go' && node.kind !== 'file')
    .map(({ id, kind, parent, startLine, endLine, exported }) => ({ id, kind, parent, startLine, endLine, exported }));
  const sym = (name: string) => `sym:shapes.go#${name}`;
  t.same(symbols, [
    { id: sym('Shape'), kind: 'interface', parent: 'file:shapes.go', startLine: 8, endLine: 10, exported: true },
    { id: sym('square'), kind: 'class', parent: 'file:shapes.go', startLine: 12, endLine: 14, exported: false },
    { id: sym('ID'), kind: 'type', parent: 'file:shapes.go', startLine: 17, endLine: 17, exported: true },
    { id: sym('Alias'), kind: 'type', parent: 'file:shapes.go', startLine: 18, endLine: 18, exported: true },
    { id: sym('Box'), kind: 'class', parent: 'file:shapes.go', startLine: 19, endLine: 19, exported: true },
    { id: sym('square.Area'), kind: 'method', parent: sym('square'), startLine: 22, endLine: 24, exported: true },
    { id: sym('square.scale'), kind: 'method', parent: sym('square'), startLine: 26, endLine: 26, exported: false },
    { id: sym('Box.Get'), kind: 'method', parent: sym('Box'), startLine: 28, endLine: 28, exported: true },
    // Circle is declared in circle.go: the method is the file's, named after its type.
    { id: sym('Circle.Area'), kind: 'method', parent: 'file:shapes.go', startLine: 30, endLine: 30, exported: true },
    { id: sym('New'), kind: 'function', parent: 'file:shapes.go', startLine: 32, endLine: 36, exported: true },
    { id: sym('ÜberMap'), kind: 'function', parent: 'file:shapes.go', startLine: 38, endLine: 38, exported: true },
    { id: sym('helper'), kind: 'function', parent: 'file:shapes.go', startLine: 39, endLine: 39, exported: false },
  ]);
  const file = graph.nodes.find((node) => node.id === 'file:shapes.go')!;
  t.match(file, { language: 'go', lines: 40, loc: 40 - 3 - 10 }, 'comments (3 lines) and blank lines (10) are not code');
  t.equal(file.error, undefined);
  t.ok(graph.edges.some((edge) => edge.id === 'imports:file:shapes.go->pkg:go:fmt'));
});
