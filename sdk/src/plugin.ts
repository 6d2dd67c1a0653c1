/**
 * What an overlay plugin is made of: its overlays, the context its `apply`
 * receives (the capabilities the host grants), and `definePlugin()`.
 *
 * A plugin runs in an isolated-vm sandbox. It sees plain JavaScript and the
 * context below; nothing of Node (no `require`, `process`, file system,
 * network or timers) reaches it.
 */

import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { HexColor } from './colors.js';
import type { EdgeKind, NodeKind } from './graph.js';
import { SDK_VERSION } from './version.js';

/**
 * The visual effect an overlay has: node colors, node sizes, badges, or
 * edges between nodes (relations the import graph does not hold: files that
 * change together, calls, ownership handed over). `edge` is new in SDK 0.2.0.
 *
 * @example
 * ```ts
 * import type { OverlayDefinition, OverlayType } from '@strata/sdk';
 *
 * const type: OverlayType = 'badge';
 * const todos: OverlayDefinition = { id: 'todos', name: 'TODOs', type };
 * ```
 */
export type OverlayType = 'color' | 'size' | 'badge' | 'edge';

/**
 * A legend: label to hex color, in the order a UI shows it (low to high for scales).
 *
 * @example
 * ```ts
 * import type { Legend } from '@strata/sdk';
 *
 * const legend: Legend = { low: '#fff5eb', medium: '#fdae6b', high: '#e6550d' };
 * ```
 */
export type Legend = Record<string, HexColor>;

/**
 * One overlay a plugin provides (spec 2.6). A plugin may provide several.
 *
 * @example
 * ```ts
 * import type { OverlayDefinition } from '@strata/sdk';
 *
 * const churn: OverlayDefinition = {
 *   id: 'churn',
 *   name: 'Change frequency',
 *   type: 'color',
 *   description: 'Commits that touched the file in the last six months.',
 *   legend: { low: '#fff5eb', high: '#7f2704' },
 * };
 * ```
 */
export interface OverlayDefinition {
  /** Identifier within the plugin: lower-case letters, digits and dashes. */
  id: string;
  /** Display name. */
  name: string;
  /** The main effect; an overlay may still set any style field. */
  type: OverlayType;
  /** Label to color; may be replaced per apply with `OverlayWriter.setLegend`. */
  legend?: Legend;
  /** One sentence on what the overlay shows. */
  description?: string;
}

/**
 * Largest and smallest `size` a style may carry (1 is a node's normal size).
 *
 * @example
 * ```ts
 * import { STYLE_SIZE_BOUNDS } from '@strata/sdk';
 *
 * const sizeOf = (lines: number): number => Math.min(STYLE_SIZE_BOUNDS.max, Math.max(STYLE_SIZE_BOUNDS.min, 1 + lines / 200));
 * ```
 */
export const STYLE_SIZE_BOUNDS = {
  /** Smallest size. */
  min: 0.1,
  /** Largest size. */
  max: 10,
} as const;

/**
 * Longest badge, in characters.
 *
 * @example
 * ```ts
 * import { MAX_BADGE_LENGTH } from '@strata/sdk';
 *
 * const badgeOf = (text: string): string => (text.length <= MAX_BADGE_LENGTH ? text : `${text.slice(0, MAX_BADGE_LENGTH - 1)}…`);
 * ```
 */
export const MAX_BADGE_LENGTH = 32;

/**
 * How one overlay paints one node. Every field is optional.
 *
 * @example
 * ```ts
 * import type { NodeStyle } from '@strata/sdk';
 *
 * const style: NodeStyle = { color: '#e53935', size: 1.5, badge: 3, value: 42 };
 * ```
 */
export interface NodeStyle {
  /** Fill color, `#rgb` or `#rrggbb` (stored as `#rrggbb`). */
  color?: HexColor;
  /** Scale factor of the node's drawn size: 1 is normal, from `STYLE_SIZE_BOUNDS.min` to `.max`. */
  size?: number;
  /** A short text drawn on the node (at most `MAX_BADGE_LENGTH` characters); numbers are shown as text. */
  badge?: string | number;
  /** The figure behind the style (commits, coverage percentage...), shown in tooltips. Any finite number. */
  value?: number;
}

/**
 * Most edges one overlay may give in one apply.
 *
 * @example
 * ```ts
 * import { MAX_OVERLAY_EDGES } from '@strata/sdk';
 *
 * const strongest = <T extends { weight: number }>(pairs: T[]): T[] => pairs.sort((a, b) => b.weight - a.weight).slice(0, MAX_OVERLAY_EDGES);
 * ```
 */
