import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import type { RepositoryFiles } from './language-import-resolver.js';

/** C# sources. */
export const CSHARP_SOURCE = /\.cs$/;

/** How much of a C# file is read for its namespaces and type names. */
const HEAD_BYTES = 256 * 1024;
const NAMESPACE = /(?:^|[;{}\s])namespace\s+(@?[\p{L}_][\p{L}\p{Nd}_]*(?:\s*\.\s*@?[\p{L}_][\p{L}\p{Nd}_]*)*)\s*([;{])/gu;
const TYPE = /(?:^|[;{}\]\s])(?:class|struct|interface|enum|record)\s+(?:class\s+|struct\s+)?@?([\p{L}_][\p{L}\p{Nd}_]*)/gu;

interface CSharpFile {
  namespaces: ReadonlySet<string>;
  types: ReadonlySet<string>;
}

/**
 * The namespaces each C# file declares (`namespace A.B;` or `namespace A.B
 * { … }`, as written: a block nested in another is recorded by its own
 * name) and the names of the types it declares, read from the first 256 KiB
 * of its text, comments and strings left out.
 */
export class CSharpNamespaces {
  private readonly files = new Map<string, CSharpFile>();
  private readonly byNamespace = new Map<string, Set<string>>();

  private constructor(private readonly root: string) {}

  static discover(root: string, repository: RepositoryFiles): CSharpNamespaces {
    const namespaces = new CSharpNamespaces(root);
    for (const file of repository.filePaths()) if (CSHARP_SOURCE.test(file)) namespaces.add(file);
    return namespaces;
  }

  /** The files declaring namespace `name`. */
  filesOf(name: string): ReadonlySet<string> | undefined {
    return this.byNamespace.get(name);
  }

  /** Whether `file` declares a type named `name`. */
  declares(file: string, name: string): boolean {
    return this.files.get(file)?.types.has(name) === true;
  }

  /** Reads the changed C# files again: the namespaces whose files or types changed. */
  update(changedPaths: readonly string[], repository: RepositoryFiles): Set<string> {
    const changed = new Set<string>();
    for (const file of changedPaths) {
      if (!CSHARP_SOURCE.test(file)) continue;
      const before = this.files.get(file);
      if (before) this.remove(file, before);
      const after = repository.isFile(file) ? this.add(file) : undefined;
      if (!same(before?.namespaces, after?.namespaces) || !same(before?.types, after?.types)) {
        for (const name of before?.namespaces ?? []) changed.add(name);
        for (const name of after?.namespaces ?? []) changed.add(name);
      }
    }
    return changed;
  }

  private add(file: string): CSharpFile {
    const facts = readDeclarations(path.join(this.root, file));
    this.files.set(file, facts);
    for (const name of facts.namespaces) {
      let files = this.byNamespace.get(name);
      if (!files) this.byNamespace.set(name, (files = new Set()));
      files.add(file);
    }
    return facts;
  }

  private remove(file: string, facts: CSharpFile): void {
    this.files.delete(file);
    for (const name of facts.namespaces) {
      const files = this.byNamespace.get(name);
      files?.delete(file);
      if (files?.size === 0) this.byNamespace.delete(name);
    }
  }
}

function same(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean {
  if (!a || !b) return a === b;
  return a.size === b.size && [...a].every((name) => b.has(name));
}

function readDeclarations(absolute: string): CSharpFile {
  let text = '';
  let descriptor: number | undefined;
  try {
    descriptor = openSync(absolute, 'r');
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = readSync(descriptor, buffer, 0, HEAD_BYTES, 0);
    text = buffer.toString('utf8', 0, read);
  } catch {
    // Unreadable: nothing declared.
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|@?"(?:[^"\\\n]|\\.)*"/g, ' ');
  const namespaces = new Set<string>();
  for (const found of code.matchAll(NAMESPACE)) namespaces.add(found[1]!.replace(/\s+|@/g, ''));
  if (namespaces.size === 0) namespaces.add('');
  const types = new Set<string>();
  for (const found of code.matchAll(TYPE)) types.add(found[1]!);
  return { namespaces, types };
}
