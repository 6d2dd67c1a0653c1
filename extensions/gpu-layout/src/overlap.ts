/**
 * The last step of a layout: nodes whose discs would overlap when the map
 * is drawn are pushed apart. The force layout leaves a directory's files
 * packed around it closer than a drawn node is wide (on a 1,000-node graph,
 * 357 overlapping pairs where ForceAtlas2 left 25: `npm run bench:layout`).
 *
 * The discs are the web UI's (`UI_DRAWN_SIZE`: 3 px in a picture fitted into
 * 800 px), in the layout's units. Each pass finds the pairs closer than a
 * diameter on a grid of cells one diameter wide and moves both nodes of a
 * pair apart by half of what is missing, all of a pass's moves at once; the
 * passes go on until none is left (100 at most: a crowd of a directory's
 * files takes about 30). Linear in n; plain JavaScript on the positions, the
 * same whatever backend computed them. Only where the picture can hold the
 * discs apart: up to about 5,600 nodes (`MAX_COVERED`), and ten passes up to
 * about 11,300 (`MAX_COVERED_FEW`); on a larger map the picture's density is
 * evened instead (density.ts), and it is looked at zoomed in, with its
 * symbols folded.
 */
import { type DrawnSize, percentileBox, UI_DRAWN_SIZE } from './quality.js';

/** Passes over every pair; what is still overlapping after them is left (each stops early once nothing moved). */
const PASSES = 100;
/**
 * The discs may cover at most this share of the picture for the step to run: beyond, no layout can hold them
 * apart (at 100,000 nodes they would cover four times the picture), and the passes only spend time (8.6 s at
 * 100,000 nodes for a tenth fewer overlaps).
 */
const MAX_COVERED = 0.25;
/**
 * Up to this share, `FEW_PASSES` passes: they do not part every pair, but most (generated graph of 10,000 nodes,
 * discs covering 44 %: 18,597 overlapping pairs to 7,623, ForceAtlas2 13,792; about half a second). Beyond, a few
 * passes over crowds of thirty discs each pushed the nodes far across their regions (prettier's 17,311 nodes,
 * 76 %: region purity 1.000 to 0.803 after 3 passes).
 */
const MAX_COVERED_FEW = 0.5;
const FEW_PASSES = 10;

/** Moves the nodes of `positions` (x, y pairs) apart until their discs no longer overlap, or `PASSES` are done. */
export function removeOverlaps(positions: Float32Array, size: DrawnSize = UI_DRAWN_SIZE): void {
  const n = positions.length / 2;
  const covered = (n * Math.PI * size.radiusPixels ** 2) / size.fitPixels ** 2;
  if (n < 2 || covered > MAX_COVERED_FEW) return;
  const passes = covered > MAX_COVERED ? FEW_PASSES : PASSES;
  const cellOf = new Float64Array(n);
  const shift = new Float64Array(2 * n);
  const order = new Int32Array(n);
  for (let pass = 0; pass < passes; pass++) {
    // Measured again each pass: parting nodes makes the picture larger, and the discs with it.
    const box = percentileBox(positions);
    const diameter = (2 * size.radiusPixels * Math.max(box.width, box.height)) / size.fitPixels;
    if (!(diameter > 0) || !Number.isFinite(diameter)) return;
    // Nodes sorted by cell: the nodes of a cell are a run of `order`, found by binary search.
    for (let i = 0; i < n; i++) cellOf[i] = cellKey(Math.floor(positions[2 * i]! / diameter), Math.floor(positions[2 * i + 1]! / diameter));
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => cellOf[a]! - cellOf[b]!);
    const sortedKeys = Float64Array.from(order, (i) => cellOf[i]!);
    let moved = 0;
    shift.fill(0);
    for (let i = 0; i < n; i++) {
      const cx = Math.floor(positions[2 * i]! / diameter);
      const cy = Math.floor(positions[2 * i + 1]! / diameter);
      for (let dx = -1; dx <= 1; dx++) {
        for (let dy = -1; dy <= 1; dy++) {
          const key = cellKey(cx + dx, cy + dy);
          for (let k = lowerBound(sortedKeys, key); k < n && sortedKeys[k] === key; k++) {
            const j = order[k]!;
            if (j <= i) continue;
            const ex = positions[2 * j]! - positions[2 * i]!;
            const ey = positions[2 * j + 1]! - positions[2 * i + 1]!;
            const distance = Math.hypot(ex, ey);
            if (distance >= diameter) continue;
            // Along the line between them; on top of each other, along a direction of their own.
            const angle = ((i * 7919 + j * 104729) % 360) * (Math.PI / 180);
            const apart = distance > 1e-9 * diameter;
            const ux = apart ? ex / distance : Math.cos(angle);
            const uy = apart ? ey / distance : Math.sin(angle);
            // To a little more than a diameter: exactly one, rounding left many pairs a hair short of it.
            const push = (diameter * 1.05 - distance) / 2;
            shift[2 * i] = shift[2 * i]! - ux * push;
            shift[2 * i + 1] = shift[2 * i + 1]! - uy * push;
            shift[2 * j] = shift[2 * j]! + ux * push;
            shift[2 * j + 1] = shift[2 * j + 1]! + uy * push;
            moved++;
          }
        }
      }
    }
    // All of a pass's pushes at once: in a crowd, moving each pair in turn undid what the pair before did.
    for (let k = 0; k < positions.length; k++) positions[k] = positions[k]! + shift[k]!;
    if (moved === 0) return;
  }
}

/** A cell's key: exact for cells within ±2^25 of the origin (a picture is some thousands of cells wide). */
function cellKey(x: number, y: number): number {
  return (x + 2 ** 25) * 2 ** 26 + (y + 2 ** 25);
}

function lowerBound(sorted: Float64Array, key: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < key) low = middle + 1;
    else high = middle;
  }
  return low;
}
