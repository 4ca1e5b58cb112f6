// The board on a <canvas>. The maze is kept as an image of one pixel per cell (rock,
// floor, dead, trail in the theme's colours), so a step repaints only the cells the
// trail gains or loses there; each frame scales the visible part of that image onto
// the canvas (crisp: whole device pixels per cell, no smoothing when zoomed in), adds
// the grid, the hatching and the pieces for the visible cells, and nothing else.
// Zoomed out, it scales from a reduced copy (each pixel the average of 2×2 of the one
// before), so a big board reads as its average, not as a moiré of sampled cells.
import { View, Size, besideBoxes, visible } from '../view';
import { PLAIN, UNSOLVABLE } from '../difficulty';

/** The theme's colours for each thing drawn, as CSS colours and as RGBA bytes. */
export interface Palette {
  background: string;
  rock: string;
  floor: string;
  grid: string;
  dead: string;
  /** Dead squares when too small to hatch: between the hatch and the floor. */
  deadFlat: string;
  trail: string;
  /** The difficulty layer: the most pushes, and the free cells that cannot be solved. */
  heat: string;
  unsolvable: string;
  target: string;
  box: string;
  player: string;
  /** The pieces' outline: the contrast border in high-contrast themes, else the floor. */
  outline: string;
  highContrast: boolean;
}

/** Where the pieces are, in cells (fractional while a move is under way). */
export interface Pieces {
  player: [number, number];
  boxes: [number, number][];
  /** Per box: it stands on a target (drawn with the target's ring inside it). */
  onGoal: boolean[];
  targets: [number, number][];
}

/** Cells at least this many device pixels get grid lines and hatching. */
const DETAIL = 6;
/**
 * Pieces are never drawn in a square smaller than this many CSS pixels, so they show at
 * any zoom: the player's disc is then 8.4 px across, a box 10.6 px wide.
 */
const MIN_PIECE_CSS = 14;

/** The difficulty layer's tint for the fewest pushes (the most get the full colour). */
const HEAT_LEAST = 0.3;

/** Rows painted between two points where the page may let VS Code run (`openBoard`). */
const SLICE_ROWS = 128;

const ROCK = 0;
const FLOOR = 1;
const DEAD = 2;
/** Outside a level's walls: the background. */
const VOID = 3;

export class BoardPainter {
  private readonly ctx: CanvasRenderingContext2D;
  private rows = 0;
  private cols = 0;
  /** What each cell is (ROCK, FLOOR, DEAD, VOID), row-major. */
  private kinds = new Uint8Array(0);
  private trail = new Uint8Array(0);
  /** One pixel per cell. */
  private readonly image = document.createElement('canvas');
  private readonly imageCtx: CanvasRenderingContext2D;
  private pixels: ImageData | undefined;
  private words = new Uint32Array(0);
  private colours = { background: 0, rock: 0, floor: 0, dead: 0, trail: 0, unsolvable: 0 };
  /** The floor's and the heat's RGB, mixed per cell by its shade. */
  private floorRgb = [0, 0, 0];
  private heatRgb = [0, 0, 0];
  /** The difficulty layer's shade per cell (see `difficulty.ts`), or null when it is off. */
  private shades: Float32Array | null = null;
  private palette: Palette | undefined;
  private hatch: CanvasPattern | null = null;
  /** The image halved again and again (index 0 is the image itself). */
  private levels: Level[] = [];
  /** A board is open and painted: it can be drawn and changed. */
  private ready = false;
  /** Counts changes of what a cell's colour depends on (palette, layer), so that a
   * board painted in slices repaints when one came in between. */
  private looks = 0;

  constructor(canvas: HTMLCanvasElement) {
    this.ctx = canvas.getContext('2d', { alpha: false }) as CanvasRenderingContext2D;
    this.imageCtx = this.image.getContext('2d', { willReadFrequently: false }) as CanvasRenderingContext2D;
  }

