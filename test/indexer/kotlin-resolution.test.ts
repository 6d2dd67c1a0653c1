import { indexRepository } from '@strata/host';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

interface KotlinResolutionCase {
  name: string;
  files: FixtureFiles;
  /** The importing file. */
  from: string;
  /** Ids the file's import edges point to, with the specifiers that led there. */
  expect: Record<string, string[]>;
  /** Specifiers left unresolved, with a pattern of the reason. */
  unresolved?: Record<string, RegExp>;
}

/** A multiplatform module (Gradle's source sets): common code's `expect` declarations, the JVM's and JavaScript's `actual` ones. */
const MULTIPLATFORM: FixtureFiles = {
  'okio/src/commonMain/kotlin/okio/ByteString.kt': 'package okio\n\nexpect class ByteString\nexpect fun hello(): Int\n',
  'okio/src/jvmMain/kotlin/okio/ByteString.kt': 'package okio\n\nactual class ByteString\nactual fun hello(): Int = 1\n',
  'okio/src/jvmMain/kotlin/okio/Buffer.kt': 'package okio\n\nclass Buffer\n',
  'okio/src/jsMain/kotlin/okio/ByteString.kt': 'package okio\n\nactual class ByteString\nactual fun hello(): Int = 2\n',
  'okio/src/jvmTest/kotlin/okio/test/JvmUse.kt': 'package okio.test\nimport okio.ByteString\nimport okio.hello\n',
  'okio/src/jvmTest/kotlin/okio/test/JvmStar.kt': 'package okio.test\nimport okio.*\n',
  'okio/src/commonTest/kotlin/okio/test/CommonUse.kt': 'package okio.test\nimport okio.ByteString\nimport okio.hello\nimport okio.*\n',
};

