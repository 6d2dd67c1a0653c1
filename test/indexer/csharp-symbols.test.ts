import { type CodeGraph, indexRepository } from '@strata/host';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';

const SOURCE = [
  /* 1 */ 'using System;',
  /* 2 */ 'namespace Acme.Shapes;',
  /* 3 */ '',
  /* 4 */ '/// <summary>A documented class.</summary>',
  /* 5 */ '[Serializable]',
  /* 6 */ 'public class Shape {',
  /* 7 */ '    public Shape() {}',
  /* 8 */ '    Shape(int size) {}',
  /* 9 */ '    public int Area() => 0;',
  /* 10 */ '    private void Hidden() {}',
  /* 11 */ '    internal void Assembly() {}',
  /* 12 */ '    public int NotASymbol { get; set; }',
  /* 13 */ '    public struct Box {',
  /* 14 */ '        public void Open() {}',
  /* 15 */ '    }',
  /* 16 */ '}',
  /* 17 */ 'public interface IDrawable {',
  /* 18 */ '    void Draw();',
  /* 19 */ '}',
  /* 20 */ 'internal enum Color { Red, Green }',
  /* 21 */ 'public record Point(int X, int Y) {',
  /* 22 */ '    public double Norm() => 0;',
  /* 23 */ '}',
].join('\n');

function symbols(graph: CodeGraph, file: string) {
  return graph.nodes
    .filter((node) => node.kind !== 'file' && node.path === file)
    .map(({ id, kind, parent, startLine, endLine, exported }) => ({ id, kind, parent: parent?.replace(`sym:${file}#`, '#'), startLine, endLine, exported }));
}

t.test('C#: classes, structs, records, interfaces, enums, methods and constructors; exported means public', async (t) => {
  const repo = await makeRepo(t, { 'src/Shape.cs': SOURCE, 'src/Block.cs': 'namespace A {\n    namespace B {\n        public class Inner {}\n    }\n}\n' });
  const graph = await indexRepository({ repository: repo, env: {} });
  const f = 'file:src/Shape.cs';
  const s = 'sym:src/Shape.cs#';
  t.same(symbols(graph, 'src/Shape.cs'), [
    { id: `${s}Shape`, kind: 'class', parent: f, startLine: 5, endLine: 16, exported: true },
    { id: `${s}Shape.Shape`, kind: 'method', parent: '#Shape', startLine: 7, endLine: 8, exported: true },
    { id: `${s}Shape.Area`, kind: 'method', parent: '#Shape', startLine: 9, endLine: 9, exported: true },
    { id: `${s}Shape.Hidden`, kind: 'method', parent: '#Shape', startLine: 10, endLine: 10, exported: false },
    { id: `${s}Shape.Assembly`, kind: 'method', parent: '#Shape', startLine: 11, endLine: 11, exported: false },
    { id: `${s}Shape.Box`, kind: 'class', parent: '#Shape', startLine: 13, endLine: 15, exported: true },
    { id: `${s}Shape.Box.Open`, kind: 'method', parent: '#Shape.Box', startLine: 14, endLine: 14, exported: true },
    { id: `${s}IDrawable`, kind: 'interface', parent: f, startLine: 17, endLine: 19, exported: true },
    { id: `${s}IDrawable.Draw`, kind: 'method', parent: '#IDrawable', startLine: 18, endLine: 18, exported: true },
    { id: `${s}Color`, kind: 'class', parent: f, startLine: 20, endLine: 20, exported: false },
    { id: `${s}Point`, kind: 'class', parent: f, startLine: 21, endLine: 23, exported: true },
    { id: `${s}Point.Norm`, kind: 'method', parent: '#Point', startLine: 22, endLine: 22, exported: true },
  ]);
  const file = graph.nodes.find((node) => node.id === f)!;
  t.match(file, { lines: 23, language: 'c#' });
  t.equal(file.error, undefined);
  t.ok(
    graph.nodes.some((node) => node.id === 'sym:src/Block.cs#Inner'),
    'a type in nested namespace blocks',
  );
});
