// The preview's viewport: which part of the board the canvas shows and how big a cell
// is, in the canvas's device pixels. Zoom steps keep a cell a whole number of device
// pixels (or a whole fraction of one) and the board's corner on a pixel, so cells are
// drawn crisp at every zoom. Pure arithmetic, shared with the unit tests.

export interface View {
  /** Device pixels per cell: a whole number, or 1/n when zoomed out past one pixel. */
  cell: number;
  /** Device pixels from the canvas's top-left corner to the board's (may be negative). */
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

/** Cells never get bigger than this many device pixels. */
export const MAX_CELL = 96;
/** Nor smaller than one device pixel for this many cells. */
const MIN_FRACTION = 64;

/** The zoom step at or below `cell` device pixels per cell. */
export function snapCell(cell: number): number {
  if (cell >= 1) {
    return Math.min(MAX_CELL, Math.floor(cell));
  }
  return 1 / Math.min(MIN_FRACTION, Math.ceil(1 / cell));
}

/** The zoom steps, in device pixels per cell. */
const LADDER = [
  ...[64, 48, 32, 24, 16, 12, 8, 6, 4, 3, 2].map((n) => 1 / n),
  ...[1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, MAX_CELL],
];

/** The next zoom step in (`+1`) or out (`-1`) from `cell` (the same at either end). */
export function zoomStep(cell: number, direction: 1 | -1): number {
  const steps = direction > 0 ? LADDER : [...LADDER].reverse();
  return steps.find((s) => (direction > 0 ? s > cell + 1e-9 : s < cell - 1e-9)) ?? cell;
}

/** The whole board, as big as fits, centred. */
export function fit(rows: number, cols: number, canvas: Size, margin = 8): View {
  const room = { width: Math.max(1, canvas.width - 2 * margin), height: Math.max(1, canvas.height - 2 * margin) };
  // Magnified: whole pixels per cell. Reduced: any size (the image is smoothed anyway),
  // so a big board fills the panel.
  const exact = Math.min(room.width / cols, room.height / rows);
  const cell = exact >= 1 ? snapCell(exact) : Math.max(1 / 64, Math.floor(exact * 1024) / 1024);
  return centreOn(cell, rows / 2, cols / 2, canvas);
}

/** A view at `cell` with the point (row, col) — in cells, may be fractional — centred. */
export function centreOn(cell: number, row: number, col: number, canvas: Size): View {
  return { cell, x: Math.round(canvas.width / 2 - col * cell), y: Math.round(canvas.height / 2 - row * cell) };
}

/** Zooms to `cell`, keeping the board point under the device pixel (px, py) in place. */
export function zoomAt(view: View, cell: number, px: number, py: number): View {
  const col = (px - view.x) / view.cell;
  const row = (py - view.y) / view.cell;
  return { cell, x: Math.round(px - col * cell), y: Math.round(py - row * cell) };
}

/** Moves the board by (dx, dy) device pixels, keeping some of it on the canvas. */
export function pan(view: View, dx: number, dy: number, rows: number, cols: number, canvas: Size): View {
  return clamp({ ...view, x: Math.round(view.x + dx), y: Math.round(view.y + dy) }, rows, cols, canvas);
}

/** Keeps at least a quarter of the canvas (or the whole board, when smaller) covered. */
export function clamp(view: View, rows: number, cols: number, canvas: Size): View {
  const keep = (offset: number, board: number, room: number) => {
    const least = Math.min(board, room / 4);
    return Math.round(Math.min(room - least, Math.max(least - board, offset)));
  };
  return { ...view, x: keep(view.x, cols * view.cell, canvas.width), y: keep(view.y, rows * view.cell, canvas.height) };
}

/**
 * Follows the box: along an axis where the board is bigger than the canvas, when the
 * cell (row, col) is outside the middle (a margin of a fifth on each side), the view
 * moves to centre it, but never so far that the board's edge leaves a gap; along an
 * axis where the whole board shows, it stays. Returns the same object when nothing moves.
 */
export function follow(view: View, row: number, col: number, canvas: Size, rows: number, cols: number): View {
  const axis = (offset: number, at: number, count: number, room: number) => {
    const board = count * view.cell;
    const p = offset + (at + 0.5) * view.cell;
    if (board <= room || (p >= room / 5 && p <= room - room / 5)) {
      return offset;
    }
    const centred = Math.round(room / 2 - (at + 0.5) * view.cell);
    return Math.min(0, Math.max(room - board, centred));
  };
  const x = axis(view.x, col, cols, canvas.width);
  const y = axis(view.y, row, rows, canvas.height);
  return x === view.x && y === view.y ? view : { ...view, x, y };
}

/** The cells the canvas shows (rows r0..r1 - 1, columns c0..c1 - 1), clipped to the board. */
export function visible(view: View, rows: number, cols: number, canvas: Size): { r0: number; r1: number; c0: number; c1: number } {
  const clip = (v: number, n: number) => Math.max(0, Math.min(n, v));
  return {
    r0: clip(Math.floor(-view.y / view.cell), rows),
    r1: clip(Math.ceil((canvas.height - view.y) / view.cell), rows),
    c0: clip(Math.floor(-view.x / view.cell), cols),
    c1: clip(Math.ceil((canvas.width - view.x) / view.cell), cols),
  };
}

/** The cell under the device pixel (px, py), or undefined off the board. */
export function cellAt(view: View, px: number, py: number, rows: number, cols: number): [number, number] | undefined {
  const row = Math.floor((py - view.y) / view.cell);
  const col = Math.floor((px - view.x) / view.cell);
  return row >= 0 && col >= 0 && row < rows && col < cols ? [row, col] : undefined;
}

/**
 * Where the player's disc (centre `px, py`) goes so that it hides no box (squares of
 * half-width `half` about their centres) and stays on the canvas (`width` × `height`):
 * pieces drawn larger than their cells would overlap where the player stands next to a
 * box. The disc goes beside the nearest box it would cover, on the side the player is
 * on if that side is free and on the canvas, else on another side (wholly on the
 * canvas if a side is, else with its centre on it).
 */
export function besideBoxes(px: number, py: number, radius: number, half: number, boxes: number[][], width: number, height: number): [number, number] {
  const clear = half + radius + 1;
  const covering = (x: number, y: number) => boxes.filter(([bx, by]) => Math.abs(x - bx) < clear && Math.abs(y - by) < clear);
  const under = covering(px, py);
  if (under.length === 0) {
    return [px, py];
  }
  const [bx, by] = under.reduce((a, b) => (Math.hypot(px - a[0], py - a[1]) <= Math.hypot(px - b[0], py - b[1]) ? a : b));
  const inside = (x: number, y: number, margin: number) => x >= margin && y >= margin && x <= width - margin && y <= height - margin;
  // Up, down, left, right: the side the player is on first (up when it is right on the box).
  const sides = [
    [0, -1],
    [0, 1],
    [-1, 0],
    [1, 0],
  ].sort((a, b) => b[0] * (px - bx) + b[1] * (py - by) - (a[0] * (px - bx) + a[1] * (py - by)));
  const places = sides.map(([sx, sy]): [number, number] => [sx ? bx + sx * clear : px, sy ? by + sy * clear : py]);
  const free = places.filter(([x, y]) => covering(x, y).length === 0);
  // Wholly on the canvas, else its centre at least (a box in the canvas's corner).
  return free.find(([x, y]) => inside(x, y, radius)) ?? free.find(([x, y]) => inside(x, y, 0)) ?? places[0];
}
