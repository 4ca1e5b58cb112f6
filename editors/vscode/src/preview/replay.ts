// The `boxls/replay` answer and what the preview derives from it. The server plays the
// solution (a `.box` maze's or a Sokoban level's, one shape for both) and sends the
// start and one compact delta per move: the player's cell after each move and, per
// push, which box goes to which cell. Nothing here knows how a move is played: the
// answer is checked (indices, bounds, no two pieces on a cell) and indexed. Shared by
// the extension and the webview script, so it imports nothing (unit-tested under node).

export type Cell = [number, number];
/** One push: the move's index (0-based), the box's (into `boxes`), its new cell. */
export type Push = [number, number, number];

/** What the preview draws: the board, its solution and where the pieces start. */
export interface Replay {
  /** The kind of document: a `.box` maze (one box) or a Sokoban level. */
  format: 'box' | 'sokoban';
  rows: number;
  cols: number;
  /** One string per row: `#` rock (a wall), ` ` outside a level, anything else floor. */
  cells?: string[];
  /** Or the same rows run-length coded (`compact: true`): `5#|#.S2 T#|5#`. */
  runs?: string;
  /** The solution as the server wrote it (`nsewNSEW` or LURD): shown, never played. */
  moves: string;
  pushes: number;
  /** Where the player and the boxes start, and the targets (goals). */
  player: Cell;
  boxes: Cell[];
  goals: Cell[];
  /** The player's cell (`r * cols + c`) after each move. */
  steps: number[];
  pushed: Push[];
  dead: Cell[];
  /** `k` of `Maze #k` / `Level k`, when the server says. */
  maze?: number;
  /** A level's title, when it has one. */
  title?: string;
  /** The document version the answer was computed for, when the server says. */
  version?: number;
}

/** The answer indexed for drawing (M moves, P pushes, B boxes). */
export interface Track {
  /** The board's cells as character codes, at `row * cols + col`. */
  board: Uint16Array;
  /** The player's cell after k moves (length M + 1). */
  player: Int32Array;
  /** The push move k makes (an index into the pushes), or -1 for a walk (length M). */
  pushOf: Int32Array;
  /** Per push: its move, its box, the cell it leaves and the cell it enters (length P). */
  moveOf: Int32Array;
  box: Int32Array;
  from: Int32Array;
  to: Int32Array;
  /** Each box's start cell (length B). */
  start: Int32Array;
  /** Pushes among the first k moves (length M + 1). */
  prefix: Int32Array;
}

const isInt = (v: unknown): v is number => Number.isInteger(v);

const isCell = (v: unknown): v is Cell => Array.isArray(v) && v.length === 2 && v.every((x) => isInt(x) && x >= 0);

/**
 * Checks an answer from the server before anything draws it: a replay, `null`, or a
 * string saying what is wrong with it (never trusted blindly: the webview indexes with
 * it). The deltas must be indexable too (see [`track`]).
 */
export function parseReplay(v: unknown): Replay | null | string {
  if (v === null || v === undefined) {
    return null;
  }
  if (typeof v !== 'object') {
    return `expected an object, got ${typeof v}`;
  }
  const r = v as Record<string, unknown>;
  const { rows, cols, cells, runs, moves, pushes, dead, maze, version, title, player, boxes, goals, steps, pushed } = r;
  if (!isInt(rows) || !isInt(cols) || rows < 1 || cols < 1) {
    return 'rows and cols must be positive integers';
  }
  if (typeof runs !== 'string' && (!Array.isArray(cells) || cells.length !== rows || !cells.every((row) => typeof row === 'string' && row.length === cols))) {
    return `cells must be ${rows} strings of ${cols} cells`;
  }
  if (typeof moves !== 'string') {
    return 'moves must be a move string';
  }
  const inside = (c: unknown): c is Cell => isCell(c) && c[0] < rows && c[1] < cols;
  if (!inside(player)) {
    return 'the answer needs the player start, inside the board';
  }
  if (!Array.isArray(boxes) || boxes.length === 0 || !boxes.every(inside)) {
    return 'boxes must be a non-empty list of cells inside the board';
  }
  if (!Array.isArray(goals) || !goals.every(inside)) {
    return 'goals must be a list of cells inside the board';
  }
  if (!Array.isArray(dead) || !dead.every(inside)) {
    return 'dead must be a list of cells inside the board';
  }
  if (!Array.isArray(steps) || steps.length !== moves.length || !steps.every((s) => isInt(s) && s >= 0 && s < rows * cols)) {
    return `steps must hold one cell index (below ${rows * cols}) per move (${moves.length})`;
  }
  if (!Array.isArray(pushed) || !pushed.every((p) => Array.isArray(p) && p.length === 3 && p.every((x) => isInt(x) && x >= 0))) {
    return 'pushed must be a list of [move, box, cell] triples';
  }
  const copy = (c: Cell): Cell => [c[0], c[1]];
  const replay: Replay = {
    format: r.format === 'sokoban' ? 'sokoban' : 'box',
    rows,
    cols,
    ...(typeof runs === 'string' ? { runs } : { cells: cells as string[] }),
    moves,
    pushes: isInt(pushes) ? pushes : pushed.length,
    player: copy(player),
    boxes: (boxes as Cell[]).map(copy),
    goals: (goals as Cell[]).map(copy),
    steps: steps as number[],
    pushed: (pushed as Push[]).map((p) => [p[0], p[1], p[2]]),
    dead: dead as Cell[],
    ...(isInt(maze) ? { maze } : {}),
    ...(typeof title === 'string' ? { title } : {}),
    ...(isInt(version) ? { version } : {}),
  };
  const indexed = track(replay);
  return typeof indexed === 'string' ? indexed : replay;
}

