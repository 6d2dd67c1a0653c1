// The colors Strata chooses itself. Languages get the Okabe–Ito palette,
// which people with any common form of color blindness can tell apart;
// overlays bring their own colors and legends.

/** Okabe & Ito (2008), "Color Universal Design", without black. */
export const OKABE_ITO = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442'] as const;

/** Colors of the page's theme, read by the map (sigma draws on canvases, outside CSS). */
export interface ThemeColors {
  background: string;
  label: string;
  directory: string;
  symbol: string;
  package: string;
  otherLanguage: string;
  edge: string;
  importEdge: string;
  /** Imports where there are many of them: mostly transparent. */
  faintImportEdge: string;
  highlight: string;
  faded: string;
  /** Nodes reached by a dependents or dependencies question: directly, at depth 2, 3, and further (fading with depth). */
  reach: readonly [string, string, string, string];
}

const LIGHT: ThemeColors = {
  background: '#ffffff',
  label: '#1f2328',
  directory: '#6e7781',
  symbol: '#8c959f',
  package: '#afb8c1',
  otherLanguage: '#a0a0a0',
  edge: '#d0d7de',
  importEdge: '#9aa5b1',
  faintImportEdge: '#d3d9df',
  highlight: '#000000',
  faded: '#eaeef2',
  reach: ['#b8440b', '#e0711f', '#f0a35e', '#f6cfa6'],
};

const DARK: ThemeColors = {
  background: '#0d1117',
  label: '#e6edf3',
  directory: '#8b949e',
  symbol: '#6e7681',
  package: '#484f58',
  otherLanguage: '#6e7681',
  edge: '#30363d',
  importEdge: '#545d68',
  faintImportEdge: '#2b323b',
  highlight: '#ffffff',
  faded: '#21262d',
  reach: ['#ff8a3d', '#d9712b', '#a4592a', '#6b4128'],
};

/** The theme in force: the one chosen on the page, else the system's. */
export function themeColors(): ThemeColors {
  return document.documentElement.dataset.theme === 'dark' ? DARK : LIGHT;
}

/** The color of a node reached at `depth` (1: directly): the deeper, the fainter. */
export function reachColor(theme: ThemeColors, depth: number): string {
  return theme.reach[Math.min(Math.max(depth, 1), theme.reach.length) - 1]!;
}

/** Colors for the languages of a graph, the most common first; the rest share a gray. */
export function languageColors(counts: Map<string, number>): Map<string, string> {
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return new Map(ranked.slice(0, OKABE_ITO.length).map(([language], i) => [language, OKABE_ITO[i]!]));
}

/** Colors in styles and legends come from plugins: only a hex color reaches a style attribute, anything else is transparent. */
export function safeColor(color: string): string {
  return /^#[0-9a-fA-F]{3,8}$/.test(color) ? color : 'transparent';
}
