import type { OverlayColumns } from '@strata/sandbox';

/** One edge an overlay gives, as the host keeps and serves it. */
export interface OverlayEdge {
  source: string;
  target: string;
  weight: number;
  label?: string;
  value?: number;
}

/** The edges of one overlay, a row each, as the store keeps them. */
export interface EdgeRows {
  source: string[];
  target: string[];
  weight: number[];
  value: (number | null)[];
  label: (string | null)[];
}

/**
 * The edges of one `edge` overlay (`OverlayWriter.setEdge`), by node id: made
 * from the sandbox's columns once an apply ends, kept in the store as rows,
 * served by `GET /api/overlays/{id}/edges`.
 */
export class OverlayEdges {
  private constructor(readonly rows: Readonly<EdgeRows>) {}

  static readonly none = new OverlayEdges({ source: [], target: [], weight: [], value: [], label: [] });

  /** The edges of an apply's columns, on the graph whose node ids are `ids`. */
  static fromColumns(columns: OverlayColumns, ids: readonly string[]): OverlayEdges {
    if (!columns.edges || columns.edges.source.length === 0) return OverlayEdges.none;
    const { source, target, weight, value, label } = columns.edges;
    const rows: EdgeRows = { source: [], target: [], weight: [], value: [], label: [] };
    for (let k = 0; k < source.length; k++) {
      rows.source.push(ids[source[k]!]!);
      rows.target.push(ids[target[k]!]!);
      rows.weight.push(weight[k]!);
      rows.value.push(Number.isNaN(value[k]!) ? null : value[k]!);
      rows.label.push(label[k] ?? null);
    }
    return new OverlayEdges(rows);
  }

  /** Rows as the store kept them (none for a result kept before edges existed); throws, saying what is wrong, when they are not rows of edges. */
  static fromRows(stored: Partial<Record<keyof EdgeRows, unknown>> | undefined): OverlayEdges {
    if (stored === undefined) return OverlayEdges.none;
    const { source } = stored;
    if (!Array.isArray(source) || !source.every((id) => typeof id === 'string')) throw new Error('the edges have no list of sources');
    for (const field of ['target', 'weight', 'value', 'label'] as const) {
      const column = stored[field];
      if (!Array.isArray(column) || column.length !== source.length) throw new Error(`the edges' ${field} column does not have one entry per edge`);
    }
    return new OverlayEdges(stored as EdgeRows);
  }

  get count(): number {
    return this.rows.source.length;
  }

  /** Every edge, in the order the plugin gave them. */
  list(): OverlayEdge[] {
    const { source, target, weight, value, label } = this.rows;
    const edges: OverlayEdge[] = [];
    for (let k = 0; k < source.length; k++) {
      const edge: OverlayEdge = { source: source[k]!, target: target[k]!, weight: weight[k]! };
      if (label[k] != null) edge.label = label[k]!;
      if (value[k] != null) edge.value = value[k]!;
      edges.push(edge);
    }
    return edges;
  }
}