const cases: KotlinResolutionCase[] = [
  {
    name: 'a class import leads to the Kotlin file declaring it in that package, whatever the file and its directory are named',
    files: {
      'src/main/kotlin/shapes/Everything.kt': 'package com.ex.shapes\n\ndata class Circle(val r: Double)\nclass Square\n',
      'src/main/kotlin/decoy/Circle.kt': 'package com.ex.other\n\nclass Circle\n',
      'src/main/kotlin/App.kt': 'package com.ex.app\n\nimport com.ex.shapes.Circle\nimport com.ex.shapes.Square as Box\n\nfun main() {}\n',
    },
    from: 'src/main/kotlin/App.kt',
    expect: { 'file:src/main/kotlin/shapes/Everything.kt': ['com.ex.shapes.Circle', 'com.ex.shapes.Square'] },
  },
  {
    name: 'a top-level function or property imported by name leads to the file declaring it; a member does not count',
    files: {
      'lib/Strings.kt': 'package com.ex.util\n\nfun slugify(s: String): String = s\nprivate fun String.shout() = this\nval VERSION = "1"\n',
      'lib/Other.kt': 'package com.ex.util\n\nobject Other {\n    fun hidden() {}\n}\n',
      'app/Use.kt': 'package com.ex.app\nimport com.ex.util.slugify\nimport com.ex.util.shout\nimport com.ex.util.VERSION\nimport com.ex.util.hidden\n',
    },
    from: 'app/Use.kt',
    expect: { 'file:lib/Strings.kt': ['com.ex.util.slugify', 'com.ex.util.shout', 'com.ex.util.VERSION'] },
    unresolved: { 'com.ex.util.hidden': /^no file declares com\.ex\.util\.hidden: package com\.ex\.util has no hidden$/ },
  },
  {
    name: 'a top-level function overloaded in several files of its package leads to each of them: the compiler imports every overload',
    files: {
      'lib/Sinks.kt': 'package com.ex.internal\n\nfun Sink.commonWrite(byte: Int) {}\n',
      'lib/Sources.kt': 'package com.ex.internal\n\nfun Source.commonWrite(text: String) {}\nval LIMIT = 8\n',
      'lib/Other.kt': 'package com.ex.internal\n\nclass Unrelated\n',
      'app/Use.kt': 'package com.ex.app\nimport com.ex.internal.commonWrite\nimport com.ex.internal.LIMIT\n',
    },
    from: 'app/Use.kt',
    expect: { 'file:lib/Sinks.kt': ['com.ex.internal.commonWrite'], 'file:lib/Sources.kt': ['com.ex.internal.commonWrite', 'com.ex.internal.LIMIT'] },
  },
  {
    name: "multiplatform, from a platform's tests: a class leads to that platform's actual, a function to the expect and that actual, never another platform's",
    files: MULTIPLATFORM,
    from: 'okio/src/jvmTest/kotlin/okio/test/JvmUse.kt',
    expect: {
      'file:okio/src/jvmMain/kotlin/okio/ByteString.kt': ['okio.ByteString', 'okio.hello'],
      'file:okio/src/commonMain/kotlin/okio/ByteString.kt': ['okio.hello'],
    },
  },
  {
    name: "multiplatform, on demand from a platform's tests: the files of the package in common code and that platform's",
    files: MULTIPLATFORM,
    from: 'okio/src/jvmTest/kotlin/okio/test/JvmStar.kt',
    expect: {
      'file:okio/src/commonMain/kotlin/okio/ByteString.kt': ['okio.*'],
      'file:okio/src/jvmMain/kotlin/okio/ByteString.kt': ['okio.*'],
      'file:okio/src/jvmMain/kotlin/okio/Buffer.kt': ['okio.*'],
    },
  },
  {
    name: "multiplatform, from common code: common code's declarations only (the expect), whatever a platform declares",
    files: MULTIPLATFORM,
    from: 'okio/src/commonTest/kotlin/okio/test/CommonUse.kt',
    expect: { 'file:okio/src/commonMain/kotlin/okio/ByteString.kt': ['okio.ByteString', 'okio.hello', 'okio.*'] },
  },
  {
    name: 'an extension on a star-projected type declares the function, not its receiver',
    files: {
      'lib/Names.kt': 'package com.ex.util\n\nimport kotlin.reflect.KClass\n\nfun KClass<*>.title(): String = ""\nval Map<*, *>.size2 get() = size\n',
      'app/Use.kt': 'package com.ex.app\nimport com.ex.util.title\nimport com.ex.util.size2\n',
    },
    from: 'app/Use.kt',
    expect: { 'file:lib/Names.kt': ['com.ex.util.title', 'com.ex.util.size2'] },
  },
  {
    name: 'on-demand import: every Kotlin and Java file of the package, and a nested class leads to its outer class',
    files: {
      'kt/A.kt': 'package com.ex.shapes\nclass A\n',
      'kt/B.kt': 'package com.ex.shapes\nobject B\n',
      'java/com/ex/shapes/C.java': 'package com.ex.shapes;\npublic class C { public static class Inner {} }\n',
      'kt/sub/D.kt': 'package com.ex.shapes.sub\nclass D\n',
      'Draw.kt': 'package com.ex\nimport com.ex.shapes.*\nimport com.ex.shapes.C.Inner\n',
    },
    from: 'Draw.kt',
    expect: {
      'file:kt/A.kt': ['com.ex.shapes.*'],
      'file:kt/B.kt': ['com.ex.shapes.*'],
      'file:java/com/ex/shapes/C.java': ['com.ex.shapes.*', 'com.ex.shapes.C.Inner'],
    },
  },
  {
    name: 'a Kotlin import of a Java class leads to the .java file; of several declaring files, the nearest',
    files: {
      'core/src/main/java/com/ex/Engine.java': 'package com.ex;\npublic class Engine {}\n',
      'web/src/main/java/com/ex/Engine.java': 'package com.ex;\npublic class Engine {}\n',
      'web/src/main/kotlin/com/ex/web/Page.kt': 'package com.ex.web\nimport com.ex.Engine\n',
    },
    from: 'web/src/main/kotlin/com/ex/web/Page.kt',
    expect: { 'file:web/src/main/java/com/ex/Engine.java': ['com.ex.Engine'] },
  },
  {
    name: 'kotlin. and the JVM platform are built in, kotlinx. and libraries are external package nodes; a missing name is unresolved',
    files: {
      'src/Known.kt': 'package com.ex\nclass Known\n',
      'src/Use.kt':
        'package com.ex.app\nimport kotlin.collections.List\nimport java.util.UUID\nimport javax.inject.Inject\nimport kotlinx.coroutines.launch\nimport com.google.gson.Gson\nimport com.ex.Generated\n',
    },
    from: 'src/Use.kt',
    expect: {
      'pkg:kotlin:kotlin.collections': ['kotlin.collections.List'],
      'pkg:java:java.util': ['java.util.UUID'],
      'pkg:java:javax.inject': ['javax.inject.Inject'],
      'pkg:kotlin:kotlinx.coroutines': ['kotlinx.coroutines.launch'],
      'pkg:kotlin:com.google': ['com.google.gson.Gson'],
    },
    unresolved: { 'com.ex.Generated': /^no file declares com\.ex\.Generated: package com\.ex has no Generated$/ },
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

t.test('package nodes: kotlin: and the first two segments, kotlin. built in; the JVM platform shares Java nodes', async (t) => {
  const repo = await makeRepo(t, { 'A.kt': 'import kotlin.math.abs\nimport java.io.File\nimport org.slf4j.Logger\n' });
  const graph = await indexRepository({ repository: repo, env: {} });
  const packages = graph.nodes.filter((node) => node.kind === 'package').sort((a, b) => a.id.localeCompare(b.id));
  t.same(packages, [
    { id: 'pkg:java:java.io', kind: 'package', name: 'java:java.io', path: 'java:java.io', builtin: true },
    { id: 'pkg:kotlin:kotlin.math', kind: 'package', name: 'kotlin:kotlin.math', path: 'kotlin:kotlin.math', builtin: true },
    { id: 'pkg:kotlin:org.slf4j', kind: 'package', name: 'kotlin:org.slf4j', path: 'kotlin:org.slf4j' },
  ]);
});
