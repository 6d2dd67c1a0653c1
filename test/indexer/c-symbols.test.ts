import { type CodeGraph, indexRepository } from '@strata/host';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';

const C_SOURCE = [
  /* 1 */ '#include <stdio.h>',
  /* 2 */ '/* a comment',
  /* 3 */ '   on two lines */',
  /* 4 */ 'static int helper(int x) {',
  /* 5 */ '  return x; // trailing',
  /* 6 */ '}',
  /* 7 */ 'int *make(void) { return 0; }',
  /* 8 */ 'struct point { int x, y; };',
  /* 9 */ 'typedef struct node { struct node *next; } node_t;',
  /* 10 */ 'enum color { RED, GREEN };',
  /* 11 */ 'union value { int i; float f; };',
  /* 12 */ 'struct point origin;',
  /* 13 */ 'int declared_only(void);',
  /* 14 */ '#ifdef FAST',
  /* 15 */ 'int run(void) { return 1; }',
  /* 16 */ '#else',
  /* 17 */ 'int run(void) { return 0; }',
  /* 18 */ '#endif',
  /* 19 */ 'int new = 1, class = 2; /* C++ keywords are names in C */',
  /* 20 */ 'int after(void) { return new + class; }',
  /* 21 */ 'typedef struct {',
  /* 22 */ '  int size;',
  /* 23 */ '} dict;',
  /* 24 */ 'typedef enum { LOW, HIGH } *level_ptr;',
].join('\n');

const CPP_SOURCE = [
  /* 1 */ '#include "shape.h"',
  /* 2 */ 'namespace geo {',
  /* 3 */ 'class Shape {',
  /* 4 */ ' public:',
  /* 5 */ '  double area() const { return 0; }',
  /* 6 */ '  void scale(double);',
  /* 7 */ '  struct Box { int w; };',
  /* 8 */ '};',
  /* 9 */ 'void Shape::scale(double) {}',
  /* 10 */ 'namespace {',
  /* 11 */ 'int local() { return 1; }',
  /* 12 */ '}',
  /* 13 */ 'template <typename T> T twice(T x) { return x + x; }',
  /* 14 */ '}  // namespace geo',
  /* 15 */ 'void geo::Circle::draw() {}',
  /* 16 */ 'extern "C" int c_api(void) { return 0; }',
  /* 17 */ 'static void hidden() {}',
].join('\n');

/** A header with nothing only C++ writes is read as C; one with a namespace or a class, as C++. */
const C_HEADER = 'struct list { int n; };\nstatic inline int list_size(struct list *l) { return l->n; }\nint new_list(int class);\n';
const CPP_HEADER = 'class Widget {\n public:\n  int id() { return 1; }\n};\n';
/** An export macro between `class` and the name, as libraries write it (leveldb's `class LEVELDB_EXPORT Slice`). */
const EXPORTED_HEADER =
  '#include "export.h"\nclass LIB_EXPORT Slice : public Base {\n public:\n  Slice() {}\n  int size() const { return 0; }\n};\nstruct LIB_EXPORT Options final {\n  int n;\n};\n';

function symbols(graph: CodeGraph, file: string) {
  return graph.nodes
    .filter((node) => node.kind !== 'file' && node.path === file)
    .map(({ id, kind, parent, startLine, endLine, exported }) => ({ id, kind, parent, startLine, endLine, exported }));
}

t.test('C: functions, structs, unions and enums with a body (anonymous: by its typedef); static is not exported; #if branches merge', async (t) => {
  const repo = await makeRepo(t, { 'src/list.c': C_SOURCE });
  const graph = await indexRepository({ repository: repo, env: {} });
  const f = 'file:src/list.c';
  t.same(symbols(graph, 'src/list.c'), [
    { id: 'sym:src/list.c#helper', kind: 'function', parent: f, startLine: 4, endLine: 6, exported: false },
    { id: 'sym:src/list.c#make', kind: 'function', parent: f, startLine: 7, endLine: 7, exported: true },
    { id: 'sym:src/list.c#point', kind: 'class', parent: f, startLine: 8, endLine: 8, exported: true },
    { id: 'sym:src/list.c#node', kind: 'class', parent: f, startLine: 9, endLine: 9, exported: true },
    { id: 'sym:src/list.c#color', kind: 'type', parent: f, startLine: 10, endLine: 10, exported: true },
    { id: 'sym:src/list.c#value', kind: 'type', parent: f, startLine: 11, endLine: 11, exported: true },
    { id: 'sym:src/list.c#run', kind: 'function', parent: f, startLine: 15, endLine: 17, exported: true },
    { id: 'sym:src/list.c#after', kind: 'function', parent: f, startLine: 20, endLine: 20, exported: true },
    { id: 'sym:src/list.c#dict', kind: 'class', parent: f, startLine: 21, endLine: 23, exported: true },
  ]);
  const file = graph.nodes.find((node) => node.id === f)!;
  t.match(file, { lines: 24, loc: 22, language: 'c' });
  t.equal(file.error, undefined, 'C++ keywords used as names parse in C');
});

