import { type Dirent, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SkippedEntry } from '../graph/code-graph.js';
import { fileSystemPath, nameFromBytes } from '../graph/file-names.js';
import { IGNORE_FILE_LIMITS, IgnoreFile } from './ignore-file.js';
import { readOptional } from './read-optional.js';
import { OUTSIDE_REASON, OutsideRepositoryError, realPathInside } from './repository-file.js';
import { TrackedFiles } from './tracked-files.js';

/** Directory names never descended into, wherever they are. */
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

/** What a walk found. Paths are repository-relative with forward slashes. */
export interface RepositoryListing {
  /** Directories (the root excluded), parents before children. */
  directories: string[];
  /** Files to index. */
  files: string[];
  /** What was left out for a reason other than an ignore rule. */
  skipped: SkippedEntry[];
}

interface IgnoreScope {
  /** Directory the rules are relative to ('' for the root). */
  base: string;
  rules: IgnoreFile;
}

/** A directory still to list, with the ignore scopes that apply in it. */
interface PendingDirectory {
  relativeDir: string;
  scopes: IgnoreScope[];
  /** Whether the directory is ignored (it is listed for the tracked files below it, and only they are). */
  ignored: boolean;
}

/**
 * Lists a repository as git would track it: `.gitignore` files at every
 * level and `.git/info/exclude` are honoured, except for the files git
 * tracks (`tracked`), which are listed whatever they say, as `git ls-files`
 * lists them; `.git` and `node_modules` are skipped, and so are the
 * `excluded` absolute paths (the data directory). Symbolic links to files
 * inside the repository are listed; a link whose real path leaves the
 * repository is skipped without its target being looked at (the repository
 * is untrusted: `src/leak.ts -> /etc/shadow`); links to directories are not
 * followed, so link loops cannot trap it.
 */
export class RepositoryWalker {
  /** The excluded paths inside the repository, repository-relative (those outside it cannot be met). */
  private readonly excluded: Set<string>;
  /** Rules of each directory's own `.gitignore` (null: it has none). */
  private readonly rulesByDirectory = new Map<string, IgnoreFile | null>();
  /** `.git/info/exclude`'s. */
  private rootRules: IgnoreFile | undefined;

  constructor(
    private readonly root: string,
    excluded: readonly string[] = [],
    private readonly tracked: TrackedFiles = TrackedFiles.NONE,
  ) {
    this.excluded = new Set(
      excluded
        .map((p) => path.relative(root, path.resolve(p)).split(path.sep).join('/'))
        .filter((p) => p !== '' && !p.startsWith('../') && !path.isAbsolute(p)),
    );
  }

  /** Lists the whole repository. */
  walk(): RepositoryListing {
    return this.walkFrom('');
  }

  /**
   * Lists a directory and everything below it (for a directory that appeared
   * after the first walk). The directory itself is the first of `directories`.
   */
  walkFrom(relativeDir: string): RepositoryListing {
    const walk = this.walkInSteps(relativeDir);
    while (walk.step());
    return walk.listing;
  }

  /**
   * Lists one directory, not what is below its subdirectories: the directory
   * first of `directories`, then its subdirectories, and its files.
   */
  listOne(relativeDir: string): RepositoryListing {
    const walk = this.walkInSteps(relativeDir);
    walk.step();
    return walk.listing;
  }

  /**
   * A walk done a directory at a time, so that the caller can work on the
   * files listed so far between steps: `step` lists the next directory and
   * answers whether any is left. The listing grows in the order of `walk`.
   */
  walkInSteps(relativeDir = ''): { listing: RepositoryListing; step(): boolean } {
    const listing: RepositoryListing = { directories: relativeDir === '' ? [] : [relativeDir], files: [], skipped: [] };
    // Depth first, in name order: the directories to list, the next one last.
    const ignored = relativeDir !== '' && this.isIgnoredByRules(relativeDir, true);
    const pending: PendingDirectory[] = [{ relativeDir, scopes: this.scopesFor(relativeDir), ignored }];
    return {
      listing,
      step: () => {
        const next = pending.pop();
        if (!next) return false;
        const subdirectories = this.listDirectory(next, listing);
        for (let i = subdirectories.length - 1; i >= 0; i--) pending.push(subdirectories[i]!);
        if (pending.length > 0) return true;
        // The ignore files read in this part of the repository say what of them was left out, with the listing.
        listing.skipped.push(...this.ignoreProblems(relativeDir));
        return false;
      },
    };
  }

