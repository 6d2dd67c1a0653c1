import type { ApplyProgress } from '@strata/sandbox';
import type { OverlayEdges } from './overlay-edges.js';
import type { OverlayStyles } from './overlay-styles.js';

/** Where an overlay plugin stands. */
export type OverlayState = 'inactive' | 'applying' | 'active' | 'failed';

/** The status record of `GET /api/overlays/{id}/status`. */
export interface OverlayStatus {
  pluginId: string;
  state: OverlayState;
  /** Parameters of the last apply. */
  params: Record<string, unknown> | null;
  /** Names of the inputs sent with the last apply. */
  inputs: string[];
  /** When the last apply started. */
  startedAt: string | null;
  /** When the current styles were computed. */
  appliedAt: string | null;
  /** How long the last finished apply took, in milliseconds. */
  durationMs: number | null;
  /** Nodes with at least one style, over every overlay of the plugin. */
  styledNodes: number;
  /** Graph revision the styles were computed on. */
  graphRevision: number | null;
  /** Figures the plugin reported about the last apply (files without data, unmapped authors...). */
  summary: Record<string, number | string>;
  /** Why the last apply failed. */
  error: { kind: string; message: string } | null;
  /** How far the apply under way has come, as the plugin last said (`ctx.progress`); null when none runs or it said nothing. */
  progress: (ApplyProgress & { at: string }) | null;
}

/** One overlay's result: its legend and the styles of the nodes it styles. */
export interface AppliedOverlay {
  id: string;
  legend: Record<string, string>;
  styles: OverlayStyles;
  /** The edges of an `edge` overlay (none for the others). */
  edges: OverlayEdges;
}

/** An apply request's body: the plugin's parameters, and input texts under `inputs`. */
export type ApplyBody = Record<string, unknown> & { inputs?: Record<string, string | string[]> };

/** The status of a plugin whose overlays were never applied, or were removed. */
export function inactiveStatus(pluginId: string): OverlayStatus {
  return {
    pluginId,
    state: 'inactive',
    params: null,
    inputs: [],
    startedAt: null,
    appliedAt: null,
    durationMs: null,
    styledNodes: 0,
    graphRevision: null,
    summary: {},
    error: null,
    progress: null,
  };
}
