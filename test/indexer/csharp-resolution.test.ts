import { indexRepository } from '@strata/host';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

interface CSharpResolutionCase {
  name: string;
  files: FixtureFiles;
  from: string;
  expect: Record<string, string[]>;
  unresolved?: Record<string, RegExp>;
}

const cases: CSharpResolutionCase[] = [
  {
    name: 'using A.B leads to every file declaring the namespace, file-scoped or block, wherever the file is',
    files: {
      'src/Core/Engine.cs': 'namespace Acme.Core;\npublic class Engine {}\n',
      'lib/Parts.cs': 'namespace Acme.Core\n{\n    public class Part {}\n}\n',
      'src/Core/Sub/Deep.cs': 'namespace Acme.Core.Sub;\npublic class Deep {}\n',
      'src/App/Program.cs': 'using System;\nusing Acme.Core;\nnamespace Acme.App;\nclass Program {}\n',
    },
    from: 'src/App/Program.cs',
    expect: { 'file:lib/Parts.cs': ['Acme.Core'], 'file:src/Core/Engine.cs': ['Acme.Core'], 'pkg:csharp:System': ['System'] },
  },
  {
    name: 'using static and an alias lead to the file declaring the type; an alias of a namespace to its files',
    files: {
      'Util/Strings.cs': 'namespace Acme.Util;\npublic static class Strings { public static string Slug(string s) => s; }\npublic class Other {}\n',
      'Util/Numbers.cs': 'namespace Acme.Util;\npublic static class Numbers {}\n',
      'App/Use.cs': 'using static Acme.Util.Numbers;\nusing S = Acme.Util.Strings;\nusing U = Acme.Util;\nnamespace Acme.App;\nclass Use {}\n',
    },
    from: 'App/Use.cs',
    expect: {
      'file:Util/Numbers.cs': ['static Acme.Util.Numbers', 'U = Acme.Util'],
      'file:Util/Strings.cs': ['S = Acme.Util.Strings', 'U = Acme.Util'],
    },
  },
  {
    name: 'System is built in, Microsoft and libraries are external; a type missing from a namespace the repository declares is unresolved',
    files: {
      'Known.cs': 'namespace Acme { public class Known {} }\n',
      'Use.cs': 'using System.Collections.Generic;\nusing Microsoft.Extensions.Logging;\nusing Newtonsoft.Json;\nusing static Acme.Generated;\nclass Use {}\n',
    },
    from: 'Use.cs',
    expect: {
      'pkg:csharp:System.Collections': ['System.Collections.Generic'],
      'pkg:csharp:Microsoft.Extensions': ['Microsoft.Extensions.Logging'],
      'pkg:csharp:Newtonsoft.Json': ['Newtonsoft.Json'],
    },
    unresolved: { 'static Acme.Generated': /^no file declares Acme\.Generated: namespace Acme has no Generated$/ },
  },
  {
    name: '.csproj project references: a file sees its own project and those it references, transitively (MSBuild backslash paths); other projects of the solution as if absent',
    files: {
      'src/App/App.csproj':
        '<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n    <ProjectReference Include="..\\Core\\Core.csproj" />\n  </ItemGroup>\n</Project>\n',
      'src/App/Program.cs': 'using Acme.Shared;\nusing Acme.Base;\nusing Acme.Hidden;\nnamespace Acme.App;\nclass Program {}\n',
      'src/App/Local.cs': 'namespace Acme.Shared;\npublic class Local {}\n',
      'src/Core/Core.csproj': '<Project Sdk="Microsoft.NET.Sdk"><ItemGroup><ProjectReference Include="../Base/Base.csproj"/></ItemGroup></Project>\n',
      'src/Core/Shared.cs': 'namespace Acme.Shared;\npublic class Shared {}\n',
      'src/Base/Base.csproj': '<Project Sdk="Microsoft.NET.Sdk" />\n',
      'src/Base/Root.cs': 'namespace Acme.Base;\npublic class Root {}\n',
      'src/Other/Other.csproj': '<Project Sdk="Microsoft.NET.Sdk" />\n',
      'src/Other/Shared.cs': 'namespace Acme.Shared;\npublic class OtherShared {}\n',
      'src/Other/Hidden.cs': 'namespace Acme.Hidden;\npublic class Hidden {}\n',
    },
    from: 'src/App/Program.cs',
    expect: {
      'file:src/App/Local.cs': ['Acme.Shared'],
      'file:src/Core/Shared.cs': ['Acme.Shared'],
      'file:src/Base/Root.cs': ['Acme.Base'],
      'pkg:csharp:Acme.Hidden': ['Acme.Hidden'],
    },
  },
  {
    // What Mono's mcs binds each of these to (checked by hand with test/bench/CSharpUsingReference.cs).
    name: 'a using inside a namespace binds as the compiler does: in the enclosing namespaces first, innermost out, then as written; global:: and aliases too',
    files: {
      'Tests/Fakes/Sword.cs': 'namespace Acme.Tests.Fakes\n{\n    public class Sword { public static void Swing() {} }\n}\n',
      'Other/AcmeFakes.cs': 'namespace Acme.Fakes\n{\n    public class Decoy {}\n}\n',
      'Fakes/Global.cs': 'namespace Fakes\n{\n    public class Global {}\n}\n',
      'Tests/Integration/Use.cs':
        'namespace Acme.Tests.Integration\n{\n    using System;\n    using Fakes;\n    using global::Fakes;\n    using S = Fakes.Sword;\n    using static Fakes.Sword;\n    class Use {}\n}\n',
    },
    from: 'Tests/Integration/Use.cs',
    expect: {
      'file:Tests/Fakes/Sword.cs': ['Fakes', 'S = Fakes.Sword', 'static Fakes.Sword'],
      'file:Fakes/Global.cs': ['Fakes'],
      'pkg:csharp:System': ['System'],
    },
  },
  {
    name: 'the enclosing namespaces of a using: a file-scoped namespace (what follows it); a top-level using as written',
    files: {
      'Tests/Fakes/Sword.cs': 'namespace Acme.Tests.Fakes;\npublic class Sword {}\n',
      'Fakes/Global.cs': 'namespace Fakes;\npublic class Global {}\n',
      'Tests/Integration/FileScoped.cs': 'using Fakes;\nnamespace Acme.Tests.Integration;\nusing Fakes;\nclass FileScoped {}\n',
    },
    from: 'Tests/Integration/FileScoped.cs',
    expect: { 'file:Tests/Fakes/Sword.cs': ['Fakes'], 'file:Fakes/Global.cs': ['Fakes'] },
  },
  {
    name: 'the enclosing namespaces of a using: nested blocks, outermost first',
    files: {
      'Tests/Fakes/Sword.cs': 'namespace Acme.Tests.Fakes;\npublic class Sword {}\n',
      'Fakes/Global.cs': 'namespace Fakes;\npublic class Global {}\n',
      'Tests/Integration/Nested.cs': 'namespace Acme\n{\n    namespace Tests.Integration\n    {\n        using Fakes;\n        class Nested {}\n    }\n}\n',
    },
    from: 'Tests/Integration/Nested.cs',
    expect: { 'file:Tests/Fakes/Sword.cs': ['Fakes'] },
  },
  {
    name: 'a namespace that only deeper ones declare exists for the compiler; one of a project not referenced does not',
    files: {
      'src/App/App.csproj': '<Project Sdk="Microsoft.NET.Sdk" />\n',
      'src/App/Program.cs': 'namespace Acme.App\n{\n    using Deep.Leaf;\n    using Fakes;\n    class Program {}\n}\n',
      'src/App/Leaf.cs': 'namespace Acme.Deep.Leaf;\npublic class Leaf {}\n',
      'src/App/Fakes.cs': 'namespace Acme.Fakes;\npublic class Fake {}\n',
      'src/Other/Other.csproj': '<Project Sdk="Microsoft.NET.Sdk" />\n',
      'src/Other/Hidden.cs': 'namespace Acme.App.Fakes;\npublic class Hidden {}\n',
    },
    from: 'src/App/Program.cs',
    expect: { 'file:src/App/Leaf.cs': ['Deep.Leaf'], 'file:src/App/Fakes.cs': ['Fakes'] },
  },
  {
    name: 'a file outside every project, and a project that does not parse, see every namespace',
    files: {
      'tools/Broken.csproj': '<Project><ItemGroup><ProjectReference Include=',
      'tools/Tool.cs': 'using Acme.Lib;\nclass Tool {}\n',
      'lib/Lib.csproj': '<Project Sdk="Microsoft.NET.Sdk" />\n',
      'lib/Lib.cs': 'namespace Acme.Lib;\npublic class Lib {}\n',
      'Loose.cs': 'using Acme.Lib;\nclass Loose {}\n',
    },
    from: 'tools/Tool.cs',
    expect: { 'file:lib/Lib.cs': ['Acme.Lib'] },
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

t.test('package nodes: csharp: and the first two segments, System built in', async (t) => {
  const repo = await makeRepo(t, { 'A.cs': 'using System.IO;\nusing Microsoft.AspNetCore.Mvc;\nclass A {}\n' });
  const graph = await indexRepository({ repository: repo, env: {} });
  const packages = graph.nodes.filter((node) => node.kind === 'package').sort((a, b) => a.id.localeCompare(b.id));
  t.same(packages, [
    { id: 'pkg:csharp:Microsoft.AspNetCore', kind: 'package', name: 'csharp:Microsoft.AspNetCore', path: 'csharp:Microsoft.AspNetCore' },
    { id: 'pkg:csharp:System.IO', kind: 'package', name: 'csharp:System.IO', path: 'csharp:System.IO', builtin: true },
  ]);
});

t.test('a namespace of up to 200 files leads to each; one of more, to those declaring a type the file names or an extension method it calls', async (t) => {
  const namespaceOf = (name: string, count: number): FixtureFiles =>
    Object.fromEntries(
      Array.from({ length: count }, (_, i) => [`${name}/T${String(i).padStart(3, '0')}.cs`, `namespace ${name};\npublic class ${name}${i} {}\n`]),
    );
  const repo = await makeRepo(t, {
    ...namespaceOf('Whole', 200),
    ...namespaceOf('Big', 201),
    'Big/Extensions.cs': 'namespace Big;\npublic static class Extensions { public static int Twice<T>(this T x) => 2; }\n',
    // Big7 in a comment and Big9 in a string are not used; Big200's Count is, like Big3 in code, and Twice.
    'Use.cs': 'using Whole;\nusing Big;\nclass Use { Big3 a; /* Big7 */ string s = "Big9"; int n = Big200.Count; int m = 1.Twice(); }\n',
    'Unused.cs': 'using Big;\nusing B = Big;\nclass Unused {}\n',
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  const targets = (source: string, prefix: string): string[] =>
    graph.edges
      .filter((edge) => edge.kind === 'imports' && edge.source === source && edge.target.startsWith(prefix))
      .map((edge) => edge.target)
      .sort();
  t.equal(targets('file:Use.cs', 'file:Whole/').length, 200, 'every file of a namespace of 200');
  t.same(
    targets('file:Use.cs', 'file:Big/'),
    ['file:Big/Extensions.cs', 'file:Big/T003.cs', 'file:Big/T200.cs'],
    'of 202, those declaring a type the file names in its code or an extension method it calls',
  );
  t.same(
    targets('file:Unused.cs', ''),
    [],
    'a using of a large namespace whose types the file never names leads nowhere, an alias of it too (and neither is unresolved)',
  );
  t.same(
    graph.build.unresolved.filter((entry) => entry.file === 'Unused.cs'),
    [],
  );
});