  /**
   * A new maze: its cells (character codes, row by row) and dead squares, no trail yet —
   * in steps. A million-cell board takes a few hundred milliseconds to paint, and the
   * page shares its thread with VS Code's window: the caller may let the page run at
   * each `yield` (see `runSliced`). Nothing is drawn until the last step is done.
   */
  *openBoard(rows: number, cols: number, cells: Uint16Array, dead: [number, number][]): Generator<void, void, void> {
    this.ready = false;
    this.rows = rows;
    this.cols = cols;
    this.shades = null;
    this.kinds = new Uint8Array(rows * cols);
    for (let r = 0; r < rows; r++) {
      for (let i = r * cols; i < (r + 1) * cols; i++) {
        const ch = cells[i];
        this.kinds[i] = ch === 35 /* # */ ? ROCK : ch === 32 /* space */ ? VOID : FLOOR;
      }
      if (r % SLICE_ROWS === SLICE_ROWS - 1) {
        yield;
      }
    }
    for (const [r, c] of dead) {
      this.kinds[r * cols + c] = DEAD;
    }
    this.trail = new Uint8Array(rows * cols);
    this.image.width = cols;
    this.image.height = rows;
    this.pixels = this.imageCtx.createImageData(cols, rows);
    this.words = new Uint32Array(this.pixels.data.buffer);
    this.levels = [{ width: cols, height: rows, canvas: this.image, ctx: this.imageCtx, pixels: this.pixels, words: this.words }];
    for (let w = cols, h = rows; w > 64 || h > 64; ) {
      w = Math.ceil(w / 2);
      h = Math.ceil(h / 2);
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
      const pixels = ctx.createImageData(w, h);
      this.levels.push({ width: w, height: h, canvas, ctx, pixels, words: new Uint32Array(pixels.data.buffer) });
    }
    yield;
    // A theme change or the layer's map while painting leaves the rows painted before it
    // in the old colours: paint again until a whole pass saw one look.
    let look: number;
    do {
      look = this.looks;
      yield* this.paintSteps();
    } while (look !== this.looks);
    this.ready = true;
  }

  /** New theme colours: the image is repainted in them. */
  setPalette(palette: Palette): void {
    this.palette = palette;
    const under = palette.background;
    this.colours = {
      background: word(under, under),
      rock: word(palette.rock, under),
      floor: word(palette.floor, under),
      dead: word(palette.deadFlat, under),
      trail: word(palette.trail, under),
      unsolvable: word(palette.unsolvable, under),
    };
    this.floorRgb = rgb(this.colours.floor);
    this.heatRgb = rgb(word(palette.heat, under));
    this.hatch = hatchPattern(palette);
    this.looks++;
    this.paintImage();
  }

  /** The cell joins (or leaves) the box's trail: one pixel of the image changes. */
  setTrail(cell: number, on: boolean): void {
    this.trail[cell] = on ? 1 : 0;
    this.words[cell] = this.cellWord(cell);
    if (this.ready && this.pixels) {
      let x = cell % this.cols;
      let y = Math.floor(cell / this.cols);
      this.imageCtx.putImageData(this.pixels, 0, 0, x, y, 1, 1);
      // The one pixel above it in each reduced copy.
      for (let k = 1; k < this.levels.length; k++) {
        x >>= 1;
        y >>= 1;
        reduce(this.levels[k - 1], this.levels[k], x, y);
        const level = this.levels[k];
        level.ctx.putImageData(level.pixels, 0, 0, x, y, 1, 1);
      }
    }
  }

  /** The difficulty layer on (each cell's shade) or off (null): the image is repainted. */
  setShades(shades: Float32Array | null): void {
    const next = shades && shades.length === this.rows * this.cols ? shades : null;
    if (next || this.shades) {
      this.shades = next;
      this.looks++;
      this.paintImage();
    }
  }

  clearTrail(): void {
    if (this.trail.some((t) => t !== 0)) {
      this.trail.fill(0);
      this.paintImage();
    }
  }

