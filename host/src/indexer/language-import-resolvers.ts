import { CIncludeResolver } from './c-include-resolver.js';
import { CSharpImportResolver } from './csharp-import-resolver.js';
import { GoImportResolver } from './go-import-resolver.js';
import { JavaImportResolver } from './java-import-resolver.js';
import { KotlinImportResolver } from './kotlin-import-resolver.js';
import type { LanguageImportResolver, RepositoryFiles } from './language-import-resolver.js';
import { PhpImportResolver } from './php-import-resolver.js';
import { PythonImportResolver } from './python-import-resolver.js';
import { RubyImportResolver } from './ruby-import-resolver.js';
import { RustImportResolver } from './rust-import-resolver.js';

/**
 * The resolvers of the languages other than JavaScript and TypeScript, for
 * the repository at `root` (absolute) as `repository` lists it: the one list
 * a new language's resolver joins (its parser joins `source-analyzers.ts`).
 */
export function discoverLanguageResolvers(root: string, repository: RepositoryFiles): LanguageImportResolver[] {
  return [
    PythonImportResolver.discover(root, repository),
    GoImportResolver.discover(root, repository),
    RustImportResolver.discover(root, repository),
    CIncludeResolver.discover(root, repository),
    JavaImportResolver.discover(root, repository),
    KotlinImportResolver.discover(root, repository),
    CSharpImportResolver.discover(root, repository),
    RubyImportResolver.discover(root, repository),
    PhpImportResolver.discover(root, repository),
  ];
}
