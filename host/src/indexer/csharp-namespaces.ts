import { DeclaredNames, type FileDeclarations } from './declared-names.js';
import type { RepositoryFiles } from './language-import-resolver.js';

/** C# sources. */
export const CSHARP_SOURCE = /\.cs$/;

/** How much of a C# file is read for its namespaces and type names. */
const HEAD_BYTES = 256 * 1024;
const NAMESPACE = /(?:^|[;{}\s])namespace\s+(@?[\p{L}_][\p{L}\p{Nd}_]*(?:\s*\.\s*@?[\p{L}_][\p{L}\p{Nd}_]*)*)\s*([;{])/gu;
const TYPE = /(?:^|[;{}\]\s])(?:class|struct|interface|enum|record)\s+(?:class\s+|struct\s+)?@?([\p{L}_][\p{L}\p{Nd}_]*)/gu;
/** An extension method: `static R Name(this T x` (type parameters after the name allowed). */
const EXTENSION_METHOD = /\bstatic\s[^;{}()=]*?@?([\p{L}_][\p{L}\p{Nd}_]*)\s*(?:<[^<>;{}()]*>)?\s*\(\s*this\s/gu;

/**
 * The namespaces each C# file declares (`namespace A.B;` or `namespace A.B
 * { … }`, as written: a block nested in another is recorded by its own
 * name), the names of the types it declares and of its extension methods
 * (used without naming their class), read from the first 256 KiB
 * of its text, comments and strings left out.
 */
export function discoverCSharpNamespaces(root: string, repository: RepositoryFiles, prefixes?: NamespacePrefixes): DeclaredNames {
  return DeclaredNames.discover(root, repository, CSHARP_SOURCE, HEAD_BYTES, (text) => {
    const declarations = readDeclarations(text);
    if (prefixes) for (const namespace of declarations.scopes) prefixes.add(namespace);
    return declarations;
  });
}

/**
 * Every namespace name read so far, under each of its prefixes (`A.B.C`
 * under `A`, `A.B` and `A.B.C`): for the compiler, namespace `A.B` exists
 * where only `A.B.C` is declared. Names are never taken out (a file no
 * longer declaring one is not read again): ask `DeclaredNames.filesOf`
 * whether one still is.
 */
export class NamespacePrefixes {
  private readonly under = new Map<string, Set<string>>();

  add(namespace: string): void {
    if (namespace === '' || this.under.get(namespace)?.has(namespace)) return;
    for (let prefix = namespace; ; prefix = prefix.slice(0, prefix.lastIndexOf('.'))) {
      let names = this.under.get(prefix);
      if (!names) this.under.set(prefix, (names = new Set()));
      names.add(namespace);
      if (!prefix.includes('.')) return;
    }
  }

  /** The names read that are `prefix` or start with `prefix.`. */
  namesUnder(prefix: string): ReadonlySet<string> {
    return this.under.get(prefix) ?? EMPTY;
  }
}

const EMPTY: ReadonlySet<string> = new Set();

/**
 * The names a C# text uses: every identifier of its code (comments and
 * strings left out), which holds each type name it writes, with or without
 * a namespace before it.
 */
export function namesUsedIn(text: string): ReadonlySet<string> {
  return new Set(codeOf(text).match(IDENTIFIER));
}

const IDENTIFIER = /[\p{L}_][\p{L}\p{Nd}_]*/gu;

/** A C# text with its comments and string literals blanked out. */
function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|@?"(?:[^"\\\n]|\\.)*"/g, ' ');
}

function readDeclarations(text: string): FileDeclarations {
  const code = codeOf(text);
  const namespaces = new Set<string>();
  for (const found of code.matchAll(NAMESPACE)) namespaces.add(found[1]!.replace(/\s+|@/g, ''));
  if (namespaces.size === 0) namespaces.add('');
  const types = new Set<string>();
  for (const found of code.matchAll(TYPE)) types.add(found[1]!);
  const extensions = new Set<string>();
  for (const found of code.matchAll(EXTENSION_METHOD)) extensions.add(found[1]!);
  return { scopes: namespaces, names: types, members: extensions };
}
