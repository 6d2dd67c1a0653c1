import { indexRepository } from '@strata/host';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';

const SOURCE = [
  /* 1 */ '"""The module\'s docstring."""',
  /* 2 */ 'import os',
  /* 3 */ '',
  /* 4 */ 'def top(a, b):',
  /* 5 */ '    def inner():',
  /* 6 */ '        return 0',
  /* 7 */ '    return a + b + inner()',
  /* 8 */ '',
  /* 9 */ 'async def fetch():',
  /* 10 */ '    pass',
  /* 11 */ '',
  /* 12 */ '@decorator',
  /* 13 */ '@other(1)',
  /* 14 */ 'class Shape(Base):',
  /* 15 */ '    """A shape."""',
  /* 16 */ '    size = 3',
  /* 17 */ '    @property',
  /* 18 */ '    def area(self):',
  /* 19 */ '        return 1',
  /* 20 */ '    @area.setter',
  /* 21 */ '    def area(self, value):',
  /* 22 */ '        pass',
  /* 23 */ '    async def load(self):',
  /* 24 */ '        pass',
  /* 25 */ '    def _hidden(self):',
  /* 26 */ '        pass',
  /* 27 */ '    class Meta:',
  /* 28 */ '        def not_a_symbol(self): pass',
  /* 29 */ '    if DEBUG:',
  /* 30 */ '        def debug(self): pass',
  /* 31 */ '',
  /* 32 */ 'def _private():',
  /* 33 */ '    pass',
  /* 34 */ '',
  /* 35 */ 'try:',
  /* 36 */ '    from fast import speedup',
  /* 37 */ 'except ImportError:',
  /* 38 */ '    def speedup(x):',
  /* 39 */ '        return x',
  /* 40 */ '',
  /* 41 */ 'lambda_value = lambda: 1',
  /* 42 */ 'CONSTANT = 1',
  '',
].join('\n');

t.test('a Python file contains its functions, classes and their methods, with line ranges, decorators and export flags', async (t) => {
  const repo = await makeRepo(t, { 'pkg/shapes.py': SOURCE });
  const graph = await indexRepository({ repository: repo, env: {} });
  const symbols = graph.nodes
    .filter((node) => node.path === 'pkg/shapes.py' && node.kind !== 'file')
    .map(({ id, kind, name, parent, startLine, endLine, exported }) => ({ id, kind, name, parent, startLine, endLine, exported }));
  const file = 'file:pkg/shapes.py';
  const shape = 'sym:pkg/shapes.py#Shape';
  t.same(
    symbols,
    [
      { id: 'sym:pkg/shapes.py#top', kind: 'function', name: 'top', parent: file, startLine: 4, endLine: 7, exported: true },
      { id: 'sym:pkg/shapes.py#fetch', kind: 'function', name: 'fetch', parent: file, startLine: 9, endLine: 10, exported: true },
      { id: shape, kind: 'class', name: 'Shape', parent: file, startLine: 12, endLine: 30, exported: true },
      { id: 'sym:pkg/shapes.py#Shape.area', kind: 'method', name: 'area', parent: shape, startLine: 17, endLine: 22, exported: true },
      { id: 'sym:pkg/shapes.py#Shape.load', kind: 'method', name: 'load', parent: shape, startLine: 23, endLine: 24, exported: true },
      { id: 'sym:pkg/shapes.py#Shape._hidden', kind: 'method', name: '_hidden', parent: shape, startLine: 25, endLine: 26, exported: true },
      { id: 'sym:pkg/shapes.py#Shape.debug', kind: 'method', name: 'debug', parent: shape, startLine: 30, endLine: 30, exported: true },
      { id: 'sym:pkg/shapes.py#_private', kind: 'function', name: '_private', parent: file, startLine: 32, endLine: 33, exported: false },
      { id: 'sym:pkg/shapes.py#speedup', kind: 'function', name: 'speedup', parent: file, startLine: 38, endLine: 39, exported: true },
    ],
    'nested functions, classes in classes, lambdas and constants are not symbols; a property and its setter merge; definitions in try and if blocks count',
  );
  for (const symbol of symbols) {
    t.ok(
      graph.edges.some((edge) => edge.kind === 'contains' && edge.source === symbol.parent && edge.target === symbol.id),
      `${symbol.id} is contained by ${symbol.parent}`,
    );
  }
  t.equal(graph.nodes.find((node) => node.id === shape)?.lines, 19, 'a symbol counts its lines, decorators included');
  t.match(
    graph.nodes.find((node) => node.id === file),
    { language: 'python', lines: 42, loc: 34 },
    'docstrings and blank lines are not code',
  );
});

t.test('__all__ decides what a module exports when it lists names as literals', async (t) => {
  const repo = await makeRepo(t, {
    'listed.py': [
      "__all__ = ['public', '_listed_private']",
      "__all__ += ('Later',)",
      "__all__.extend(['extended'])",
      "__all__.append('appended')",
      'def public(): pass',
      'def _listed_private(): pass',
      'def unlisted(): pass',
      'class Later: pass',
      'def extended(): pass',
      'def appended(): pass',
      '',
    ].join('\n'),
    'computed.py': ['from .listed import *', 'from . import listed', '__all__ = listed.__all__ + ["mine"]', 'def mine(): pass', 'def _own(): pass', ''].join(
      '\n',
    ),
    'stub.pyi': ['__all__: list[str] = ["declared"]', 'def declared() -> int: ...', 'def undeclared() -> int: ...', ''].join('\n'),
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  const exported = Object.fromEntries(graph.nodes.filter((node) => node.id.startsWith('sym:')).map((node) => [node.id, node.exported]));
  t.same(exported, {
    'sym:listed.py#public': true,
    'sym:listed.py#_listed_private': true,
    'sym:listed.py#unlisted': false,
    'sym:listed.py#Later': true,
    'sym:listed.py#extended': true,
    'sym:listed.py#appended': true,
    'sym:computed.py#mine': true,
    'sym:computed.py#_own': false,
    'sym:stub.pyi#declared': true,
    'sym:stub.pyi#undeclared': false,
  });
});

t.test('a Python file with a syntax error keeps the symbols and imports around it, and says where', async (t) => {
  const repo = await makeRepo(t, {
    'broken.py': ['import os', 'def before():', '    pass', 'def broken(:', '    pass', 'class After:', '    def method(self): pass', 'import sys', ''].join(
      '\n',
    ),
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  const file = graph.nodes.find((node) => node.id === 'file:broken.py');
  t.match(file, { error: /^syntax error: .* at line 4$/, lines: 8 });
  const ids = graph.nodes.filter((node) => node.id.startsWith('sym:')).map((node) => node.id);
  t.same(ids, ['sym:broken.py#before', 'sym:broken.py#broken', 'sym:broken.py#After', 'sym:broken.py#After.method']);
  t.same(
    graph.edges.filter((edge) => edge.kind === 'imports').map((edge) => edge.target),
    ['pkg:python:os', 'pkg:python:sys'],
  );
});
