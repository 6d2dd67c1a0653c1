import { type CodeGraph, indexRepository } from '@strata/host';
import t, { type Test } from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';
import { findWithPython } from '../helpers/python-import-system.ts';

interface PythonResolutionCase {
  name: string;
  files: FixtureFiles;
  /** The importing file. */
  from: string;
  /** Ids the file's import edges point to, with the reference kinds that made them. */
  expect: Record<string, string[]>;
  /** Specifiers the file writes that stay unresolved, with a pattern of the reason. */
  unresolved?: Record<string, RegExp>;
  /**
   * The `sys.path` (repository directories, '' for the root) under which
   * Python's own import system must agree with the graph on every specifier
   * of `from`: the source roots the case is about, in order.
   */
  sysPath: string[];
}

const EMPTY = '';

const cases: PythonResolutionCase[] = [
  {
    name: "flat layout: the repository's root is a source root; import a.b.c leads to the module alone, not to its parents' __init__.py",
    files: { 'app.py': 'import pkg\nimport pkg.sub.mod\nimport pkg.sub\n', 'pkg/__init__.py': EMPTY, 'pkg/sub/__init__.py': EMPTY, 'pkg/sub/mod.py': EMPTY },
    from: 'app.py',
    expect: { 'file:pkg/__init__.py': ['static'], 'file:pkg/sub/mod.py': ['static'], 'file:pkg/sub/__init__.py': ['static'] },
    sysPath: [''],
  },
  {
    name: 'src layout: a src/ directory (not a package) beside pyproject.toml is a source root, before the project directory',
    files: {
      'pyproject.toml': '[project]\nname = "demo"\n',
      'src/demo/__init__.py': EMPTY,
      'src/demo/core.py': EMPTY,
      'tests/test_core.py': 'from demo import core\nimport demo\nimport conftest\n',
      'tests/conftest.py': EMPTY,
    },
    from: 'tests/test_core.py',
    expect: { 'file:src/demo/core.py': ['static'], 'file:src/demo/__init__.py': ['static'], 'file:tests/conftest.py': ['static'] },
    // tests/ has no __init__.py: the test's own directory comes first, as pytest (and `python tests/test_core.py`) puts it.
    sysPath: ['tests', 'src', ''],
  },
  {
    name: 'pyproject.toml: setuptools package-dir "" names the source root',
    files: {
      'pyproject.toml': '[tool.setuptools]\npackage-dir = {"" = "lib"}\n',
      'lib/tool/__init__.py': EMPTY,
      'lib/tool/run.py': 'import tool.util\n',
      'lib/tool/util.py': EMPTY,
      'tool/util.py': 'a decoy at the root, which comes later on the path\n',
    },
    from: 'lib/tool/run.py',
    expect: { 'file:lib/tool/util.py': ['static'] },
    sysPath: ['lib', ''],
  },
  {
    name: 'pyproject.toml: setuptools packages.find where',
    files: {
      'pyproject.toml': '[tool.setuptools.packages.find]\nwhere = ["python"]\n',
      'python/engine/__init__.py': 'from engine.parts import gear\n',
      'python/engine/parts/__init__.py': EMPTY,
      'python/engine/parts/gear.py': EMPTY,
    },
    from: 'python/engine/__init__.py',
    expect: { 'file:python/engine/parts/gear.py': ['static'] },
    sysPath: ['python', ''],
  },
  {
    name: "pyproject.toml: hatch's wheel packages and poetry's packages from",
    files: {
      'hatched/pyproject.toml': '[tool.hatch.build.targets.wheel]\npackages = ["code/hatchling_app"]\n',
      'hatched/code/hatchling_app/__init__.py': EMPTY,
      'poetic/pyproject.toml': '[tool.poetry]\nname = "poem"\npackages = [{ include = "poem", from = "source" }]\n',
      'poetic/source/poem/__init__.py': EMPTY,
      'poetic/source/poem/verse.py': 'import hatchling_app\nfrom poem import stanza\n',
      'poetic/source/poem/stanza.py': EMPTY,
    },
    from: 'poetic/source/poem/verse.py',
    expect: { 'file:hatched/code/hatchling_app/__init__.py': ['static'], 'file:poetic/source/poem/stanza.py': ['static'] },
    // Its own project's roots first, then the other projects' (one environment), the repository's root last.
    sysPath: ['poetic/source', 'poetic', 'hatched/code', 'hatched', ''],
  },
  {
    name: "setup.cfg's package_dir and setup.py's package_dir name source roots",
    files: {
      'one/setup.cfg': '[metadata]\nname = one\n\n[options]\npackage_dir =\n    =source\npackages = find:\n',
      'one/source/first/__init__.py': 'import second.mod\n',
      'two/setup.py': "from setuptools import setup\nsetup(name='two', package_dir={'': 'lib'}, packages=['second'])\n",
      'two/lib/second/__init__.py': EMPTY,
      'two/lib/second/mod.py': EMPTY,
    },
    from: 'one/source/first/__init__.py',
    expect: { 'file:two/lib/second/mod.py': ['static'] },
    sysPath: ['one/source', 'one', 'two/lib', 'two', ''],
  },
  {
    name: 'namespace packages (no __init__.py) span every root that has the directory; the namespace package itself has no file and no edge',
    files: {
      'pyproject.toml': '[tool.setuptools.packages.find]\nwhere = ["core", "plugins"]\n',
      'core/acme/base.py': EMPTY,
      'plugins/acme/extra.py': 'import acme.base\nimport acme\nfrom acme import extra, base\n',
    },
    from: 'plugins/acme/extra.py',
    expect: { 'file:core/acme/base.py': ['static'] },
    sysPath: ['core', 'plugins', ''],
  },
  {
    name: 'a package (a/__init__.py) comes before a module of the same name (a.py), and an earlier root before a later one',
    files: {
      'src/both/__init__.py': EMPTY,
      'src/both.py': EMPTY,
      'src/early.py': EMPTY,
      'early.py': EMPTY,
      'src/app/__init__.py': EMPTY,
      'src/app/main.py': 'import both\nimport early\n',
      'pyproject.toml': '[project]\nname = "x"\n',
    },
    from: 'src/app/main.py',
    expect: { 'file:src/both/__init__.py': ['static'], 'file:src/early.py': ['static'] },
    sysPath: ['src', ''],
  },
  {
    name: 'relative imports: a submodule or a name of __init__.py, up a level, and from a module of the parent',
    files: {
      'pkg/__init__.py': 'VERSION = 1\n',
      'pkg/shared.py': 'def helper(): pass\n',
      'pkg/sub/__init__.py': EMPTY,
      'pkg/sub/sibling.py': EMPTY,
      'pkg/sub/deeper/__init__.py': EMPTY,
      'pkg/sub/mod.py': [
        'from . import sibling',
        'from . import nothing_here',
        'from .. import VERSION',
        'from ..shared import helper',
        'from .deeper import *',
        'from .. import shared, VERSION as V',
        '',
      ].join('\n'),
    },
    from: 'pkg/sub/mod.py',
    expect: {
      'file:pkg/sub/sibling.py': ['static'],
      'file:pkg/sub/__init__.py': ['static'],
      'file:pkg/__init__.py': ['static'],
      'file:pkg/shared.py': ['static'],
      'file:pkg/sub/deeper/__init__.py': ['static'],
    },
    sysPath: [''],
  },
  {
    name: 'relative imports past the top-level package, or from a module at the top of its source root, are unresolved with the reason',
    files: {
      'pyproject.toml': '[project]\nname = "x"\n',
      'src/top/__init__.py': EMPTY,
      'src/top/mod.py': 'from ... import beyond\nfrom .. import also_beyond\nfrom . import fine\n',
      'src/top/fine.py': EMPTY,
    },
    from: 'src/top/mod.py',
    expect: { 'file:src/top/fine.py': ['static'] },
    unresolved: {
      '...': /^attempted relative import beyond top-level package src\/top$/,
      '..': /^attempted relative import beyond top-level package src\/top$/,
    },
    sysPath: ['src', ''],
  },
  {
    name: 'a relative import in a module at the top of its source root has no parent package',
    files: { 'pyproject.toml': '[project]\nname = "x"\n', 'src/script.py': 'from . import anything\nfrom .sibling import x\n', 'src/sibling.py': EMPTY },
    from: 'src/script.py',
    expect: {},
    unresolved: {
      '.': /^attempted relative import with no known parent package \(src\/script\.py is at the top of the source root src\)$/,
      '.sibling': /^attempted/,
    },
    sysPath: ['src', ''],
  },
  {
    name: 'from a.b import name: a submodule is the target, else the attribute of the package (its __init__.py) or of the module',
    files: {
      'a/__init__.py': EMPTY,
      'a/b/__init__.py': 'def name_in_init(): pass\n',
      'a/b/sub.py': EMPTY,
      'a/plain.py': 'X = 1\n',
      'user.py': 'from a.b import sub, name_in_init\nfrom a.plain import X\n',
    },
    from: 'user.py',
    expect: { 'file:a/b/sub.py': ['static'], 'file:a/b/__init__.py': ['static'], 'file:a/plain.py': ['static'] },
    sysPath: [''],
  },
  {
    name: 'imports in functions are dynamic, under if TYPE_CHECKING type-only, in try/except ImportError and other conditions static',
    files: {
      'app/__init__.py': EMPTY,
      'app/lazy.py': EMPTY,
      'app/types.py': EMPTY,
      'app/runtime.py': EMPTY,
      'app/fast.py': EMPTY,
      'app/slow.py': EMPTY,
      'app/new.py': EMPTY,
      'app/old.py': EMPTY,
      'app/plugin.py': EMPTY,
      'app/main.py': [
        'import sys',
        'from typing import TYPE_CHECKING',
        'if TYPE_CHECKING:',
        '    from app import types',
        'else:',
        '    from app import runtime',
        'try:',
        '    from app import fast as impl',
        'except ImportError:',
        '    from app import slow as impl',
        'if sys.version_info >= (3, 11):',
        '    import app.new',
        'else:',
        '    import app.old',
        'def later():',
        '    from app import lazy',
        '    import importlib',
        '    return importlib.import_module("app.plugin")',
        '',
      ].join('\n'),
    },
    from: 'app/main.py',
    expect: {
      'pkg:python:sys': ['static'],
      'pkg:python:typing': ['static'],
      'file:app/types.py': ['type-only'],
      'file:app/runtime.py': ['static'],
      'file:app/fast.py': ['static'],
      'file:app/slow.py': ['static'],
      'file:app/new.py': ['static'],
      'file:app/old.py': ['static'],
      'file:app/lazy.py': ['dynamic'],
      'pkg:python:importlib': ['dynamic'],
      'file:app/plugin.py': ['dynamic'],
    },
    sysPath: [''],
  },
  {
    name: "third-party and standard-library modules are package nodes by their top-level name; a namespace directory does not hide the standard library's module",
    files: {
      'json/data.txt': 'a folder of data named like the json module, without __init__.py\n',
      'google/local.py': EMPTY,
      'svc.py': 'import os.path\nimport requests\nfrom collections import abc\nimport numpy as np\nimport json\nimport google.protobuf\nimport google.local\n',
    },
    from: 'svc.py',
    expect: {
      'pkg:python:os': ['static'],
      'pkg:python:requests': ['static'],
      'pkg:python:collections': ['static'],
      'pkg:python:numpy': ['static'],
      'pkg:python:json': ['static'],
      'pkg:python:google': ['static'],
      'file:google/local.py': ['static'],
    },
    sysPath: [''],
  },
  {
    name: 'a .pyi stub beside its .py: Python runs the .py; a stub-only module, a stub and TYPE_CHECKING imports take the stub',
    files: {
      'lib/__init__.py': EMPTY,
      'lib/fast.py': EMPTY,
      'lib/fast.pyi': 'def f() -> int: ...\n',
      'lib/compiled.pyi': 'def g() -> int: ...\n',
      'lib/typed.py': EMPTY,
      'lib/typed.pyi': EMPTY,
      'use.py': 'import lib.fast\nimport lib.compiled\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import lib.typed\n',
    },
    from: 'use.py',
    expect: {
      'file:lib/fast.py': ['static'],
      'file:lib/compiled.pyi': ['static'],
      'pkg:python:typing': ['static'],
      'file:lib/typed.pyi': ['type-only'],
    },
    sysPath: [''],
  },
  {
    name: "a script's own directory (not a package) is first on its path",
    files: { 'scripts/tool.py': 'import helper\nimport pkg\n', 'scripts/helper.py': EMPTY, 'helper.py': EMPTY, 'pkg/__init__.py': EMPTY },
    from: 'scripts/tool.py',
    expect: { 'file:scripts/helper.py': ['static'], 'file:pkg/__init__.py': ['static'] },
    sysPath: ['scripts', ''],
  },
  {
    name: 'a file in a package outside the source roots has the directory above its topmost package first (where it is run from)',
    files: {
      'examples/shop/__init__.py': EMPTY,
      'examples/shop/views/__init__.py': EMPTY,
      'examples/shop/views/cart.py': 'from shop.utils import price\nimport shop\n',
      'examples/shop/utils.py': EMPTY,
      'examples/manage.py': 'from shop import views\n',
    },
    from: 'examples/shop/views/cart.py',
    expect: { 'file:examples/shop/utils.py': ['static'], 'file:examples/shop/__init__.py': ['static'] },
    sysPath: ['examples', ''],
  },
  {
    name: 'below a package root, a directory without __init__.py is a namespace package, not a script folder: its modules do not shadow the top level',
    files: {
      'pyproject.toml': '[project]\nname = "tool"\n',
      'src/tool/tool.py': EMPTY,
      'src/tool/config/__init__.py': EMPTY,
      'src/tool/factory.py': 'import tool.config\nfrom tool.core import base\n',
    },
    from: 'src/tool/factory.py',
    // tool.core is not in the repository: another distribution's part of the namespace package tool.
    expect: { 'file:src/tool/config/__init__.py': ['static'], 'pkg:python:tool': ['static'] },
    sysPath: ['src', ''],
  },
  {
    name: 'projects under tests, fixtures, examples or docs are samples: their roots serve their own files only',
    files: {
      'pyproject.toml': '[project]\nname = "tool"\n',
      'src/tool/__init__.py': 'import build\n',
      'tests/fixtures/project/pyproject.toml': '[project]\nname = "fixture"\n',
      'tests/fixtures/project/build.py': EMPTY,
      'tests/fixtures/project/use.py': 'import build\n',
    },
    from: 'src/tool/__init__.py',
    expect: { 'pkg:python:build': ['static'] },
    sysPath: ['src', ''],
  },
  {
    name: "a sample project's own files see its roots",
    files: {
      'pyproject.toml': '[project]\nname = "tool"\n',
      'tests/fixtures/project/pyproject.toml': '[project]\nname = "fixture"\n',
      'tests/fixtures/project/build.py': EMPTY,
      'tests/fixtures/project/pkg/__init__.py': 'import build\n',
    },
    from: 'tests/fixtures/project/pkg/__init__.py',
    expect: { 'file:tests/fixtures/project/build.py': ['static'] },
    sysPath: ['tests/fixtures/project', ''],
  },
  {
    name: 'a missing submodule of a regular package is unresolved; a file that exists but is not indexed is named',
    files: {
      '.gitignore': '_version.py\n',
      'pkg/__init__.py': 'from ._version import version\nimport pkg.missing\nfrom .gone import x\nimport pkg.mod.deeper\n',
      'pkg/_version.py': 'version = "1.0"\n',
      'pkg/mod.py': EMPTY,
    },
    from: 'pkg/__init__.py',
    expect: {},
    unresolved: {
      '._version': /^pkg\/_version\.py is not indexed \(ignored or skipped\)$/,
      'pkg.missing': /^no module named 'pkg\.missing': no missing\.py, missing\/__init__\.py or missing\/ in pkg$/,
      '.gone': /^no module named '\.gone'/,
      'pkg.mod.deeper': /^no module named 'pkg\.mod\.deeper': pkg\/mod\.py is a module, not a package$/,
    },
    sysPath: [''],
  },
];

