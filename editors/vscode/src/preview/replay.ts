// The `boxls/replay` answer and what the preview derives from it: the positions after
// each move (replayed from the start, so big answers travel as a move string), which
// moves are pushes, the counter's text, the box's trail. Shared by the extension and
// the webview script, so it imports nothing (unit-tested under plain node).

export type Cell = [number, number];

export interface Frame {
  player: Cell;
  box: Cell;
}

/** What the preview draws: the maze, its solution and where the pieces start. */
export interface Replay {
  rows: number;
  cols: number;
  /** One string per row, cells from `# . S B T`. */
  cells: string[];
  /** The optimal move string (`n s e w` walks, `N S E W` pushes). */
  moves: string;
  pushes: number;
  /** Where the player and the box stand before the first move. */
  start: Frame;
  dead: Cell[];
  /** `k` of `Maze #k`, when the server says. */
  maze?: number;
  /** The document version the answer was computed for, when the server says. */
  version?: number;
}

/** Where the player and the box stand after each move, as `r * cols + c` (length M + 1). */
export interface Track {
  player: Int32Array;
  box: Int32Array;
}

const isCell = (v: unknown): v is Cell =>
  Array.isArray(v) && v.length === 2 && v.every((x) => Number.isInteger(x) && x >= 0);

const isFrame = (v: unknown): v is Frame => {
  const f = v as Partial<Frame> | null;
  return !!f && typeof f === 'object' && isCell(f.player) && isCell(f.box);
};

/**
 * Checks an answer from the server before anything draws it: a replay, `null`, or a
 * string saying what is wrong with it (never trusted blindly: the webview indexes with
 * it). The answer may carry every frame (`frames`) or none (`frames: []`, asked for
 * with `frames: false`) and the `start`; either way the moves are replayed here and
 * must be legal, and frames that are sent must agree with them.
 */
export function parseReplay(v: unknown): Replay | null | string {
  if (v === null || v === undefined) {
    return null;
  }
  if (typeof v !== 'object') {
    return `expected an object, got ${typeof v}`;
  }
  const r = v as Record<string, unknown>;
  const { rows, cols, cells, moves, pushes, frames, dead, maze, version } = r;
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || (rows as number) < 1 || (cols as number) < 1) {
    return 'rows and cols must be positive integers';
  }
  if (!Array.isArray(cells) || cells.length !== rows || !cells.every((row) => typeof row === 'string' && row.length === cols)) {
    return `cells must be ${rows} strings of ${cols} cells`;
  }
  const moveString = typeof moves === 'string' ? moves : undefined;
  if (moveString === undefined || !/^[nsewNSEW]*$/.test(moveString)) {
    return 'moves must be a move string';
  }
  const sent = Array.isArray(frames) ? frames : [];
  if (sent.length !== 0 && sent.length !== moveString.length + 1) {
    return `frames must be empty or hold the start and one frame per move (${moveString.length + 1})`;
  }
  const start = isFrame(r.start) ? r.start : sent[0];
  if (!isFrame(start)) {
    return 'the answer needs a start (player and box cells)';
  }
  const inside = (c: Cell) => c[0] < (rows as number) && c[1] < (cols as number);
  if (!inside(start.player) || !inside(start.box)) {
    return 'the start must be inside the maze';
  }
  if (!Array.isArray(dead) || !dead.every((c) => isCell(c) && inside(c))) {
    return 'dead must be a list of cells inside the maze';
  }
  const replay: Replay = {
    rows: rows as number,
    cols: cols as number,
    cells: cells as string[],
    moves: moveString,
    pushes: Number.isInteger(pushes) ? (pushes as number) : countPushes(moveString),
    start: { player: [start.player[0], start.player[1]], box: [start.box[0], start.box[1]] },
    dead: dead as Cell[],
    ...(Number.isInteger(maze) ? { maze: maze as number } : {}),
    ...(Number.isInteger(version) ? { version: version as number } : {}),
  };
  const played = track(replay);
  if (typeof played === 'string') {
    return played;
  }
  const at = (i: number) => [Math.floor(i / replay.cols), i % replay.cols];
  for (let k = 0; k < sent.length; k++) {
    const f = sent[k];
    const [pr, pc] = at(played.player[k]);
    const [br, bc] = at(played.box[k]);
    if (!isFrame(f) || f.player[0] !== pr || f.player[1] !== pc || f.box[0] !== br || f.box[1] !== bc) {
      return `frame ${k} disagrees with the moves`;
    }
  }
  return replay;
}

const STEPS: Record<string, [number, number]> = { n: [-1, 0], s: [1, 0], e: [0, 1], w: [0, -1] };

/**
 * Plays the moves from the start: the player's and the box's cell after each move, or
 * a string naming the first move that is not legal (into rock, off the board, a walk
 * into the box, a push of nothing).
 */
