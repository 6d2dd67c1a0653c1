import { type CodeGraph, indexRepository } from '@strata/host';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';

const SOURCE = [
  /* 1 */ 'package com.ex',
  /* 2 */ '',
  /* 3 */ 'import java.util.List // a comment',
  /* 4 */ '',
  /* 5 */ '/** A documented class. */',
  /* 6 */ '@Deprecated("x")',
  /* 7 */ 'data class Shape(val size: Int) {',
  /* 8 */ '    constructor(s: String) : this(1)',
  /* 9 */ '    fun area(): Int = 0',
  /* 10 */ '    private fun hidden() {}',
  /* 11 */ '    class Box {',
  /* 12 */ '        fun open() {}',
  /* 13 */ '    }',
  /* 14 */ '    companion object {',
  /* 15 */ '        fun of() = Shape(1)',
  /* 16 */ '    }',
  /* 17 */ '}',
  /* 18 */ 'interface Drawable {',
  /* 19 */ '    fun draw()',
  /* 20 */ '}',
  /* 21 */ 'enum class Color {',
  /* 22 */ '    RED, GREEN;',
  /* 23 */ '    fun label() = name',
  /* 24 */ '}',
  /* 25 */ 'internal object Registry {',
  /* 26 */ '    fun register() {}',
  /* 27 */ '}',
  /* 28 */ 'fun top() {}',
  /* 29 */ 'private fun String.helper() = this',
  /* 30 */ 'val notASymbol = 1',
  /* 31 */ 'sealed interface Event',
].join('\n');

function symbols(graph: CodeGraph, file: string) {
  return graph.nodes
    .filter((node) => node.kind !== 'file' && node.path === file)
    .map(({ id, kind, parent, startLine, endLine, exported }) => ({ id, kind, parent: parent?.replace(`sym:${file}#`, '#'), startLine, endLine, exported }));
}

t.test('Kotlin: classes, objects, interfaces, enum and data classes, functions and members; exported means neither private nor internal', async (t) => {
  const repo = await makeRepo(t, { 'src/Shape.kt': SOURCE });
  const graph = await indexRepository({ repository: repo, env: {} });
  const f = 'file:src/Shape.kt';
  const s = 'sym:src/Shape.kt#';
  t.same(symbols(graph, 'src/Shape.kt'), [
    { id: `${s}Shape`, kind: 'class', parent: f, startLine: 6, endLine: 17, exported: true },
    { id: `${s}Shape.Shape`, kind: 'method', parent: '#Shape', startLine: 8, endLine: 8, exported: true },
    { id: `${s}Shape.area`, kind: 'method', parent: '#Shape', startLine: 9, endLine: 9, exported: true },
    { id: `${s}Shape.hidden`, kind: 'method', parent: '#Shape', startLine: 10, endLine: 10, exported: false },
    { id: `${s}Shape.Box`, kind: 'class', parent: '#Shape', startLine: 11, endLine: 13, exported: true },
    { id: `${s}Shape.Box.open`, kind: 'method', parent: '#Shape.Box', startLine: 12, endLine: 12, exported: true },
    { id: `${s}Shape.Companion`, kind: 'class', parent: '#Shape', startLine: 14, endLine: 16, exported: true },
    { id: `${s}Shape.Companion.of`, kind: 'method', parent: '#Shape.Companion', startLine: 15, endLine: 15, exported: true },
    { id: `${s}Drawable`, kind: 'interface', parent: f, startLine: 18, endLine: 20, exported: true },
    { id: `${s}Drawable.draw`, kind: 'method', parent: '#Drawable', startLine: 19, endLine: 19, exported: true },
    { id: `${s}Color`, kind: 'class', parent: f, startLine: 21, endLine: 24, exported: true },
    { id: `${s}Color.label`, kind: 'method', parent: '#Color', startLine: 23, endLine: 23, exported: true },
    { id: `${s}Registry`, kind: 'class', parent: f, startLine: 25, endLine: 27, exported: false },
    { id: `${s}Registry.register`, kind: 'method', parent: '#Registry', startLine: 26, endLine: 26, exported: false },
    { id: `${s}top`, kind: 'function', parent: f, startLine: 28, endLine: 28, exported: true },
    { id: `${s}helper`, kind: 'function', parent: f, startLine: 29, endLine: 29, exported: false },
    { id: `${s}Event`, kind: 'interface', parent: f, startLine: 31, endLine: 31, exported: true },
  ]);
  const file = graph.nodes.find((node) => node.id === f)!;
  t.match(file, { lines: 31, language: 'kotlin' });
  t.equal(file.error, undefined);
  t.ok(graph.edges.some((edge) => edge.id === `imports:${f}->pkg:java:java.util`));
});

t.test('Kotlin scripts (.kts) are read too', async (t) => {
  const repo = await makeRepo(t, { 'build.gradle.kts': 'import org.gradle.api.Project\nfun configure() {}\n' });
  const graph = await indexRepository({ repository: repo, env: {} });
  t.ok(graph.nodes.some((node) => node.id === 'sym:build.gradle.kts#configure'));
  t.ok(graph.edges.some((edge) => edge.id === 'imports:file:build.gradle.kts->pkg:kotlin:org.gradle'));
});
