// The `boxls/difficulty` answer (the manual: Custom requests) and what the preview's
// difficulty layer derives from it: each cell's shade, the legend's range and the text
// shown when hovering a cell. Shared by the extension and the webview script, so it
// imports nothing (unit-tested under plain node).

/** For each cell, the optimum if the box started there (the maze's S and T kept). */
export interface DifficultyMap {
  version: number;
  maze: number;
  rows: number;
  cols: number;
  /** One string per row: `#` rock, `S` start, `T` target, `x` unsolvable, `.` solvable. */
  kinds: string[];
  /** [row][col]: optimal pushes with the box there; null unless the kind is `.`. */
  pushes: (number | null)[][];
  moves: (number | null)[][];
  maxPushes: number;
}

const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/** Checks an answer before anything draws it: a map, `null`, or what is wrong with it. */
export function parseDifficulty(v: unknown): DifficultyMap | null | string {
  if (v === null || v === undefined) {
    return null;
  }
  if (typeof v !== 'object') {
    return `expected an object, got ${typeof v}`;
  }
  const { version, maze, rows, cols, kinds, pushes, moves, maxPushes } = v as Record<string, unknown>;
  if (!Number.isInteger(version) || !isCount(maze) || !isCount(maxPushes)) {
    return 'version, maze and maxPushes must be integers';
  }
  if (!isCount(rows) || !isCount(cols) || rows < 1 || cols < 1) {
    return 'rows and cols must be positive integers';
  }
  if (!Array.isArray(kinds) || kinds.length !== rows || !kinds.every((k) => typeof k === 'string' && k.length === cols && /^[#STx.]*$/.test(k))) {
    return `kinds must be ${rows} strings of ${cols} letters from # S T x .`;
  }
  const grid = (g: unknown, name: string) =>
    Array.isArray(g) &&
    g.length === rows &&
    g.every((row, r) => Array.isArray(row) && row.length === cols && row.every((x, c) => ((kinds[r] as string)[c] === '.' ? isCount(x) : x === null)))
      ? undefined
      : `${name} must be ${rows}×${cols} counts where the kind is '.', null elsewhere`;
  const bad = grid(pushes, 'pushes') ?? grid(moves, 'moves');
  if (bad) {
    return bad;
  }
  return { version: version as number, maze, rows, cols, kinds: kinds as string[], pushes: pushes as (number | null)[][], moves: moves as (number | null)[][], maxPushes };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The most cells the server maps (`boxls/difficulty`: the design searches' limit). */
export const MAX_MAP_CELLS = 65536;

/**
 * Why the server has no map for a board it answered `null` for (the manual: a level
 * with several boxes, or more cells than the design searches take or than
 * `boxls.solve.maxCells`), told from the board itself.
 */
export function noMapText(board: { boxes: unknown[]; rows: number; cols: number }): string {
  if (board.boxes.length > 1) {
    return `No difficulty map: it shows the pushes one box needs from each cell, and this level has ${board.boxes.length} boxes.`;
  }
  const cells = board.rows * board.cols;
  const over = cells > MAX_MAP_CELLS ? `its ${cells.toLocaleString('en-US')} cells are more than the ${MAX_MAP_CELLS.toLocaleString('en-US')} mapped` : 'it has more cells than boxls.solve.maxCells';
  return `No difficulty map for this board: ${over}.`;
}

/** What hovering cell (r, c) says, e.g. `box here: 12 pushes · 40 moves`; undefined on rock and the start. */
export function cellText(map: DifficultyMap, r: number, c: number): string | undefined {
  switch (map.kinds[r]?.[c]) {
    case '.':
      return `box here: ${plural(map.pushes[r][c] ?? 0, 'push', 'pushes')} · ${plural(map.moves[r][c] ?? 0, 'move', 'moves')}`;
    case 'x':
      return 'box here: unsolvable';
    case 'T':
      return 'box here: already on the target';
    default:
      return undefined;
  }
}

/** The fewest and the most pushes of the solvable cells (null when there is none). */
export function pushRange(map: DifficultyMap): { least: number; most: number } | null {
  let least = Infinity;
  let most = -1;
  map.pushes.forEach((row) =>
    row.forEach((p) => {
      if (p !== null) {
        least = Math.min(least, p);
        most = Math.max(most, p);
      }
    }),
  );
  return most < 0 ? null : { least, most };
}

/** Not part of the layer (rock, the start, the target): drawn as without it. */
export const PLAIN = -1;
/** Free, but the box could not be brought to the target from there. */
export const UNSOLVABLE = -2;

/**
 * Each cell's shade, row-major: from 0 (the fewest pushes of the map) to 1 (the most),
 * or PLAIN, or UNSOLVABLE. A map whose cells all need the same pushes shades them 1.
 */
export function shades(map: DifficultyMap): Float32Array {
  const out = new Float32Array(map.rows * map.cols).fill(PLAIN);
  const range = pushRange(map);
  const span = range ? range.most - range.least : 0;
  for (let r = 0; r < map.rows; r++) {
    for (let c = 0; c < map.cols; c++) {
      const kind = map.kinds[r][c];
      const p = map.pushes[r][c];
      if (kind === 'x') {
        out[r * map.cols + c] = UNSOLVABLE;
      } else if (kind === '.' && p !== null && range) {
        out[r * map.cols + c] = span === 0 ? 1 : (p - range.least) / span;
      }
    }
  }
  return out;
}

/** The legend's words for the shaded range, e.g. `1 – 10 pushes`. */
export function rangeText(map: DifficultyMap): string {
  const range = pushRange(map);
  if (!range) {
    return 'no cell is solvable';
  }
  return range.least === range.most ? plural(range.most, 'push', 'pushes') : `${range.least} – ${plural(range.most, 'push', 'pushes')}`;
}
