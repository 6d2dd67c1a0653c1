import { bandLegend, blendColors, colorBands, colorScale, fromRgb, isHexColor, normalizeHex, scaleLegend, toRgb } from '@strata/sdk';
import t from 'tap';

t.test('hex colors are validated and normalized', async (t) => {
  for (const valid of ['#fff', '#FFFFFF', '#a1b2c3', '#ABC']) t.ok(isHexColor(valid), valid);
  for (const invalid of ['fff', '#ffff', '#gggggg', 'red', '', null, 0xffffff, '#12345', ' #fff']) t.notOk(isHexColor(invalid), String(invalid));
  t.equal(normalizeHex('#AbC'), '#aabbcc');
  t.throws(() => normalizeHex('blue'), { name: 'TypeError', message: 'not a hex color: "blue" (expected #rgb or #rrggbb)' });
  t.same(toRgb('#ff8000'), [255, 128, 0]);
  t.equal(fromRgb(255.4, -3, 300), '#ff00ff', 'channels round and clamp');
});

t.test('blendColors mixes by weight', async (t) => {
  t.equal(
    blendColors([
      { color: '#ff0000', weight: 1 },
      { color: '#0000ff', weight: 1 },
    ]),
    '#800080',
  );
  t.equal(
    blendColors([
      { color: '#ff0000', weight: 3 },
      { color: '#0000ff', weight: 1 },
    ]),
    '#bf0040',
  );
  t.equal(
    blendColors([
      { color: '#00ff00', weight: 5 },
      { color: '#000000', weight: 0 },
      { color: '#fff', weight: Number.NaN },
    ]),
    '#00ff00',
    'zero and NaN weights count for nothing',
  );
  t.throws(() => blendColors([{ color: '#fff', weight: 0 }]), RangeError);
  t.throws(() => blendColors([{ color: 'nope', weight: 1 }]), TypeError);
});

t.test('colorScale interpolates between stops and clamps', async (t) => {
  const scale = colorScale(['#000000', '#ffffff'], [0, 10]);
  t.equal(scale(0), '#000000');
  t.equal(scale(5), '#808080');
  t.equal(scale(10), '#ffffff');
  t.equal(scale(-4), '#000000', 'below the domain clamps to the first stop');
  t.equal(scale(99), '#ffffff', 'above clamps to the last');
  t.equal(scale(Number.NaN), '#000000');
  const three = colorScale(['#ff0000', '#00ff00', '#0000ff']);
  t.equal(three(0.5), '#00ff00', 'the middle stop sits at the middle');
  t.equal(three(0.75), '#008080');
  t.throws(() => colorScale(['#fff']), RangeError);
  t.throws(() => colorScale(['#fff', '#000'], [1, 1]), RangeError);
});

t.test("colorBands: the spec's coverage bands, edges included", async (t) => {
  const bands = [
    { from: 0, color: '#e53935', label: '0%' },
    { from: 30, color: '#fdd835', label: '30%' },
    { from: 70, color: '#9ccc65', label: '70%' },
    { from: 90, color: '#2e7d32', label: '90%' },
  ];
  const color = colorBands(bands);
  const cases: Array<[number, string | undefined]> = [
    [0, '#e53935'],
    [29.99, '#e53935'],
    [30, '#fdd835'],
    [69.999, '#fdd835'],
    [70, '#9ccc65'],
    [89.9, '#9ccc65'],
    [90, '#2e7d32'],
    [100, '#2e7d32'],
    [-1, undefined],
    [Number.NaN, undefined],
  ];
  for (const [value, expected] of cases) t.equal(color(value), expected, `${value}%`);
  t.same(bandLegend([...bands].reverse()), { '0%': '#e53935', '30%': '#fdd835', '70%': '#9ccc65', '90%': '#2e7d32' }, 'legend in band order');
  t.throws(() => colorBands([{ from: 0, color: 'red', label: 'x' }]), TypeError);
});

t.test('scaleLegend samples a scale from low to high', async (t) => {
  const legend = scaleLegend(colorScale(['#000000', '#ffffff'], [0, 100]), [0, 100], 3, (v) => `${v} commits`);
  t.same(legend, { '0 commits': '#000000', '50 commits': '#808080', '100 commits': '#ffffff' });
  t.throws(() => scaleLegend(colorScale(['#000', '#fff']), [0, 1], 1, String), RangeError);
});