export const MAX_OVERLAY_EDGES = 100_000;

/**
 * Longest edge label, in characters.
 *
 * @example
 * ```ts
 * import { MAX_EDGE_LABEL_LENGTH } from '@strata/sdk';
 *
 * const labelOf = (text: string): string => text.slice(0, MAX_EDGE_LABEL_LENGTH);
 * ```
 */
export const MAX_EDGE_LABEL_LENGTH = 64;

/**
 * One edge of an `edge` overlay: how strong the relation is, and what to say of it.
 *
 * @example
 * ```ts
 * import type { EdgeStyle } from '@strata/sdk';
 *
 * // Two files changed together in 12 commits, a degree of coupling of 80 %.
 * const coupling: EdgeStyle = { weight: 0.8, value: 12, label: '80 %' };
 * ```
 */
export interface EdgeStyle {
  /** How strong the relation is: a finite number, at least 0. A UI draws heavier edges thicker. */
  weight: number;
  /** A short text shown with the edge (at most `MAX_EDGE_LABEL_LENGTH` characters). */
  label?: string;
  /** The figure behind the edge (shared commits...), shown in tooltips. Any finite number. */
  value?: number;
}

/**
 * What a plugin may ask the host for. It declares the ones it needs in its
 * `package.json` (`strata.capabilities`); any other is refused.
 *
 * @example
 * ```ts
 * import type { Capability } from '@strata/sdk';
 *
 * // What a plugin that reads files and their history declares in strata.capabilities.
 * const needed: Capability[] = ['graph:read', 'files:read', 'git:log'];
 * ```
 */
export type Capability = 'graph:read' | 'git:log' | 'git:blame' | 'files:read' | 'files:list' | 'inputs:read';

/**
 * Every capability, in the order the documentation lists them.
 *
 * @example
 * ```ts
 * import { CAPABILITIES, type Capability } from '@strata/sdk';
 *
 * const isCapability = (name: string): name is Capability => (CAPABILITIES as readonly string[]).includes(name);
 * isCapability('git:log'); // true
 * isCapability('net:fetch'); // false
 * ```
 */
export const CAPABILITIES: readonly Capability[] = ['graph:read', 'git:log', 'git:blame', 'files:read', 'files:list', 'inputs:read'];

/**
 * The graph as columns: entry `i` of every node column describes node `i`.
 * It stays in the sandbox between applies and is replaced only when the
 * graph changes, so reading it costs nothing per apply.
 *
 * @example
 * ```ts
 * import { definePlugin } from '@strata/sdk';
 *
 * export default definePlugin({
 *   overlays: [{ id: 'typescript', name: 'TypeScript files', type: 'color' }],
 *   apply(ctx) {
 *     const { id, kind, kindNames, language, languageNames } = ctx.graph.nodes;
 *     for (let i = 0; i < id.length; i++) {
 *       if (kindNames[kind[i]!] === 'file' && languageNames[language[i]!] === 'typescript') {
 *         ctx.overlay('typescript').set(i, { color: '#3178c6' });
 *       }
 *     }
 *   },
 * });
 * ```
 */
export interface GraphColumns {
  /** Node ids (`file:src/a.ts`, ...). */
  readonly id: readonly string[];
  /** Node kinds as indexes into `kindNames`. */
  readonly kind: Uint8Array;
  /** The kinds `kind` indexes: the kind of node `i` is `kindNames[kind[i]]`. */
  readonly kindNames: readonly NodeKind[];
  /** Node names. */
  readonly name: readonly string[];
  /** Repository-relative paths (the file's path for a symbol). */
  readonly path: readonly string[];
  /** Index of the parent node, -1 for none. */
  readonly parent: Int32Array;
  /** Languages as indexes into `languageNames`, 0 for none (`languageNames[0]` is `''`). */
  readonly language: Uint16Array;
  /** The languages `language` indexes: the language of node `i` is `languageNames[language[i]]`. */
  readonly languageNames: readonly string[];
  /** Lines of code; NaN when unknown. */
  readonly loc: Float64Array;
  /** Lines; NaN when unknown. */
  readonly lines: Float64Array;
  /** Size in bytes; NaN when unknown. */
  readonly bytes: Float64Array;
  /** First line of a symbol, 0 for other nodes. */
  readonly startLine: Int32Array;
  /** Last line of a symbol, 0 for other nodes. */
  readonly endLine: Int32Array;
  /** Cyclomatic complexity where the indexer measures it (`GraphNode.cyclomatic`); NaN elsewhere. */
  readonly cyclomatic: Float64Array;
  /** Cognitive complexity where the indexer measures it (`GraphNode.cognitive`); NaN elsewhere. */
  readonly cognitive: Float64Array;
}

