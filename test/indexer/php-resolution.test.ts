import { indexRepository } from '@strata/host';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

interface PhpResolutionCase {
  name: string;
  files: FixtureFiles;
  /** The including or importing file. */
  from: string;
  /** Ids the file's import edges point to, with their specifiers. */
  expect: Record<string, string[]>;
  /** Specifiers the file writes that stay unresolved, with a pattern of the reason. */
  unresolved?: Record<string, RegExp>;
}

const composer = (json: unknown): string => JSON.stringify(json, null, 2);

const cases: PhpResolutionCase[] = [
  {
    name: "__DIR__, dirname(__FILE__) and dirname(__DIR__, n) count from the file's directory",
    files: {
      'app/boot/main.php': [
        '<?php',
        "require __DIR__ . '/config.php';",
        "require_once dirname(__FILE__) . '/../lib/util.php';",
        "include dirname(__DIR__) . '/routes.php';",
        "include_once dirname(__DIR__, 2) . DIRECTORY_SEPARATOR . 'shared' . '/log.php';",
        "require dirname(dirname(__FILE__)) . '/routes.php';",
        '',
      ].join('\n'),
      'app/boot/config.php': '<?php',
      'app/lib/util.php': '<?php',
      'app/routes.php': '<?php',
      'shared/log.php': '<?php',
    },
    from: 'app/boot/main.php',
    expect: {
      'file:app/boot/config.php': ["__DIR__ . '/config.php'"],
      'file:app/lib/util.php': ["__DIR__ . '/../lib/util.php'"],
      'file:app/routes.php': ["dirname(__DIR__, 1) . '/routes.php'"],
      'file:shared/log.php': ["dirname(__DIR__, 2) . '/shared/log.php'"],
    },
  },
  {
    name: 'a path from __DIR__ that is missing, climbs out of the repository or lacks its slash is unresolved',
    files: { 'a/main.php': "<?php\nrequire __DIR__ . '/gone.php';\nrequire dirname(__DIR__, 3) . '/x.php';\nrequire __DIR__ . 'x.php';\n" },
    from: 'a/main.php',
    expect: {},
    unresolved: {
      "__DIR__ . '/gone.php'": /^no such file: a\/gone\.php$/,
      "dirname(__DIR__, 3) . '/x.php'": /out of the repository/,
      "__DIR__ . 'x.php'": /without a separator/,
    },
  },
  {
    name: "a literal relative path is looked for in the file's directory, then from the repository's root",
    files: {
      'web/index.php': "<?php\nrequire 'helpers.php';\nrequire_once './partials/head.php';\ninclude('config/app.php');\ninclude \"../lib/db.php\";\n",
      'web/helpers.php': '<?php',
      'web/partials/head.php': '<?php',
      'config/app.php': '<?php',
      'lib/db.php': '<?php',
    },
    from: 'web/index.php',
    expect: {
      'file:web/helpers.php': ['helpers.php'],
      'file:web/partials/head.php': ['./partials/head.php'],
      'file:config/app.php': ['config/app.php'],
      'file:lib/db.php': ['../lib/db.php'],
    },
  },
  {
    name: 'the including directory wins over the root; missing, absolute and stream-wrapper paths are unresolved',
    files: {
      'src/main.php': "<?php\nrequire 'util.php';\nrequire 'nowhere.php';\nrequire '/etc/app.php';\nrequire 'phar://app.phar/x.php';\n",
      'src/util.php': '<?php',
      'util.php': '<?php',
    },
    from: 'src/main.php',
    expect: { 'file:src/util.php': ['util.php'] },
    unresolved: {
      'nowhere.php': /^no such file: src\/nowhere\.php, nowhere\.php$/,
      '/etc/app.php': /absolute path/,
      'phar://app.phar/x.php': /stream wrapper/,
    },
  },
  {
    name: 'computed paths are unresolved with their text: variables, constants, interpolation, calls',
    files: {
      'main.php': [
        '<?php',
        'require $file;',
        "include APP_ROOT . '/x.php';",
        'require "views/$name.php";',
        "require_once realpath(__DIR__ . '/x.php');",
        "require __DIR__ . '/' . $page . '.php';",
        '',
      ].join('\n'),
    },
    from: 'main.php',
    expect: {},
    unresolved: {
      $file: /computed when the code runs/,
      "APP_ROOT . '/x.php'": /computed/,
      '"views/$name.php"': /computed/,
      "realpath(__DIR__ . '/x.php')": /computed/,
      "__DIR__ . '/' . $page . '.php'": /computed/,
    },
  },
  {
    name: 'use leads to the class file by PSR-4: prefixes with several directories, the longest prefix first, autoload-dev too',
    files: {
      'composer.json': composer({
        autoload: { 'psr-4': { 'App\\': 'src/', 'App\\Http\\': 'http/', 'Lib\\': ['lib/', 'lib2/'] } },
        'autoload-dev': { 'psr-4': { 'App\\Tests\\': 'tests/' } },
      }),
      'src/main.php': '<?php\nnamespace App;\n\nuse App\\Models\\User;\nuse App\\Http\\Kernel;\nuse Lib\\Cache, Lib\\Queue;\nuse App\\Tests\\Fixture;\n',
      'src/Models/User.php': '<?php',
      'http/Kernel.php': '<?php',
      'src/Http/Kernel.php': '<?php',
      'lib/Cache.php': '<?php',
      'lib2/Queue.php': '<?php',
      'tests/Fixture.php': '<?php',
    },
    from: 'src/main.php',
    expect: {
      'file:src/Models/User.php': ['App\\Models\\User'],
      'file:http/Kernel.php': ['App\\Http\\Kernel'],
      'file:lib/Cache.php': ['Lib\\Cache'],
      'file:lib2/Queue.php': ['Lib\\Queue'],
      'file:tests/Fixture.php': ['App\\Tests\\Fixture'],
    },
  },
  {
    name: 'grouped uses, aliases, a leading backslash, use function (to the autoload files) and use const',
    files: {
      'composer.json': composer({ autoload: { 'psr-4': { 'Shop\\': 'src/' }, files: ['src/functions.php'] } }),
      'src/Cart.php': [
        '<?php',
        'namespace Shop;',
        'use Shop\\Models\\{Order, Item as Line, function total, const LIMIT};',
        'use \\Shop\\Pricing as P;',
        'use function Shop\\format;',
        'use const Shop\\VERSION;',
        '',
      ].join('\n'),
      'src/Models/Order.php': '<?php',
      'src/Models/Item.php': '<?php',
      'src/Pricing.php': '<?php',
      'src/functions.php': '<?php',
    },
    from: 'src/Cart.php',
    expect: {
      'file:src/Models/Order.php': ['Shop\\Models\\Order'],
      'file:src/Models/Item.php': ['Shop\\Models\\Item'],
      'file:src/functions.php': ['function Shop\\Models\\total', 'const Shop\\Models\\LIMIT', 'function Shop\\format', 'const Shop\\VERSION'],
      'file:src/Pricing.php': ['Shop\\Pricing'],
    },
  },
  {
    name: "a name under the repository's own prefix without a file is unresolved; a namespace imported whole leads to its directory",
    files: {
      'composer.json': composer({ autoload: { 'psr-4': { 'App\\': 'src/' } } }),
      'src/main.php': '<?php\nuse App\\Gone;\nuse App\\Models;\nuse function App\\helper;\n',
      'src/Models/User.php': '<?php',
    },
    from: 'src/main.php',
    expect: { 'dir:src/Models': ['App\\Models'] },
    unresolved: {
      'App\\Gone': /^no file for App\\Gone: src\/Gone\.php \(psr-4 App\\ in composer\.json\)$/,
      'function App\\helper': /autoloads classes only, and composer\.json lists no autoload files/,
    },
  },
  {
    name: 'the empty prefix is a fallback; PSR-0 keeps the prefix in the path and turns underscores into directories',
    files: {
      'composer.json': composer({ autoload: { 'psr-4': { '': 'src/' }, 'psr-0': { Legacy_: 'old/', 'Acme\\': 'vendor-src/' } } }),
      'main.php': '<?php\nuse Widget;\nuse Legacy_Mail_Sender;\nuse Acme\\Util\\Str_Helper;\nuse Nowhere\\Thing;\n',
      'src/Widget.php': '<?php',
      'old/Legacy/Mail/Sender.php': '<?php',
      'vendor-src/Acme/Util/Str/Helper.php': '<?php',
    },
    from: 'main.php',
    expect: {
      'file:src/Widget.php': ['Widget'],
      'file:old/Legacy/Mail/Sender.php': ['Legacy_Mail_Sender'],
      'file:vendor-src/Acme/Util/Str/Helper.php': ['Acme\\Util\\Str_Helper'],
      'pkg:php:Nowhere': ['Nowhere\\Thing'],
    },
  },
  {
    name: "a monorepo: every package's composer.json maps its own prefixes from its directory",
    files: {
      'composer.json': composer({ autoload: { 'psr-4': { 'App\\': 'app/' } } }),
      'packages/billing/composer.json': composer({ name: 'acme/billing', autoload: { 'psr-4': { 'Acme\\Billing\\': 'src/' } } }),
      'packages/mail/composer.json': composer({ name: 'acme/mail', autoload: { 'psr-4': { 'Acme\\Mail\\': ['src', './lib/'] } } }),
      'app/Service.php': '<?php\nuse Acme\\Billing\\Invoice;\nuse Acme\\Mail\\Mailer;\nuse Acme\\Mail\\Transport\\Smtp;\n',
      'packages/billing/src/Invoice.php': '<?php',
      'packages/mail/src/Mailer.php': '<?php',
      'packages/mail/lib/Transport/Smtp.php': '<?php',
    },
    from: 'app/Service.php',
    expect: {
      'file:packages/billing/src/Invoice.php': ['Acme\\Billing\\Invoice'],
      'file:packages/mail/src/Mailer.php': ['Acme\\Mail\\Mailer'],
      'file:packages/mail/lib/Transport/Smtp.php': ['Acme\\Mail\\Transport\\Smtp'],
    },
  },
  {
    name: "installed packages are package nodes by the prefixes vendor/composer/installed.json gives; else the name's first segment",
    files: {
      'composer.json': composer({ require: { 'monolog/monolog': '^3.0', 'symfony/console': '^7.0' }, autoload: { 'psr-4': { 'App\\': 'src/' } } }),
      'vendor/composer/installed.json': composer({
        packages: [
          { name: 'monolog/monolog', autoload: { 'psr-4': { 'Monolog\\': 'src/Monolog' } } },
          { name: 'symfony/console', autoload: { 'psr-4': { 'Symfony\\Component\\Console\\': '' } } },
          { name: 'twig/twig', autoload: { 'psr-0': { Twig_: 'lib/' } } },
        ],
      }),
      'src/main.php': [
        '<?php',
        'use Monolog\\Logger;',
        'use Monolog\\Handler\\StreamHandler;',
        'use Symfony\\Component\\Console\\Command\\Command;',
        'use Symfony\\Component\\HttpKernel\\Kernel;',
        'use Twig_Environment;',
        'use GuzzleHttp\\Client;',
        '',
      ].join('\n'),
    },
    from: 'src/main.php',
    expect: {
      'pkg:php:monolog/monolog': ['Monolog\\Logger', 'Monolog\\Handler\\StreamHandler'],
      'pkg:php:symfony/console': ['Symfony\\Component\\Console\\Command\\Command'],
      'pkg:php:Symfony': ['Symfony\\Component\\HttpKernel\\Kernel'],
      'pkg:php:twig/twig': ['Twig_Environment'],
      'pkg:php:GuzzleHttp': ['GuzzleHttp\\Client'],
    },
  },
  {
    name: "without installed.json, each vendor/<vendor>/<package>/composer.json gives its package's prefixes",
    files: {
      'composer.json': composer({ autoload: { 'psr-4': { 'App\\': 'src/' } } }),
      'vendor/guzzlehttp/guzzle/composer.json': composer({ name: 'guzzlehttp/guzzle', autoload: { 'psr-4': { 'GuzzleHttp\\': 'src/' } } }),
      'vendor/guzzlehttp/guzzle/src/Client.php': '<?php\nnamespace GuzzleHttp;\nclass Client {}\n',
      'src/main.php': '<?php\nuse GuzzleHttp\\Client;\n',
    },
    from: 'src/main.php',
    expect: { 'pkg:php:guzzlehttp/guzzle': ['GuzzleHttp\\Client'] },
  },
  {
    name: "without vendor/, a name its namespace ties to a required package is that package, even under the repository's own prefix",
    files: {
      'composer.json': composer({
        name: 'guzzlehttp/guzzle',
        require: { php: '^8.1', 'guzzlehttp/psr7': '^2.7', 'psr/http-message': '^2.0', 'symfony/console': '^7', 'monolog/monolog': '^3' },
        'require-dev': { 'ext-curl': '*' },
        autoload: { 'psr-4': { 'GuzzleHttp\\': 'src/' } },
      }),
      'src/Client.php':
        '<?php\nuse GuzzleHttp\\Psr7\\Uri;\nuse Psr\\Http\\Message\\RequestInterface;\nuse Symfony\\Component\\Console\\Application;\nuse Monolog\\Logger;\nuse GuzzleHttp\\Missing;\nuse Other\\Thing;\n',
    },
    from: 'src/Client.php',
    expect: {
      'pkg:php:guzzlehttp/psr7': ['GuzzleHttp\\Psr7\\Uri'],
      'pkg:php:psr/http-message': ['Psr\\Http\\Message\\RequestInterface'],
      'pkg:php:symfony/console': ['Symfony\\Component\\Console\\Application'],
      'pkg:php:monolog/monolog': ['Monolog\\Logger'],
      'pkg:php:Other': ['Other\\Thing'],
    },
    unresolved: { 'GuzzleHttp\\Missing': /^no file for GuzzleHttp\\Missing: src\/Missing\.php \(psr-4 GuzzleHttp\\ in composer\.json\)$/ },
  },
  {
    name: "PHP's own classes, functions and constants are built-in package nodes, before any autoload rule",
    files: {
      'composer.json': composer({ autoload: { 'psr-4': { '': 'src/' } } }),
      'src/Exception.php': '<?php',
      'src/main.php': [
        '<?php',
        'use DateTime, DateTimeImmutable;',
        'use \\ArrayObject;',
        'use Exception;',
        'use PDO, pdostatement;',
        'use JsonException;',
        'use ReflectionClass;',
        'use Random\\Randomizer;',
        'use function strlen;',
        'use const PHP_EOL;',
        '',
      ].join('\n'),
    },
    from: 'src/main.php',
    expect: {
      'pkg:php:ext-date': ['DateTime', 'DateTimeImmutable'],
      'pkg:php:ext-spl': ['ArrayObject'],
      'pkg:php:php': ['Exception', 'function strlen', 'const PHP_EOL'],
      'pkg:php:ext-pdo': ['PDO', 'pdostatement'],
      'pkg:php:ext-json': ['JsonException'],
      'pkg:php:ext-reflection': ['ReflectionClass'],
      'pkg:php:ext-random': ['Random\\Randomizer'],
    },
  },
  {
    name: 'uses and includes count wherever they are: in namespace blocks, functions, conditionals, between HTML',
    files: {
      'page.php': [
        '<!doctype html>',
        '<?php namespace Site { use Site\\Nav; } ?>',
        '<body>',
        "<?php if ($admin): ?><?php include 'admin.php'; ?><?php endif; ?>",
        "<?php function render() { require __DIR__ . '/footer.php'; } ?>",
        '</body>',
        '',
      ].join('\n'),
      'admin.php': '<?php',
      'footer.php': '<?php',
    },
    from: 'page.php',
    expect: { 'pkg:php:Site': ['Site\\Nav'], 'file:admin.php': ['admin.php'], 'file:footer.php': ["__DIR__ . '/footer.php'"] },
  },
  {
    name: 'fully qualified names after extends, implements and new are references; relative ones are not followed',
    files: {
      'composer.json': composer({ autoload: { 'psr-4': { 'App\\': 'src/' } } }),
      'src/Report.php': [
        '<?php',
        'namespace App;',
        'class Report extends \\App\\Base implements \\JsonSerializable, \\App\\Contracts\\Exportable, Local',
        '{',
        '    public function make() { return [new \\DateTime(), new \\App\\Models\\Row(), new Relative\\Thing(), new Plain()]; }',
        '}',
        '',
      ].join('\n'),
      'src/Base.php': '<?php',
      'src/Contracts/Exportable.php': '<?php',
      'src/Models/Row.php': '<?php',
    },
    from: 'src/Report.php',
    expect: {
      'file:src/Base.php': ['App\\Base'],
      'pkg:php:ext-json': ['JsonSerializable'],
      'file:src/Contracts/Exportable.php': ['App\\Contracts\\Exportable'],
      'pkg:php:ext-date': ['DateTime'],
      'file:src/Models/Row.php': ['App\\Models\\Row'],
    },
  },
  {
    name: 'a broken or absent composer.json means no autoload rules, and no crash',
    files: { 'composer.json': '{ "autoload": ', 'main.php': '<?php\nuse App\\Thing;\n', 'src/Thing.php': '<?php' },
    from: 'main.php',
    expect: { 'pkg:php:App': ['App\\Thing'] },
  },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const repo = await makeRepo(t, c.files);
    const graph = await indexRepository({ repository: repo, env: {} });
    const edges = graph.edges.filter((edge) => edge.kind === 'imports' && edge.source === `file:${c.from}`);
    t.same(Object.fromEntries(edges.map((edge) => [edge.target, edge.specifiers])), c.expect);
    for (const edge of edges)
      t.ok(
        graph.nodes.some((node) => node.id === edge.target),
        `${edge.target} is a node`,
      );
    const unresolved = graph.build.unresolved.filter((entry) => entry.file === c.from);
    t.same(unresolved.map((entry) => entry.specifier).sort(), Object.keys(c.unresolved ?? {}).sort(), 'unresolved references');
    for (const entry of unresolved) t.match(entry.reason, c.unresolved?.[entry.specifier] ?? /^$/, `the reason for ${entry.specifier}`);
  });
}

