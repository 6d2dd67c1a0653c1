import { indexRepository } from '@strata/host';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';

const SOURCE = [
  /* 1 */ '# A shop.',
  /* 2 */ "require 'json'",
  /* 3 */ '',
  /* 4 */ '=begin',
  /* 5 */ 'a block comment',
  /* 6 */ '=end',
  /* 7 */ 'module Shop',
  /* 8 */ '  class Cart < Base',
  /* 9 */ '    def total',
  /* 10 */ '      0',
  /* 11 */ '    end',
  /* 12 */ '',
  /* 13 */ '    def self.build; new; end',
  /* 14 */ '',
  /* 15 */ '    private def secret; end',
  /* 16 */ '',
  /* 17 */ '    private',
  /* 18 */ '',
  /* 19 */ '    def helper; end',
  /* 20 */ '',
  /* 21 */ '    public',
  /* 22 */ '',
  /* 23 */ '    def visible; end',
  /* 24 */ '  end',
  /* 25 */ '',
  /* 26 */ '  def self.version = "1"',
  /* 27 */ 'end',
  /* 28 */ '',
  /* 29 */ 'class Shop::Order',
  /* 30 */ '  protected',
  /* 31 */ '  def compare; end',
  /* 32 */ 'end',
  /* 33 */ '',
  /* 34 */ 'def main; end',
  '',
].join('\n');

t.test('Ruby symbols: modules (type), classes, methods in their class or module, top-level def (function), private and protected hidden', async (t) => {
  const repo = await makeRepo(t, { 'shop.rb': SOURCE });
  const graph = await indexRepository({ repository: repo, env: {} });
  const symbols = graph.nodes
    .filter((node) => node.path === 'shop.rb' && node.kind !== 'file')
    .map(({ id, kind, parent, startLine, endLine, exported }) => ({ id, kind, parent, startLine, endLine, exported }));
  const sym = (name: string) => `sym:shop.rb#${name}`;
  t.same(symbols, [
    { id: sym('Shop'), kind: 'type', parent: 'file:shop.rb', startLine: 7, endLine: 27, exported: true },
    { id: sym('Shop::Cart'), kind: 'class', parent: 'file:shop.rb', startLine: 8, endLine: 24, exported: true },
    { id: sym('Shop::Cart.total'), kind: 'method', parent: sym('Shop::Cart'), startLine: 9, endLine: 11, exported: true },
    { id: sym('Shop::Cart.self.build'), kind: 'method', parent: sym('Shop::Cart'), startLine: 13, endLine: 13, exported: true },
    { id: sym('Shop::Cart.secret'), kind: 'method', parent: sym('Shop::Cart'), startLine: 15, endLine: 15, exported: false },
    { id: sym('Shop::Cart.helper'), kind: 'method', parent: sym('Shop::Cart'), startLine: 19, endLine: 19, exported: false },
    { id: sym('Shop::Cart.visible'), kind: 'method', parent: sym('Shop::Cart'), startLine: 23, endLine: 23, exported: true },
    { id: sym('Shop.self.version'), kind: 'method', parent: sym('Shop'), startLine: 26, endLine: 26, exported: true },
    { id: sym('Shop::Order'), kind: 'class', parent: 'file:shop.rb', startLine: 29, endLine: 32, exported: true },
    { id: sym('Shop::Order.compare'), kind: 'method', parent: sym('Shop::Order'), startLine: 31, endLine: 31, exported: false },
    { id: sym('main'), kind: 'function', parent: 'file:shop.rb', startLine: 34, endLine: 34, exported: true },
  ]);
  const file = graph.nodes.find((node) => node.id === 'file:shop.rb')!;
  t.match(file, { language: 'ruby', lines: 34, loc: 34 - 4 - 10 }, 'comments and =begin blocks (4 lines) and blank lines (10) are not code');
  t.equal(file.error, undefined);
  t.ok(graph.edges.some((edge) => edge.id === 'imports:file:shop.rb->pkg:ruby:json'));
});
