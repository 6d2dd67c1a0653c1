import { type Static, Type } from '@sinclair/typebox';
import { type GraphEdge, type GraphNode, MAX_BADGE_LENGTH, STYLE_SIZE_BOUNDS } from '@strata/sdk';
import { StringEnum } from '../validation/string-enum.js';

/** A layout position. */
export const PositionSchema = Type.Object(
  { x: Type.Number({ description: 'Horizontal coordinate.' }), y: Type.Number({ description: 'Vertical coordinate.' }) },
  { additionalProperties: false, $id: 'Position' },
);

/** How an overlay paints a node. */
export const NodeStyleSchema = Type.Object({
  // As served: the sandbox normalizes every color a plugin sets to lower-case #rrggbb.
  color: Type.Optional(Type.String({ pattern: '^#[0-9a-f]{6}$', description: 'Fill color.' })),
  size: Type.Optional(
    Type.Number({ minimum: STYLE_SIZE_BOUNDS.min, maximum: STYLE_SIZE_BOUNDS.max, description: 'Scale factor of the drawn size; 1 is normal.' }),
  ),
  badge: Type.Optional(Type.Union([Type.String({ maxLength: MAX_BADGE_LENGTH }), Type.Number()])),
  value: Type.Optional(Type.Number({ description: 'The figure behind the style.' })),
});

const NODE_KINDS = ['directory', 'file', 'package', 'function', 'class', 'method', 'interface', 'type', 'variable'] as const;
const REFERENCE_KINDS = ['static', 'dynamic', 'require', 're-export', 'type-only'] as const;

/** A node record as the API returns it. */
export const GraphNodeSchema = Type.Object({
  id: Type.String({
    description: 'Stable id derived from the path: `dir:<path>`, `file:<path>`, `pkg:<name>`, `sym:<path>#<name>`, `sym:<path>#<Class>.<method>`.',
  }),
  kind: StringEnum(NODE_KINDS),
  name: Type.String(),
  path: Type.String({ description: 'Repository-relative path with forward slashes; `.` for the root; the package name for a package.' }),
  parent: Type.Optional(Type.String({ description: 'Id of the containing node.' })),
  language: Type.Optional(
    Type.String({
      description:
        "A file's language, by GitHub Linguist's names in lower case, from its extension or name (`typescript`, `tsx`, `javascript`, `python`, `go`, `rust`, `java`, `kotlin`, `c#`, `ruby`, `php`, `c`, `c++`, `json`, `markdown`, ...; a `.h` file is `c` unless its text is C++). Files of the first twelve are parsed: imports, symbols and, but for TypeScript and JavaScript (which the complexity plugin measures), `cyclomatic` and `cognitive`; files of any other language are nodes without edges.",
    }),
  ),
  bytes: Type.Optional(Type.Integer({ minimum: 0 })),
  lines: Type.Optional(Type.Integer({ minimum: 0 })),
  loc: Type.Optional(Type.Integer({ minimum: 0, description: 'Lines holding something other than white space and comments.' })),
  cyclomatic: Type.Optional(
    Type.Integer({
      minimum: 0,
      description:
        "Cyclomatic complexity where the indexer measures it (files and symbols of Python, Go, Rust, Java, Kotlin, C#, Ruby, PHP, C and C++): a function's own, a class's or file's the sum over its functions.",
    }),
  ),
  cognitive: Type.Optional(Type.Integer({ minimum: 0, description: 'Cognitive complexity where the indexer measures it (as `cyclomatic`).' })),
  files: Type.Optional(Type.Integer({ minimum: 0, description: 'Files below a directory, at any depth.' })),
  startLine: Type.Optional(Type.Integer({ minimum: 1 })),
  endLine: Type.Optional(Type.Integer({ minimum: 1 })),
  binary: Type.Optional(Type.Boolean()),
  exported: Type.Optional(Type.Boolean({ description: 'For a symbol: whether its file exports it.' })),
  builtin: Type.Optional(
    Type.Boolean({
      description:
        "For a package: part of the language or its platform: a Node.js built-in (`node:fs`), a module of Python's standard library, a package of Go's, a C or C++ standard header, the Java platform's packages (java., javax., jdk.), Kotlin's (kotlin.), .NET's `System` namespaces, a crate of Rust's compiler (std, core, alloc, proc_macro, test), Ruby's standard library and default gems, PHP's core and bundled extensions.",
    }),
  ),
  error: Type.Optional(Type.String({ description: 'Why the node could only be indexed in part.' })),
  position: Type.Optional(PositionSchema),
  overlays: Type.Optional(
    Type.Record(Type.String(), Type.Record(Type.String(), NodeStyleSchema), {
      description: 'Styles of the active overlays: plugin id -> overlay id -> style.',
    }),
  ),
});

/** An edge record as the API returns it. */
export const GraphEdgeSchema = Type.Object({
  id: Type.String({ description: '`<kind>:<source>-><target>`.' }),
  source: Type.String(),
  target: Type.String(),
  kind: StringEnum(['contains', 'imports'] as const, {
    description:
      "`contains`: directory -> file -> symbol -> method. `imports`: a file to the file, directory or package its import names, resolved as the language's toolchain does: TypeScript's module resolution (tsconfig paths, package exports, workspaces); Python's import system from the project's source roots; a Go import path to the package's directory (go.mod, go.work, replace, vendor); Rust's module tree (`mod`, `use crate::`/`super::`/`self::`, workspace crates); Java and Kotlin by declared packages; C# `using` to the files declaring the namespace (of a namespace above 200 files, those declaring a type or extension method the file names); C and C++ `#include` as GCC searches (compile_commands.json, else include/ folders); Ruby `require_relative` and `require` along lib/; PHP includes and Composer's PSR-4/PSR-0 autoload. The README's graph section states each rule.",
  }),
  references: Type.Optional(Type.Array(StringEnum(REFERENCE_KINDS))),
  specifiers: Type.Optional(Type.Array(Type.String())),
});

// The schemas above describe the SDK's types; these lines stop them drifting apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const nodeSchemaMatchesSdk: Same<Static<typeof GraphNodeSchema>, GraphNode> = true;
const edgeSchemaMatchesSdk: Same<Static<typeof GraphEdgeSchema>, GraphEdge> = true;
void nodeSchemaMatchesSdk;
void edgeSchemaMatchesSdk;