/**
 * The edges as columns: entry `i` of every column describes edge `i`.
 *
 * @example
 * ```ts
 * import { definePlugin } from '@strata/sdk';
 *
 * // Fan-in: how many files import each file.
 * export default definePlugin({
 *   overlays: [{ id: 'fan-in', name: 'Fan-in', type: 'badge' }],
 *   apply(ctx) {
 *     const { target, kind, kindNames } = ctx.graph.edges;
 *     const fanIn = new Map<number, number>();
 *     for (let e = 0; e < ctx.graph.edgeCount; e++) {
 *       if (kindNames[kind[e]!] === 'imports') fanIn.set(target[e]!, (fanIn.get(target[e]!) ?? 0) + 1);
 *     }
 *     for (const [node, count] of fanIn) ctx.overlay('fan-in').set(node, { badge: count, value: count });
 *   },
 * });
 * ```
 */
export interface EdgeColumns {
  /** Index of the source node. */
  readonly source: Int32Array;
  /** Index of the target node. */
  readonly target: Int32Array;
  /** Edge kinds as indexes into `kindNames`. */
  readonly kind: Uint8Array;
  /** The kinds `kind` indexes: the kind of edge `i` is `kindNames[kind[i]]`. */
  readonly kindNames: readonly EdgeKind[];
}

/**
 * A node of the graph as one object (made on demand from the columns).
 *
 * @example
 * ```ts
 * import { definePlugin } from '@strata/sdk';
 *
 * export default definePlugin({
 *   overlays: [{ id: 'entry', name: 'Entry point', type: 'badge' }],
 *   apply(ctx) {
 *     const index = ctx.graph.indexOf('file:src/index.ts');
 *     if (index < 0) return;
 *     const node = ctx.graph.node(index); // { index, id: 'file:src/index.ts', kind: 'file', name: 'index.ts', ... }
 *     ctx.overlay('entry').set(node.index, { badge: 'entry', value: node.loc ?? 0 });
 *   },
 * });
 * ```
 */
export interface NodeRecord {
  /** The node's index into the graph columns. */
  index: number;
  /** Node id (`file:src/a.ts`, ...). */
  id: string;
  /** What the node stands for. */
  kind: NodeKind;
  /** Last segment of the path, or the symbol's name. */
  name: string;
  /** Repository-relative path (the file's path for a symbol). */
  path: string;
  /** Index of the parent node, -1 for none. */
  parent: number;
  /** Language of a file; absent when unknown. */
  language?: string;
  /** Lines of code; absent when unknown. */
  loc?: number;
  /** Lines; absent when unknown. */
  lines?: number;
  /** Size in bytes; absent when unknown. */
  bytes?: number;
  /** First line of a symbol (1-based); absent for other nodes. */
  startLine?: number;
  /** Last line of a symbol (1-based, inclusive); absent for other nodes. */
  endLine?: number;
  /** Cyclomatic complexity where the indexer measures it (`GraphNode.cyclomatic`); absent elsewhere. */
  cyclomatic?: number;
  /** Cognitive complexity where the indexer measures it (`GraphNode.cognitive`); absent elsewhere. */
  cognitive?: number;
}

/**
 * The code graph, read-only, as the `graph:read` capability gives it.
 *
 * @example
 * ```ts
 * import { definePlugin } from '@strata/sdk';
 *
 * // Badges each directory with the number of files directly in it.
 * export default definePlugin({
 *   overlays: [{ id: 'files', name: 'Files per directory', type: 'badge' }],
 *   apply(ctx) {
 *     const graph = ctx.graph;
 *     for (const dir of graph.nodesOfKind('directory')) {
 *       const files = [...graph.children(dir)].filter((child) => graph.node(child).kind === 'file').length;
 *       ctx.overlay('files').set(dir, { badge: files, value: files });
 *     }
 *   },
 * });
 * ```
 */
