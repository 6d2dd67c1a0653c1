import { type OverlayColumns, styleAt } from '@strata/sandbox';
import type { NodeStyle } from '@strata/sdk';

/** The nodes one overlay styles, a row each: row `k` styles node `ids[k]`; null where the style has no such field. */
export interface StyleRows {
  ids: string[];
  color: (string | null)[];
  size: (number | null)[];
  value: (number | null)[];
  badge: (string | null)[];
}

const FIELDS = ['color', 'size', 'value', 'badge'] as const;

/**
 * The styles of one overlay, in the one form the host keeps them in from an
 * apply to the answers: the rows of the nodes it styles. Made from the
 * sandbox's columns (one entry per graph node) once an apply ends, written
 * to the store as they are (`rows`) and read back from it, and read by the
 * routes a node at a time (`styleOf`) or whole (`toRecord`).
 */
export class OverlayStyles {
  private index: Map<string, number> | undefined;

  private constructor(readonly rows: Readonly<StyleRows>) {}

  /** The styles of an apply's columns, computed on the graph whose node ids are `ids`. */
  static fromColumns(columns: OverlayColumns, ids: readonly string[]): OverlayStyles {
    const rows: StyleRows = { ids: [], color: [], size: [], value: [], badge: [] };
    for (let i = 0; i < ids.length; i++) {
      const style = styleAt(columns, i);
      if (!style) continue;
      rows.ids.push(ids[i]!);
      rows.color.push(style.color ?? null);
      rows.size.push(style.size ?? null);
      rows.value.push(style.value ?? null);
      rows.badge.push(style.badge === undefined ? null : String(style.badge));
    }
    return new OverlayStyles(rows);
  }

  /** Rows as the store kept them; throws, saying what is wrong, when they are not rows of styles. */
  static fromRows(stored: Partial<Record<keyof StyleRows, unknown>>): OverlayStyles {
    const { ids } = stored;
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) throw new Error('the styles have no list of node ids');
    for (const field of FIELDS) {
      const column = stored[field];
      if (!Array.isArray(column) || column.length !== ids.length) throw new Error(`the styles' ${field} column does not have one entry per node`);
    }
    return new OverlayStyles({
      ids,
      color: stored.color as StyleRows['color'],
      size: stored.size as StyleRows['size'],
      value: stored.value as StyleRows['value'],
      badge: stored.badge as StyleRows['badge'],
    });
  }

  /** How many nodes are styled. */
  get count(): number {
    return this.rows.ids.length;
  }

  /** The ids of the styled nodes. */
  get ids(): readonly string[] {
    return this.rows.ids;
  }

  /** The style of node `id`, or undefined when this overlay does not style it. */
  styleOf(id: string): NodeStyle | undefined {
    if (!this.index) {
      this.index = new Map();
      for (let k = 0; k < this.rows.ids.length; k++) this.index.set(this.rows.ids[k]!, k);
    }
    const k = this.index.get(id);
    return k === undefined ? undefined : this.styleAt(k);
  }

  /** Every styled node's style by node id, in graph order (`GET /api/overlays/{id}/styles`). */
  toRecord(): Record<string, NodeStyle> {
    const record: Record<string, NodeStyle> = {};
    for (let k = 0; k < this.rows.ids.length; k++) record[this.rows.ids[k]!] = this.styleAt(k);
    return record;
  }

  private styleAt(k: number): NodeStyle {
    const { color, size, value, badge } = this.rows;
    const style: NodeStyle = {};
    if (color[k] != null) style.color = color[k]!;
    if (size[k] != null) style.size = size[k]!;
    if (value[k] != null) style.value = value[k]!;
    if (badge[k] != null) style.badge = badge[k]!;
    return style;
  }
}