  /**
   * Whether a path is left out: under `.git`, `node_modules` or an excluded
   * path, or matched by an ignore rule of any directory above it and not
   * tracked (for a directory: no tracked file below it).
   */
  isExcluded(relativePath: string, isDirectory: boolean): boolean {
    const segments = relativePath.split('/');
    if (segments.some((segment) => ALWAYS_SKIPPED.has(segment))) return true;
    for (let i = 1; i <= segments.length; i++) {
      if (this.excluded.has(segments.slice(0, i).join('/'))) return true;
    }
    return this.isIgnoredByRules(relativePath, isDirectory) && !this.isTracked(relativePath, isDirectory);
  }

  /** The `.gitignore` files read so far (repository-relative). */
  ruleFiles(): string[] {
    const files: string[] = [];
    for (const [directory, rules] of this.rulesByDirectory) if (rules) files.push(ignoreFileOf(directory));
    return files;
  }

  /** What was left out of the ignore files of `relativeDir` and below (the exclude file's, for the root), in path order. */
  ignoreProblems(relativeDir = ''): SkippedEntry[] {
    const problems = relativeDir === '' && this.rootRules ? [...this.rootRules.problems] : [];
    for (const [directory, file] of [...this.rulesByDirectory].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      if (file && (relativeDir === '' || directory === relativeDir || directory.startsWith(`${relativeDir}/`))) problems.push(...file.problems);
    return problems;
  }

  /** Forgets cached ignore rules (after a `.gitignore` changed). */
  forgetRules(): void {
    this.rulesByDirectory.clear();
    this.rootRules = undefined;
  }

  /**
   * Lists one directory into `listing`; answers its subdirectories, to list
   * next. Synchronous: a walk of thousands of directories is several times
   * faster than with promises.
   */
  private listDirectory({ relativeDir, scopes, ignored }: PendingDirectory, listing: RepositoryListing): PendingDirectory[] {
    const absoluteDir = fileSystemPath(this.root, relativeDir);
    let entries: Dirent[];
    try {
      entries = readdirSync(absoluteDir, { withFileTypes: true });
      // A name that is not UTF-8 came decoded with U+FFFD for its bad bytes: the names are taken again as bytes.
      if (entries.some((entry) => entry.name.includes('\uFFFD') || entry.name.startsWith('"'))) entries = entriesNamedFromBytes(absoluteDir);
    } catch (error) {
      listing.skipped.push({ path: relativeDir || '.', reason: `unreadable directory (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
      return [];
    }
    let localScopes = scopes;
    if (entries.some((entry) => entry.name === '.gitignore' && !entry.isDirectory())) {
      const file = this.rulesOf(relativeDir);
      // walkFrom() already brings the rules of the directory it starts in.
      if (file && !scopes.some((scope) => scope.rules === file)) localScopes = [...scopes, { base: relativeDir, rules: file }];
    } else {
      this.rulesByDirectory.set(relativeDir, null);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirectories: PendingDirectory[] = [];
    /** Whether the ignore rules match an entry of this directory (`asDirectory`: as a directory), or this directory. */
    const ignoredHere = (relativePath: string, asDirectory: boolean): boolean => ignored || isIgnored(localScopes, relativePath, asDirectory);
    /** Whether a skipped entry is reported: one the rules ignore is not, unless git tracks it (a link, as a file). */
    const reported = (relativePath: string, asDirectory: boolean): boolean => !ignoredHere(relativePath, asDirectory) || this.tracked.has(relativePath);
    for (const entry of entries) {
      if (entry.isDirectory() && ALWAYS_SKIPPED.has(entry.name)) continue;
      const relativePath = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
      if (this.excluded.has(relativePath)) continue;
      let isDirectory = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        let target;
        try {
          // Where the link leads is looked at first: a target outside the repository is not even looked at.
          target = statSync(realPathInside(this.root, fileSystemPath(this.root, relativePath)));
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          // A link out of the repository, a loop of links (ELOOP), a dangling one, or a target it may not look at.
          const reason =
            error instanceof OutsideRepositoryError
              ? OUTSIDE_REASON
              : code === 'ELOOP'
                ? 'symbolic link loop'
                : code === 'ENOENT' || code === 'ENOTDIR'
                  ? 'broken symbolic link'
                  : `symbolic link that cannot be followed (${code ?? 'error'})`;
          listing.skipped.push({ path: relativePath, reason });
          continue;
        }
        if (target.isDirectory()) {
          if (reported(relativePath, true)) listing.skipped.push({ path: relativePath, reason: 'symbolic link to a directory (not followed)' });
          continue;
        }
        if (!target.isFile()) {
          // A pipe would block the reader forever; a device can be endless.
          if (reported(relativePath, false)) listing.skipped.push({ path: relativePath, reason: 'symbolic link to something other than a regular file' });
          continue;
        }
        isDirectory = false;
      } else if (!isDirectory && !entry.isFile()) {
        if (reported(relativePath, false)) listing.skipped.push({ path: relativePath, reason: 'not a regular file' });
        continue;
      }
      if (isDirectory) {
        const ignoredEntry = ignoredHere(relativePath, true);
        if (ignoredEntry && !this.tracked.holdsBelow(relativePath)) continue;
        listing.directories.push(relativePath);
        subdirectories.push({ relativeDir: relativePath, scopes: localScopes, ignored: ignoredEntry });
      } else {
        // A tracked file is listed whatever the rules say: they are not asked (most files of a repository are tracked).
        if (!this.tracked.has(relativePath) && ignoredHere(relativePath, false)) continue;
        listing.files.push(relativePath);
      }
    }
    return subdirectories;
  }

  /** Whether git tracks the file, or (for a directory) a file below it. */
  private isTracked(relativePath: string, isDirectory: boolean): boolean {
    return isDirectory ? this.tracked.holdsBelow(relativePath) : this.tracked.has(relativePath);
  }

  /** Whether an ignore rule matches the path or a directory above it (a path is out when any directory above it is, as in git). */
  private isIgnoredByRules(relativePath: string, isDirectory: boolean): boolean {
    const segments = relativePath.split('/');
    for (let i = 1; i < segments.length; i++) {
      const ancestor = segments.slice(0, i).join('/');
      if (isIgnored(this.scopesFor(segments.slice(0, i - 1).join('/')), ancestor, true)) return true;
    }
    return isIgnored(this.scopesFor(segments.slice(0, -1).join('/')), relativePath, isDirectory);
  }

  /** The ignore scopes that apply inside `relativeDir`: the root's exclude file and every `.gitignore` from the root down to it. */
  private scopesFor(relativeDir: string): IgnoreScope[] {
    const scopes: IgnoreScope[] = [{ base: '', rules: this.excludeFile() }];
    const segments = relativeDir === '' ? [] : relativeDir.split('/');
    for (let i = 0; i <= segments.length; i++) {
      const directory = segments.slice(0, i).join('/');
      const file = this.rulesOf(directory);
      if (file) scopes.push({ base: directory, rules: file });
    }
    return scopes;
  }

  /** `.git/info/exclude`, read once. */
  private excludeFile(): IgnoreFile {
    this.rootRules ??= new IgnoreFile(EXCLUDE_FILE, readOptional(this.root, path.join(this.root, EXCLUDE_FILE), IGNORE_FILE_LIMITS.bytes) ?? '');
    return this.rootRules;
  }

  private rulesOf(relativeDir: string): IgnoreFile | null {
    let file = this.rulesByDirectory.get(relativeDir);
    if (file === undefined) {
      const text = readOptional(this.root, path.join(this.root, relativeDir, '.gitignore'), IGNORE_FILE_LIMITS.bytes);
      file = text === undefined ? null : new IgnoreFile(ignoreFileOf(relativeDir), text);
      this.rulesByDirectory.set(relativeDir, file);
    }
    return file;
  }
}

const EXCLUDE_FILE = '.git/info/exclude';

/** A directory's entries with names read from their bytes (`nameFromBytes`: quoted when not UTF-8). */
function entriesNamedFromBytes(absoluteDir: string | Buffer): Dirent[] {
  const entries = readdirSync(absoluteDir, { withFileTypes: true, encoding: 'buffer' });
  for (const entry of entries) (entry as unknown as { name: string }).name = nameFromBytes(entry.name);
  return entries as unknown as Dirent[];
}

/** A directory's `.gitignore`, repository-relative. */
function ignoreFileOf(relativeDir: string): string {
  return relativeDir === '' ? '.gitignore' : `${relativeDir}/.gitignore`;
}

/** Deeper rules win over shallower ones, as in git; a later negation re-includes. */
function isIgnored(scopes: readonly IgnoreScope[], relativePath: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const scope of scopes) {
    const local = scope.base === '' ? relativePath : relativePath.slice(scope.base.length + 1);
    const result = scope.rules.test(isDirectory ? `${local}/` : local);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}
