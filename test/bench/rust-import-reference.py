"""rustc's own answer to "which module file does each `mod` and `use` of this repository lead to".

Used by test/bench/polyglot.bench.ts as the reference Strata's Rust edges are
compared with. Prints one JSON object on stdout:

    {"targets": N, "failed": [[target, reason], ...], "edges": [[source, target, kind, specifier], ...],
     "outside": N, "unresolved": N, "crossCrate": N}

The crates and their targets come from `cargo metadata --offline --no-deps`
(every `Cargo.toml` of the repository that cargo reads; each package's lib,
bins, tests, examples, benches and build script). Each target's crate root is
given to rustc alone (`RUSTC_BOOTSTRAP=1 rustc -Z unpretty=hir-tree`, its
edition, `--test` (tests and `#[cfg(test)]` code in) and every feature the package declares turned on, no
`--extern`: nothing can be downloaded here), which loads the module tree,
expands and resolves names as a build does, and prints the crate's HIR with
the resolution of every segment of every `use` path. Unresolved names (other
crates) are errors rustc reports and goes past.

- `mod` edges: each module item whose body is in another file than its
  declaration: the declaring file -> the module's file (`mod a;` -> `a.rs`).
- `extern crate` of another crate of the repository: to its library's root.
- `use` edges: each `use` item written in the source (not expanded from a
  macro), the file holding it -> the file of the module the path names as
  rustc resolved it: the whole path when it is a module (`use crate::a::b;`,
  a glob's module), else the last segment that is a module (the item's
  module for `use crate::a::b::Item`, an enum's module for
  `use crate::a::Enum::Variant`); a re-exported module counts as the module
  rustc reached. A module of another crate of the repository (which rustc
  cannot see here: no `--extern`) is looked up in that crate's own tree, by
  the path's names: the longest prefix that is a module of it.

    python3 rust-import-reference.py <repository>
"""
import json
import os
import re
import subprocess
import sys
import tempfile

repository = os.path.realpath(sys.argv[1])
env = {**os.environ, "RUSTC_BOOTSTRAP": "1", "CARGO_NET_OFFLINE": "true"}

listing = subprocess.run(["git", "-C", repository, "ls-files", "-z", "--", "*Cargo.toml"], capture_output=True, check=True)
manifests = sorted(f for f in listing.stdout.decode().split("\0") if f and os.path.basename(f) == "Cargo.toml")
packages = {}
failed = []
for manifest in manifests:
    absolute = os.path.join(repository, manifest)
    if any(p["manifest_path"] == absolute for p in packages.values()):
        continue
    run = subprocess.run(
        ["cargo", "metadata", "--offline", "--no-deps", "--format-version", "1", "--manifest-path", absolute],
        capture_output=True,
        env=env,
        cwd=repository,
    )
    if run.returncode != 0:
        failed.append([manifest, "cargo metadata: " + run.stderr.decode(errors="replace").strip().splitlines()[-1:][0] if run.stderr.strip() else "cargo metadata failed"])
        continue
    for package in json.loads(run.stdout)["packages"]:
        if os.path.realpath(package["manifest_path"]).startswith(repository + os.sep):
            packages[package["id"]] = package

OWNER = re.compile(r"^DefId\((\d+):(\d+) ~ [^\[]+\[[0-9a-f]+\](.*?)\) => OwnerNodes")
SPAN = re.compile(r"^ {16}span: (.+?):\d+:\d+: \d+:\d+ \(#(\d+)\),$")
INNER = re.compile(r"inner_span: (.+?):\d+:\d+: \d+:\d+ \(#\d+\),")
MOD_RES = re.compile(r"Def\(\s*Mod,\s*DefId\((\d+):(\d+) ~ [^)]*\),?\s*\)")
EXTERN = re.compile(r"kind: ExternCrate\(\s*(?:None|Some\(\s*\"([^\"]+)\",\s*\)),\s*(\w+)#\d+,")
SEGMENT = re.compile(r"PathSegment \{\s*ident: (\S+?)#\d+,\s*hir_id: [^\n]*\n\s*res: (.*?)\n\s*args:", re.S)


def relative(file):
    file = os.path.realpath(file)
    return os.path.relpath(file, repository).replace(os.sep, "/") if file.startswith(repository + os.sep) else None


