"""Python's own answer to "which file of this repository does each import lead to".

Used by test/bench/polyglot.bench.ts as the reference Strata's Python edges are
compared with. Run with python3 (3.11 here); prints one JSON object on stdout:

    {"files": N, "syntaxErrors": N, "edges": [[source, target, specifier], ...],
     "outside": N, "namespace": N, "missing": [[source, specifier], ...]}

The imports are read with `ast` (every `import` and `from ... import` in the
file, in functions too). Each is looked up with `importlib.machinery.PathFinder`
a segment at a time, as the import system does, without running any of the
repository's code: `sys.path` is the importing file's own base (the folder above
its topmost package, which `python path/to/script.py` and pytest put first),
then its project's roots (the nearest of the project folders given on the
command line: its `src/` when it has one, and the folder itself), then the
standard library (installed third-party packages left out). A module under a
project's `src/` is imported by its name from there instead (as an installed
src-layout package is), with no base first. The edge goes to the module named:
`import a.b.c` to `a/b/c.py`; `from a.b import n` to the submodule `a/b/n.py`
when there is one, else to `a/b/__init__.py`.

    python3 python-import-reference.py <repository> [<project folder> ...]

Project folders are repository-relative (the repository itself is always one).
"""
import ast
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import types

repository = os.path.realpath(sys.argv[1])
# Project folders (repository-relative, '' for the repository itself): each file belongs to the nearest one above it.
projects = sorted({p.strip("/") for p in sys.argv[2:]} | {""}, key=len, reverse=True)
stdlib = [p for p in sys.path[1:] if p and "site-packages" not in p and "dist-packages" not in p]


def project_of(file):
    for project in projects:
        if project == "" or file.startswith(project + "/"):
            return project
    return ""


def package_base(directory):
    """The folder above the topmost package holding `directory`, and the package's dotted name."""
    parts = []
    while os.path.isfile(os.path.join(directory, "__init__.py")) and directory != repository:
        parts.insert(0, os.path.basename(directory))
        directory = os.path.dirname(directory)
    return directory, ".".join(parts)


def find(name, search):
    """The spec of module `name` on the path `search`, a segment at a time (None when not found)."""
    parts = name.split(".")
    locations = search
    spec = None
    for i in range(len(parts)):
        if locations is None:
            return None
        try:
            spec = importlib.machinery.PathFinder.find_spec(".".join(parts[: i + 1]), locations)
        except KeyError:
            # A namespace package inside a namespace package: the finder builds its path from the parent's entry in
            # sys.modules, which is not there (nothing is imported). Its portions are the folders of that name.
            folders = [os.path.join(location, parts[i]) for location in locations if os.path.isdir(os.path.join(location, parts[i]))]
            spec = types.SimpleNamespace(origin=None, submodule_search_locations=folders) if folders else None
        if spec is None:
            return None
        locations = None if spec.submodule_search_locations is None else list(spec.submodule_search_locations)
    return spec


def in_repository(spec):
    if spec is None or spec.origin in (None, "namespace"):
        return None
    origin = os.path.realpath(spec.origin)
    if not origin.startswith(repository + os.sep):
        return None
    return os.path.relpath(origin, repository).replace(os.sep, "/")


listing = subprocess.run(["git", "-C", repository, "ls-files", "-z", "--", "*.py"], capture_output=True, check=True)
files = [f for f in listing.stdout.decode("utf-8", "surrogateescape").split("\0") if f]
edges = set()
missing = []
outside = 0
namespace = 0
syntax_errors = 0
for file in files:
    absolute = os.path.join(repository, file)
    try:
        with open(absolute, "rb") as handle:
            tree = ast.parse(handle.read(), filename=file)
    except (SyntaxError, ValueError, OSError):
        syntax_errors += 1
        continue
    project = project_of(file)
    project_dir = os.path.join(repository, project)
    src = os.path.join(project_dir, "src")
    roots = ([src] if os.path.isdir(src) else []) + [project_dir]
    if os.path.isdir(src) and absolute.startswith(src + os.sep):
        # A module of the project's src/ layout: imported by its name from there (folders without __init__.py are
        # namespace packages), with the project's roots on the path.
        current_package = os.path.relpath(os.path.dirname(absolute), src).replace(os.sep, ".").strip(".")
        search = roots + stdlib
    else:
        # Any other file runs as a script or a test would: its base (the folder above its topmost package) first.
        base, current_package = package_base(os.path.dirname(absolute))
        search = [base] + [root for root in roots if root != base] + stdlib
    wanted = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                wanted.append((alias.name, alias.name, None))
        elif isinstance(node, ast.ImportFrom):
            written = "." * node.level + (node.module or "")
            if node.level > 0:
                try:
                    target = importlib.util.resolve_name(written, current_package)
                except (ImportError, ValueError):
                    missing.append([file, written])
                    continue
            else:
                target = node.module or ""
            if target == "__future__":
                continue
            for alias in node.names:
                wanted.append((written, target, None if alias.name == "*" else alias.name))
    for written, target, name in wanted:
        spec = None
        if name is not None:
            spec = find(f"{target}.{name}" if target else name, search)
            if spec is not None and spec.origin in (None, "namespace"):
                spec = None
        if spec is None and target:
            spec = find(target, search)
        path = in_repository(spec)
        if path is None:
            if spec is None:
                missing.append([file, written])
            elif spec.origin in (None, "namespace"):
                namespace += 1
            else:
                outside += 1
            continue
        if path != file:
            edges.add((file, path, written))

print(json.dumps({"files": len(files), "syntaxErrors": syntax_errors, "edges": sorted(edges), "outside": outside, "namespace": namespace, "missing": missing}))
