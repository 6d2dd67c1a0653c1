import { indexRepository } from '@strata/host';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

interface RubyResolutionCase {
  name: string;
  files: FixtureFiles;
  /** The requiring file. */
  from: string;
  /** Ids the file's import edges point to, with their specifiers. */
  expect: Record<string, string[]>;
  /** Features the file names that stay unresolved, with a pattern of the reason. */
  unresolved?: Record<string, RegExp>;
}

const cases: RubyResolutionCase[] = [
  {
    name: "require_relative counts from the file's directory, .rb added or written",
    files: {
      'app/main.rb': "require_relative 'util'\nrequire_relative '../shared/log.rb'\nrequire_relative 'models/user'\n",
      'app/util.rb': '',
      'app/models/user.rb': '',
      'shared/log.rb': '',
    },
    from: 'app/main.rb',
    expect: { 'file:app/util.rb': ['./util'], 'file:shared/log.rb': ['../shared/log.rb'], 'file:app/models/user.rb': ['./models/user'] },
  },
  {
    name: 'require_relative of a missing file, or above the root, is unresolved',
    files: { 'main.rb': "require_relative 'gone'\nrequire_relative '../../out'\n" },
    from: 'main.rb',
    expect: {},
    unresolved: { './gone': /cannot load such file -- \.\/gone \(no gone\.rb\)/, '../../out': /out of the repository/ },
  },
  {
    name: "require searches the load path: the root's lib/ and each gem's lib/ (a directory with a *.gemspec)",
    files: {
      'lib/shop.rb': "require 'shop/cart'\nrequire 'billing/invoice'\nrequire 'billing'\n",
      'lib/shop/cart.rb': '',
      'gems/billing/billing.gemspec': 'Gem::Specification.new\n',
      'gems/billing/lib/billing.rb': '',
      'gems/billing/lib/billing/invoice.rb': '',
    },
    from: 'lib/shop.rb',
    expect: {
      'file:lib/shop/cart.rb': ['shop/cart'],
      'file:gems/billing/lib/billing/invoice.rb': ['billing/invoice'],
      'file:gems/billing/lib/billing.rb': ['billing'],
    },
  },
  {
    name: 'a lib/ without a gemspec above it is not on the load path: the name is a package',
    files: { 'main.rb': "require 'other'\n", 'vendor/other/lib/other.rb': '' },
    from: 'main.rb',
    expect: { 'pkg:ruby:other': ['other'] },
  },
  {
    name: "a feature not found is a package node of its first segment; Ruby's standard library and default gems are built in",
    files: { 'main.rb': "require 'json'\nrequire 'net/http'\nrequire 'rails/all'\nrequire \"set\"\n" },
    from: 'main.rb',
    expect: { 'pkg:ruby:json': ['json'], 'pkg:ruby:net': ['net/http'], 'pkg:ruby:rails': ['rails/all'], 'pkg:ruby:set': ['set'] },
  },
  {
    name: "the repository's own lib/ shadows a standard library name",
    files: { 'main.rb': "require 'json'\n", 'lib/json.rb': '' },
    from: 'main.rb',
    expect: { 'file:lib/json.rb': ['json'] },
  },
  {
    name: "load: relative, on the load path, else in the file's directory; a missing one is unresolved, not a package",
    files: {
      'tasks/Rakefile': "load './a.rake'\nload 'helper.rb'\nload 'b.rb'\nload 'nowhere.rb'\n",
      'tasks/a.rake': '',
      'tasks/b.rb': '',
      'lib/helper.rb': '',
    },
    from: 'tasks/Rakefile',
    expect: { 'file:tasks/a.rake': ['./a.rake'], 'file:lib/helper.rb': ['helper.rb'], 'file:tasks/b.rb': ['b.rb'] },
    unresolved: { 'nowhere.rb': /cannot load such file -- nowhere\.rb \(no tasks\/nowhere\.rb\)/ },
  },
  {
    name: 'only literal strings are features: interpolation, variables and calls on a receiver are not',
    files: { 'main.rb': "name = 'x'\nrequire name\nrequire \"lib/#{name}\"\nKernel.require 'y'\nrequire('z')\n" },
    from: 'main.rb',
    expect: { 'pkg:ruby:z': ['z'] },
  },
  {
    name: 'autoload :Name, "feature" requires the feature along the load path (Rack\'s way); without a literal path it is nothing',
    files: {
      'lib/rack.rb':
        "module Rack\n  autoload :Builder, 'rack/builder'\n  autoload(:Lint, 'rack/lint')\n  autoload :Gone, 'rack/gone'\n  autoload :Dynamic, path\nend\n",
      'lib/rack/builder.rb': '',
      'lib/rack/lint.rb': '',
    },
    from: 'lib/rack.rb',
    expect: { 'file:lib/rack/builder.rb': ['rack/builder'], 'file:lib/rack/lint.rb': ['rack/lint'], 'pkg:ruby:rack': ['rack/gone'] },
  },
  {
    name: 'requires inside methods, blocks and conditionals count',
    files: {
      'main.rb': "def setup\n  require 'yaml'\nend\n\nif ENV['X']\n  require_relative 'extra'\nend\n\n[1].each { require 'csv' }\n",
      'extra.rb': '',
    },
    from: 'main.rb',
    expect: { 'pkg:ruby:yaml': ['yaml'], 'file:extra.rb': ['./extra'], 'pkg:ruby:csv': ['csv'] },
  },
  {
    name: 'Gemfile, Rakefile, .rake and .gemspec files are Ruby too',
    files: { Gemfile: "require 'json'\n", 'x.gemspec': "require_relative 'lib/x/version'\n", 'lib/x/version.rb': '' },
    from: 'x.gemspec',
    expect: { 'file:lib/x/version.rb': ['./lib/x/version'] },
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
    t.same(unresolved.map((entry) => entry.specifier).sort(), Object.keys(c.unresolved ?? {}).sort(), 'unresolved features');
    for (const entry of unresolved) t.match(entry.reason, c.unresolved?.[entry.specifier] ?? /^$/, `the reason for ${entry.specifier}`);
  });
}

t.test('package nodes: ruby: names, built in when Ruby ships them, not shared with other languages', async (t) => {
  const repo = await makeRepo(t, { 'a.rb': "require 'json'\nrequire 'rack/utils'\n", 'b.py': 'import json\n' });
  const graph = await indexRepository({ repository: repo, env: {} });
  const packages = graph.nodes.filter((node) => node.kind === 'package').sort((a, b) => a.id.localeCompare(b.id));
  t.same(packages, [
    { id: 'pkg:python:json', kind: 'package', name: 'python:json', path: 'python:json', builtin: true },
    { id: 'pkg:ruby:json', kind: 'package', name: 'ruby:json', path: 'ruby:json', builtin: true },
    { id: 'pkg:ruby:rack', kind: 'package', name: 'ruby:rack', path: 'ruby:rack' },
  ]);
  t.same(graph.edges.find((edge) => edge.id === 'imports:file:a.rb->pkg:ruby:rack')?.references, ['require']);
});
