import { type CodeGraph, indexRepository } from '@strata/host';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';

const SOURCE = [
  /* 1 */ 'package com.ex;',
  /* 2 */ '',
  /* 3 */ 'import java.util.List; // a comment',
  /* 4 */ '',
  /* 5 */ '/** A documented class. */',
  /* 6 */ '@Deprecated',
  /* 7 */ 'public class Shape<T> extends Base implements Comparable<Shape<T>> {',
  /* 8 */ '  public Shape() {}',
  /* 9 */ '  Shape(int size) {}',
  /* 10 */ '  public int area() { return 0; }',
  /* 11 */ '  private void hidden() {}',
  /* 12 */ '  public static class Box {',
  /* 13 */ '    void open() {}',
  /* 14 */ '  }',
  /* 15 */ '  interface Visitor { void visit(Shape<?> s); }',
  /* 16 */ '}',
  /* 17 */ '',
  /* 18 */ 'interface Drawable { void draw(); }',
  /* 19 */ 'public enum Color {',
  /* 20 */ '  RED, GREEN;',
  /* 21 */ '  public String label() { return name(); }',
  /* 22 */ '}',
  /* 23 */ 'record Point(int x, int y) {',
  /* 24 */ '  Point { }',
  /* 25 */ '  public double norm() { return 0; }',
  /* 26 */ '}',
  /* 27 */ 'public @interface Marker { String value(); }',
  /* 28 */ 'public interface Api { void call(); private void helper() {} }',
].join('\n');

function symbols(graph: CodeGraph, file: string) {
  return graph.nodes
    .filter((node) => node.kind !== 'file' && node.path === file)
    .map(({ id, kind, parent, startLine, endLine, exported }) => ({ id, kind, parent: parent?.replace(`sym:${file}#`, '#'), startLine, endLine, exported }));
}

t.test('Java: classes, interfaces, enums, records, annotation types, methods and constructors, nested types; exported means public', async (t) => {
  const repo = await makeRepo(t, { 'src/com/ex/Shape.java': SOURCE });
  const graph = await indexRepository({ repository: repo, env: {} });
  const f = 'file:src/com/ex/Shape.java';
  const s = 'sym:src/com/ex/Shape.java#';
  t.same(symbols(graph, 'src/com/ex/Shape.java'), [
    { id: `${s}Shape`, kind: 'class', parent: f, startLine: 6, endLine: 16, exported: true },
    { id: `${s}Shape.Shape`, kind: 'method', parent: '#Shape', startLine: 8, endLine: 9, exported: true },
    { id: `${s}Shape.area`, kind: 'method', parent: '#Shape', startLine: 10, endLine: 10, exported: true },
    { id: `${s}Shape.hidden`, kind: 'method', parent: '#Shape', startLine: 11, endLine: 11, exported: false },
    { id: `${s}Shape.Box`, kind: 'class', parent: '#Shape', startLine: 12, endLine: 14, exported: true },
    { id: `${s}Shape.Box.open`, kind: 'method', parent: '#Shape.Box', startLine: 13, endLine: 13, exported: false },
    { id: `${s}Shape.Visitor`, kind: 'interface', parent: '#Shape', startLine: 15, endLine: 15, exported: false },
    { id: `${s}Shape.Visitor.visit`, kind: 'method', parent: '#Shape.Visitor', startLine: 15, endLine: 15, exported: false },
    { id: `${s}Drawable`, kind: 'interface', parent: f, startLine: 18, endLine: 18, exported: false },
    { id: `${s}Drawable.draw`, kind: 'method', parent: '#Drawable', startLine: 18, endLine: 18, exported: false },
    { id: `${s}Color`, kind: 'class', parent: f, startLine: 19, endLine: 22, exported: true },
    { id: `${s}Color.label`, kind: 'method', parent: '#Color', startLine: 21, endLine: 21, exported: true },
    { id: `${s}Point`, kind: 'class', parent: f, startLine: 23, endLine: 26, exported: false },
    { id: `${s}Point.Point`, kind: 'method', parent: '#Point', startLine: 24, endLine: 24, exported: false },
    { id: `${s}Point.norm`, kind: 'method', parent: '#Point', startLine: 25, endLine: 25, exported: true },
    { id: `${s}Marker`, kind: 'interface', parent: f, startLine: 27, endLine: 27, exported: true },
    { id: `${s}Marker.value`, kind: 'method', parent: '#Marker', startLine: 27, endLine: 27, exported: true },
    { id: `${s}Api`, kind: 'interface', parent: f, startLine: 28, endLine: 28, exported: true },
    { id: `${s}Api.call`, kind: 'method', parent: '#Api', startLine: 28, endLine: 28, exported: true },
    { id: `${s}Api.helper`, kind: 'method', parent: '#Api', startLine: 28, endLine: 28, exported: false },
  ]);
  const file = graph.nodes.find((node) => node.id === f)!;
  t.match(file, { lines: 28, loc: 24, language: 'java' });
  t.equal(file.error, undefined);
});
