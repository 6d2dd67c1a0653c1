/**
 * The code graph as plugins and API clients see it.
 *
 * Every node and edge has an `id` derived from repository paths, so the same
 * file keeps the same id across restarts and re-indexing. Saved layout
 * positions and overlay results are keyed by these ids.
 */
import type { NodeStyle } from './plugin.js';

/**
 * What a node stands for. Symbol kinds appear once the indexer records symbols.
 *
 * @example
 * ```ts
 * import type { GraphNode, NodeKind } from '@strata/sdk';
 *
 * const symbolKinds: NodeKind[] = ['function', 'class', 'method', 'interface', 'type', 'variable'];
 * const isSymbol = (node: GraphNode): boolean => symbolKinds.includes(node.kind);
 * ```
 */
export type NodeKind = 'directory' | 'file' | 'package' | 'function' | 'class' | 'method' | 'interface' | 'type' | 'variable';

/**
 * What an edge stands for: `contains` for the tree, `imports` for module references.
 *
 * @example
 * ```ts
 * import type { EdgeKind, GraphEdge } from '@strata/sdk';
 *
 * const ofKind = (edges: GraphEdge[], kind: EdgeKind): GraphEdge[] => edges.filter((edge) => edge.kind === kind);
 * ```
 */
export type EdgeKind = 'contains' | 'imports';

/**
 * A point in layout space.
 *
 * @example
 * ```ts
 * import type { Position } from '@strata/sdk';
 *
 * const distance = (a: Position, b: Position): number => Math.hypot(a.x - b.x, a.y - b.y);
 * distance({ x: 0, y: 0 }, { x: 3, y: 4 }); // 5
 * ```
 */
export interface Position {
  /** Horizontal coordinate; any finite number. */
  x: number;
  /** Vertical coordinate; any finite number. */
  y: number;
}

/**
 * A node of the code graph, as `GET /api/graph` serves it and as
 * `PluginTester` takes it.
 *
 * @example
 * ```ts
 * import type { GraphNode } from '@strata/sdk';
 *
 * const nodes: GraphNode[] = [
 *   { id: 'dir:.', kind: 'directory', name: 'repo', path: '.' },
 *   { id: 'file:a.ts', kind: 'file', name: 'a.ts', path: 'a.ts', parent: 'dir:.', language: 'typescript', loc: 120 },
 *   { id: 'sym:a.ts#main', kind: 'function', name: 'main', path: 'a.ts', parent: 'file:a.ts', startLine: 3, endLine: 20, exported: true },
 * ];
 * ```
 */
export interface GraphNode {
  /** Stable identifier: `dir:<path>`, `file:<path>`, `pkg:<name>`, `sym:<path>#<name>` or `sym:<path>#<Class>.<method>`. */
  id: string;
  /** What the node stands for. */
  kind: NodeKind;
  /** Last segment of the path (a file or directory name) or the symbol's name. */
  name: string;
  /**
   * Repository-relative path with forward slashes: `.` for the root, the
   * file's path for a symbol, the package name (`react`, `node:fs`, `python:requests`, `go:github.com/spf13/cobra`, `c:zlib.h`, `java:org.slf4j`) for a package.
   */
  path: string;
  /** Id of the containing node (directory, file, or class for a method); absent on the root directory and on packages. */
  parent?: string;
  /**
   * Language of a file, by GitHub Linguist's names in lower case
   * (`typescript`, `tsx`, `javascript`, `python`, `go`, `rust`, `java`,
   * `kotlin`, `c#`, `ruby`, `php`, `c`, `c++`, `json`, ...); absent when
   * unknown. Files of the languages named here up to `c++` are parsed
   * (imports and symbols); the others are nodes without edges.
   */
  language?: string;
  /** Size of a file in bytes. */
  bytes?: number;
  /** Number of lines of a file or symbol. */
  lines?: number;
  /** Lines of code: lines that hold something other than white space and comments. */
  loc?: number;
  /**
   * Cyclomatic complexity, where the indexer measures it (files and symbols
   * of the languages it parses with tree-sitter: Python, Go, Rust, Java,
   * Kotlin, C#, Ruby, PHP, C, C++): a function's own; a class's or file's the sum
   * over the functions inside it. TypeScript and JavaScript are measured by
   * the complexity plugin instead.
   */
  cyclomatic?: number;
  /** Cognitive complexity, where the indexer measures it (as `cyclomatic`). */
  cognitive?: number;
  /** For a directory: the number of files below it, at any depth. */
  files?: number;
  /** First line of a symbol (1-based). */
  startLine?: number;
  /** Last line of a symbol (1-based, inclusive). */
  endLine?: number;
  /** True for a file whose content is not text. */
  binary?: boolean;
  /** For a symbol: whether the file exports it. */
  exported?: boolean;
  /** For a package: true for a built-in module, Node.js's (`node:fs`), in Python's or Go's standard library (`python:os`, `go:net/http`), a C or C++ standard header (`c:stdio.h`, `c:vector`), the Java platform's (`java:java.util`), Kotlin's, .NET's `System` namespaces, a crate of Rust's compiler (`rust:std`), Ruby's standard library, or PHP's core and bundled extensions. */
  builtin?: boolean;
  /** Why a file could only be indexed in part (for example a syntax error). */
  error?: string;
  /** Saved layout position, present when one was saved for this node. */
  position?: Position;
  /** Styles of the active overlays that paint this node: plugin id → overlay id → style. */
  overlays?: Record<string, Record<string, NodeStyle>>;
}

/**
 * How a module reference was written in the source.
 *
 * @example
 * ```ts
 * import type { GraphEdge } from '@strata/sdk';
 *
 * // Imports that exist only for types are gone at run time.
 * const atRunTime = (edge: GraphEdge): boolean => edge.references?.some((kind) => kind !== 'type-only') ?? true;
 * ```
 */
export type ImportReferenceKind = 'static' | 'dynamic' | 'require' | 're-export' | 'type-only';

/**
 * An edge of the code graph.
 *
 * @example
 * ```ts
 * import type { GraphEdge } from '@strata/sdk';
 *
 * const edges: GraphEdge[] = [
 *   { id: 'contains:dir:.->file:a.ts', source: 'dir:.', target: 'file:a.ts', kind: 'contains' },
 *   {
 *     id: 'imports:file:a.ts->file:b.ts',
 *     source: 'file:a.ts',
 *     target: 'file:b.ts',
 *     kind: 'imports',
 *     references: ['static'],
 *     specifiers: ['./b.js'],
 *   },
 * ];
 * ```
 */
export interface GraphEdge {
  /** Stable identifier: `<kind>:<source>-><target>`. */
  id: string;
  /** Id of the node the edge starts from (the container, or the importing file). */
  source: string;
  /** Id of the node the edge points to (the contained node, or the imported module: a file, a package, or the directory of a Go package). */
  target: string;
  /** What the edge stands for. */
  kind: EdgeKind;
  /** For `imports`: the kinds of reference that made this edge. */
  references?: ImportReferenceKind[];
  /** For `imports`: the specifiers as written in the source, in order of appearance. */
  specifiers?: string[];
}