export interface GraphView {
  /** Increases each time the graph changes. */
  readonly revision: number;
  /** Number of nodes: the length of every node column. */
  readonly nodeCount: number;
  /** Number of edges: the length of every edge column. */
  readonly edgeCount: number;
  /** Node columns, for loops over every node without making objects. */
  readonly nodes: GraphColumns;
  /** Edge columns. */
  readonly edges: EdgeColumns;
  /** Index of the node with this id, or -1. */
  indexOf(id: string): number;
  /** Node `index` as an object. */
  node(index: number): NodeRecord;
  /** Indexes of the nodes of one kind, in graph order. */
  nodesOfKind(kind: NodeKind): Int32Array;
  /** Indexes of the children of node `index` (by `contains` edges). */
  children(index: number): Int32Array;
  /** Indexes of the edges leaving node `index`. */
  outgoing(index: number): Int32Array;
  /** Indexes of the edges arriving at node `index`. */
  incoming(index: number): Int32Array;
}

/**
 * One commit of `git log`, with its per-file line counts.
 *
 * @example
 * ```ts
 * import type { GitCommit } from '@strata/sdk';
 *
 * // Lines changed per file.
 * function churn(commits: GitCommit[]): Map<string, number> {
 *   const lines = new Map<string, number>();
 *   for (const commit of commits) {
 *     for (const file of commit.files) lines.set(file.path, (lines.get(file.path) ?? 0) + file.added + file.deleted);
 *   }
 *   return lines;
 * }
 * ```
 */
export interface GitCommit {
  /** Full hash. */
  hash: string;
  /** Author name after `.mailmap`. */
  authorName: string;
  /** Author e-mail after `.mailmap`. */
  authorEmail: string;
  /** Author date, ISO 8601. */
  date: string;
  /** First line of the message. */
  subject: string;
  /** Files the commit touched; renames name the new path and the old one. */
  files: Array<{
    /** Repository-relative path of the file (its new path for a rename). */
    path: string;
    /** Its path before the commit, for a rename. */
    previousPath?: string;
    /** Lines added (0 for a binary file). */
    added: number;
    /** Lines deleted (0 for a binary file). */
    deleted: number;
    /** Whether git saw the file as binary. */
    binary: boolean;
  }>;
}

/**
 * Arguments of `git.log`.
 *
 * @example
 * ```ts
 * import type { GitLogOptions } from '@strata/sdk';
 *
 * const lastQuarter: GitLogOptions = { since: '2025-01-01', until: '2025-03-31', paths: ['src'], maxCommits: 5000 };
 * ```
 */
export interface GitLogOptions {
  /** ISO date or date-time; commits at or after it. */
  since?: string;
  /** ISO date or date-time; commits at or before it. */
  until?: string;
  /** Repository-relative paths to restrict the log to. */
  paths?: string[];
  /** Most commits returned (default and upper bound set by the host). */
  maxCommits?: number;
}

/**
 * A run of consecutive lines of `git blame` that come from the same commit
 * (runs keep answers small: a file of 1,000 lines is a few dozen runs).
 *
 * @example
 * ```ts
 * import type { BlameRange } from '@strata/sdk';
 *
 * // Lines per author e-mail in one file's blame.
 * function linesByAuthor(ranges: BlameRange[]): Map<string, number> {
 *   const lines = new Map<string, number>();
 *   for (const range of ranges) lines.set(range.authorEmail, (lines.get(range.authorEmail) ?? 0) + range.lineCount);
 *   return lines;
 * }
 * ```
 */
export interface BlameRange {
  /** 1-based number of the run's first line in the current file. */
  startLine: number;
  /** Lines in the run. */
  lineCount: number;
  /** Commit hash; all zeros for lines not committed yet. */
  hash: string;
  /** Author name after `.mailmap`. */
  authorName: string;
  /** Author e-mail after `.mailmap`. */
  authorEmail: string;
  /** Author date, ISO 8601. */
  date: string;
}

/**
 * `git log` and `git blame` of the served repository (capabilities `git:log`, `git:blame`).
 *
 * @example
 * ```ts
 * import { definePlugin } from '@strata/sdk';
 *
 * // Commits per file since the start of the year (declares git:log).
 * export default definePlugin({
 *   overlays: [{ id: 'commits', name: 'Commits', type: 'badge' }],
 *   async apply(ctx) {
 *     const commits = await ctx.git.log({ since: '2025-01-01' });
 *     const counts = new Map<string, number>();
 *     for (const commit of commits) for (const file of commit.files) counts.set(file.path, (counts.get(file.path) ?? 0) + 1);
 *     for (const [path, count] of counts) if (ctx.graph.indexOf(`file:${path}`) >= 0) ctx.overlay('commits').set(`file:${path}`, { badge: count, value: count });
 *   },
 * });
 * ```
 */
