import { closeSync, readSync } from 'node:fs';
import { fileSystemPath } from '../graph/file-names.js';
import { JAVA_SOURCE } from './java-source-analyzer.js';
import type { RepositoryFiles } from './language-import-resolver.js';
import { openInRepository } from './repository-file.js';

/** How much of a file is read for its package declaration (comments, a license, annotations of `package-info.java` come first). */
const HEAD_BYTES = 64 * 1024;
const FIRST_BYTES = 4 * 1024;
const PACKAGE_DECLARATION = /^\s*(?:@[\w.]+(?:\s*\([^)]*\))?\s*)*package\s+([\p{L}\p{Nl}_$][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$.\s]*?)\s*;/u;

/**
 * Which directories hold the files of each Java package, as the files'
 * own `package` declarations say (read from the first 64 KiB of each file,
 * comments left out), not as their paths suggest: whatever the layout
 * (Maven's and Gradle's `src/main/java` and `src/test/java`, multi-module
 * builds, a flat `src/`), a directory's files belong to the package they
 * declare. A file without a declaration is in the unnamed package (`''`).
 */
export class JavaPackages {
  /** Package name → directories with files that declare it → those files. */
  private readonly directories = new Map<string, Map<string, Set<string>>>();
  /** Java file → the package it declares. */
  private readonly packageOf = new Map<string, string>();

  private constructor(private readonly root: string) {}

  static discover(root: string, repository: RepositoryFiles): JavaPackages {
    const packages = new JavaPackages(root);
    for (const file of repository.filePaths()) if (JAVA_SOURCE.test(file)) packages.add(file);
    return packages;
  }

  /** The directories holding files of `name`, with those files. */
  directoriesOf(name: string): ReadonlyMap<string, ReadonlySet<string>> | undefined {
    return this.directories.get(name);
  }

  /** The package `file` declares, if it is known. */
  declaredBy(file: string): string | undefined {
    return this.packageOf.get(file);
  }

  /**
   * Reads again what the changed Java files declare (added, edited, removed
   * files): the packages whose directories changed.
   */
  update(changedPaths: readonly string[], repository: RepositoryFiles): Set<string> {
    const changed = new Set<string>();
    for (const file of changedPaths) {
      if (!JAVA_SOURCE.test(file)) continue;
      const before = this.packageOf.get(file);
      if (before !== undefined) this.remove(file, before);
      const after = repository.isFile(file) ? this.add(file) : undefined;
      if (before !== after) {
        if (before !== undefined) changed.add(before);
        if (after !== undefined) changed.add(after);
      }
    }
    return changed;
  }

  private add(file: string): string {
    const name = readPackage(this.root, fileSystemPath(this.root, file));
    const directory = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
    this.packageOf.set(file, name);
    let directories = this.directories.get(name);
    if (!directories) this.directories.set(name, (directories = new Map()));
    let files = directories.get(directory);
    if (!files) directories.set(directory, (files = new Set()));
    files.add(file);
    return name;
  }

  private remove(file: string, name: string): void {
    this.packageOf.delete(file);
    const directory = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
    const directories = this.directories.get(name);
    const files = directories?.get(directory);
    files?.delete(file);
    if (files?.size === 0) directories?.delete(directory);
    if (directories?.size === 0) this.directories.delete(name);
  }
}

/** The package a Java file declares (`''`: none, or unreadable): its first 4 KiB are read, and up to 64 KiB when the declaration is not in them (a long license). */
function readPackage(root: string, absolute: string | Buffer): string {
  let descriptor: number;
  try {
    descriptor = openInRepository(root, absolute);
  } catch {
    return '';
  }
  try {
    for (const size of [FIRST_BYTES, HEAD_BYTES]) {
      const buffer = Buffer.alloc(size);
      const read = readSync(descriptor, buffer, 0, size, 0);
      const code = buffer
        .toString('utf8', 0, read)
        .replace(/^\uFEFF/, '')
        .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ' ');
      const match = PACKAGE_DECLARATION.exec(code);
      if (match) return match[1]!.replace(/\s+/g, '');
      if (read < size) return '';
    }
    return '';
  } catch {
    return '';
  } finally {
    closeSync(descriptor);
  }
}
