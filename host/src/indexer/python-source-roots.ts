import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { RepositoryFiles } from './language-import-resolver.js';
import { readOptional } from './read-optional.js';
import { contains, joinPath, parentOf } from './repository-paths.js';

/** Files that make a directory a Python project and may say where its code is. */
export const PYTHON_PROJECT_FILE = /(?:^|\/)(pyproject\.toml|setup\.cfg|setup\.py)$/;

/** A Python project of the repository: its directory, and its source roots (directories on `sys.path`) in order. */
interface PythonProject {
  directory: string;
  /** Package roots (configured, or src/) first, then the project's directory. */
  roots: string[];
  /** The package roots among `roots`: directories below them without `__init__.py` are namespace packages. */
  packageRoots: string[];
  /** A project among tests, fixtures, examples or docs: a test's input or a sample, not installed beside the others. */
  sample: boolean;
}

/** Directories whose projects are samples: test fixtures, examples, documentation. */
const SAMPLE_DIRECTORY = /(?:^|\/)(?:tests?|testing|fixtures|testdata|test_data|examples?|samples?|docs?)(?:\/|$)/;

/** `package_dir={'': 'src'}` in a setup.py; the directory is group 3. */
const SETUP_PY_PACKAGE_DIR = /package_dir\s*=\s*\{\s*(['"])\1\s*:\s*(['"])([^'"]+)\2/g;
/** `find_packages('src')`, `find_namespace_packages(where="src")` in a setup.py; the directory is group 2. */
const SETUP_PY_FIND_WHERE = /find_(?:namespace_)?packages\(\s*(?:where\s*=\s*)?(['"])([^'"]+)\1/g;

/**
 * Where absolute imports of a repository's Python files are looked up:
 * the directories that would be on `sys.path` with its projects installed
 * in development mode and run from the repository's root. Each project
 * (a directory with `pyproject.toml`, `setup.cfg` or `setup.py`) gives the
 * package directories its build configuration names (setuptools'
 * `package-dir` `""` and `packages.find` `where`, hatch's wheel `packages`
 * and `sources`, poetry's `packages` `from`, pdm's `package-dir`, maturin's
 * `python-source`, pytest's `pythonpath`; in setup.cfg `package_dir` and
 * `where`; in setup.py `package_dir={'': ...}` and `find_packages(...)`),
 * or, when it names none, its `src/` directory when that is not a package
 * itself (the src layout); then its own directory (the flat layout, and
 * what `python -m pytest` puts first there). The repository's root is one
 * such project whether or not it has a project file, and comes last. A file
 * sees the roots of its own project (the nearest) first, then those of the
 * other projects, as if all were installed in one environment (a monorepo's
 * packages), except projects under tests, fixtures, examples or docs
 * directories, which are samples and serve only their own files.
 */
export class PythonSourceRoots {
  /** Search paths by importing directory. */
  private readonly searchPaths = new Map<string, string[]>();
  /** Every root, deepest first (for `rootOf`). */
  private readonly deepestFirst: string[];
  private readonly packageRoots: ReadonlySet<string>;

  private constructor(
    /** Projects deepest first; the repository's root last. */
    private readonly projects: PythonProject[],
  ) {
    this.deepestFirst = [...new Set(projects.flatMap((project) => project.roots))].sort((a, b) => depth(b) - depth(a) || (a < b ? -1 : 1));
    this.packageRoots = new Set(projects.flatMap((project) => project.packageRoots));
  }

  /** The projects of a repository (`root`, absolute) and their roots, from its project files. */
  static discover(root: string, repository: RepositoryFiles): PythonSourceRoots {
    const byDirectory = new Map<string, string[]>([['', []]]);
    for (const file of repository.filePaths()) {
      if (!PYTHON_PROJECT_FILE.test(file)) continue;
      const directory = parentOf(file);
      let files = byDirectory.get(directory);
      if (!files) byDirectory.set(directory, (files = []));
      files.push(file);
    }
    const projects: PythonProject[] = [];
    for (const [directory, files] of byDirectory) {
      const configured: string[] = [];
      // A fixed order of the three files, whatever the listing's.
      for (const file of files.sort()) {
        const text = readOptional(root, path.join(root, file));
        if (text === undefined) continue;
        const name = file.slice(file.lastIndexOf('/') + 1);
        const written = name === 'pyproject.toml' ? pyprojectRoots(text) : name === 'setup.cfg' ? setupCfgRoots(text) : setupPyRoots(text);
        for (const value of written) {
          const resolved = withinRepository(directory, value);
          if (resolved !== undefined && repository.isDirectory(resolved)) configured.push(resolved);
        }
      }
      const src = joinPath(directory, 'src');
      if (configured.length === 0 && repository.isDirectory(src) && !isPackage(src, repository)) configured.push(src);
      const packageRoots = [...new Set(configured)].filter((packageRoot) => packageRoot !== directory);
      projects.push({ directory, roots: [...packageRoots, directory], packageRoots, sample: SAMPLE_DIRECTORY.test(directory) });
    }
    // Deepest first, then by path; the root's project (directory '') comes last.
    projects.sort((a, b) => depth(b.directory) - depth(a.directory) || (a.directory < b.directory ? -1 : a.directory > b.directory ? 1 : 0));
    return new PythonSourceRoots(projects);
  }

  /** Whether these are the same roots as `other`'s (after a change: if not, every import is looked up again). */
  equals(other: PythonSourceRoots): boolean {
    return JSON.stringify(this.projects) === JSON.stringify(other.projects);
  }

  /**
   * The search path of a file in `directory`: the roots of the nearest
   * project at or above it first (its own, installed in development mode),
   * then those of the other projects (all installed into one environment),
   * the repository's root last.
   */
  searchPathFor(directory: string): string[] {
    let found = this.searchPaths.get(directory);
    if (!found) {
      const nearest = this.projects.find((project) => contains(project.directory, directory));
      const ordered = [...(nearest ? [nearest] : []), ...this.projects.filter((project) => project !== nearest && !project.sample)];
      found = [...new Set(ordered.flatMap((project) => project.roots))];
      this.searchPaths.set(directory, found);
    }
    return found;
  }

  /** Whether `directory` is a package root (configured, or a src/ layout's) rather than a project's own directory. */
  isPackageRoot(directory: string): boolean {
    return this.packageRoots.has(directory);
  }

  /** The deepest root at or above `file`'s directory: the top of its package hierarchy, which relative imports cannot go past. */
  rootOf(file: string): string {
    const directory = parentOf(file);
    return this.deepestFirst.find((root) => contains(root, directory)) ?? '';
  }
}

/** The directories a pyproject.toml names as package roots (relative to its directory, as written). */
function pyprojectRoots(text: string): string[] {
  let data: unknown;
  try {
    data = parseToml(text);
  } catch {
    // Not valid TOML: the project's defaults.
    return [];
  }
  const roots: string[] = [];
  const tool = field(data, 'tool');
  const setuptools = field(tool, 'setuptools');
  roots.push(...strings(field(field(setuptools, 'package-dir'), '')));
  roots.push(...strings(field(field(field(setuptools, 'packages'), 'find'), 'where')));
  const hatchBuild = field(field(tool, 'hatch'), 'build');
  for (const target of [hatchBuild, field(field(hatchBuild, 'targets'), 'wheel')]) {
    // `packages = ["src/foo"]`: foo is a package, found in src.
    for (const packagePath of strings(field(target, 'packages'))) roots.push(path.posix.dirname(packagePath.replace(/\/+$/, '')));
    const sources = field(target, 'sources');
    // `sources = ["src"]`, or `sources = { "src" = "" }`: src's contents are installed at the top.
    if (Array.isArray(sources)) roots.push(...strings(sources));
    else if (sources && typeof sources === 'object') for (const [from, to] of Object.entries(sources)) if (to === '' || to === '/') roots.push(from);
  }
  for (const entry of arrayOf(field(field(tool, 'poetry'), 'packages'))) roots.push(...strings(field(entry, 'from')));
  roots.push(...strings(field(field(field(tool, 'pdm'), 'build'), 'package-dir')));
  roots.push(...strings(field(field(tool, 'maturin'), 'python-source')));
  const pythonpath = field(field(field(tool, 'pytest'), 'ini_options'), 'pythonpath');
  roots.push(...(typeof pythonpath === 'string' ? pythonpath.split(/\s+/).filter(Boolean) : strings(pythonpath)));
  return roots;
}

/** The directories a setup.cfg names: `[options] package_dir` (the `""` entry), `[options.packages.find] where`, `[tool:pytest] pythonpath`. */
function setupCfgRoots(text: string): string[] {
  const sections = iniSections(text);
  const roots: string[] = [];
  for (const entry of (sections.get('options')?.get('package_dir') ?? '').split(/[\n,]/)) {
    const equals = entry.indexOf('=');
    if (equals !== -1 && entry.slice(0, equals).trim() === '') roots.push(entry.slice(equals + 1).trim());
  }
  roots.push(...(sections.get('options.packages.find')?.get('where') ?? '').split(/\s+/));
  roots.push(...(sections.get('tool:pytest')?.get('pythonpath') ?? '').split(/\s+/));
  return roots.filter(Boolean);
}

/** The directories a setup.py names in `package_dir={'': ...}` and `find_packages(...)`, read from its text (it is never run). */
function setupPyRoots(text: string): string[] {
  return [...[...text.matchAll(SETUP_PY_PACKAGE_DIR)].map((match) => match[3]!), ...[...text.matchAll(SETUP_PY_FIND_WHERE)].map((match) => match[2]!)];
}

/** An INI file's values by section and key (lower case), continuation lines joined with line ends, as Python's configparser reads them. */
function iniSections(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let section: Map<string, string> | undefined;
  let key: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*([#;]|$)/.test(line)) continue;
    const header = /^\[([^\]]+)\]/.exec(line);
    if (header) {
      sections.set(header[1]!.trim(), (section = new Map()));
      key = undefined;
    } else if (/^\s/.test(line) && section && key !== undefined) {
      section.set(key, `${section.get(key)}\n${line.trim()}`);
    } else {
      const entry = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(line);
      if (entry && section) section.set((key = entry[1]!.toLowerCase()), entry[2]!.trim());
    }
  }
  return sections;
}

/** A configured directory, relative to its project's, as a repository path ('' for the root); undefined when it leads outside. */
function withinRepository(projectDirectory: string, written: string): string | undefined {
  const normalized = path.posix.normalize(path.posix.join(projectDirectory || '.', written.replace(/\\/g, '/')));
  if (normalized === '..' || normalized.startsWith('../') || path.posix.isAbsolute(normalized)) return undefined;
  return normalized.replace(/\/+$/, '') === '.' ? '' : normalized.replace(/\/+$/, '');
}

/** Whether a directory is a regular package (an `__init__.py` in it). */
function isPackage(directory: string, repository: RepositoryFiles): boolean {
  return repository.isFile(joinPath(directory, '__init__.py')) || repository.isFile(joinPath(directory, '__init__.pyi'));
}

function field(value: unknown, key: string): unknown {
  return value && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A string, or the strings of an array, as a list. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return arrayOf(value).filter((item): item is string => typeof item === 'string');
}

function depth(directory: string): number {
  return directory === '' ? 0 : directory.split('/').length;
}
