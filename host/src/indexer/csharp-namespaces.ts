import { DeclaredNames, type FileDeclarations } from './declared-names.js';
import type { RepositoryFiles } from './language-import-resolver.js';

/** C# sources. */
export const CSHARP_SOURCE = /\.cs$/;

/** How much of a C# file is read for its namespaces and type names. */
const HEAD_BYTES = 256 * 1024;
const NAMESPACE = /(?:^|[;{}\s])namespace\s+(@?[\p{L}_][\p{L}\p{Nd}_]*(?:\s*\.\s*@?[\p{L}_][\p{L}\p{Nd}_]*)*)\s*([;{])/gu;
const TYPE = /(?:^|[;{}\]\s])(?:class|struct|interface|enum|record)\s+(?:class\s+|struct\s+)?@?([\p{L}_][\p{L}\p{Nd}_]*)/gu;

/**
 * The namespaces each C# file declares (`namespace A.B;` or `namespace A.B
 * { … }`, as written: a block nested in another is recorded by its own
 * name) and the names of the types it declares, read from the first 256 KiB
 * of its text, comments and strings left out.
 */
export function discoverCSharpNamespaces(root: string, repository: RepositoryFiles): DeclaredNames {
  return DeclaredNames.discover(root, repository, CSHARP_SOURCE, HEAD_BYTES, readDeclarations);
}

function readDeclarations(text: string): FileDeclarations {
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|@?"(?:[^"\\\n]|\\.)*"/g, ' ');
  const namespaces = new Set<string>();
  for (const found of code.matchAll(NAMESPACE)) namespaces.add(found[1]!.replace(/\s+|@/g, ''));
  if (namespaces.size === 0) namespaces.add('');
  const types = new Set<string>();
  for (const found of code.matchAll(TYPE)) types.add(found[1]!);
  return { scopes: namespaces, names: types };
}