export interface GitCapability {
  /**
   * The commits of the repository (newest first), restricted by `options`;
   * none where there is no history (a repository without commits yet, or a
   * directory in no git repository).
   */
  log(options?: GitLogOptions): Promise<GitCommit[]>;
  /**
   * The file's current lines as runs by commit, in line order. Where there
   * is no history, every line of a file is not committed yet (one run, hash
   * all zeros, as git blame names such lines).
   */
  blame(path: string): Promise<BlameRange[]>;
  /**
   * `blame` of up to 500 files in one call (one round trip for many cached
   * answers); a file that cannot be blamed has `error` instead of `ranges`.
   */
  blameMany(paths: string[]): Promise<
    Array<{
      /** The path asked for. */
      path: string;
      /** Its blame, when it could be blamed. */
      ranges?: BlameRange[];
      /** Why it could not be blamed. */
      error?: string;
    }>
  >;
}

/**
 * Files of the served repository (capabilities `files:read`, `files:list`). Paths are repository-relative.
 *
 * @example
 * ```ts
 * import { definePlugin } from '@strata/sdk';
 *
 * // Badges the files that hold a FIXME (declares files:list and files:read).
 * export default definePlugin({
 *   overlays: [{ id: 'fixme', name: 'FIXME', type: 'badge' }],
 *   async apply(ctx) {
 *     const paths = await ctx.files.list(['src/**']);
 *     for (const path of paths.filter((file) => file.endsWith('.ts'))) {
 *       const text = await ctx.files.read(path);
 *       if (text.includes('FIXME')) ctx.overlay('fixme').set(`file:${path}`, { badge: 'FIXME' });
 *     }
 *   },
 * });
 * ```
 */
export interface FilesCapability {
  /** The file as UTF-8 text. Paths leaving the repository (`..`, absolute, symlinks out) are refused. */
  read(path: string): Promise<string>;
  /** Repository-relative paths of the files matching the glob patterns (`.gitignore` honoured). */
  list(patterns: string | string[]): Promise<string[]>;
}

/**
 * Texts sent with the apply request, by name (capability `inputs:read`): a coverage report, a teams file.
 *
 * @example
 * ```ts
 * import { definePlugin, InvalidInputError } from '@strata/sdk';
 *
 * // The manifest declares the input: "inputs": { "report": { "description": "Coverage as JSON" } }.
 * export default definePlugin({
 *   overlays: [{ id: 'coverage', name: 'Coverage', type: 'color' }],
 *   apply(ctx) {
 *     const [report] = ctx.inputs.get('report');
 *     if (report === undefined) throw new InvalidInputError(`send a report (inputs sent: ${ctx.inputs.names().join(', ') || 'none'})`);
 *   },
 * });
 * ```
 */
export interface InputsCapability {
  /** Names of the inputs sent. */
  names(): string[];
  /** The texts sent under `name` (an input may be sent as several texts, as several reports); empty when none. */
  get(name: string): string[];
}

/**
 * Paints one overlay: what `ApplyContext.overlay(id)` returns.
 *
 * @example
 * ```ts
 * import { definePlugin } from '@strata/sdk';
 *
 * export default definePlugin({
 *   overlays: [{ id: 'size', name: 'Size', type: 'size' }],
 *   apply(ctx) {
 *     const writer = ctx.overlay('size');
 *     writer.set('file:src/index.ts', { size: 2, value: 400 }); // by id
 *     writer.set(0, { size: 1 }); // by index into the graph columns
 *     writer.setLegend({ small: '#c6dbef', large: '#08519c' });
 *   },
 * });
 * ```
 */
export interface OverlayWriter {
  /** Sets the style of a node, by id or by index into the graph columns. A later call for the same node replaces it. */
  set(node: string | number, style: NodeStyle): void;
  /**
   * Adds an edge from `source` to `target` (node ids or indexes into the
   * graph columns, two different nodes), for an overlay of type `edge`. A
   * later call for the same pair replaces it. An unknown node, a weight
   * that is not a finite number of at least 0, or more than
   * `MAX_OVERLAY_EDGES` edges fail the apply, and the last good result is
   * kept. New in SDK 0.2.0.
   *
   * @example
   * ```ts
   * import { definePlugin } from '@strata/sdk';
   *
   * export default definePlugin({
   *   overlays: [{ id: 'together', name: 'Changed together', type: 'edge' }],
   *   apply(ctx) {
   *     ctx.overlay('together').setEdge('file:src/a.ts', 'file:src/b.ts', { weight: 0.8, value: 12, label: '80 %' });
   *   },
   * });
   * ```
   */
  setEdge(source: string | number, target: string | number, edge: EdgeStyle): void;
  /** Replaces the legend of the overlay for this apply. */
  setLegend(legend: Legend): void;
}

