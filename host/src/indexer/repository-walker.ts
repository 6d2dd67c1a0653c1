import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { SkippedEntry } from '../graph/code-graph.js';

/** Directory names never descended into, wherever they are. */
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

/** What a walk of a repository found. Paths are repository-relative with forward slashes. */
export interface RepositoryListing {
  /** Every directory below the root (the root itself excluded), parents before children. */
  directories: string[];
  /** Every file to index. */
  files: string[];
  /** What was left out for a reason other than an ignore rule. */
  skipped: SkippedEntry[];
}

interface IgnoreScope {
  /** Directory the rules are relative to ('' for the root). */
  base: string;
  rules: Ignore;
}

/**
 * Lists a repository's directories and files as git would track them:
 * `.gitignore` files at every level and `.git/info/exclude` are honoured,
 * `.git` and `node_modules` are skipped, and so are the `excluded` absolute
 * paths (the data directory). Symbolic links to files are listed; links to
 * directories are not followed, so link loops cannot trap the walk.
 */
export async function walkRepository(root: string, excluded: readonly string[] = []): Promise<RepositoryListing> {
  const listing: RepositoryListing = { directories: [], files: [], skipped: [] };
  const excludedSet = new Set(excluded.map((p) => path.resolve(p)));
  const rootScope: IgnoreScope = { base: '', rules: ignore() };
  const exclude = await readOptional(path.join(root, '.git', 'info', 'exclude'));
  if (exclude !== undefined) rootScope.rules.add(exclude);

  const walk = async (relativeDir: string, scopes: IgnoreScope[]): Promise<void> => {
    const absoluteDir = relativeDir === '' ? root : path.join(root, relativeDir);
    let entries;
    try {
      entries = await readdir(absoluteDir, { withFileTypes: true });
    } catch (error) {
      listing.skipped.push({ path: relativeDir || '.', reason: `unreadable directory (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
      return;
    }
    let localScopes = scopes;
    if (entries.some((entry) => entry.name === '.gitignore' && !entry.isDirectory())) {
      const rules = await readOptional(path.join(absoluteDir, '.gitignore'));
      if (rules !== undefined) localScopes = [...scopes, { base: relativeDir, rules: ignore().add(rules) }];
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirectories: string[] = [];
    for (const entry of entries) {
      if (entry.isDirectory() && ALWAYS_SKIPPED.has(entry.name)) continue;
      const relativePath = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
      const absolutePath = path.join(absoluteDir, entry.name);
      if (excludedSet.has(absolutePath)) continue;
      let isDirectory = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        const target = await stat(absolutePath).catch(() => undefined);
        if (!target) {
          listing.skipped.push({ path: relativePath, reason: 'broken symbolic link' });
          continue;
        }
        if (target.isDirectory()) {
          if (!isIgnored(localScopes, relativePath, true)) listing.skipped.push({ path: relativePath, reason: 'symbolic link to a directory (not followed)' });
          continue;
        }
        isDirectory = false;
      } else if (!isDirectory && !entry.isFile()) {
        if (!isIgnored(localScopes, relativePath, false)) listing.skipped.push({ path: relativePath, reason: 'not a regular file' });
        continue;
      }
      if (isIgnored(localScopes, relativePath, isDirectory)) continue;
      if (isDirectory) {
        listing.directories.push(relativePath);
        subdirectories.push(relativePath);
      } else {
        listing.files.push(relativePath);
      }
    }
    for (const subdirectory of subdirectories) await walk(subdirectory, localScopes);
  };

  await walk('', [rootScope]);
  return listing;
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

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}
