import { indexRepository } from '@strata/host';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

interface RustResolutionCase {
  name: string;
  files: FixtureFiles;
  /** The referring file. */
  from: string;
  /** Ids the file's import edges point to, with their specifiers. */
  expect: Record<string, string[]>;
  /** Specifiers that stay unresolved, with a pattern of the reason. */
  unresolved?: Record<string, RegExp>;
  /** Reference kinds of an edge, where the case is about them. */
  kinds?: Record<string, string[]>;
}

const CARGO = '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n';

// The module files follow rustc's rules (the Reference's "Module source filenames" and "The path attribute"):
// `cargo check` of each fixture, with the items the uses name, compiles (checked by hand with rustc 1.95).
const cases: RustResolutionCase[] = [
  {
    name: 'mod declarations: name.rs or name/mod.rs beside a crate root; a missing module file is unresolved',
    files: { 'Cargo.toml': CARGO, 'src/lib.rs': 'mod a;\npub mod b;\nmod gone;\n', 'src/a.rs': '', 'src/b/mod.rs': '' },
    from: 'src/lib.rs',
    expect: { 'file:src/a.rs': ['mod a'], 'file:src/b/mod.rs': ['mod b'] },
    unresolved: { 'mod gone': /^file not found for module gone: no src\/gone\.rs or src\/gone\/mod\.rs$/ },
  },
  {
    name: 'the 2018 rule: a.rs declaring mod c finds a/c.rs; a mod.rs finds its children beside it',
    files: {
      'Cargo.toml': CARGO,
      'src/lib.rs': 'mod a;\nmod b;\n',
      'src/a.rs': 'mod c;\n',
      'src/a/c.rs': '',
      'src/c.rs': 'a decoy',
      'src/b/mod.rs': 'mod d;\n',
      'src/b/d.rs': '',
    },
    from: 'src/a.rs',
    expect: { 'file:src/a/c.rs': ['mod c'] },
  },
  {
    name: "#[path]: relative to the file's directory, and inside an inline module to that module's directory",
    files: {
      'Cargo.toml': CARGO,
      'src/lib.rs': 'mod a;\n',
      'src/a.rs': '#[path = "gen/out.rs"]\nmod generated;\n\nmod inline {\n    #[path = "deep.rs"]\n    mod deep;\n    mod plain;\n}\n',
      'src/gen/out.rs': '',
      'src/a/inline/deep.rs': '',
      'src/a/inline/plain.rs': '',
    },
    from: 'src/a.rs',
    expect: {
      'file:src/gen/out.rs': ['#[path = "gen/out.rs"] mod generated'],
      'file:src/a/inline/deep.rs': ['#[path = "deep.rs"] mod deep'],
      'file:src/a/inline/plain.rs': ['mod plain'],
    },
  },
  {
    name: 'use crate:: leads to the file of the module the path names, or of the module whose item it is',
    files: {
      'Cargo.toml': CARGO,
      'src/lib.rs': 'mod a;\nmod b;\npub fn top() {}\n',
      'src/a.rs': 'pub mod c;\npub mod inline { pub mod leaf; }\npub struct Item;\n',
      'src/a/c.rs': 'pub struct Thing;\npub struct Other;\npub struct Third;\n',
      'src/a/inline/leaf.rs': 'pub fn f() {}\n',
      'src/b/mod.rs': 'pub mod d;\n',
      'src/b/d.rs': '',
      'src/user.rs':
        'use crate::a::c::{Thing, Other, Third};\nuse crate::a::Item;\nuse crate::top;\nuse crate::{a::inline::leaf::f, b::{self, d}};\npub use crate::a::c as reexported;\n',
    },
    from: 'src/user.rs',
    expect: {
      'file:src/a/c.rs': ['crate::a::c::Thing', 'crate::a::c::Other', 'crate::a::c::Third', 'crate::a::c'],
      'file:src/a.rs': ['crate::a::Item'],
      'file:src/lib.rs': ['crate::top'],
      'file:src/a/inline/leaf.rs': ['crate::a::inline::leaf::f'],
      'file:src/b/mod.rs': ['crate::b'],
      'file:src/b/d.rs': ['crate::b::d'],
    },
    kinds: { 'file:src/a/c.rs': ['re-export', 'static'] },
  },
  {
    name: "self:: and super:: count from the file's module (and the inline modules around the use); too many supers are unresolved",
    files: {
      'Cargo.toml': CARGO,
      'src/lib.rs': 'mod a;\npub fn top() {}\n',
      'src/a.rs': 'mod c;\npub fn item() {}\n',
      'src/a/c.rs':
        'mod e;\nuse super::item;\nuse super::super::top;\nuse self::e::Deep;\nmod inner {\n    use super::sibling;\n}\nfn sibling() {}\nuse super::super::super::nothing;\n',
      'src/a/c/e.rs': 'pub struct Deep;\n',
    },
    from: 'src/a/c.rs',
    expect: { 'file:src/a.rs': ['super::item'], 'file:src/lib.rs': ['super::super::top'], 'file:src/a/c/e.rs': ['mod e', 'self::e::Deep'] },
    unresolved: { 'super::super::super::nothing': /too many leading super keywords/ },
  },
  {
    name: "2018's uniform paths: a first name that is a child module of the file's module, or a type or inline module of it (the file itself: no edge); else a crate",
    files: {
      'Cargo.toml': CARGO,
      'src/main.rs':
        'mod config;\nuse config::Settings;\nenum Kind { A }\nfn f() {\n    use Kind::*;\n}\nmod imp {\n    pub fn x() {}\n    mod deeper {}\n    use deeper::Y;\n}\npub use imp::x;\nuse app::core::Engine;\nuse serde::Deserialize;\nuse std::collections::HashMap;\nuse ::core::fmt;\nextern crate alloc;\nextern crate rand as random;\n',
      'src/config.rs': 'pub struct Settings;\n',
      'src/lib.rs': 'pub mod core;\n',
      'src/core.rs': 'pub struct Engine;\n',
    },
    from: 'src/main.rs',
    expect: {
      'file:src/config.rs': ['mod config', 'config::Settings'],
      'file:src/core.rs': ['app::core::Engine'],
      'pkg:rust:serde': ['serde::Deserialize'],
      'pkg:rust:std': ['std::collections::HashMap'],
      'pkg:rust:core': ['::core::fmt'],
      'pkg:rust:alloc': ['extern crate alloc'],
      'pkg:rust:rand': ['extern crate rand'],
    },
  },
  {
    name: 'workspace crates: members by crate name (- as _), [lib] path; binaries in src/bin are crate roots of their own',
    files: {
      'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\n',
      'crates/my-util/Cargo.toml': '[package]\nname = "my-util"\nversion = "0.1.0"\n',
      'crates/my-util/src/lib.rs': 'pub mod text;\n',
      'crates/my-util/src/text.rs': 'pub fn wrap() {}\n',
      'crates/odd/Cargo.toml': '[package]\nname = "odd-name"\nversion = "0.1.0"\n\n[lib]\nname = "oddity"\npath = "root/entry.rs"\n',
      'crates/odd/root/entry.rs': '',
      'crates/tool/Cargo.toml': '[package]\nname = "tool"\nversion = "0.1.0"\n',
      'crates/tool/src/bin/run.rs': 'mod helper;\nuse my_util::text::wrap;\nuse oddity::Thing;\nuse odd_name::Nope;\nuse crate::helper::go;\n',
      'crates/tool/src/bin/helper.rs': 'pub fn go() {}\n',
    },
    from: 'crates/tool/src/bin/run.rs',
    expect: {
      'file:crates/tool/src/bin/helper.rs': ['mod helper', 'crate::helper::go'],
      'file:crates/my-util/src/text.rs': ['my_util::text::wrap'],
      'file:crates/odd/root/entry.rs': ['oddity::Thing'],
      'pkg:rust:odd_name': ['odd_name::Nope'],
    },
  },
  {
    name: 'a module file of a library uses crate:: from the library root, not a binary beside it',
    files: {
      'Cargo.toml': CARGO,
      'src/lib.rs': 'pub mod net;\npub struct Root;\n',
      'src/main.rs': 'fn main() {}\n',
      'src/net/mod.rs': 'pub mod tcp;\n',
      'src/net/tcp.rs': 'use crate::Root;\nuse super::Socket;\n',
    },
    from: 'src/net/tcp.rs',
    expect: { 'file:src/lib.rs': ['crate::Root'], 'file:src/net/mod.rs': ['super::Socket'] },
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
    for (const [target, kinds] of Object.entries(c.kinds ?? {}))
      t.same(edges.find((edge) => edge.target === target)?.references, kinds, `the kinds to ${target}`);
    const unresolved = graph.build.unresolved.filter((entry) => entry.file === c.from);
    t.same(unresolved.map((entry) => entry.specifier).sort(), Object.keys(c.unresolved ?? {}).sort(), 'unresolved references');
    for (const entry of unresolved) t.match(entry.reason, c.unresolved?.[entry.specifier] ?? /^$/, `the reason for ${entry.specifier}`);
  });
}

t.test('package nodes: rust: names, the crates that come with the compiler built in', async (t) => {
  const repo = await makeRepo(t, { 'Cargo.toml': CARGO, 'src/lib.rs': 'use std::fmt;\nuse proc_macro::TokenStream;\nuse regex::Regex;\n' });
  const graph = await indexRepository({ repository: repo, env: {} });
  const packages = graph.nodes.filter((node) => node.kind === 'package').sort((a, b) => a.id.localeCompare(b.id));
  t.same(packages, [
    { id: 'pkg:rust:proc_macro', kind: 'package', name: 'rust:proc_macro', path: 'rust:proc_macro', builtin: true },
    { id: 'pkg:rust:regex', kind: 'package', name: 'rust:regex', path: 'rust:regex' },
    { id: 'pkg:rust:std', kind: 'package', name: 'rust:std', path: 'rust:std', builtin: true },
  ]);
});