t.test('package nodes: php: names, built in for PHP itself and its extensions, not shared with other languages', async (t) => {
  const repo = await makeRepo(t, { 'a.php': '<?php\nuse DateTime;\nuse Vendor\\Lib\\X;\n', 'b.rb': "require 'date'\n" });
  const graph = await indexRepository({ repository: repo, env: {} });
  const packages = graph.nodes.filter((node) => node.kind === 'package').sort((a, b) => a.id.localeCompare(b.id));
  t.same(packages, [
    { id: 'pkg:php:ext-date', kind: 'package', name: 'php:ext-date', path: 'php:ext-date', builtin: true },
    { id: 'pkg:php:Vendor', kind: 'package', name: 'php:Vendor', path: 'php:Vendor' },
    { id: 'pkg:ruby:date', kind: 'package', name: 'ruby:date', path: 'ruby:date', builtin: true },
  ]);
  t.same(graph.edges.find((edge) => edge.id === 'imports:file:a.php->pkg:php:Vendor')?.references, ['static']);
});

t.test('includes are require references, computed ones dynamic', async (t) => {
  const repo = await makeRepo(t, { 'a.php': "<?php\nrequire 'b.php';\n", 'b.php': '<?php\ninclude $x;\n' });
  const graph = await indexRepository({ repository: repo, env: {} });
  t.same(graph.edges.find((edge) => edge.id === 'imports:file:a.php->file:b.php')?.references, ['require']);
  t.same(graph.build.unresolved, [{ file: 'b.php', specifier: '$x', reason: 'the path is computed when the code runs ($x)' }]);
});
