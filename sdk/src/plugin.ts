/**
 * What an overlay plugin is made of: its overlays, the context its `apply`
 * receives (the capabilities the host grants), and `definePlugin()`.
 *
 * A plugin runs in an isolated-vm sandbox. It sees plain JavaScript and the
 * context below; nothing of Node (no `require`, `process`, file system,
 * network or timers) reaches it.
 */
import type { EdgeKind, NodeKind } from './graph.js';
import type { HexColor } from './colors.js';
import { SDK_VERSION } from './version.js';

/** The visual effect an overlay has: node colors, node sizes, or badges. */
export type OverlayType = 'color' | 'size' | 'badge';

/** A legend: label to hex color, in the order a UI shows it (low to high for scales). */
export type Legend = Record<string, HexColor>;

/** One overlay a plugin provides (spec 2.6). A plugin may provide several. */
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

/** Largest and smallest `size` a style may carry (1 is a node's normal size). */
export const STYLE_SIZE_BOUNDS = { min: 0.1, max: 10 } as const;

/** Longest badge, in characters. */
export const MAX_BADGE_LENGTH = 32;

/** How one overlay paints one node. Every field is optional. */
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
 * What a plugin may ask the host for. It declares the ones it needs in its
 * `package.json` (`strata.capabilities`); any other is refused.
 */
export type Capability = 'graph:read' | 'git:log' | 'git:blame' | 'files:read' | 'files:list' | 'inputs:read';

/** Every capability, in the order the documentation lists them. */
export const CAPABILITIES: readonly Capability[] = ['graph:read', 'git:log', 'git:blame', 'files:read', 'files:list', 'inputs:read'];

/**
 * The graph as columns: entry `i` of every node column describes node `i`.
 * It stays in the sandbox between applies and is replaced only when the
 * graph changes, so reading it costs nothing per apply.
 */
export interface GraphColumns {
  /** Node ids (`file:src/a.ts`, ...). */
  readonly id: readonly string[];
  /** Node kinds as indexes into `kindNames`. */
  readonly kind: Uint8Array;
  readonly kindNames: readonly NodeKind[];
  /** Node names. */
  readonly name: readonly string[];
  /** Repository-relative paths (the file's path for a symbol). */
  readonly path: readonly string[];
  /** Index of the parent node, -1 for none. */
  readonly parent: Int32Array;
  /** Languages as indexes into `languageNames`, 0 for none (`languageNames[0]` is `''`). */
  readonly language: Uint16Array;
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
}

/** The edges as columns: entry `i` of every column describes edge `i`. */
export interface EdgeColumns {
  /** Index of the source node. */
  readonly source: Int32Array;
  /** Index of the target node. */
  readonly target: Int32Array;
  /** Edge kinds as indexes into `kindNames`. */
  readonly kind: Uint8Array;
  readonly kindNames: readonly EdgeKind[];
}

/** A node of the graph as one object (made on demand from the columns). */
export interface NodeRecord {
  index: number;
  id: string;
  kind: NodeKind;
  name: string;
  path: string;
  /** Index of the parent node, -1 for none. */
  parent: number;
  language?: string;
  loc?: number;
  lines?: number;
  bytes?: number;
  startLine?: number;
  endLine?: number;
}

