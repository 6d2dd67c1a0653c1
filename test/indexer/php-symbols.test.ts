import { indexRepository } from '@strata/host';
import t from 'tap';
import { makeRepo } from '../helpers/fixture-repo.ts';

const SOURCE = [
  /* 1 */ '<?php',
  /* 2 */ '// A shop.',
  /* 3 */ 'namespace Shop;',
  /* 4 */ '',
  /* 5 */ 'use DateTime;',
  /* 6 */ '',
  /* 7 */ '/**',
  /* 8 */ ' * A cart.',
  /* 9 */ ' */',
  /* 10 */ '#[Entity]',
  /* 11 */ 'final class Cart extends Base implements \\Countable',
  /* 12 */ '{',
  /* 13 */ '    use Discounts;',
  /* 14 */ '',
  /* 15 */ '    public function total(): int',
  /* 16 */ '    {',
  /* 17 */ '        return 0;',
  /* 18 */ '    }',
  /* 19 */ '',
  /* 20 */ '    function count(): int { return 0; }',
  /* 21 */ '    protected function recalc() {}',
  /* 22 */ '    private static function secret() {}',
  /* 23 */ '    public static function make(): static',
  /* 24 */ '    {',
  /* 25 */ '        return new class { public function hidden() {} };',
  /* 26 */ '    }',
  /* 27 */ '}',
  /* 28 */ '',
  /* 29 */ 'interface Priced',
  /* 30 */ '{',
  /* 31 */ '    function price(): int;',
  /* 32 */ '}',
  /* 33 */ '',
  /* 34 */ 'trait Discounts',
  /* 35 */ '{',
  /* 36 */ '    private function rate() {}',
  /* 37 */ '}',
  /* 38 */ '',
  /* 39 */ "enum Status: string { case Open = 'open';",
  /* 40 */ '    public function label(): string { return $this->value; }',
  /* 41 */ '}',
  /* 42 */ '',
  /* 43 */ 'function helper() {',
  /* 44 */ '    function later() {}',
  /* 45 */ '}',
  /* 46 */ '',
  /* 47 */ "if (!function_exists('Shop\\\\polyfill')) {",
  /* 48 */ '    function polyfill() {}',
  /* 49 */ '}',
  '',
].join('\n');

t.test('PHP symbols: classes, enums (class), interfaces, traits (type), functions, methods in their type; private and protected hidden', async (t) => {
  const repo = await makeRepo(t, { 'src/Cart.php': SOURCE });
  const graph = await indexRepository({ repository: repo, env: {} });
  const symbols = graph.nodes
    .filter((node) => node.path === 'src/Cart.php' && node.kind !== 'file')
    .map(({ id, kind, parent, startLine, endLine, exported }) => ({ id, kind, parent, startLine, endLine, exported }));
  const sym = (name: string) => `sym:src/Cart.php#${name}`;
  const file = 'file:src/Cart.php';
  t.same(symbols, [
    { id: sym('Cart'), kind: 'class', parent: file, startLine: 10, endLine: 27, exported: true },
    { id: sym('Cart.total'), kind: 'method', parent: sym('Cart'), startLine: 15, endLine: 18, exported: true },
    { id: sym('Cart.count'), kind: 'method', parent: sym('Cart'), startLine: 20, endLine: 20, exported: true },
    { id: sym('Cart.recalc'), kind: 'method', parent: sym('Cart'), startLine: 21, endLine: 21, exported: false },
    { id: sym('Cart.secret'), kind: 'method', parent: sym('Cart'), startLine: 22, endLine: 22, exported: false },
    { id: sym('Cart.make'), kind: 'method', parent: sym('Cart'), startLine: 23, endLine: 26, exported: true },
    { id: sym('Priced'), kind: 'interface', parent: file, startLine: 29, endLine: 32, exported: true },
    { id: sym('Priced.price'), kind: 'method', parent: sym('Priced'), startLine: 31, endLine: 31, exported: true },
    { id: sym('Discounts'), kind: 'type', parent: file, startLine: 34, endLine: 37, exported: true },
    { id: sym('Discounts.rate'), kind: 'method', parent: sym('Discounts'), startLine: 36, endLine: 36, exported: false },
    { id: sym('Status'), kind: 'class', parent: file, startLine: 39, endLine: 41, exported: true },
    { id: sym('Status.label'), kind: 'method', parent: sym('Status'), startLine: 40, endLine: 40, exported: true },
    { id: sym('helper'), kind: 'function', parent: file, startLine: 43, endLine: 45, exported: true },
    { id: sym('later'), kind: 'function', parent: file, startLine: 44, endLine: 44, exported: true },
    { id: sym('polyfill'), kind: 'function', parent: file, startLine: 48, endLine: 48, exported: true },
  ]);
  const node = graph.nodes.find((each) => each.id === file)!;
  t.match(node, { language: 'php', lines: 49, loc: 49 - 4 - 9 }, 'comments (4 lines) and blank lines (9) are not code');
  t.equal(node.error, undefined);
  t.ok(graph.edges.some((edge) => edge.id === 'imports:file:src/Cart.php->pkg:php:ext-date'));
});

