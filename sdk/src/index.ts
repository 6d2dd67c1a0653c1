/**
 * `@strata/sdk`: what a Strata plugin author imports. This package depends on
 * nothing of the host; the host depends on it.
 *
 * @example
 * ```ts
 * import { colorScale, definePlugin, scaleLegend } from '@strata/sdk';
 *
 * const scale = colorScale(['#e8f5e9', '#e53935'], [0, 1000]);
 *
 * export default definePlugin({
 *   overlays: [{ id: 'loc', name: 'Lines of code', type: 'color', legend: scaleLegend(scale, [0, 1000], 3, (loc) => `${loc} loc`) }],
 *   apply(ctx) {
 *     const { loc } = ctx.graph.nodes;
 *     for (const file of ctx.graph.nodesOfKind('file')) ctx.overlay('loc').set(file, { color: scale(loc[file]!), value: loc[file]! });
 *   },
 * });
 * ```
 *
 * @packageDocumentation
 * @module \@strata/sdk
 */

export {
  bandLegend,
  blendColors,
  type ColorBand,
  colorBands,
  colorScale,
  fromRgb,
  HEX_COLOR_PATTERN,
  type HexColor,
  isHexColor,
  normalizeHex,
  scaleLegend,
  toRgb,
} from './colors.js';
export type {
  EdgeKind,
  GraphEdge,
  GraphNode,
  ImportReferenceKind,
  NodeKind,
  Position,
} from './graph.js';
export {
  type ApplyContext,
  type ApplySummary,
  type BlameRange,
  CAPABILITIES,
  type Capability,
  definePlugin,
  type EdgeColumns,
  type EdgeStyle,
  type FilesCapability,
  type GitCapability,
  type GitCommit,
  type GitLogOptions,
  type GraphColumns,
  type GraphView,
  type InputsCapability,
  InvalidInputError,
  type Legend,
  MAX_BADGE_LENGTH,
  MAX_EDGE_LABEL_LENGTH,
  MAX_OVERLAY_EDGES,
  type NodeRecord,
  type NodeStyle,
  type OverlayDefinition,
  type OverlayType,
  type OverlayWriter,
  type ParametersOf,
  type ParametersSchema,
  PLUGIN_DESCRIPTOR_VERSION,
  type PluginDefinition,
  type PluginDescriptor,
  type PluginInput,
  type PluginManifest,
  STYLE_SIZE_BOUNDS,
} from './plugin.js';
export { directoriesAbove, type RollUpCombine, rollUp } from './roll-up.js';
export { SDK_COMPATIBLE_VERSIONS, SDK_VERSION } from './version.js';
