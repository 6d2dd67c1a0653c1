import { spawnSync } from 'node:child_process';

/** Where Python's own import system finds a module: a file (repository-relative), a namespace package, the standard library, nowhere, or an error. */
export type PythonFinding =
  | { kind: 'file'; path: string }
  | { kind: 'namespace' }
  | { kind: 'stdlib' }
  | { kind: 'missing' }
  | { kind: 'error'; message: string };

/**
 * Runs python3's path finder (`importlib.machinery.PathFinder`, what
 * `import` uses for modules on `sys.path`) over a repository, without running
 * any of its code: each name is looked up a segment at a time, the package's
 * `submodule_search_locations` searched for the next, as the import system
 * does. `sysPath`: repository-relative directories ('' for the root), in
 * order, then the standard library's own directories (site-packages left
 * out: what is installed on this machine is not the repository's). A
 * relative name is resolved from `importer` (the importing file's module
 * name, `pkg.mod`, or `pkg` for `pkg/__init__.py`) as `importlib.util.resolve_name` does.
 * Throws, saying so, when python3 cannot be run.
 */
export function findWithPython(
  root: string,
  sysPath: string[],
  importer: { module: string; isPackage: boolean },
  names: string[],
): Record<string, PythonFinding> {
  const script = `
import importlib.machinery, importlib.util, json, os, sys
root, paths, importer, is_package, names = json.loads(sys.argv[1])
std = [p for p in sys.path[1:] if p and 'site-packages' not in p and 'dist-packages' not in p]
search = [os.path.join(root, p) for p in paths] + std
package = importer if is_package else importer.rpartition('.')[0]
out = {}
for written in names:
    try:
        name = importlib.util.resolve_name(written, package) if written.startswith('.') else written
    except (ImportError, ValueError) as error:
        out[written] = {'kind': 'error', 'message': str(error)}
        continue
    if name.split('.')[0] in sys.builtin_module_names:
        out[written] = {'kind': 'stdlib'}
        continue
    parts = name.split('.')
    locations = search
    spec = None
    for i in range(len(parts)):
        spec = importlib.machinery.PathFinder.find_spec('.'.join(parts[:i + 1]), locations) if locations is not None else None
        if spec is None:
            break
        locations = spec.submodule_search_locations
    if spec is None:
        out[written] = {'kind': 'missing'}
    elif spec.origin in (None, 'namespace'):
        out[written] = {'kind': 'namespace'}
    elif os.path.realpath(spec.origin).startswith(os.path.realpath(root) + os.sep):
        out[written] = {'kind': 'file', 'path': os.path.relpath(os.path.realpath(spec.origin), os.path.realpath(root)).replace(os.sep, '/')}
    else:
        out[written] = {'kind': 'stdlib'}
print(json.dumps(out))
`;
  const run = spawnSync('python3', ['-c', script, JSON.stringify([root, sysPath, importer.module, importer.isPackage, names])], { encoding: 'utf8' });
  if (run.error || run.status !== 0) {
    throw new Error(`python3 is needed to check the resolution against Python's own import system: ${run.error?.message ?? run.stderr}`);
  }
  return JSON.parse(run.stdout) as Record<string, PythonFinding>;
}