t.test('PHP between HTML: the text around <?php ... ?> blocks is read past, its lines are code, templates are PHP', async (t) => {
  const page = [
    /* 1 */ '<!doctype html>',
    /* 2 */ '<html>',
    /* 3 */ "<?php require __DIR__ . '/lib.php'; ?>",
    /* 4 */ '<ul>',
    /* 5 */ '<?php foreach ($items as $item): ?>',
    /* 6 */ '  <li><?= $item ?></li>',
    /* 7 */ '<?php endforeach; ?>',
    /* 8 */ '</ul>',
    /* 9 */ '<?php',
    /* 10 */ '/* a note */',
    /* 11 */ 'function footer() {',
    /* 12 */ '}',
    /* 13 */ '?>',
    /* 14 */ '</html>',
    '',
  ].join('\n');
  const repo = await makeRepo(t, {
    'index.php': page,
    'lib.php': '<?php function lib() {}\n',
    'view.phtml': '<p><?php echo render(); ?></p>\n<?php function render() { return 1; }\n',
    'plain.php': 'no PHP tag: all of it is text\nfunction nothing() {}\n',
    'resources/views/home.blade.php': '<?php function blade() {} ?>\n',
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  const node = graph.nodes.find((each) => each.id === 'file:index.php')!;
  t.match(node, { language: 'php', lines: 14, loc: 13 });
  t.equal(node.error, undefined);
  t.match(
    graph.nodes.find((each) => each.id === 'sym:index.php#footer'),
    { kind: 'function', startLine: 11, endLine: 12 },
  );
  t.ok(graph.edges.some((edge) => edge.id === 'imports:file:index.php->file:lib.php'));
  t.ok(graph.nodes.some((each) => each.id === 'sym:view.phtml#render'));
  t.notOk(
    graph.nodes.some((each) => each.id === 'sym:plain.php#nothing'),
    'text without a PHP tag declares nothing',
  );
  t.notOk(
    graph.nodes.some((each) => each.id === 'sym:resources/views/home.blade.php#blade'),
    'Blade templates are not parsed',
  );
});

t.test('namespaced declarations are named plainly; a namespace block and a second declaration of a name', async (t) => {
  const repo = await makeRepo(t, {
    'both.php': '<?php\nnamespace A {\n  class Thing {}\n}\nnamespace B {\n  class Thing { function x() {} }\n  interface Other {}\n}\n',
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  const ids = graph.nodes.filter((node) => node.path === 'both.php' && node.kind !== 'file').map((node) => node.id);
  t.same(ids, ['sym:both.php#Thing', 'sym:both.php#Thing.x', 'sym:both.php#Other'], 'the first Thing is the node; its namesake adds its methods');
});