/**
 * What `apply` receives. A capability the plugin did not declare throws when used.
 *
 * @example
 * ```ts
 * import { definePlugin, type ApplyContext } from '@strata/sdk';
 *
 * async function paint(ctx: ApplyContext<{ marker: string }>): Promise<void> {
 *   const files = ctx.graph.nodesOfKind('file');
 *   let done = 0;
 *   for (const file of files) {
 *     const text = await ctx.files.read(ctx.graph.nodes.path[file]!);
 *     const count = text.split(ctx.params.marker).length - 1;
 *     if (count > 0) ctx.overlay('markers').set(file, { badge: count, value: count });
 *     ctx.progress(++done, files.length, 'reading files');
 *   }
 *   ctx.log(`read ${done} files`);
 * }
 *
 * export default definePlugin<{ marker: string }>({
 *   overlays: [{ id: 'markers', name: 'Markers', type: 'badge' }],
 *   apply: paint,
 * });
 * ```
 */
export interface ApplyContext<Params = Record<string, unknown>> {
  /**
   * The apply request's parameters, checked by the host against the
   * plugin's parameter schema (`parameters` of `definePlugin`, or the
   * manifest's `strata.parameters`), with the schema's defaults filled in.
   */
  params: Params;
  /** The code graph (capability `graph:read`). */
  graph: GraphView;
  /** `git log` and `git blame` (capabilities `git:log`, `git:blame`). */
  git: GitCapability;
  /** The repository's files (capabilities `files:read`, `files:list`). */
  files: FilesCapability;
  /** The texts sent with the request (capability `inputs:read`). */
  inputs: InputsCapability;
  /** The writer of overlay `id` (one of the plugin's overlays). */
  overlay(id: string): OverlayWriter;
  /** Writes a line to the host's log (rate-limited). */
  log(message: string): void;
  /**
   * Says how far the apply has come: `done` of `total` (in any unit: files,
   * commits), with an optional short message ("blaming files"). Shown in the
   * overlay's status, in `overlay.progress` events, in the web UI and the
   * CLI. Call it as often as you like: the host hears it at most five times
   * a second, and always hears the last report of the apply.
   */
  progress(done: number, total?: number, message?: string): void;
}

/**
 * Figures about an apply that belong to no node (files without coverage
 * data, authors not in the teams file...), shown in the overlay's status.
 * At most 50 entries; values are finite numbers or strings of at most 500
 * characters.
 *
 * @example
 * ```ts
 * import { definePlugin } from '@strata/sdk';
 *
 * export default definePlugin({
 *   overlays: [{ id: 'coverage', name: 'Coverage', type: 'color' }],
 *   apply(ctx) {
 *     const filesWithoutData = ctx.graph.nodesOfKind('file').length;
 *     return { summary: { filesWithoutData, report: 'coverage.xml' } };
 *   },
 * });
 * ```
 */
export interface ApplySummary {
  /** The figures, by name. */
  summary?: Record<string, number | string>;
}

/**
 * Thrown by a plugin when the apply request is at fault (a malformed report,
 * a bad teams file): the client gets 400 `INVALID_PARAMETER` with the message,
 * instead of a plugin failure.
 *
 * @example
 * ```ts
 * import { definePlugin, InvalidInputError } from '@strata/sdk';
 *
 * export default definePlugin({
 *   overlays: [{ id: 'teams', name: 'Teams', type: 'color' }],
 *   apply(ctx) {
 *     for (const text of ctx.inputs.get('teams')) {
 *       try {
 *         JSON.parse(text);
 *       } catch (error) {
 *         throw new InvalidInputError(`teams: not JSON: ${(error as Error).message}`);
 *       }
 *     }
 *   },
 * });
 * ```
 */
export class InvalidInputError extends Error {
  /** Always `'InvalidInputError'`. */
  override name = 'InvalidInputError';
}

/**
 * A JSON schema of a plugin's apply parameters: an object schema. Declared
 * in `definePlugin({ parameters })`, it also gives `ctx.params` its type.
 *
 * @example
 * ```ts
 * import type { ParametersSchema } from '@strata/sdk';
 *
 * const parameters = {
 *   type: 'object',
 *   properties: {
 *     since: { type: 'string', format: 'date', description: 'First day of the history read.' },
 *     limit: { type: 'integer', minimum: 1, default: 100 },
 *   },
 *   required: ['since'],
 *   additionalProperties: false,
 * } as const satisfies ParametersSchema;
 * ```
 */
