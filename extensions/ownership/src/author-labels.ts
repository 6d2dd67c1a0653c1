/**
 * How the main-author overlay names and colors authors: the authors holding
 * the most lines of the repository by name (with their team when a teams
 * file is given), one color each, inactive ones apart, everyone else
 * "others".
 */
import type { HexColor, Legend } from '@strata/sdk';

/** Most characters of a legend label and of a badge (the host's limits). */
const MAX_LABEL = 64;
const MAX_BADGE = 32;
/** Vivid, colorblind-aware colors (Okabe-Ito, then Tableau) for the top active authors, in rank order. */
const ACTIVE_COLORS = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442', '#4e79a7', '#f28e2b', '#59a14f', '#b07aa1', '#76b7b2'];
/** Dull, darker colors for the top authors who are inactive, in rank order: apart from the vivid ones at a glance. */
const INACTIVE_COLORS = ['#6d4c41', '#546e7a', '#827717', '#6a1b9a', '#00695c', '#8d6e63', '#37474f', '#9e9d24', '#4e342e', '#5d4037', '#455a64', '#33691e'];
/** The most top authors the palettes have colors for. */
export const MAX_TOP_AUTHORS = ACTIVE_COLORS.length;
/** The main author is not among the top authors. */
export const OTHERS = { label: 'others', color: '#bdbdbd' } as const;
/** The main author is not among the top authors and is inactive. */
export const OTHERS_INACTIVE = { label: 'others (inactive)', color: '#757575' } as const;
const INACTIVE_PREFIX = 'inactive: ';

/** An author as the overlay shows them. */
export interface ShownAuthor {
  /** `name` (or `name <e-mail>` where two top authors share a name), and ` (team)` when a teams file maps them. */
  label: string;
  active: boolean;
}

/** `text` cut to `max` characters (UTF-16 units, as the host counts), with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  // Never half a surrogate pair.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * The legend and a color per top author: active authors first, in rank
 * order, with the vivid colors; then the inactive ones, labelled
 * `inactive: <label>`, with the dull ones; then `others` and
 * `others (inactive)` in grays. `top` is in rank order (most lines first),
 * at most `MAX_TOP_AUTHORS`.
 */
export function topAuthorLegend(top: readonly ShownAuthor[]): { legend: Legend; colors: HexColor[] } {
  const used = new Set<string>([OTHERS.label, OTHERS_INACTIVE.label]);
  const unique = (label: string): string => {
    let candidate = clip(label, MAX_LABEL);
    for (let k = 2; used.has(candidate); k++) candidate = `${clip(label, MAX_LABEL - ` (${k})`.length)} (${k})`;
    used.add(candidate);
    return candidate;
  };
  const colors: HexColor[] = new Array(top.length);
  const legend: Legend = {};
  let active = 0;
  top.forEach((author, rank) => {
    if (!author.active) return;
    colors[rank] = ACTIVE_COLORS[active++]!;
    legend[unique(author.label)] = colors[rank]!;
  });
  let inactive = 0;
  top.forEach((author, rank) => {
    if (author.active) return;
    colors[rank] = INACTIVE_COLORS[inactive++]!;
    legend[unique(`${INACTIVE_PREFIX}${author.label}`)] = colors[rank]!;
  });
  legend[OTHERS.label] = OTHERS.color;
  legend[OTHERS_INACTIVE.label] = OTHERS_INACTIVE.color;
  return { legend, colors };
}

/** The main author's badge: the name and the share, `Ada Lovelace 62 %`, or `inactive: Ada Lovelace 62 %`; at most 32 characters. */
export function mainAuthorBadge(name: string, active: boolean, percent: number): string {
  const prefix = active ? '' : INACTIVE_PREFIX;
  const suffix = ` ${Math.round(percent)} %`;
  return `${prefix}${clip(name, MAX_BADGE - prefix.length - suffix.length)}${suffix}`;
}
