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
