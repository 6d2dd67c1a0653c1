import type { NodeStyle } from '@strata/sdk';
import type { OverlayColumns } from './isolate-runtime.js';

/**
 * The style an overlay's columns (as a sandbox's apply gives them back)
 * hold for node `i`, or undefined when they hold none.
 */
export function styleAt(columns: OverlayColumns, i: number): NodeStyle | undefined {
  const color = columns.color[i]!;
  const size = columns.size[i]!;
  const value = columns.value[i]!;
  const badge = columns.badge[i]!;
  if (color === 0 && Number.isNaN(size) && Number.isNaN(value) && badge === -1) return undefined;
  const style: NodeStyle = {};
  if (color !== 0) style.color = `#${(color - 0x1000000).toString(16).padStart(6, '0')}`;
  if (!Number.isNaN(size)) style.size = size;
  if (!Number.isNaN(value)) style.value = value;
  if (badge !== -1) style.badge = columns.badgeText[badge]!;
  return style;
}
