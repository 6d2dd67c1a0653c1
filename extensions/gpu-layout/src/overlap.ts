/**
 * The last step of a layout without a containment tree (with one, the
 * nesting of nesting.ts parts every disc): nodes whose discs would overlap
 * when the map is drawn are pushed apart. The force layout leaves a directory's files
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
 * about 11,300 (`MAX_COVERED_FEW`); a larger map is looked at zoomed in.
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

/**
 * The grid reaches at most this many picture widths beyond the picture (its 1st to 99th percentile box) on each
 * side; nodes further out are counted in its border cells (still compared with every node of the cells around).
 */
const GRID_MARGIN = 1;

/** Moves the nodes of `positions` (x, y pairs) apart until their discs no longer overlap, or `PASSES` are done. */
export function removeOverlaps(positions: Float32Array, size: DrawnSize = UI_DRAWN_SIZE): void {
  const n = positions.length / 2;
  const covered = (n * Math.PI * size.radiusPixels ** 2) / size.fitPixels ** 2;
  if (n < 2 || covered > MAX_COVERED_FEW) return;
  const passes = covered > MAX_COVERED ? FEW_PASSES : PASSES;
  const cellOf = new Int32Array(n);
  const order = new Int32Array(n);
  const shift = new Float64Array(2 * n);
  let first = new Int32Array(0);
  for (let pass = 0; pass < passes; pass++) {
    // Measured again each pass: parting nodes makes the picture larger, and the discs with it.
    const box = percentileBox(positions);
    const extent = Math.max(box.width, box.height);
    const diameter = (2 * size.radiusPixels * extent) / size.fitPixels;
    if (!(diameter > 0) || !Number.isFinite(diameter)) return;
    // A grid of cells one diameter wide over the nodes (at most about 3 x 133 cells a side: the picture is 133
    // diameters wide), its cells' nodes runs of `order` (a counting sort: a pass is linear in n; sorting the
    // nodes by cell each pass took 7 ms of a pass at eslint's 4,070 nodes, the passes 0.7 s).
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      const x = positions[2 * i]!;
      const y = positions[2 * i + 1]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    minX = Math.max(minX, box.left - GRID_MARGIN * extent);
    minY = Math.max(minY, box.bottom - GRID_MARGIN * extent);
    maxX = Math.min(maxX, box.left + box.width + GRID_MARGIN * extent);
    maxY = Math.min(maxY, box.bottom + box.height + GRID_MARGIN * extent);
    const columns = Math.max(1, Math.floor((maxX - minX) / diameter) + 1);
    const rows = Math.max(1, Math.floor((maxY - minY) / diameter) + 1);
    const cells = columns * rows;
    if (first.length < cells + 1) first = new Int32Array(cells + 1);
    else first.fill(0, 0, cells + 1);
    for (let i = 0; i < n; i++) {
      const cx = Math.min(columns - 1, Math.max(0, Math.floor((positions[2 * i]! - minX) / diameter)));
      const cy = Math.min(rows - 1, Math.max(0, Math.floor((positions[2 * i + 1]! - minY) / diameter)));
      const cell = cy * columns + cx;
      cellOf[i] = cell;
      first[cell]!++;
    }
    // Each cell's count to the end of its run, then the nodes put in from the back: `first[c]` becomes where cell
    // c's run starts, in increasing node order, and `first[c + 1]` where it ends.
    for (let c = 1; c < cells; c++) first[c] = first[c]! + first[c - 1]!;
    first[cells] = n;
    for (let i = n - 1; i >= 0; i--) {
      const cell = cellOf[i]!;
      first[cell] = first[cell]! - 1;
      order[first[cell]!] = i;
    }
    const farther = diameter * diameter * (1 + 1e-9);
    let moved = 0;
    shift.fill(0);
    for (let i = 0; i < n; i++) {
      const xi = positions[2 * i]!;
      const yi = positions[2 * i + 1]!;
      const cx = cellOf[i]! % columns;
      const cy = (cellOf[i]! - cx) / columns;
      for (let gx = Math.max(0, cx - 1); gx <= Math.min(columns - 1, cx + 1); gx++) {
        for (let gy = Math.max(0, cy - 1); gy <= Math.min(rows - 1, cy + 1); gy++) {
          const cell = gy * columns + gx;
          for (let k = first[cell]!; k < first[cell + 1]!; k++) {
            const j = order[k]!;
            if (j <= i) continue;
            const ex = positions[2 * j]! - xi;
            const ey = positions[2 * j + 1]! - yi;
            // Most pairs of neighbouring cells are far apart: told so without Math.hypot, which cost more than the
            // rest of the pass (the margin leaves every pair it could keep to Math.hypot).
            if (ex * ex + ey * ey > farther) continue;
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
