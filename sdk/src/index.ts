/**
 * `@strata/sdk`: what a Strata plugin author imports. This package depends on
 * nothing of the host; the host depends on it.
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
  type PluginDefinition,
  type PluginDescriptor,
  type PluginInput,
  type PluginManifest,
} from './plugin.js';
export type { LayoutBackendInfo, LayoutEngine, LayoutInput, LayoutSettings } from './layout.js';
