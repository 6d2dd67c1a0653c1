import { closeSync, readSync } from 'node:fs';
import { fileSystemPath } from '../graph/file-names.js';
import type { RepositoryFiles } from './language-import-resolver.js';
import { openInRepository } from './repository-file.js';

/** What one file declares: the scopes it puts its names in (packages, namespaces) and the names. */
export interface FileDeclarations {
  /** The packages or namespaces the file declares (`''`: none). */
  scopes: ReadonlySet<string>;
  /** The names it declares in them (types, top-level functions). */
  names: ReadonlySet<string>;
  /** Names a file may use of it without naming what declares them (C#'s extension methods). */
  members?: ReadonlySet<string>;
}

/**
 * The packages or namespaces each source file of a language declares, and
 * the names it declares, read from the head of its text by the language's
 * `read` (Kotlin's `package` and top-level declarations, C#'s `namespace`s
 * and types): such a file need not sit in a directory matching its
 * package, nor be named after what it declares. Kept up to date with
 * `update` as files change.
 */
export class DeclaredNames {
  private readonly files = new Map<string, FileDeclarations>();
  /** Scope → the files declaring it. */
  private readonly byScope = new Map<string, Set<string>>();

  private constructor(
    private readonly root: string,
    private readonly source: RegExp,
    private readonly headBytes: number,
    private readonly read: (text: string) => FileDeclarations,
  ) {}

  /** Reads every file of `repository` that `source` matches: its first `headBytes` bytes, given to `read` as text. */
  static discover(root: string, repository: RepositoryFiles, source: RegExp, headBytes: number, read: (text: string) => FileDeclarations): DeclaredNames {
    const declared = new DeclaredNames(root, source, headBytes, read);
    for (const file of repository.filePaths()) if (source.test(file)) declared.add(file);
    return declared;
  }

  /** The files declaring package or namespace `scope`. */
  filesOf(scope: string): ReadonlySet<string> | undefined {
    return this.byScope.get(scope);
  }

  /** Whether `file` declares `name`. */
  declares(file: string, name: string): boolean {
    return this.files.get(file)?.names.has(name) === true;
  }

  /** Whether `file` declares any of `names`, as a name or a member. */
  declaresAny(file: string, names: ReadonlySet<string>): boolean {
    const declarations = this.files.get(file);
    for (const name of declarations?.names ?? []) if (names.has(name)) return true;
    for (const name of declarations?.members ?? []) if (names.has(name)) return true;
    return false;
  }

  /** Reads the changed files again (added, edited, removed): the scopes whose files or names changed. */
  update(changedPaths: readonly string[], repository: RepositoryFiles): Set<string> {
    const changed = new Set<string>();
    for (const file of changedPaths) {
      if (!this.source.test(file)) continue;
      const before = this.files.get(file);
      if (before) this.remove(file, before);
      const after = repository.isFile(file) ? this.add(file) : undefined;
      if (!sameSet(before?.scopes, after?.scopes) || !sameSet(before?.names, after?.names) || !sameSet(before?.members, after?.members)) {
        for (const scope of before?.scopes ?? []) changed.add(scope);
        for (const scope of after?.scopes ?? []) changed.add(scope);
      }
    }
    return changed;
  }

  private add(file: string): FileDeclarations {
    const declarations = this.read(readHead(this.root, fileSystemPath(this.root, file), this.headBytes));
    this.files.set(file, declarations);
    for (const scope of declarations.scopes) {
      let files = this.byScope.get(scope);
      if (!files) this.byScope.set(scope, (files = new Set()));
      files.add(file);
    }
    return declarations;
  }

  private remove(file: string, declarations: FileDeclarations): void {
    this.files.delete(file);
    for (const scope of declarations.scopes) {
      const files = this.byScope.get(scope);
      files?.delete(file);
      if (files?.size === 0) this.byScope.delete(scope);
    }
  }
}

function sameSet(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean {
  if (!a || !b) return a === b;
  return a.size === b.size && [...a].every((name) => b.has(name));
}

/** Where `readHead` reads, reused: a new zeroed 64 KiB buffer for each file took 0.7 s for 2,000 Kotlin and C# files (profiled). */
let headBuffer = Buffer.allocUnsafe(64 * 1024);

/** The first `bytes` bytes of a file as UTF-8 text (`''` when it cannot be read). */
export function readHead(root: string, absolute: string | Buffer, bytes: number): string {
  let descriptor: number | undefined;
  try {
    descriptor = openInRepository(root, absolute);
    if (headBuffer.length < bytes) headBuffer = Buffer.allocUnsafe(bytes);
    const read = readSync(descriptor, headBuffer, 0, bytes, 0);
    return headBuffer.toString('utf8', 0, read);
  } catch {
    return '';
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}