/** The code graph, read-only, as the `graph:read` capability gives it. */
export interface GraphView {
  /** Increases each time the graph changes. */
  readonly revision: number;
  readonly nodeCount: number;
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

/** One commit of `git log`, with its per-file line counts. */
export interface GitCommit {
  /** Full hash. */
  hash: string;
  /** Author name and e-mail after `.mailmap`. */
  authorName: string;
  authorEmail: string;
  /** Author date, ISO 8601. */
  date: string;
  /** First line of the message. */
  subject: string;
  /** Files the commit touched; renames name the new path and the old one. */
  files: Array<{ path: string; previousPath?: string; added: number; deleted: number; binary: boolean }>;
}

/** Arguments of `git.log`. */
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
 */
export interface BlameRange {
  /** 1-based number of the run's first line in the current file. */
  startLine: number;
  /** Lines in the run. */
  lineCount: number;
  /** Commit hash; all zeros for lines not committed yet. */
  hash: string;
  authorName: string;
  authorEmail: string;
  /** Author date, ISO 8601. */
  date: string;
}

/** `git log` and `git blame` of the served repository (capabilities `git:log`, `git:blame`). */
export interface GitCapability {
  log(options?: GitLogOptions): Promise<GitCommit[]>;
  /** The file's current lines as runs by commit, in line order. */
  blame(path: string): Promise<BlameRange[]>;
  /**
   * `blame` of up to 500 files in one call (one round trip for many cached
   * answers); a file that cannot be blamed has `error` instead of `ranges`.
   */
  blameMany(paths: string[]): Promise<Array<{ path: string; ranges?: BlameRange[]; error?: string }>>;
}

/** Files of the served repository (capabilities `files:read`, `files:list`). Paths are repository-relative. */
export interface FilesCapability {
  /** The file as UTF-8 text. Paths leaving the repository (`..`, absolute, symlinks out) are refused. */
  read(path: string): Promise<string>;
  /** Repository-relative paths of the files matching the glob patterns (`.gitignore` honoured). */
  list(patterns: string | string[]): Promise<string[]>;
}

/** Texts sent with the apply request, by name (capability `inputs:read`): a coverage report, a teams file. */
export interface InputsCapability {
  /** Names of the inputs sent. */
  names(): string[];
  /** The texts sent under `name` (an input may be sent as several texts, as several reports); empty when none. */
  get(name: string): string[];
}

/** Paints one overlay: what `ApplyContext.overlay(id)` returns. */
export interface OverlayWriter {
  /** Sets the style of a node, by id or by index into the graph columns. A later call for the same node replaces it. */
  set(node: string | number, style: NodeStyle): void;
  /** Replaces the legend of the overlay for this apply. */
  setLegend(legend: Legend): void;
}

/** What `apply` receives. A capability the plugin did not declare throws when used. */
export interface ApplyContext<Params = Record<string, unknown>> {
  /** The apply request's parameters, validated against the plugin's `strata.parameters` schema. */
  params: Params;
  graph: GraphView;
  git: GitCapability;
  files: FilesCapability;
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
   * a second.
   */
  progress(done: number, total?: number, message?: string): void;
}

/**
 * Figures about an apply that belong to no node (files without coverage
 * data, authors not in the teams file...), shown in the overlay's status.
 * At most 50 entries; values are finite numbers or strings of at most 500
 * characters.
 */
export interface ApplySummary {
  summary?: Record<string, number | string>;
}

/**
 * Thrown by a plugin when the apply request is at fault (a malformed report,
 * a bad teams file): the client gets 400 `INVALID_PARAMETER` with the message,
 * instead of a plugin failure.
 */
export class InvalidInputError extends Error {
  override name = 'InvalidInputError';
}

/** What an author passes to `definePlugin`. */
export interface PluginDefinition<Params = Record<string, unknown>> {
  /** The overlays the plugin provides. */
  overlays: OverlayDefinition[];
  /**
   * Computes the styles. Throwing (or rejecting) fails the apply with that
   * message; throw `InvalidInputError` when the request's inputs or
   * parameters are at fault (the client gets a 400). May return a summary.
   */
  apply(context: ApplyContext<Params>): void | ApplySummary | Promise<void | ApplySummary>;
}

/** Version of the descriptor format `definePlugin` returns. */
export const PLUGIN_DESCRIPTOR_VERSION = 1;

/** The descriptor a plugin's entry exports as default; the host validates it when it loads the plugin. */
export interface PluginDescriptor<Params = Record<string, unknown>> extends PluginDefinition<Params> {
  /** Always `PLUGIN_DESCRIPTOR_VERSION`. */
  strataPlugin: typeof PLUGIN_DESCRIPTOR_VERSION;
  /** The SDK version the plugin was built with. */
  sdkVersion: string;
}

/**
 * Declares a plugin. Export the result as the entry's default export:
 *
 * ```ts
 * export default definePlugin({ overlays: [...], apply(ctx) { ... } });
 * ```
 */
export function definePlugin<Params = Record<string, unknown>>(definition: PluginDefinition<Params>): PluginDescriptor<Params> {
  return { strataPlugin: PLUGIN_DESCRIPTOR_VERSION, sdkVersion: SDK_VERSION, overlays: definition.overlays, apply: definition.apply };
}

/**
 * An input a plugin reads with `ctx.inputs.get(name)`, as its manifest
 * declares it (`strata.inputs`), so that a UI can offer a file field for it
 * and `GET /api/overlays` can list it. Declaring inputs needs the
 * `inputs:read` capability.
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
 * ```json
 * "strata": {
 *   "id": "todo-density", "name": "TODO density", "description": "...",
 *   "sdk": "^0.1.0", "entry": "dist/plugin.js",
 *   "capabilities": ["graph:read", "files:read"],
 *   "parameters": { "type": "object", "properties": { ... } }
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
  /** JSON schema of the apply parameters (an object schema). */
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