t.test('C++: classes, methods in the class and out of line, nested types, namespaces, templates, anonymous namespaces', async (t) => {
  const repo = await makeRepo(t, { 'src/shape.cpp': CPP_SOURCE });
  const graph = await indexRepository({ repository: repo, env: {} });
  const f = 'file:src/shape.cpp';
  const shape = 'sym:src/shape.cpp#Shape';
  t.same(symbols(graph, 'src/shape.cpp'), [
    { id: shape, kind: 'class', parent: f, startLine: 3, endLine: 8, exported: true },
    { id: 'sym:src/shape.cpp#Shape.area', kind: 'method', parent: shape, startLine: 5, endLine: 5, exported: true },
    { id: 'sym:src/shape.cpp#Shape.Box', kind: 'class', parent: shape, startLine: 7, endLine: 7, exported: true },
    { id: 'sym:src/shape.cpp#Shape.scale', kind: 'method', parent: shape, startLine: 9, endLine: 9, exported: true },
    { id: 'sym:src/shape.cpp#local', kind: 'function', parent: f, startLine: 11, endLine: 11, exported: false },
    { id: 'sym:src/shape.cpp#twice', kind: 'function', parent: f, startLine: 13, endLine: 13, exported: true },
    { id: 'sym:src/shape.cpp#Circle::draw', kind: 'method', parent: f, startLine: 15, endLine: 15, exported: true },
    { id: 'sym:src/shape.cpp#c_api', kind: 'function', parent: f, startLine: 16, endLine: 16, exported: true },
    { id: 'sym:src/shape.cpp#hidden', kind: 'function', parent: f, startLine: 17, endLine: 17, exported: false },
  ]);
  t.equal(graph.nodes.find((node) => node.id === f)!.error, undefined);
});

t.test('.h: read as C unless it writes what only C++ does', async (t) => {
  const repo = await makeRepo(t, { 'list.h': C_HEADER, 'widget.h': CPP_HEADER });
  const graph = await indexRepository({ repository: repo, env: {} });
  t.equal(graph.nodes.find((node) => node.id === 'file:list.h')!.error, undefined, 'class as a parameter name: C');
  t.same(
    symbols(graph, 'list.h').map((symbol) => [symbol.id, symbol.exported]),
    [
      ['sym:list.h#list', true],
      ['sym:list.h#list_size', false],
    ],
  );
  t.same(
    symbols(graph, 'widget.h').map((symbol) => symbol.id),
    ['sym:widget.h#Widget', 'sym:widget.h#Widget.id'],
  );
});

t.test('an export macro between class and the name is no name: the class and its methods are read, lines kept', async (t) => {
  const repo = await makeRepo(t, { 'slice.h': EXPORTED_HEADER, 'export.h': '#define LIB_EXPORT\n' });
  const graph = await indexRepository({ repository: repo, env: {} });
  t.same(
    symbols(graph, 'slice.h').map((symbol) => [symbol.id, symbol.startLine, symbol.endLine]),
    [
      ['sym:slice.h#Slice', 2, 6],
      ['sym:slice.h#Slice.Slice', 4, 4],
      ['sym:slice.h#Slice.size', 5, 5],
      ['sym:slice.h#Options', 7, 9],
    ],
  );
  t.equal(graph.nodes.find((node) => node.id === 'file:slice.h')!.error, undefined);
  t.ok(graph.edges.some((edge) => edge.id === 'imports:file:slice.h->file:export.h'));
});
