import { indexRepository } from '@strata/host';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';

const SOURCE = [
  /* 1 */ "import { x } from './x';",
  /* 2 */ 'export function add(a: number, b: number): number {',
  /* 3 */ '  function inner() { return 0; }',
  /* 4 */ '  return a + b + inner();',
  /* 5 */ '}',
  /* 6 */ 'function local() {}',
  /* 7 */ 'export class Shape {',
  /* 8 */ '  #secret() { return 1; }',
  /* 9 */ '  get area(): number { return 1; }',
  /* 10 */ '  set area(v: number) {}',
  /* 11 */ '  static create() { return new Shape(); }',
  /* 12 */ '  onClick = () => {};',
  /* 13 */ '  size = 3;',
  /* 14 */ '  draw(): void;',
  /* 15 */ '  draw(scale?: number): void {}',
  /* 16 */ '}',
  /* 17 */ 'export interface Point { x: number; y: number }',
  /* 18 */ 'type Id = string;',
  /* 19 */ 'export const handler = async (event: unknown) => {',
  /* 20 */ '  return event;',
  /* 21 */ '};',
  /* 22 */ 'const notExported = () => 1;',
  /* 23 */ 'export const value = 42;',
  /* 24 */ 'export function over(a: string): string;',
  /* 25 */ 'export function over(a: number): number;',
  /* 26 */ 'export function over(a: unknown) { return a; }',
  /* 27 */ 'export default class {}',
  '',
].join('\n');

t.test('a file contains its symbols, with kinds, line ranges and export flags', async (t) => {
  const repo = await makeRepo(t, { 'src/shapes.ts': SOURCE, 'src/x.ts': 'export const x = 1;\n' });
  const graph = await indexRepository({ repository: repo, env: {} });
  const symbols = graph.nodes
    .filter((node) => node.path === 'src/shapes.ts' && node.kind !== 'file')
    .map(({ id, kind, name, parent, startLine, endLine, exported }) => ({ id, kind, name, parent, startLine, endLine, exported }));
  const file = 'file:src/shapes.ts';
  const shape = 'sym:src/shapes.ts#Shape';
  t.same(
    symbols,
    [
      { id: 'sym:src/shapes.ts#add', kind: 'function', name: 'add', parent: file, startLine: 2, endLine: 5, exported: true },
      { id: 'sym:src/shapes.ts#local', kind: 'function', name: 'local', parent: file, startLine: 6, endLine: 6, exported: false },
      { id: shape, kind: 'class', name: 'Shape', parent: file, startLine: 7, endLine: 16, exported: true },
      { id: 'sym:src/shapes.ts#Shape.#secret', kind: 'method', name: '#secret', parent: shape, startLine: 8, endLine: 8, exported: true },
      { id: 'sym:src/shapes.ts#Shape.get area', kind: 'method', name: 'get area', parent: shape, startLine: 9, endLine: 9, exported: true },
      { id: 'sym:src/shapes.ts#Shape.set area', kind: 'method', name: 'set area', parent: shape, startLine: 10, endLine: 10, exported: true },
      { id: 'sym:src/shapes.ts#Shape.create', kind: 'method', name: 'create', parent: shape, startLine: 11, endLine: 11, exported: true },
      { id: 'sym:src/shapes.ts#Shape.onClick', kind: 'method', name: 'onClick', parent: shape, startLine: 12, endLine: 12, exported: true },
      { id: 'sym:src/shapes.ts#Shape.draw', kind: 'method', name: 'draw', parent: shape, startLine: 14, endLine: 15, exported: true },
      { id: 'sym:src/shapes.ts#Point', kind: 'interface', name: 'Point', parent: file, startLine: 17, endLine: 17, exported: true },
      { id: 'sym:src/shapes.ts#Id', kind: 'type', name: 'Id', parent: file, startLine: 18, endLine: 18, exported: false },
      { id: 'sym:src/shapes.ts#handler', kind: 'function', name: 'handler', parent: file, startLine: 19, endLine: 21, exported: true },
      { id: 'sym:src/shapes.ts#over', kind: 'function', name: 'over', parent: file, startLine: 24, endLine: 26, exported: true },
      { id: 'sym:src/shapes.ts#default', kind: 'class', name: 'default', parent: file, startLine: 27, endLine: 27, exported: true },
    ],
    'nested functions, plain constants and non-exported arrow constants are not symbols; overloads merge',
  );

  for (const symbol of symbols) {
    t.ok(
      graph.edges.some((edge) => edge.kind === 'contains' && edge.source === symbol.parent && edge.target === symbol.id),
      `${symbol.id} is contained by ${symbol.parent}`,
    );
  }
  const add = graph.nodes.find((node) => node.id === 'sym:src/shapes.ts#add');
  t.equal(add?.lines, 4, 'a symbol counts its lines');
});

t.test('JavaScript and CommonJS files have symbols too', async (t) => {
  const repo = await makeRepo(t, {
    'lib.cjs': 'function helper() {}\nclass Store { get() {} }\nmodule.exports = { helper, Store };\n',
    'view.jsx': 'export function View() { return <div />; }\n',
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  const ids = graph.nodes
    .filter((node) => node.id.startsWith('sym:'))
    .map((node) => node.id)
    .sort();
  t.same(ids, ['sym:lib.cjs#Store', 'sym:lib.cjs#Store.get', 'sym:lib.cjs#helper', 'sym:view.jsx#View']);
});