/**
 * The board's cells as character codes (`row * cols + col`), from the rows or from
 * their runs; or a string naming what is wrong with the runs.
 */
export function boardCodes(r: Pick<Replay, 'rows' | 'cols' | 'cells' | 'runs'>): Uint16Array | string {
  const { rows, cols, runs } = r;
  const codes = new Uint16Array(rows * cols);
  if (runs === undefined) {
    for (let row = 0; row < rows; row++) {
      const line = r.cells?.[row] ?? '';
      for (let c = 0; c < cols; c++) {
        codes[row * cols + c] = line.charCodeAt(c);
      }
    }
    return codes;
  }
  let row = 0;
  let col = 0;
  let count = -1; // -1: no count before the next cell
  const wrong = `runs must code ${rows} rows of ${cols} cells`;
  for (let i = 0; i < runs.length; i++) {
    const ch = runs.charCodeAt(i);
    if (ch >= 48 && ch <= 57) {
      count = Math.max(count, 0) * 10 + (ch - 48);
      if (count > cols) {
        return `${wrong}: row ${row + 1} is longer`;
      }
    } else if (ch === 124 /* | */) {
      if (count >= 0 || col !== cols || row + 1 >= rows) {
        return `${wrong}: row ${row + 1} has ${col}`;
      }
      row++;
      col = 0;
    } else {
      const n = count < 0 ? 1 : count;
      count = -1;
      if (n === 0 || col + n > cols) {
        return `${wrong}: row ${row + 1} has a run of ${n}`;
      }
      codes.fill(ch, row * cols + col, row * cols + col + n);
      col += n;
    }
  }
  if (count >= 0 || row !== rows - 1 || col !== cols) {
    return `${wrong}: it ends at row ${row + 1}, cell ${col}`;
  }
  return codes;
}

/**
 * Indexes the deltas: the player's cell after each move, and each push with the cell
 * its box leaves. Or a string naming what cannot be drawn: a piece on rock or outside,
 * two boxes on one cell, the player on a box, pushes out of order or of no box.
 */
export function track(r: Replay): Track | string {
  const n = r.steps.length;
  const count = r.rows * r.cols;
  const board = boardCodes(r);
  if (typeof board === 'string') {
    return board;
  }
  const rock = (cell: number) => cell < 0 || cell >= count || board[cell] === 35 /* # */ || board[cell] === 32 /* space */;
  const cellOf = ([row, col]: Cell) => row * r.cols + col;
  // The boxes' cells only (not one slot per cell: a board may have millions).
  const occupied = new Map<number, number>();
  const start = new Int32Array(r.boxes.length);
  for (let i = 0; i < r.boxes.length; i++) {
    const cell = cellOf(r.boxes[i]);
    if (rock(cell) || occupied.has(cell)) {
      return `box ${i + 1} must start on a free cell of its own`;
    }
    occupied.set(cell, i);
    start[i] = cell;
  }
  const player = new Int32Array(n + 1);
  player[0] = cellOf(r.player);
  if (rock(player[0]) || occupied.has(player[0])) {
    return 'the player must start on a free cell without a box';
  }
  const p = r.pushed.length;
  const pushOf = new Int32Array(n).fill(-1);
  const moveOf = new Int32Array(p);
  const box = new Int32Array(p);
  const from = new Int32Array(p);
  const to = new Int32Array(p);
  const prefix = new Int32Array(n + 1);
  const at = start.slice();
  let next = 0;
  for (let k = 0; k < n; k++) {
    if (next < p && r.pushed[next][0] < k) {
      return `push ${next + 1} names move ${r.pushed[next][0] + 1}: pushes must be in move order, one per move`;
    }
    if (next < p && r.pushed[next][0] === k) {
      const [, i, cell] = r.pushed[next];
      if (i >= r.boxes.length) {
        return `push ${next + 1} moves box ${i + 1} of ${r.boxes.length}`;
      }
      if (cell >= count || rock(cell) || occupied.has(cell)) {
        return `push ${next + 1} (move ${k + 1}) puts box ${i + 1} off the free cells or onto another box`;
      }
      occupied.delete(at[i]);
      occupied.set(cell, i);
      moveOf[next] = k;
      box[next] = i;
      from[next] = at[i];
      to[next] = cell;
      at[i] = cell;
      pushOf[k] = next;
      next++;
    }
    const cell = r.steps[k];
    if (rock(cell) || occupied.has(cell)) {
      return `move ${k + 1} puts the player off the free cells or onto a box`;
    }
    player[k + 1] = cell;
    prefix[k + 1] = next;
  }
  if (next < p) {
    return `push ${next + 1} names move ${r.pushed[next][0] + 1}: pushes must be in move order, one per move, within the ${n} moves`;
  }
  return { board, player, pushOf, moveOf, box, from, to, start, prefix };
}

