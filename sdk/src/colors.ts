/**
 * Color helpers every overlay needs: hex validation, sequential scales,
 * bands (thresholds to colors), blending by weight, and legends. Colors are
 * `#rrggbb` strings throughout; `#rgb` is accepted as input.
 */

/**
 * A color as `#rrggbb` (lower case).
 *
 * @example
 * ```ts
 * import type { HexColor } from '@strata/sdk';
 *
 * const hot: HexColor = '#e53935';
 * ```
 */
export type HexColor = string;

/**
 * The JSON Schema `pattern` of a `#rgb` or `#rrggbb` color: what `isHexColor`
 * accepts, and what the host's API schemas (a legend's colors) say.
 *
 * @example
 * ```ts
 * import { HEX_COLOR_PATTERN } from '@strata/sdk';
 *
 * // A plugin parameter that takes a color.
 * const parameters = {
 *   type: 'object',
 *   properties: { highlight: { type: 'string', pattern: HEX_COLOR_PATTERN, default: '#e53935' } },
 * } as const;
 * ```
 */
export const HEX_COLOR_PATTERN = '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$';

const HEX = new RegExp(HEX_COLOR_PATTERN);

/**
 * Whether `value` is a `#rgb` or `#rrggbb` color.
 *
 * @example
 * ```ts
 * import { isHexColor } from '@strata/sdk';
 *
 * isHexColor('#0af'); // true
 * isHexColor('#00aaff'); // true
 * isHexColor('0af'); // false
 * ```
 */
export function isHexColor(value: unknown): value is HexColor {
  return typeof value === 'string' && HEX.test(value);
}

/**
 * Normalizes a `#rgb` or `#rrggbb` color to lower-case `#rrggbb`; throws a `TypeError` naming the value otherwise.
 *
 * @example
 * ```ts
 * import { normalizeHex } from '@strata/sdk';
 *
 * normalizeHex('#0AF'); // '#00aaff'
 * normalizeHex('red'); // throws TypeError: not a hex color: "red" (expected #rgb or #rrggbb)
 * ```
 */
export function normalizeHex(color: string): HexColor {
  if (!isHexColor(color)) throw new TypeError(`not a hex color: ${JSON.stringify(color)} (expected #rgb or #rrggbb)`);
  const digits = color.slice(1).toLowerCase();
  return digits.length === 3 ? `#${[...digits].map((d) => d + d).join('')}` : `#${digits}`;
}

/**
 * The red, green and blue channels (0–255) of a hex color.
 *
 * @example
 * ```ts
 * import { toRgb } from '@strata/sdk';
 *
 * toRgb('#ff8000'); // [255, 128, 0]
 * ```
 */
export function toRgb(color: HexColor): [number, number, number] {
  const hex = normalizeHex(color);
  return [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16)];
}

/**
 * The hex color of red, green and blue channels (rounded and clamped to 0–255).
 *
 * @example
 * ```ts
 * import { fromRgb } from '@strata/sdk';
 *
 * fromRgb(255, 128, 0); // '#ff8000'
 * fromRgb(300, -5, 127.6); // '#ff0080'
 * ```
 */
export function fromRgb(red: number, green: number, blue: number): HexColor {
  const channel = (value: number): string =>
    Math.round(Math.min(255, Math.max(0, value)))
      .toString(16)
      .padStart(2, '0');
  return `#${channel(red)}${channel(green)}${channel(blue)}`;
}

/**
 * Mixes colors in proportion to their weights (negative and non-finite
 * weights count as 0). Ownership shared between teams shows as their colors
 * blended by line share. Throws a `RangeError` when no weight is positive.
 *
 * @example
 * ```ts
 * import { blendColors } from '@strata/sdk';
 *
 * // Three quarters red, one quarter blue.
 * blendColors([
 *   { color: '#ff0000', weight: 3 },
 *   { color: '#0000ff', weight: 1 },
 * ]); // '#bf0040'
 * ```
 */
export function blendColors(parts: ReadonlyArray<{ color: HexColor; weight: number }>): HexColor {
  let total = 0;
  const sum = [0, 0, 0];
  for (const { color, weight } of parts) {
    const w = Number.isFinite(weight) && weight > 0 ? weight : 0;
    if (w === 0) continue;
    const rgb = toRgb(color);
    for (let i = 0; i < 3; i++) sum[i]! += rgb[i]! * w;
    total += w;
  }
  if (total === 0) throw new RangeError('blendColors needs at least one part with a positive weight');
  return fromRgb(sum[0]! / total, sum[1]! / total, sum[2]! / total);
}

/**
 * A sequential color scale: maps a number in [`domain[0]`, `domain[1]`] to
 * a color interpolated between evenly spaced `stops` (values outside are
 * clamped; a non-finite value gets the first stop). For "low to high" legends.
 *
 * @example
 * ```ts
 * import { colorScale } from '@strata/sdk';
 *
 * const scale = colorScale(['#e8f5e9', '#e53935'], [0, 10]);
 * scale(0); // '#e8f5e9'
 * scale(5); // '#e7978f'
 * scale(99); // '#e53935' (clamped)
 * ```
 */