/** The module name of a repository file under the deepest entry of `sysPath` that holds it. */
function moduleOf(file: string, sysPath: string[]): { module: string; isPackage: boolean } {
  const root = [...sysPath].sort((a, b) => b.length - a.length).find((entry) => entry === '' || file.startsWith(`${entry}/`)) ?? '';
  const parts = (root === '' ? file : file.slice(root.length + 1)).replace(/\.pyi?$/, '').split('/');
  const isPackage = parts.at(-1) === '__init__';
  if (isPackage) parts.pop();
  return { module: parts.join('.'), isPackage };
}

/** Python's import system, given `sysPath`, agrees with the graph on every specifier that `from` writes. */
function agreesWithPython(t: Test, graph: CodeGraph, repo: string, c: PythonResolutionCase): void {
  const outcome = new Map<string, string>();
  const reasons = new Map<string, string>();
  for (const edge of graph.edges) {
    if (edge.kind !== 'imports' || edge.source !== `file:${c.from}`) continue;
    for (const specifier of edge.specifiers ?? []) outcome.set(specifier, edge.target);
  }
  for (const entry of graph.build.unresolved) {
    if (entry.file !== c.from) continue;
    outcome.set(entry.specifier, 'unresolved');
    reasons.set(entry.specifier, entry.reason);
  }
  const findings = findWithPython(repo, c.sysPath, moduleOf(c.from, c.sysPath), [...outcome.keys()]);
  for (const [specifier, target] of outcome) {
    const finding = findings[specifier]!;
    const top = specifier.split('.')[0];
    // Python's path finder knows no stubs: the graph's stub targets are checked by `expect` alone.
    if (target.endsWith('.pyi')) continue;
    if (finding.kind === 'file' && target === 'unresolved')
      t.match(reasons.get(specifier), /is not indexed/, `${specifier}: Python finds ${finding.path}, not indexed`);
    else if (finding.kind === 'file') t.equal(target, `file:${finding.path}`, `${specifier}: Python finds ${finding.path}`);
    else if (finding.kind === 'stdlib') t.equal(target, `pkg:python:${top}`, `${specifier}: Python finds it in the standard library`);
    else if (finding.kind === 'missing')
      t.ok(target === `pkg:python:${top}` || target === 'unresolved', `${specifier}: Python finds nothing in the repository (${target})`);
    else if (finding.kind === 'error') t.equal(target, 'unresolved', `${specifier}: Python says ${finding.message}`);
    else t.fail(`${specifier}: Python finds a namespace package, which should have no edge (${target})`);
  }
}