export function track(r: Replay): Track | string {
  const n = r.moves.length;
  const player = new Int32Array(n + 1);
  const box = new Int32Array(n + 1);
  let [pr, pc] = r.start.player;
  let [br, bc] = r.start.box;
  const free = (row: number, col: number) => row >= 0 && col >= 0 && row < r.rows && col < r.cols && r.cells[row][col] !== '#';
  if (!free(pr, pc) || !free(br, bc) || (pr === br && pc === bc)) {
    return 'the start must put the player and the box on two free cells';
  }
  player[0] = pr * r.cols + pc;
  box[0] = br * r.cols + bc;
  for (let k = 0; k < n; k++) {
    const m = r.moves[k];
    const [dr, dc] = STEPS[m.toLowerCase()];
    const push = m !== m.toLowerCase();
    pr += dr;
    pc += dc;
    if (!free(pr, pc)) {
      return `move ${k + 1} (${m}) leaves the free cells`;
    }
    if (push !== (pr === br && pc === bc)) {
      return `move ${k + 1} (${m}) ${push ? 'pushes no box' : 'walks into the box'}`;
    }
    if (push) {
      br += dr;
      bc += dc;
      if (!free(br, bc)) {
        return `move ${k + 1} (${m}) pushes the box off the free cells`;
      }
    }
    player[k + 1] = pr * r.cols + pc;
    box[k + 1] = br * r.cols + bc;
  }
  return { player, box };
}

/** The speeds offered, in moves per second. */
export const SPEEDS = [1, 2, 4, 8, 15, 30, 60, 120, 240, 480, 960];

/** A speed that plays `moves` moves in about a minute at most, and never below 4/s. */
export function defaultSpeed(moves: number): number {
  return SPEEDS.find((s) => s >= 4 && s * 60 >= moves) ?? SPEEDS[SPEEDS.length - 1];
}

export function countPushes(moves: string): number {
  let n = 0;
  for (let i = 0; i < moves.length; i++) {
    if (isPush(moves, i)) {
      n++;
    }
  }
  return n;
}

const isPush = (moves: string, i: number) => {
  const c = moves.charCodeAt(i);
  return c >= 65 && c <= 90;
};

/** `pushesBefore[k]`: how many of the first k moves are pushes (length M + 1). */
export function pushPrefix(moves: string): Int32Array {
  const out = new Int32Array(moves.length + 1);
  for (let i = 0; i < moves.length; i++) {
    out[i + 1] = out[i] + (isPush(moves, i) ? 1 : 0);
  }
  return out;
}

/** The frame just after the first push made after frame k (k itself when none is left). */
export function nextPush(moves: string, k: number): number {
  for (let i = k; i < moves.length; i++) {
    if (isPush(moves, i)) {
      return i + 1;
    }
  }
  return k;
}

/** The frame just after the last push made before frame k - 1 (0 when there is none). */
export function previousPush(moves: string, k: number): number {
  for (let i = Math.min(k, moves.length) - 2; i >= 0; i--) {
    if (isPush(moves, i)) {
      return i + 1;
    }
  }
  return 0;
}

/** The counter beside the controls after move k: `push p of P · move k of M`. */
export function counterText(replay: Replay, prefix: Int32Array, k: number): string {
  return `push ${prefix[k]} of ${replay.pushes} · move ${k} of ${replay.moves.length}`;
}

/**
 * The box's trail (every cell it has stood on up to the frame shown), kept as a count
 * per cell so that moving one frame touches only the cell the box enters or leaves.
 */
export class Trail {
  private readonly counts: Int32Array;
  private shown = 0;

  constructor(cellCount: number, private readonly boxes: Int32Array) {
    this.counts = new Int32Array(cellCount);
    this.counts[boxes[0]] = 1;
  }

  get frame(): number {
    return this.shown;
  }

  has(cell: number): boolean {
    return this.counts[cell] > 0;
  }

  /** Moves to frame k, telling `changed` each cell that joins or leaves the trail. */
  seek(k: number, changed: (cell: number, onTrail: boolean) => void): void {
    while (this.shown < k) {
      this.shown++;
      const cell = this.boxes[this.shown];
      if (cell !== this.boxes[this.shown - 1] && this.counts[cell]++ === 0) {
        changed(cell, true);
      }
    }
    while (this.shown > k) {
      const cell = this.boxes[this.shown];
      if (cell !== this.boxes[this.shown - 1] && --this.counts[cell] === 0) {
        changed(cell, false);
      }
      this.shown--;
    }
  }
}

/** Two replays show the same solution of the same maze (so the frame shown may stay). */
export function sameReplay(a: Replay | null, b: Replay | null): boolean {
  return (
    !!a &&
    !!b &&
    a.moves === b.moves &&
    a.rows === b.rows &&
    a.cols === b.cols &&
    a.start.player.join() === b.start.player.join() &&
    a.start.box.join() === b.start.box.join() &&
    a.cells.every((row, i) => row === b.cells[i]) &&
    a.dead.length === b.dead.length &&
    a.dead.every((c, i) => c[0] === b.dead[i][0] && c[1] === b.dead[i][1])
  );
}
