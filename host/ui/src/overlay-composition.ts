// How several visible overlays paint one node. The rule, shown in the
// overlays panel: overlays are in an ordered list, topmost first; a node's
// color comes from the topmost visible overlay that colors it, its size from
// the topmost visible overlay that sizes it, and the badges of all visible
// overlays stand side by side, in the list's order.
import type { ApiNode, NodeStyle } from './graph-data.js';

/** One overlay of one plugin. */
export interface OverlayRef {
  pluginId: string;
  overlayId: string;
}

export interface ComposedStyle {
  color?: string;
  size?: number;
  badges: string[];
}

export const COMPOSITION_RULE =
  'Color comes from the topmost visible overlay that colors a node, size from the topmost that sizes it; badges of every visible overlay stand side by side.';

export function overlayKey(ref: OverlayRef): string {
  return `${ref.pluginId}/${ref.overlayId}`;
}

export function parseOverlayKey(key: string): OverlayRef | undefined {
  const slash = key.indexOf('/');
  return slash > 0 ? { pluginId: key.slice(0, slash), overlayId: key.slice(slash + 1) } : undefined;
}

export function styleFor(node: Pick<ApiNode, 'overlays'>, ref: OverlayRef): NodeStyle | undefined {
  // Own keys only: a plugin named `constructor`, or an overlay named `keys`, must not read Object's.
  const byPlugin = node.overlays && Object.hasOwn(node.overlays, ref.pluginId) ? node.overlays[ref.pluginId] : undefined;
  return byPlugin && Object.hasOwn(byPlugin, ref.overlayId) ? byPlugin[ref.overlayId] : undefined;
}

export function composeStyle(node: Pick<ApiNode, 'overlays'>, visible: readonly OverlayRef[]): ComposedStyle {
  const composed: ComposedStyle = { badges: [] };
  if (!node.overlays) return composed;
  for (const ref of visible) {
    const style = styleFor(node, ref);
    if (!style) continue;
    if (composed.color === undefined && style.color !== undefined) composed.color = style.color;
    if (composed.size === undefined && style.size !== undefined) composed.size = style.size;
    if (style.badge !== undefined && style.badge !== '') composed.badges.push(String(style.badge));
  }
  return composed;
}