/** The speeds offered, in moves per second. */
export const SPEEDS = [1, 2, 4, 8, 15, 30, 60, 120, 240, 480, 960];

/** A speed that plays `moves` moves in about a minute at most, and never below 4/s. */
export function defaultSpeed(moves: number): number {
  return SPEEDS.find((s) => s >= 4 && s * 60 >= moves) ?? SPEEDS[SPEEDS.length - 1];
}

/** The frame just after the first push made after frame k (k itself when none is left). */
export function nextPush(t: Track, k: number): number {
  for (let i = k; i < t.pushOf.length; i++) {
    if (t.pushOf[i] >= 0) {
      return i + 1;
    }
  }
  return k;
}

/** The frame just after the last push made before frame k - 1 (0 when there is none). */
export function previousPush(t: Track, k: number): number {
  for (let i = Math.min(k, t.pushOf.length) - 2; i >= 0; i--) {
    if (t.pushOf[i] >= 0) {
      return i + 1;
    }
  }
  return 0;
}

/** The counter beside the controls after move k: `push p of P · move k of M`. */
export function counterText(replay: Replay, t: Track, k: number): string {
  return `push ${t.prefix[k]} of ${replay.pushes} · move ${k} of ${t.pushOf.length}`;
}

/** Where every box stands at the frame shown, moved push by push. */
export class Boxes {
  readonly at: Int32Array;
  private applied = 0;

  constructor(private readonly t: Track) {
    this.at = t.start.slice();
  }

  /** Moves to frame k (the pushes of the first k moves made). */
  seek(k: number): void {
    const want = this.t.prefix[Math.max(0, Math.min(k, this.t.prefix.length - 1))];
    while (this.applied < want) {
      this.at[this.t.box[this.applied]] = this.t.to[this.applied];
      this.applied++;
    }
    while (this.applied > want) {
      this.applied--;
      this.at[this.t.box[this.applied]] = this.t.from[this.applied];
    }
  }
}

/**
 * The boxes' trail (every cell a box has stood on up to the frame shown), kept as a
 * count per cell so that moving one frame touches only the cell a box enters.
 */
export class Trail {
  private readonly counts: Int32Array;
  private shown = 0;
  private applied = 0;

  constructor(cellCount: number, private readonly t: Track) {
    this.counts = new Int32Array(cellCount);
    for (const cell of t.start) {
      this.counts[cell]++;
    }
  }

  get frame(): number {
    return this.shown;
  }

  has(cell: number): boolean {
    return this.counts[cell] > 0;
  }

  /** Moves to frame k, telling `changed` each cell that joins or leaves the trail. */
  seek(k: number, changed: (cell: number, onTrail: boolean) => void): void {
    this.shown = Math.max(0, Math.min(k, this.t.prefix.length - 1));
    const want = this.t.prefix[this.shown];
    while (this.applied < want) {
      if (this.counts[this.t.to[this.applied]]++ === 0) {
        changed(this.t.to[this.applied], true);
      }
      this.applied++;
    }
    while (this.applied > want) {
      this.applied--;
      if (--this.counts[this.t.to[this.applied]] === 0) {
        changed(this.t.to[this.applied], false);
      }
    }
  }
}

const sameCells = (a: Cell[], b: Cell[]) => a.length === b.length && a.every((c, i) => c[0] === b[i][0] && c[1] === b[i][1]);

/** Two replays show the same solution of the same board (so the frame shown may stay). */
export function sameReplay(a: Replay | null, b: Replay | null): boolean {
  return (
    !!a &&
    !!b &&
    a.format === b.format &&
    a.moves === b.moves &&
    a.rows === b.rows &&
    a.cols === b.cols &&
    a.player.join() === b.player.join() &&
    sameCells(a.boxes, b.boxes) &&
    sameCells(a.goals, b.goals) &&
    a.runs === b.runs &&
    (a.cells ?? []).length === (b.cells ?? []).length &&
    (a.cells ?? []).every((row, i) => row === b.cells?.[i]) &&
    sameCells(a.dead, b.dead) &&
    a.steps.length === b.steps.length &&
    a.steps.every((s, i) => s === b.steps[i]) &&
    a.pushed.length === b.pushed.length &&
    a.pushed.every((p, i) => p[0] === b.pushed[i][0] && p[1] === b.pushed[i][1] && p[2] === b.pushed[i][2])
  );
}