for (const c of cases) {
  t.test(c.name, async (t) => {
    const repo = await makeRepo(t, c.files);
    const graph = await indexRepository({ repository: repo, env: {} });
    const edges = graph.edges.filter((edge) => edge.kind === 'imports' && edge.source === `file:${c.from}`);
    t.same(Object.fromEntries(edges.map((edge) => [edge.target, edge.references])), c.expect);
    for (const edge of edges)
      t.ok(
        graph.nodes.some((node) => node.id === edge.target),
        `${edge.target} is a node`,
      );
    const unresolved = graph.build.unresolved.filter((entry) => entry.file === c.from);
    t.same(unresolved.map((entry) => entry.specifier).sort(), Object.keys(c.unresolved ?? {}).sort(), 'unresolved specifiers');
    for (const entry of unresolved) {
      t.match(entry.reason, c.unresolved?.[entry.specifier] ?? /^$/, `the reason for ${entry.specifier}`);
      t.notOk(entry.reason.includes(repo), 'the reason names paths relative to the repository');
    }
    agreesWithPython(t, graph, repo, c);
  });
}

t.test('package nodes: python: names, the standard library built in, not the same nodes as npm packages', async (t) => {
  const repo = await makeRepo(t, {
    'a.py': 'import yaml\nimport os\nimport asyncio.tasks\n',
    'b.py': 'import yaml.loader\n',
    'c.ts': "import 'yaml';\nimport 'os';\n",
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  const packages = graph.nodes.filter((node) => node.kind === 'package').sort((a, b) => a.id.localeCompare(b.id));
  t.same(packages, [
    { id: 'pkg:node:os', kind: 'package', name: 'node:os', path: 'node:os', builtin: true },
    { id: 'pkg:python:asyncio', kind: 'package', name: 'python:asyncio', path: 'python:asyncio', builtin: true },
    { id: 'pkg:python:os', kind: 'package', name: 'python:os', path: 'python:os', builtin: true },
    { id: 'pkg:python:yaml', kind: 'package', name: 'python:yaml', path: 'python:yaml' },
    { id: 'pkg:yaml', kind: 'package', name: 'yaml', path: 'yaml' },
  ]);
  t.same(graph.edges.find((edge) => edge.id === 'imports:file:b.py->pkg:python:yaml')?.specifiers, ['yaml.loader']);
});