export interface ParametersSchema {
  /** Always `'object'`: the parameters are the apply request's JSON body. */
  type: 'object';
  /** The parameters, by name, each a JSON schema. */
  properties?: Readonly<Record<string, unknown>>;
  /** The parameters a request must send (those with a `default` need not be). */
  required?: readonly string[];
  /** `false` to refuse parameters not listed in `properties`. */
  additionalProperties?: unknown;
  /** Any other JSON schema keyword. */
  [keyword: string]: unknown;
}

/**
 * The type of the parameters a schema accepts, as `apply` sees them: a
 * property with a `default` is always there (the host fills defaults in
 * before it calls `apply`). Inferred by json-schema-to-ts.
 *
 * @example
 * ```ts
 * import type { ParametersOf } from '@strata/sdk';
 *
 * const parameters = {
 *   type: 'object',
 *   properties: { scale: { type: 'number', default: 200 }, label: { type: 'string' } },
 *   additionalProperties: false,
 * } as const;
 * type Params = ParametersOf<typeof parameters>; // { scale: number; label?: string }
 * const params: Params = { scale: 100 };
 * ```
 */
export type ParametersOf<S extends ParametersSchema> = S extends JSONSchema ? FromSchema<S> : Record<string, unknown>;

/**
 * What an author passes to `definePlugin`.
 *
 * @example
 * ```ts
 * import { definePlugin, type PluginDefinition } from '@strata/sdk';
 *
 * const definition: PluginDefinition<{ scale?: number }> = {
 *   overlays: [{ id: 'size', name: 'Size by lines', type: 'size' }],
 *   apply(ctx) {
 *     const scale = ctx.params.scale ?? 200;
 *     const { loc } = ctx.graph.nodes;
 *     for (const file of ctx.graph.nodesOfKind('file')) {
 *       if (!Number.isNaN(loc[file]!)) ctx.overlay('size').set(file, { size: 1 + loc[file]! / scale, value: loc[file]! });
 *     }
 *   },
 * };
 * export default definePlugin(definition);
 * ```
 */
