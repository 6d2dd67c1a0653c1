import { indexRepository } from '@strata/host';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

interface GoResolutionCase {
  name: string;
  files: FixtureFiles;
  /** The importing file. */
  from: string;
  /** Ids the file's import edges point to, with their specifiers. */
  expect: Record<string, string[]>;
  /** Import paths the file writes that stay unresolved, with a pattern of the reason. */
  unresolved?: Record<string, RegExp>;
}

/** A Go file of package `name` importing `paths`. */
const goFile = (name: string, ...paths: string[]): string => `package ${name}\n\nimport (\n${paths.map((p) => `\t"${p}"\n`).join('')})\n`;

// The expectations follow the go command (module mode): `go list -deps` of each fixture, with `go.work` and
// `replace` as written, gives the same packages and directories (checked by hand with go 1.22).
const cases: GoResolutionCase[] = [
  {
    name: "go.mod's module path: an import of one of its packages leads to the package's directory; the module path alone to its root",
    files: {
      'go.mod': 'module example.com/app\n\ngo 1.22\n',
      'main.go': goFile('main', 'example.com/app/internal/store', 'example.com/app/cmd/tool', 'example.com/app'),
      'root.go': 'package app\n',
      'internal/store/store.go': 'package store\n',
      'internal/store/cache.go': 'package store\n',
      'cmd/tool/main.go': 'package main\n',
    },
    from: 'main.go',
    expect: {
      'dir:internal/store': ['example.com/app/internal/store'],
      'dir:cmd/tool': ['example.com/app/cmd/tool'],
      'dir:.': ['example.com/app'],
    },
  },
  {
    name: 'the standard library: a first element without a dot is built in, one package node per import path',
    files: { 'go.mod': 'module app\n', 'main.go': goFile('main', 'fmt', 'net/http', 'C') },
    from: 'main.go',
    expect: { 'pkg:go:fmt': ['fmt'], 'pkg:go:net/http': ['net/http'], 'pkg:go:C': ['C'] },
  },
  {
    name: 'a module path without a dot (module app) is still the main module: app/util is its package, not the standard library',
    files: { 'go.mod': 'module app\n', 'main.go': goFile('main', 'app/util'), 'util/util.go': 'package util\n' },
    from: 'main.go',
    expect: { 'dir:util': ['app/util'] },
  },
  {
    name: "external modules: the longest required module path that prefixes the import, else the host's form",
    files: {
      'go.mod': [
        'module example.com/app',
        '',
        'require (',
        '\tgithub.com/spf13/cobra v1.8.0 // indirect',
        '\tgolang.org/x/tools v0.20.0',
        '\tgolang.org/x/tools/gopls v0.15.0',
        ')',
        'require example.com/lib v1.0.0',
        '',
      ].join('\n'),
      'main.go': goFile(
        'main',
        'github.com/spf13/cobra/doc',
        'golang.org/x/tools/gopls/internal/lsp',
        'golang.org/x/tools/go/packages',
        'example.com/lib/sub',
        'github.com/owner/repo/v2/pkg',
        'gopkg.in/yaml.v3',
        'example.org/unlisted/deep',
      ),
    },
    from: 'main.go',
    expect: {
      'pkg:go:github.com/spf13/cobra': ['github.com/spf13/cobra/doc'],
      'pkg:go:golang.org/x/tools/gopls': ['golang.org/x/tools/gopls/internal/lsp'],
      'pkg:go:golang.org/x/tools': ['golang.org/x/tools/go/packages'],
      'pkg:go:example.com/lib': ['example.com/lib/sub'],
      'pkg:go:github.com/owner/repo/v2': ['github.com/owner/repo/v2/pkg'],
      'pkg:go:gopkg.in/yaml.v3': ['gopkg.in/yaml.v3'],
      'pkg:go:example.org/unlisted/deep': ['example.org/unlisted/deep'],
    },
  },
  {
    name: 'a package that is not there: a missing directory, one with tests alone, one with ignored files alone; relative paths',
    files: {
      'go.mod': 'module example.com/app\n',
      'main.go': goFile('main', 'example.com/app/missing', 'example.com/app/onlytests', 'example.com/app/ignored', './local'),
      'onlytests/x_test.go': 'package onlytests\n',
      'ignored/_draft.go': 'package ignored\n',
      'ignored/.hidden.go': 'package ignored\n',
    },
    from: 'main.go',
    expect: {},
    unresolved: {
      'example.com/app/missing': /^no directory missing for package example\.com\/app\/missing of module example\.com\/app$/,
      'example.com/app/onlytests': /^onlytests has no Go files but tests/,
      'example.com/app/ignored': /^ignored has no Go files but tests/,
      './local': /relative import paths are not supported/,
    },
  },
  {
    name: 'a nested module (a go.mod of its own) is not a package of the module above it: without a replace it is external',
    files: {
      'go.mod': 'module example.com/app\n\nrequire example.com/app/tools v0.1.0\n',
      'main.go': goFile('main', 'example.com/app/tools/gen'),
      'tools/go.mod': 'module example.com/app/tools\n',
      'tools/gen/gen.go': 'package gen\n',
    },
    from: 'main.go',
    expect: { 'pkg:go:example.com/app/tools': ['example.com/app/tools/gen'] },
  },
  {
    name: 'replace directives with a local directory lead into the repository (block and single forms; a version replace does not)',
    files: {
      'app/go.mod': [
        'module example.com/app',
        '',
        'require (',
        '\texample.com/lib v1.0.0',
        '\texample.com/other v1.0.0',
        '\texample.com/pinned v1.0.0',
        ')',
        '',
        'replace (',
        '\texample.com/lib => ../lib',
        ')',
        'replace example.com/other v1.0.0 => "../third_party/other" // vendored by hand',
        'replace example.com/pinned => example.com/pinned v1.2.0',
        '',
      ].join('\n'),
      'app/main.go': goFile('main', 'example.com/lib/parse', 'example.com/other', 'example.com/pinned/x'),
      'lib/go.mod': 'module example.com/lib\n',
      'lib/parse/parse.go': 'package parse\n',
      'third_party/other/go.mod': 'module example.com/other\n',
      'third_party/other/other.go': 'package other\n',
    },
    from: 'app/main.go',
    expect: {
      'dir:lib/parse': ['example.com/lib/parse'],
      'dir:third_party/other': ['example.com/other'],
      'pkg:go:example.com/pinned': ['example.com/pinned/x'],
    },
  },
  {
    name: 'go.work: the modules it uses are main modules to each other; a module it does not use is built alone',
    files: {
      'go.work': 'go 1.22\n\nuse (\n\t./api\n\t./server // the service\n)\n',
      'api/go.mod': 'module example.com/api\n',
      'api/types/types.go': 'package types\n',
      'server/go.mod': 'module example.com/server\n\nrequire example.com/api v0.0.0\n',
      'server/main.go': goFile('main', 'example.com/api/types', 'example.com/server/handlers', 'example.com/tools/lint'),
      'server/handlers/h.go': 'package handlers\n',
      'tools/go.mod': 'module example.com/tools\n',
      'tools/lint/lint.go': goFile('lint', 'example.com/api/types'),
    },
    from: 'server/main.go',
    expect: {
      'dir:api/types': ['example.com/api/types'],
      'dir:server/handlers': ['example.com/server/handlers'],
      'pkg:go:example.com/tools/lint': ['example.com/tools/lint'],
    },
  },
  {
    name: 'go.work does not reach a module it does not use: its imports of the workspace are external',
    files: {
      'go.work': 'use ./api\n',
      'api/go.mod': 'module example.com/api\n',
      'api/types/types.go': 'package types\n',
      'tools/go.mod': 'module example.com/tools\n',
      'tools/lint/lint.go': goFile('lint', 'example.com/api/types', 'example.com/tools/lint/rules'),
      'tools/lint/rules/rules.go': 'package rules\n',
    },
    from: 'tools/lint/lint.go',
    expect: { 'pkg:go:example.com/api/types': ['example.com/api/types'], 'dir:tools/lint/rules': ['example.com/tools/lint/rules'] },
  },
  {
    name: "tests: an external test package (package x_test) imports its own directory's package; build tags do not hide files",
    files: {
      'go.mod': 'module example.com/app\n',
      'shape/shape.go': 'package shape\n',
      'shape/shape_test.go': goFile('shape_test', 'example.com/app/shape', 'testing'),
      'platform/only_linux.go': '//go:build linux\n\npackage platform\n',
      'main.go': goFile('main', 'example.com/app/platform'),
    },
    from: 'shape/shape_test.go',
    expect: { 'dir:shape': ['example.com/app/shape'], 'pkg:go:testing': ['testing'] },
  },
  {
    name: 'vendoring: with vendor/modules.txt, a package the vendor directory holds is its directory there; without it, a package node',
    files: {
      'go.mod': 'module example.com/app\n\ngo 1.22\n\nrequire (\n\tgithub.com/pkg/errors v0.9.1\n\tgithub.com/x/absent v1.0.0\n)\n',
      'main.go': goFile('main', 'github.com/pkg/errors', 'github.com/x/absent/sub', 'fmt'),
      'vendor/modules.txt': '# github.com/pkg/errors v0.9.1\n## explicit\ngithub.com/pkg/errors\n',
      'vendor/github.com/pkg/errors/errors.go': 'package errors\n',
      'tools/go.mod': 'module example.com/tools\n\nrequire github.com/pkg/errors v0.9.1\n',
      'tools/t.go': goFile('tools', 'github.com/pkg/errors'),
    },
    from: 'main.go',
    expect: {
      'dir:vendor/github.com/pkg/errors': ['github.com/pkg/errors'],
      'pkg:go:github.com/x/absent': ['github.com/x/absent/sub'],
      'pkg:go:fmt': ['fmt'],
    },
  },
  {
    name: "vendoring is the main module's: a module without vendor/modules.txt of its own does not use another's",
    files: {
      'go.mod': 'module example.com/app\n',
      'vendor/modules.txt': '# github.com/pkg/errors v0.9.1\n',
      'vendor/github.com/pkg/errors/errors.go': 'package errors\n',
      'tools/go.mod': 'module example.com/tools\n\nrequire github.com/pkg/errors v0.9.1\n',
      'tools/t.go': goFile('tools', 'github.com/pkg/errors'),
    },
    from: 'tools/t.go',
    expect: { 'pkg:go:github.com/pkg/errors': ['github.com/pkg/errors'] },
  },
  {
    name: 'a file outside any module: the standard library and external packages, nothing in the repository',
    files: { 'script.go': goFile('main', 'os', 'github.com/a/b/c', 'mylib/x'), 'mylib/x/x.go': 'package x\n' },
    from: 'script.go',
    expect: { 'pkg:go:os': ['os'], 'pkg:go:github.com/a/b': ['github.com/a/b/c'], 'pkg:go:mylib/x': ['mylib/x'] },
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
    t.same(unresolved.map((entry) => entry.specifier).sort(), Object.keys(c.unresolved ?? {}).sort(), 'unresolved import paths');
    for (const entry of unresolved) t.match(entry.reason, c.unresolved?.[entry.specifier] ?? /^$/, `the reason for ${entry.specifier}`);
  });
}

t.test('package nodes: go: names, the standard library built in, not shared with npm or Python packages', async (t) => {
  const repo = await makeRepo(t, {
    'go.mod': 'module example.com/app\n',
    'a.go': goFile('app', 'os', 'github.com/x/y/z'),
    'b.go': goFile('app', 'os'),
    'c.py': 'import os\n',
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  const packages = graph.nodes.filter((node) => node.kind === 'package').sort((a, b) => a.id.localeCompare(b.id));
  t.same(packages, [
    { id: 'pkg:go:github.com/x/y', kind: 'package', name: 'go:github.com/x/y', path: 'go:github.com/x/y' },
    { id: 'pkg:go:os', kind: 'package', name: 'go:os', path: 'go:os', builtin: true },
    { id: 'pkg:python:os', kind: 'package', name: 'python:os', path: 'python:os', builtin: true },
  ]);
  t.same(graph.edges.find((edge) => edge.id === 'imports:file:a.go->pkg:go:github.com/x/y')?.references, ['static']);
});
