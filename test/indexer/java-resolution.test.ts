import { indexRepository } from '@strata/host';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

interface JavaResolutionCase {
  name: string;
  files: FixtureFiles;
  /** The importing file. */
  from: string;
  /** Ids the file's import edges point to, with the specifiers that led there. */
  expect: Record<string, string[]>;
  /** Specifiers left unresolved, with a pattern of the reason. */
  unresolved?: Record<string, RegExp>;
}

const type = (pkg: string, name: string, body = ''): string => `package ${pkg};\n\npublic class ${name} {${body}}\n`;

const cases: JavaResolutionCase[] = [
  {
    name: 'Maven layout: a single-type import leads to the file declaring the type, across src/main/java and src/test/java',
    files: {
      'pom.xml': '<project/>',
      'src/main/java/com/ex/core/Engine.java': type('com.ex.core', 'Engine'),
      'src/main/java/com/ex/app/App.java': 'package com.ex.app;\n\nimport com.ex.core.Engine;\nimport java.util.List;\n\nclass App {}\n',
      'src/test/java/com/ex/app/AppTest.java':
        'package com.ex.app;\n\nimport com.ex.core.Engine;\nimport org.junit.jupiter.api.Test;\n\nclass AppTest { App app; }\n',
    },
    from: 'src/test/java/com/ex/app/AppTest.java',
    // App is in the same package: no import, no edge.
    expect: { 'file:src/main/java/com/ex/core/Engine.java': ['com.ex.core.Engine'], 'pkg:java:org.junit': ['org.junit.jupiter.api.Test'] },
  },
  {
    name: 'packages as the files declare them, not as their paths suggest (a flat src/, a file outside the usual layout)',
    files: {
      'src/com/ex/Model.java': type('com.ex', 'Model'),
      // A license of over 4 KiB before the package line.
      'generated/ModelView.java': `/*\n${' * Licensed under the terms of a long license.\n'.repeat(150)} */\n${type('com.ex.view', 'ModelView')}`,
      'decoy/com/ex/view/ModelView.java': type('other', 'ModelView'),
      'src/com/ex/Main.java': 'package com.ex;\nimport com.ex.view.ModelView;\nclass Main {}\n',
    },
    from: 'src/com/ex/Main.java',
    expect: { 'file:generated/ModelView.java': ['com.ex.view.ModelView'] },
  },
  {
    name: 'multi-module build: of the modules that declare a package, the nearest one wins',
    files: {
      'core/src/main/java/com/ex/util/Strings.java': type('com.ex.util', 'Strings'),
      'web/src/main/java/com/ex/util/Strings.java': type('com.ex.util', 'Strings'),
      'web/src/main/java/com/ex/web/Page.java': 'package com.ex.web;\nimport com.ex.util.Strings;\nclass Page {}\n',
    },
    from: 'web/src/main/java/com/ex/web/Page.java',
    expect: { 'file:web/src/main/java/com/ex/util/Strings.java': ['com.ex.util.Strings'] },
  },
  {
    name: "on-demand import: every file of the package (not another package's, nor a test source set's from main code)",
    files: {
      'src/main/java/com/ex/shapes/Circle.java': type('com.ex.shapes', 'Circle'),
      'src/main/java/com/ex/shapes/Square.java': type('com.ex.shapes', 'Square'),
      'src/main/java/com/ex/shapes/round/Ball.java': type('com.ex.shapes.round', 'Ball'),
      'src/test/java/com/ex/shapes/CircleTest.java': type('com.ex.shapes', 'CircleTest'),
      'src/main/java/com/ex/Draw.java': 'package com.ex;\nimport com.ex.shapes.*;\nimport java.util.*;\nclass Draw {}\n',
    },
    from: 'src/main/java/com/ex/Draw.java',
    expect: {
      'file:src/main/java/com/ex/shapes/Circle.java': ['com.ex.shapes.*'],
      'file:src/main/java/com/ex/shapes/Square.java': ['com.ex.shapes.*'],
      'pkg:java:java.util': ['java.util.*'],
    },
  },
  {
    name: "static imports and nested types lead to the declaring type's file",
    files: {
      'src/com/ex/Config.java': type('com.ex', 'Config', ' public static final int MAX = 1; public static class Entry {} '),
      'src/com/ex/Log.java': type('com.ex', 'Log', ' public static void info() {} '),
      'src/com/ex/app/Run.java':
        'package com.ex.app;\nimport static com.ex.Config.MAX;\nimport static com.ex.Log.*;\nimport com.ex.Config.Entry;\nimport static java.lang.Math.max;\nclass Run {}\n',
    },
    from: 'src/com/ex/app/Run.java',
    expect: {
      'file:src/com/ex/Config.java': ['static com.ex.Config.MAX', 'com.ex.Config.Entry'],
      'file:src/com/ex/Log.java': ['static com.ex.Log.*'],
      'pkg:java:java.lang': ['static java.lang.Math.max'],
    },
  },
  {
    name: "mixed Java and Kotlin: a Kotlin class, a Kotlin file's facade class (UtilKt) and an on-demand import of a Kotlin package",
    files: {
      'src/main/kotlin/com/ex/model/Order.kt': 'package com.ex.model\n\ndata class Order(val id: Int)\n\nclass Line\n',
      'src/main/kotlin/com/ex/model/Util.kt': 'package com.ex.model\n\nfun total(): Int = 0\n',
      'src/main/kotlin/com/ex/shop/Cart.kt': 'package com.ex.shop\n\nclass Cart\n',
      'src/main/java/com/ex/app/App.java':
        'package com.ex.app;\n\nimport com.ex.model.Line;\nimport static com.ex.model.UtilKt.total;\nimport com.ex.shop.*;\nimport com.ex.model.Missing;\n\nclass App {}\n',
    },
    from: 'src/main/java/com/ex/app/App.java',
    expect: {
      'file:src/main/kotlin/com/ex/model/Order.kt': ['com.ex.model.Line'],
      'file:src/main/kotlin/com/ex/model/Util.kt': ['static com.ex.model.UtilKt.total'],
      'file:src/main/kotlin/com/ex/shop/Cart.kt': ['com.ex.shop.*'],
    },
    unresolved: { 'com.ex.model.Missing': /^no file declares com\.ex\.model\.Missing: package com\.ex\.model has no Missing\.java$/ },
  },
  {
    name: 'a type missing from a package the repository declares is unresolved (a generated class); other packages are nodes',
    files: {
      'src/com/ex/Known.java': type('com.ex', 'Known'),
      'src/com/ex/app/Use.java':
        'package com.ex.app;\nimport com.ex.Generated;\nimport com.ex.proto.Message;\nimport com.google.gson.Gson;\nimport jdk.internal.misc.Unsafe;\nclass Use {}\n',
    },
    from: 'src/com/ex/app/Use.java',
    expect: { 'pkg:java:com.google': ['com.google.gson.Gson'], 'pkg:java:jdk.internal': ['jdk.internal.misc.Unsafe'] },
    unresolved: {
      'com.ex.Generated': /^no file declares com\.ex\.Generated: package com\.ex has no Generated\.java$/,
      'com.ex.proto.Message': /^no file declares com\.ex\.proto\.Message: package com\.ex\.proto does not exist$/,
    },
  },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const repo = await makeRepo(t, c.files);
    const graph = await indexRepository({ repository: repo, env: {} });
    const edges = graph.edges.filter((edge) => edge.kind === 'imports' && edge.source === `file:${c.from}`);
    t.same(
      Object.fromEntries(edges.map((edge) => [edge.target, [...(edge.specifiers ?? [])].sort()])),
      Object.fromEntries(Object.entries(c.expect).map(([k, v]) => [k, [...v].sort()])),
    );
    for (const edge of edges)
      t.ok(
        graph.nodes.some((node) => node.id === edge.target),
        `${edge.target} is a node`,
      );
    const unresolved = graph.build.unresolved.filter((entry) => entry.file === c.from);
    t.same(unresolved.map((entry) => entry.specifier).sort(), Object.keys(c.unresolved ?? {}).sort(), 'unresolved specifiers');
    for (const entry of unresolved) t.match(entry.reason, c.unresolved?.[entry.specifier] ?? /^$/, `the reason for ${entry.specifier}`);
  });
}

t.test('package nodes: java: and the first two segments; java., javax. and jdk. are built in', async (t) => {
  const repo = await makeRepo(t, { 'A.java': 'import java.util.List;\nimport javax.swing.JFrame;\nimport org.slf4j.Logger;\nclass A {}\n' });
  const graph = await indexRepository({ repository: repo, env: {} });
  const packages = graph.nodes.filter((node) => node.kind === 'package').sort((a, b) => a.id.localeCompare(b.id));
  t.same(packages, [
    { id: 'pkg:java:java.util', kind: 'package', name: 'java:java.util', path: 'java:java.util', builtin: true },
    { id: 'pkg:java:javax.swing', kind: 'package', name: 'java:javax.swing', path: 'java:javax.swing', builtin: true },
    { id: 'pkg:java:org.slf4j', kind: 'package', name: 'java:org.slf4j', path: 'java:org.slf4j' },
  ]);
});
