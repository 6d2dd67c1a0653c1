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
export type {
  EdgeKind,
  GraphEdge,
  GraphNode,
  ImportReferenceKind,
  NodeKind,
  Position,
} from './graph.js';
export { SDK_VERSION } from './version.js';
export {
  bandLegend,
  blendColors,
  colorBands,
  colorScale,
  fromRgb,
  isHexColor,
  normalizeHex,
  scaleLegend,
  toRgb,
  type ColorBand,
  type HexColor,
} from './colors.js';
export {
  CAPABILITIES,
  MAX_BADGE_LENGTH,
  PLUGIN_DESCRIPTOR_VERSION,
  STYLE_SIZE_BOUNDS,
  definePlugin,
  InvalidInputError,
  type ApplyContext,
  type ApplySummary,
  type BlameRange,
  type Capability,
  type EdgeColumns,
  type FilesCapability,
  type GitCapability,
  type GitCommit,
  type GitLogOptions,
  type GraphColumns,
  type GraphView,
  type InputsCapability,
  type Legend,
  type NodeRecord,
  type NodeStyle,
  type OverlayDefinition,
  type OverlayType,
  type OverlayWriter,
  type ParametersOf,
  type ParametersSchema,
  type PluginDefinition,
  type PluginDescriptor,
  type PluginInput,
  type PluginManifest,
} from './plugin.js';