export interface PluginDefinition<Params = Record<string, unknown>> {
  /**
   * JSON schema of the apply parameters, an object schema (at most 64 KB as
   * JSON): the host checks every apply request against it (400
   * `INVALID_PARAMETER` naming the field) and fills in defaults; the UI
   * builds its parameters form from it. Declared here, it gives
   * `ctx.params` its TypeScript type, so that the parameters are written
   * once. A plugin declares its parameters either here or in its manifest
   * (`strata.parameters`), not in both. Without either, it takes none.
   */
  parameters?: ParametersSchema;
  /** The overlays the plugin provides. */
  overlays: OverlayDefinition[];
  /**
   * Computes the styles. Throwing (or rejecting) fails the apply with that
   * message; throw `InvalidInputError` when the request's inputs or
   * parameters are at fault (the client gets a 400). May return a summary.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: an apply that returns nothing is the common case; `void` lets it be written so.
  apply(context: ApplyContext<Params>): void | ApplySummary | Promise<void | ApplySummary>;
}

/**
 * Version of the descriptor format `definePlugin` returns.
 *
 * @example
 * ```ts
 * import { definePlugin, PLUGIN_DESCRIPTOR_VERSION } from '@strata/sdk';
 *
 * const plugin = definePlugin({ overlays: [], apply() {} });
 * plugin.strataPlugin === PLUGIN_DESCRIPTOR_VERSION; // true
 * ```
 */
export const PLUGIN_DESCRIPTOR_VERSION = 1;

/**
 * The descriptor a plugin's entry exports as default; the host validates it when it loads the plugin.
 *
 * @example
 * ```ts
 * import { definePlugin, type PluginDescriptor } from '@strata/sdk';
 *
 * const plugin: PluginDescriptor = definePlugin({ overlays: [{ id: 'none', name: 'Nothing', type: 'color' }], apply() {} });
 * plugin.sdkVersion; // '0.1.0': the SDK it was built with
 * export default plugin;
 * ```
 */
export interface PluginDescriptor<Params = Record<string, unknown>> extends PluginDefinition<Params> {
  /** Always `PLUGIN_DESCRIPTOR_VERSION`. */
  strataPlugin: typeof PLUGIN_DESCRIPTOR_VERSION;
  /** The SDK version the plugin was built with. */
  sdkVersion: string;
}

/**
 * Declares a plugin. Export the result as the entry's default export. With
 * `parameters`, `ctx.params` is typed from the schema.
 *
 * @example
 * ```ts
 * import { definePlugin } from '@strata/sdk';
 *
 * export default definePlugin({
 *   parameters: {
 *     type: 'object',
 *     properties: { scale: { type: 'number', exclusiveMinimum: 0, default: 200 } },
 *     additionalProperties: false,
 *   },
 *   overlays: [{ id: 'size', name: 'Size', type: 'size' }],
 *   apply(ctx) {
 *     const scale = ctx.params.scale; // number
 *   },
 * });
 * ```
 */
export function definePlugin<const S extends ParametersSchema>(
  definition: PluginDefinition<ParametersOf<S>> & { parameters: S },
): PluginDescriptor<ParametersOf<S>>;
/**
 * Declares a plugin whose parameters are declared in its manifest (`strata.parameters`), typed by hand, or that takes none.
 *
 * @example
 * ```ts
 * import { definePlugin } from '@strata/sdk';
 *
 * // The manifest's strata.parameters declares `since`; the type says what apply gets.
 * export default definePlugin<{ since?: string }>({
 *   overlays: [{ id: 'churn', name: 'Churn', type: 'color' }],
 *   async apply(ctx) {
 *     const commits = await ctx.git.log({ since: ctx.params.since ?? '2025-01-01' });
 *     ctx.log(`${commits.length} commits`);
 *   },
 * });
 * ```
 */
export function definePlugin<Params = Record<string, unknown>>(definition: PluginDefinition<Params>): PluginDescriptor<Params>;
export function definePlugin<Params>(definition: PluginDefinition<Params>): PluginDescriptor<Params> {
  const descriptor: PluginDescriptor<Params> = {
    strataPlugin: PLUGIN_DESCRIPTOR_VERSION,
    sdkVersion: SDK_VERSION,
    overlays: definition.overlays,
    apply: definition.apply,
  };
  if (definition.parameters !== undefined) descriptor.parameters = definition.parameters;
  return descriptor;
}

/**
 * An input a plugin reads with `ctx.inputs.get(name)`, as its manifest
 * declares it (`strata.inputs`), so that a UI can offer a file field for it
 * and `GET /api/overlays` can list it. Declaring inputs needs the
 * `inputs:read` capability.
 *
 * @example
 * ```ts
 * import type { PluginInput } from '@strata/sdk';
 *
 * // In package.json: "strata": { ..., "inputs": { "report": { ... } } }
 * const report: PluginInput = { description: 'Cobertura XML coverage reports', accept: '.xml', multiple: true };
 * ```
 */
export interface PluginInput {
  /** What to send, in a sentence shown beside the field (`Cobertura XML coverage reports`). */
  description: string;
  /**
   * The file types it takes, as an HTML `accept` attribute: file extensions
   * and media types separated by commas (`.xml`, `application/json`,
   * `.json,application/json`).
   */
  accept?: string;
  /** Whether several texts may be sent under this name (several reports merged). Default false. */
  multiple?: boolean;
}

/**
 * The `strata` field of a plugin's `package.json`.
 *
 * @example
 * ```json
 * "strata": {
 *   "id": "todo-density", "name": "TODO density", "description": "Markers per 100 lines of code",
 *   "sdk": "^0.1.0", "entry": "dist/plugin.js", "source": "src/index.ts",
 *   "capabilities": ["graph:read", "files:read"]
 * }
 * ```
 */
export interface PluginManifest {
  /** Plugin id, used in `/api/overlays/{id}`: lower-case letters, digits and dashes. */
  id: string;
  /** Display name. */
  name: string;
  /** Short description. */
  description: string;
  /** Semver range of SDK versions the plugin works with. */
  sdk: string;
  /** The bundled JavaScript file the sandbox loads, relative to the package. */
  entry: string;
  /** TypeScript or JavaScript source `strata plugin build` bundles into `entry` (default `src/index.ts` when it exists). */
  source?: string;
  /** Capabilities the plugin needs. */
  capabilities?: Capability[];
  /**
   * JSON schema of the apply parameters (an object schema). Prefer
   * `parameters` in `definePlugin`, which also types `ctx.params`; a plugin
   * declares them in one place or the other.
   */
  parameters?: Record<string, unknown>;
  /**
   * The inputs the plugin reads, by name (the name `ctx.inputs.get` takes and
   * the apply body's `inputs` holds: a letter, then letters, digits, `-` or
   * `_`). Needs the `inputs:read` capability: a manifest declaring inputs
   * without it is not loaded.
   *
   * ```json
   * "inputs": { "report": { "description": "Cobertura XML coverage reports", "accept": ".xml", "multiple": true } }
   * ```
   */
  inputs?: Record<string, PluginInput>;
}
