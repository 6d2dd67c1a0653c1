// The API reference of the author-facing packages (`npm run docs:api`, TypeDoc
// with sdk/typedoc.json) documents every exported member: this test converts
// the built typings as that command does, without writing HTML, and fails
// naming each declaration that has no doc comment, and each exported
// declaration whose comment has no @example.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import {
  Application,
  type DeclarationReflection,
  Logger,
  LogLevel,
  type NormalizedPath,
  type ProjectReflection,
  ReflectionKind,
  ReflectionType,
} from 'typedoc';

const root = path.resolve(fileURLToPath(import.meta.url), '../../..');
const CONFIG = path.join(root, 'sdk/typedoc.json');
const MODULES = ['@strata/sdk', '@strata/sdk-testing'];
/** Where the declarations of the documented API live (`@strata/sdk-testing` re-exports types of `@strata/sandbox`). */
const OUR_PACKAGES = new Set([...MODULES, '@strata/sandbox']);
/**
 * Types of ours that the public API uses without exporting them, so that the
 * reference names them without a page. Exporting one documents it; then
 * remove it from here (the test says so when it is no longer needed).
 */
const KNOWN_NOT_EXPORTED = new Set<string>([]);

/** Keeps TypeDoc's warnings and errors (its validation's included) for the test to show. */
class CollectingLogger extends Logger {
  readonly problems: string[] = [];
  override log(message: string, level: LogLevel): void {
    if (level === LogLevel.Warn || level === LogLevel.Error) this.problems.push(message);
  }
}

async function convert(): Promise<{ app: Application; project: ProjectReflection | undefined; problems: string[] }> {
  const app = await Application.bootstrapWithPlugins({
    options: CONFIG,
    // What the test needs of the config, whatever else it says: validation on, nothing rendered, no TypeScript
    // diagnostics (the typings were checked when they were built), no source links.
    validation: { notExported: true, notDocumented: true, invalidLink: true, invalidPath: true, rewrittenLink: true, unusedMergeModuleWith: true },
    skipErrorChecking: true,
    disableSources: true,
  });
  const logger = new CollectingLogger();
  app.logger = logger;
  const project = await app.convert();
  if (project) app.validate(project);
  return { app, project, problems: logger.problems };
}

/**
 * Types of our packages that the documented API refers to but that are not
 * in it (TypeDoc's own check of this passes over every package but the
 * first entry point's), as `package: Type` with where each is used.
 */
function notExported(app: Application, project: ProjectReflection): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const walk = (node: unknown, owner: string): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, owner);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    // A reference TypeDoc resolved has a reflection id as target; one it could not, the symbol.
    if (record.type === 'reference' && typeof record.target === 'object' && !record.refersToTypeParameter && OUR_PACKAGES.has(String(record.package))) {
      const key = `${String(record.package)}: ${String(record.name)}`;
      found.set(key, [...(found.get(key) ?? []), owner]);
    }
    const name = typeof record.id === 'number' && typeof record.name === 'string' && record.variant === 'declaration' ? record.name : undefined;
    for (const [key, value] of Object.entries(record)) if (key !== 'target') walk(value, name === undefined ? owner : owner ? `${owner}.${name}` : name);
  };
  walk(app.serializer.projectToObject(project, root as NormalizedPath).children, '');
  return found;
}

/** Whether the declaration, or each of its signatures (functions, methods, constructors), has a comment. */
function hasComment(declaration: DeclarationReflection): boolean {
  if (declaration.hasComment()) return true;
  const signatures = declaration.getNonIndexSignatures();
  return signatures.length > 0 && signatures.every((signature) => signature.hasComment());
}

/** Whether the declaration's comment, or each of its signatures' comments, has an `@example` block. */
function hasExample(declaration: DeclarationReflection): boolean {
  if (declaration.comment?.getTag('@example')) return true;
  const signatures = declaration.getNonIndexSignatures();
  return signatures.length > 0 && signatures.every((signature) => signature.comment?.getTag('@example') !== undefined);
}

/**
 * The members of a declaration that need a comment: the public members it
 * declares itself (not those it inherits, as from `Error`), and the
 * properties of object types written inline.
 */
function membersOf(declaration: DeclarationReflection): DeclarationReflection[] {
  const members = (declaration.children ?? []).filter((member) => !member.inheritedFrom && !member.flags.isPrivate && !member.flags.isProtected);
  const inline = declaration.type instanceof ReflectionType ? declaration.type.declaration : undefined;
  // Arrays of inline objects: `Array<{ path: string; ... }>`.
  const element =
    declaration.type?.type === 'array' && declaration.type.elementType instanceof ReflectionType ? declaration.type.elementType.declaration : undefined;
  const alsoInline =
    declaration.type?.type === 'reference'
      ? (declaration.type.typeArguments ?? []).flatMap((argument) => (argument instanceof ReflectionType ? [argument.declaration] : []))
      : [];
  return [...members, ...[inline, element, ...alsoInline].flatMap((literal) => literal?.children ?? [])];
}

t.test('the API reference documents every exported member, each export with an example', async (t) => {
  const started = Date.now();
  const { app, project, problems } = await convert();
  t.ok(project, 'TypeDoc converts the typings (built by `npm run build`)');
  if (!project) return;
  t.same(
    (project.children ?? []).map((module) => module.name),
    MODULES,
    'one module per package, named as the package (the @module tag of its index.ts)',
  );
  t.same(problems, [], "TypeDoc's validation has nothing to say (undocumented members, types referenced but not exported, broken links)");

  const undocumented: string[] = [];
  const withoutExample: string[] = [];
  const exports: string[] = [];
  const visit = (declaration: DeclarationReflection, name: string): void => {
    if (!hasComment(declaration)) undocumented.push(`${name} (${ReflectionKind.singularString(declaration.kind)})`);
    for (const member of membersOf(declaration)) visit(member, `${name}.${member.name}`);
  };
  for (const module of project.children ?? []) {
    if (!module.hasComment()) undocumented.push(`${module.name} (module: its index.ts needs a @packageDocumentation comment)`);
    for (const declaration of module.children ?? []) {
      const name = `${module.name}: ${declaration.name}`;
      exports.push(name);
      visit(declaration, name);
      if (!hasExample(declaration)) withoutExample.push(`${name} (${ReflectionKind.singularString(declaration.kind)})`);
    }
  }
  t.ok(exports.length >= 50, `${exports.length} exports found`);
  const missing = notExported(app, project);
  t.same(
    [...missing].filter(([type]) => !KNOWN_NOT_EXPORTED.has(type)).map(([type, users]) => `${type}, used by ${[...new Set(users)].join(', ')}`),
    [],
    'every type of ours that the API uses is exported (and so documented); export each listed from its package index.ts',
  );
  t.same(
    [...KNOWN_NOT_EXPORTED].filter((type) => !missing.has(type)),
    [],
    'KNOWN_NOT_EXPORTED lists only types still not exported',
  );
  t.same(undocumented, [], 'every exported declaration and member has a doc comment; write one for each listed');
  t.same(withoutExample, [], 'every exported declaration has an @example block in its doc comment; write one for each listed');
  t.comment(`TypeDoc converted and checked the typings in ${Date.now() - started} ms`);
});