  /** Paints the canvas: the visible cells at the view's zoom, then the pieces. */
  draw(view: View, size: Size, pieces: Pieces, dpr: number): void {
    const ctx = this.ctx;
    const p = this.palette;
    if (!p || !this.ready) {
      return;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = p.background;
    ctx.fillRect(0, 0, size.width, size.height);
    const v = visible(view, this.rows, this.cols, size);
    if (v.r1 <= v.r0 || v.c1 <= v.c0) {
      return;
    }
    const cell = view.cell;
    const dx = view.x + v.c0 * cell;
    const dy = view.y + v.r0 * cell;
    const dw = (v.c1 - v.c0) * cell;
    const dh = (v.r1 - v.r0) * cell;
    // Magnified: whole pixels per cell, no smoothing (sharp edges). Reduced: from the
    // copy reduced to just above the view's size, smoothed.
    ctx.imageSmoothingEnabled = cell < 1;
    ctx.imageSmoothingQuality = 'low';
    const k = cell < 1 ? Math.min(this.levels.length - 1, Math.floor(Math.log2(1 / cell))) : 0;
    const f = 2 ** k;
    const source = this.levels[k].canvas;
    ctx.drawImage(source, v.c0 / f, v.r0 / f, (v.c1 - v.c0) / f, (v.r1 - v.r0) / f, dx, dy, dw, dh);
    if (cell >= DETAIL) {
      this.details(view, v);
    }
    ctx.strokeStyle = p.grid;
    ctx.lineWidth = 1;
    ctx.strokeRect(view.x - 0.5, view.y - 0.5, this.cols * cell + 1, this.rows * cell + 1);
    this.pieces(view, pieces, dpr);
  }

  /** Grid lines between the visible cells and the hatching of dead squares. */
  private details(view: View, v: { r0: number; r1: number; c0: number; c1: number }): void {
    const ctx = this.ctx;
    const p = this.palette as Palette;
    const cell = view.cell;
    // The difficulty layer colours the dead squares itself (they are unsolvable).
    if (this.hatch && !this.shades) {
      ctx.fillStyle = this.hatch;
      ctx.beginPath();
      for (let r = v.r0; r < v.r1; r++) {
        const base = r * this.cols;
        for (let c = v.c0; c < v.c1; c++) {
          if (this.kinds[base + c] === DEAD) {
            ctx.rect(view.x + c * cell, view.y + r * cell, cell, cell);
          }
        }
      }
      ctx.fill();
    }
    ctx.strokeStyle = p.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    const left = view.x + v.c0 * cell;
    const right = view.x + v.c1 * cell;
    const top = view.y + v.r0 * cell;
    const bottom = view.y + v.r1 * cell;
    for (let r = v.r0; r <= v.r1; r++) {
      const y = view.y + r * cell + 0.5;
      ctx.moveTo(left, y);
      ctx.lineTo(right, y);
    }
    for (let c = v.c0; c <= v.c1; c++) {
      const x = view.x + c * cell + 0.5;
      ctx.moveTo(x, top);
      ctx.lineTo(x, bottom);
    }
    ctx.stroke();
  }

  /** Target ring, box and player: at least MIN_PIECE_CSS wide, so they show at any zoom. */
  private pieces(view: View, pieces: Pieces, dpr: number): void {
    const ctx = this.ctx;
    const p = this.palette as Palette;
    const size = Math.max(view.cell, MIN_PIECE_CSS * dpr);
    const enlarged = size > view.cell;
    const centre = ([r, c]: [number, number]) => [view.x + (c + 0.5) * view.cell, view.y + (r + 0.5) * view.cell];
    const outline = (width: number) => {
      if (enlarged || p.highContrast) {
        ctx.strokeStyle = p.outline;
        ctx.lineWidth = width;
        ctx.stroke();
      }
    };

    const ring = Math.max(1, size / 10);
    ctx.beginPath();
    for (const target of pieces.targets) {
      const [tx, ty] = centre(target);
      ctx.moveTo(tx + size * 0.32, ty);
      ctx.arc(tx, ty, size * 0.32, 0, 2 * Math.PI);
    }
    ctx.strokeStyle = p.target;
    ctx.lineWidth = ring;
    ctx.stroke();

    const half = size * 0.38;
    for (let i = 0; i < pieces.boxes.length; i++) {
      const [bx, by] = centre(pieces.boxes[i]);
      ctx.beginPath();
      roundedRect(ctx, bx - half, by - half, 2 * half, 2 * half, size * 0.1);
      ctx.fillStyle = p.box;
      ctx.fill();
      outline(Math.max(1, size / 16));
      if (pieces.onGoal[i]) {
        // On a target: its ring inside the box (the box's colour stays in the middle).
        ctx.beginPath();
        ctx.arc(bx, by, size * 0.26, 0, 2 * Math.PI);
        ctx.strokeStyle = p.target;
        ctx.lineWidth = ring;
        ctx.stroke();
      }
    }

    const radius = size * 0.3;
    let [px, py] = centre(pieces.player);
    if (enlarged) {
      [px, py] = besideBoxes(px, py, radius, half, pieces.boxes.map(centre), ctx.canvas.width, ctx.canvas.height);
    }
    ctx.beginPath();
    ctx.arc(px, py, radius, 0, 2 * Math.PI);
    ctx.fillStyle = p.player;
    ctx.fill();
    outline(Math.max(1, size / 16));
  }

  /** Repaints the whole image at once (a new palette, layer or trail). */
  private paintImage(): void {
    if (!this.ready) {
      return;
    }
    for (const _ of this.paintSteps()) {
      // all at once
    }
  }

  /** The image and its reduced copies painted from the cells, a slice at a time. */
  private *paintSteps(): Generator<void, void, void> {
    for (let r = 0; r < this.rows; r++) {
      for (let i = r * this.cols; i < (r + 1) * this.cols; i++) {
        this.words[i] = this.cellWord(i);
      }
      if (r % SLICE_ROWS === SLICE_ROWS - 1) {
        yield;
      }
    }
    this.imageCtx.putImageData(this.levels[0].pixels, 0, 0);
    yield;
    for (let k = 1; k < this.levels.length; k++) {
      const level = this.levels[k];
      for (let y = 0; y < level.height; y++) {
        for (let x = 0; x < level.width; x++) {
          reduce(this.levels[k - 1], level, x, y);
        }
        if (y % SLICE_ROWS === SLICE_ROWS - 1) {
          yield;
        }
      }
      level.ctx.putImageData(level.pixels, 0, 0);
      yield;
    }
  }

  private cellWord(i: number): number {
    const shade = this.shades ? this.shades[i] : PLAIN;
    if (shade === UNSOLVABLE) {
      return this.colours.unsolvable;
    }
    if (shade !== PLAIN) {
      // From a light tint of the heat colour (the fewest pushes) to the full colour.
      const t = HEAT_LEAST + (1 - HEAT_LEAST) * Math.max(0, Math.min(1, shade));
      const [r, g, b] = this.floorRgb.map((f, k) => Math.round(f + (this.heatRgb[k] - f) * t));
      return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
    }
    if (this.shades && this.kinds[i] !== ROCK) {
      return this.colours.floor; // the start and the target: no trail under the layer
    }
    if (this.trail[i]) {
      return this.colours.trail;
    }
    const kind = this.kinds[i];
    if (kind === VOID) {
      return this.colours.background;
    }
    return kind === ROCK ? this.colours.rock : kind === DEAD ? this.colours.dead : this.colours.floor;
  }
}

/** One of the board's images: one pixel per cell, or per 2^k × 2^k cells. */
interface Level {
  width: number;
  height: number;
  canvas: HTMLCanvasElement;
  ctx: CanvasRenderingContext2D;
  pixels: ImageData;
  words: Uint32Array;
}

/** Pixel (x, y) of `to`: the average of the 2×2 pixels of `from` it covers. */
function reduce(from: Level, to: Level, x: number, y: number): void {
  const f = from.pixels.data;
  const w = from.width;
  const x1 = Math.min(2 * x + 1, w - 1);
  const y1 = Math.min(2 * y + 1, from.height - 1);
  const a = (2 * y * w + 2 * x) * 4;
  const b = (2 * y * w + x1) * 4;
  const c = (y1 * w + 2 * x) * 4;
  const d = (y1 * w + x1) * 4;
  const t = to.pixels.data;
  const o = (y * to.width + x) * 4;
  t[o] = (f[a] + f[b] + f[c] + f[d] + 2) >> 2;
  t[o + 1] = (f[a + 1] + f[b + 1] + f[c + 1] + f[d + 1] + 2) >> 2;
  t[o + 2] = (f[a + 2] + f[b + 2] + f[c + 2] + f[d + 2] + 2) >> 2;
  t[o + 3] = 255;
}

function roundedRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/** Diagonal stripes in the dead colour over the floor, repeated every 7 device pixels. */
function hatchPattern(p: Palette): CanvasPattern | null {
  const tile = document.createElement('canvas');
  tile.width = tile.height = 7;
  const t = tile.getContext('2d') as CanvasRenderingContext2D;
  t.fillStyle = p.floor;
  t.fillRect(0, 0, 7, 7);
  t.strokeStyle = p.dead;
  t.lineWidth = 2.5;
  t.beginPath();
  for (const o of [-7, 0, 7]) {
    t.moveTo(o, 7);
    t.lineTo(o + 7, 0);
  }
  t.stroke();
  return t.createPattern(tile, 'repeat');
}

const probe = (() => {
  let ctx: CanvasRenderingContext2D | undefined;
  return () => {
    if (!ctx) {
      const c = document.createElement('canvas');
      c.width = c.height = 1;
      ctx = c.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
    }
    return ctx;
  };
})();

/** The red, green and blue of an RGBA word. */
function rgb(w: number): number[] {
  return [w & 255, (w >>> 8) & 255, (w >>> 16) & 255];
}

/** A CSS colour as the little-endian RGBA word an ImageData's Uint32Array holds (opaque). */
export function word(css: string, under = '#000'): number {
  const ctx = probe();
  ctx.clearRect(0, 0, 1, 1);
  ctx.fillStyle = under;
  ctx.fillRect(0, 0, 1, 1);
  ctx.fillStyle = css;
  ctx.fillRect(0, 0, 1, 1);
  const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
}