def parse(hir):
    """Module files by DefId index and by path, the mod edges and the uses of one crate's HIR tree."""
    modules = {}  # DefId index -> file
    paths = {}  # module path ('' the root, 'a::b') -> file
    mods = []
    uses = []  # (file, [(ident, module DefId or None)], whole-path module DefId or None, written)

    def chunk_done(lines):
        if not lines:
            return
        owner = OWNER.match(lines[0])
        if owner is None:
            return
        crate, index, path = owner.group(1), owner.group(2), owner.group(3).lstrip(":")
        head = lines[:12]
        kind = next((line.strip() for line in head if line.startswith("                kind: ") or line.startswith("        node: Crate(")), "")
        if kind.startswith("node: Crate(") or kind == "kind: Mod(":
            text = "\n".join(lines[:12])
            inner = INNER.search(text)
            if inner is None:
                return
            modules[index] = inner.group(1)
            paths[path] = inner.group(1)
            if kind == "kind: Mod(":
                span = next((SPAN.match(line) for line in lines if SPAN.match(line)), None)
                if span is not None and span.group(1) != inner.group(1):
                    mods.append((span.group(1), inner.group(1), path.rsplit("::", 1)[-1]))
        elif kind == "kind: ExternCrate(":
            span = next((SPAN.match(line) for line in lines if SPAN.match(line)), None)
            text = "\n".join(lines)
            named = EXTERN.search(text)
            if span is not None and span.group(2) == "0" and named is not None:
                uses.append((span.group(1), [(named.group(1) or named.group(2), None)], None))
        elif kind == "kind: Use(":
            span = next((SPAN.match(line) for line in reversed(lines) if SPAN.match(line)), None)
            if span is None or span.group(2) != "0":
                return
            text = "\n".join(lines)
            start = text.index("kind: Use(")
            segments_at = text.find("segments: [", start)
            res_text = text[text.find("res: PerNS {", start) : segments_at]
            whole = MOD_RES.search(res_text)
            segments = []
            for match in SEGMENT.finditer(text, segments_at):
                res = MOD_RES.match(match.group(2).strip())
                segments.append((match.group(1), (res.group(1), res.group(2)) if res else None))
            if not segments:
                return
            uses.append((span.group(1), segments, (whole.group(1), whole.group(2)) if whole else None))

    with open(hir, encoding="utf-8", errors="replace") as handle:
        lines = []
        for line in handle:
            if line.startswith("DefId("):
                chunk_done(lines)
                lines = []
            if lines or line.startswith("DefId("):
                # Function bodies are most of the text: only the item's own head, its use path and its span are kept.
                lines.append(line.rstrip("\n"))
        chunk_done(lines)
    return modules, paths, mods, uses


crates = {}  # crate name -> module paths -> file, for the lookups across crates
results = []
targets = 0
with tempfile.TemporaryDirectory(prefix="strata-rust-reference-") as scratch:
    for package in packages.values():
        features = [f'feature="{name}"' for name in package.get("features", {})]
        dependencies = {(d.get("rename") or d["name"]).replace("-", "_") for d in package["dependencies"] if d.get("path")}
        lib = next((t for t in package["targets"] if set(t["kind"]) & {"lib", "rlib", "proc-macro", "dylib", "cdylib", "staticlib"}), None)
        for target in package["targets"]:
            targets += 1
            name = target["name"].replace("-", "_")
            is_lib = target is lib
            crate_type = "proc-macro" if "proc-macro" in target["kind"] else "lib" if is_lib else "bin"
            out = os.path.join(scratch, f"{targets}.hir")
            command = ["rustc", "--edition", target.get("edition", "2015"), "--crate-type", crate_type, "--crate-name", name]
            command += ["-Z", "unpretty=hir-tree", "--test", "--cap-lints", "allow", "-o", out]
            for feature in features:
                command += ["--cfg", feature]
            if crate_type == "proc-macro":
                command += ["--extern", "proc_macro"]
            command.append(target["src_path"])
            run = subprocess.run(command, capture_output=True, env=env, cwd=os.path.dirname(package["manifest_path"]))
            if not os.path.exists(out) or os.path.getsize(out) == 0:
                failed.append([relative(target["src_path"]), run.stderr.decode(errors="replace").strip().splitlines()[:1]])
                continue
            modules, paths, mods, uses = parse(out)
            os.remove(out)
            externs = dependencies | ({lib["name"].replace("-", "_")} if lib and not is_lib else set())
            if is_lib:
                crates[name] = paths
            results.append((modules, mods, uses, externs))

edges = set()
outside = 0
unresolved = 0
cross_crate = 0
for modules, mods, uses, externs in results:
    for source, target, name in mods:
        source, target = relative(source), relative(target)
        if source and target:
            edges.add((source, target, "mod", name))
    for file, segments, whole in uses:
        source = relative(file)
        written = "::".join(ident for ident, _ in segments)
        module = whole or next((res for _, res in reversed(segments) if res is not None), None)
        target = None
        if module is not None:
            if module[0] != "0":
                outside += 1  # std, core, alloc, proc_macro
                continue
            target = modules.get(module[1])
        elif segments[0][0] in externs and segments[0][0] in crates:
            # Another crate of the repository: its module tree, by the names of the path.
            tree = crates[segments[0][0]]
            names = [ident for ident, _ in segments[1:]]
            for count in range(len(names), -1, -1):
                if "::".join(names[:count]) in tree:
                    target = tree["::".join(names[:count])]
                    cross_crate += 1
                    break
        if target is None:
            unresolved += 1
            continue
        target = relative(target)
        if source and target and source != target:
            edges.add((source, target, "use", written))

print(json.dumps({"targets": targets, "failed": failed, "edges": sorted(edges), "outside": outside, "unresolved": unresolved, "crossCrate": cross_crate}))
