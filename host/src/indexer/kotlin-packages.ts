import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import type { RepositoryFiles } from './language-import-resolver.js';

/** Kotlin sources and scripts. */
export const KOTLIN_SOURCE = /\.kts?$/;

/** How much of a Kotlin file is read for its package and top-level names. */
const HEAD_BYTES = 256 * 1024;
const PACKAGE_HEADER = /^\s*(?:@[\w.:]+(?:\s*\([^)]*\))?\s*)*package\s+([\p{L}_][\p{L}\p{Nd}_]*(?:\s*\.\s*[\p{L}_][\p{L}\p{Nd}_]*)*)/u;
/**
 * A top-level declaration: a line that starts unindented with modifiers and
 * a declaring keyword (a receiver `A.` or type parameters `<T>` may come
 * before the name). Members are indented by convention; this is a reading
 * of the text, not of the tree.
 */
const TOP_LEVEL =
  /^(?:(?:@[\w.:]+(?:\([^)\n]*\))?|[a-z]+)[ \t]+)*?(?:class|interface|object|fun|val|var|typealias)\s+(?:<[^>\n]*>\s*)?(?:[\w.<>?, ]+\.)?`?([\p{L}_][\p{L}\p{Nd}_]*)`?/gmu;

/** What one Kotlin file declares. */
interface KotlinFile {
  packageName: string;
  names: ReadonlySet<string>;
}

/**
 * The package each Kotlin file declares and the names it declares at its top
 * level (classes, objects, interfaces, functions, properties, type aliases),
 * read from the first 256 KiB of its text: a Kotlin file need not sit in a
 * directory matching its package, nor be named after a class.
 */
export class KotlinPackages {
  private readonly files = new Map<string, KotlinFile>();
  /** Package → its files. */
  private readonly byPackage = new Map<string, Set<string>>();

  private constructor(private readonly root: string) {}

  static discover(root: string, repository: RepositoryFiles): KotlinPackages {
    const packages = new KotlinPackages(root);
    for (const file of repository.filePaths()) if (KOTLIN_SOURCE.test(file)) packages.add(file);
    return packages;
  }

  /** The Kotlin files declaring package `name`. */
  filesOf(name: string): ReadonlySet<string> | undefined {
    return this.byPackage.get(name);
  }

  /** Whether `file` declares `name` at its top level. */
  declares(file: string, name: string): boolean {
    return this.files.get(file)?.names.has(name) === true;
  }

  /** Reads the changed Kotlin files again: the packages whose files or top-level names changed. */
  update(changedPaths: readonly string[], repository: RepositoryFiles): Set<string> {
    const changed = new Set<string>();
    for (const file of changedPaths) {
      if (!KOTLIN_SOURCE.test(file)) continue;
      const before = this.files.get(file);
      if (before) this.remove(file, before.packageName);
      const after = repository.isFile(file) ? this.add(file) : undefined;
      if (before?.packageName !== after?.packageName || !sameNames(before?.names, after?.names)) {
        if (before) changed.add(before.packageName);
        if (after) changed.add(after.packageName);
      }
    }
    return changed;
  }

  private add(file: string): KotlinFile {
    const facts = readDeclarations(path.join(this.root, file));
    this.files.set(file, facts);
    let files = this.byPackage.get(facts.packageName);
    if (!files) this.byPackage.set(facts.packageName, (files = new Set()));
    files.add(file);
    return facts;
  }

  private remove(file: string, name: string): void {
    this.files.delete(file);
    const files = this.byPackage.get(name);
    files?.delete(file);
    if (files?.size === 0) this.byPackage.delete(name);
  }
}

function sameNames(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean {
  if (!a || !b) return a === b;
  return a.size === b.size && [...a].every((name) => b.has(name));
}

/** The package (`''`: none) and top-level names of a Kotlin file, comments left out. */
function readDeclarations(absolute: string): KotlinFile {
  let text = '';
  let descriptor: number | undefined;
  try {
    descriptor = openSync(absolute, 'r');
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = readSync(descriptor, buffer, 0, HEAD_BYTES, 0);
    text = buffer.toString('utf8', 0, read);
  } catch {
    // Unreadable: no package, no names.
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
  const code = text
    .replace(/^\uFEFF/, '')
    .replace(/^#![^\n]*/, '')
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ' ');
  const match = PACKAGE_HEADER.exec(code);
  const names = new Set<string>();
  for (const found of code.matchAll(TOP_LEVEL)) names.add(found[1]!);
  return { packageName: match ? match[1]!.replace(/\s+/g, '') : '', names };
}
