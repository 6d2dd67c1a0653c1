import { DeclaredNames, type FileDeclarations } from './declared-names.js';
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
  /^(?:(?:@[\w.:]+(?:\([^)\n]*\))?|[a-z]+)[ \t]+)*?(class|interface|object|fun|val|var|typealias)\s+(?:<[^>\n]*>\s*)?(?:[\w.<>?,* ]+\.)?`?([\p{L}_][\p{L}\p{Nd}_]*)`?/gmu;

/**
 * What a file's names hold beside each top-level name `N` (what Java's
 * lookup asks of them): `type:N` for a class, interface, object or type
 * alias, `callable:N` for a function or property. An import of a callable
 * brings every declaration of that name in the package (overloads, spread
 * over several files; a function's `expect` and `actual`); of a type, one
 * (`:` is in no Kotlin name).
 */
export const typeEntry = (name: string): string => `type:${name}`;
export const callableEntry = (name: string): string => `callable:${name}`;

/**
 * The package each Kotlin file declares and the names it declares at its top
 * level (classes, objects, interfaces, functions, properties, type aliases),
 * read from the first 256 KiB of its text: a Kotlin file need not sit in a
 * directory matching its package, nor be named after a class.
 */
export function discoverKotlinPackages(root: string, repository: RepositoryFiles): DeclaredNames {
  return DeclaredNames.discover(root, repository, KOTLIN_SOURCE, HEAD_BYTES, readDeclarations);
}

/** The package (`''`: none) and top-level names of a Kotlin file's text, comments left out. */
function readDeclarations(text: string): FileDeclarations {
  const code = text
    .replace(/^\uFEFF/, '')
    .replace(/^#![^\n]*/, '')
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ' ');
  const match = PACKAGE_HEADER.exec(code);
  const names = new Set<string>();
  for (const found of code.matchAll(TOP_LEVEL)) {
    const [, keyword, name] = found as unknown as [string, string, string];
    names.add(name);
    names.add(keyword === 'fun' || keyword === 'val' || keyword === 'var' ? callableEntry(name) : typeEntry(name));
  }
  return { scopes: new Set([match ? match[1]!.replace(/\s+/g, '') : '']), names };
}