export function colorScale(stops: readonly HexColor[], domain: readonly [number, number] = [0, 1]): (value: number) => HexColor {
  if (stops.length < 2) throw new RangeError('colorScale needs at least two stops');
  const rgbStops = stops.map(toRgb);
  const [low, high] = domain;
  if (!(high > low)) throw new RangeError(`colorScale domain must grow: [${low}, ${high}]`);
  return (value) => {
    const t = Number.isFinite(value) ? Math.min(1, Math.max(0, (value - low) / (high - low))) : 0;
    const position = t * (rgbStops.length - 1);
    const index = Math.min(rgbStops.length - 2, Math.floor(position));
    const f = position - index;
    const [a, b] = [rgbStops[index]!, rgbStops[index + 1]!];
    return fromRgb(a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f);
  };
}

/**
 * A band of a banded scale: values from `from` (inclusive) up to the next band's `from`.
 *
 * @example
 * ```ts
 * import type { ColorBand } from '@strata/sdk';
 *
 * const coverageBands: ColorBand[] = [
 *   { from: 0, color: '#e53935', label: '< 30 %' },
 *   { from: 30, color: '#fb8c00', label: '30–70 %' },
 *   { from: 70, color: '#fdd835', label: '70–90 %' },
 *   { from: 90, color: '#43a047', label: '≥ 90 %' },
 * ];
 * ```
 */
export interface ColorBand {
  /** Lowest value of the band (inclusive). */
  from: number;
  /** Color of the values in the band, `#rgb` or `#rrggbb`. */
  color: HexColor;
  /** Legend label of the band. */
  label: string;
}

/**
 * A banded scale: the color of the band a value falls in. Bands are sorted
 * by `from`; a value below the first band, or not finite, gets `undefined`.
 * Test coverage uses 0/30/70/90 % bands.
 *
 * @example
 * ```ts
 * import { colorBands } from '@strata/sdk';
 *
 * const color = colorBands([
 *   { from: 0, color: '#e53935', label: '< 30 %' },
 *   { from: 30, color: '#fb8c00', label: '30–90 %' },
 *   { from: 90, color: '#43a047', label: '≥ 90 %' },
 * ]);
 * color(55); // '#fb8c00'
 * color(95); // '#43a047'
 * color(-1); // undefined
 * ```
 */
export function colorBands(bands: readonly ColorBand[]): (value: number) => HexColor | undefined {
  const sorted = [...bands].sort((a, b) => a.from - b.from);
  for (const band of sorted) normalizeHex(band.color);
  return (value) => {
    if (!Number.isFinite(value)) return undefined;
    let found: HexColor | undefined;
    for (const band of sorted) if (value >= band.from) found = normalizeHex(band.color);
    return found;
  };
}

/**
 * The legend of a banded scale: label → color, in band order.
 *
 * @example
 * ```ts
 * import { bandLegend, colorBands, definePlugin, type ColorBand } from '@strata/sdk';
 *
 * const bands: ColorBand[] = [
 *   { from: 0, color: '#e53935', label: '< 30 %' },
 *   { from: 30, color: '#fb8c00', label: '30–90 %' },
 *   { from: 90, color: '#43a047', label: '≥ 90 %' },
 * ];
 * bandLegend(bands); // { '< 30 %': '#e53935', '30–90 %': '#fb8c00', '≥ 90 %': '#43a047' }
 *
 * const color = colorBands(bands);
 * export default definePlugin({
 *   overlays: [{ id: 'coverage', name: 'Coverage', type: 'color', legend: bandLegend(bands) }],
 *   apply(ctx) {
 *     const coverage = ctx.overlay('coverage');
 *     const percent = 42; // read from a report
 *     const fill = color(percent);
 *     if (fill) coverage.set('file:src/a.ts', { color: fill, value: percent });
 *   },
 * });
 * ```
 */
export function bandLegend(bands: readonly ColorBand[]): Record<string, HexColor> {
  return Object.fromEntries([...bands].sort((a, b) => a.from - b.from).map((band) => [band.label, normalizeHex(band.color)]));
}

/**
 * The legend of a sequential scale: `count` labelled samples from low to
 * high (`label(value)` formats each sampled value).
 *
 * @example
 * ```ts
 * import { colorScale, scaleLegend } from '@strata/sdk';
 *
 * const scale = colorScale(['#e8f5e9', '#e53935'], [0, 10]);
 * scaleLegend(scale, [0, 10], 3, (value) => `${value} commits`);
 * // { '0 commits': '#e8f5e9', '5 commits': '#e7978f', '10 commits': '#e53935' }
 * ```
 */
export function scaleLegend(
  scale: (value: number) => HexColor,
  domain: readonly [number, number],
  count: number,
  label: (value: number) => string,
): Record<string, HexColor> {
  if (!Number.isInteger(count) || count < 2) throw new RangeError('scaleLegend needs a count of at least 2');
  const legend: Record<string, HexColor> = {};
  for (let i = 0; i < count; i++) {
    const value = domain[0] + ((domain[1] - domain[0]) * i) / (count - 1);
    legend[label(value)] = scale(value);
  }
  return legend;
}
