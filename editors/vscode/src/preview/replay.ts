// The `boxls/replay` answer and what the preview derives from it: which moves are
// pushes, the counter's text, the box's trail. Shared by the extension and the webview
// script, so it imports nothing (unit-tested under plain node).

export type Cell = [number, number];

export interface Frame {
  player: Cell;
  box: Cell;
}

/** The server's answer to `boxls/replay` for the maze at a position (SPEC §4). */
export interface Replay {
  rows: number;
  cols: number;
  /** One string per row, cells from `# . S B T`. */
  cells: string[];
  /** The optimal move string (`n s e w` walks, `N S E W` pushes). */
  moves: string;
  pushes: number;
  /** `frames[0]` is the start, then one frame per move. */
  frames: Frame[];
  dead: Cell[];
  /** `k` of `Maze #k`, when the server says. */
  maze?: number;
  /** The document version the answer was computed for, when the server says. */
  version?: number;
}

const isCell = (v: unknown): v is Cell =>
  Array.isArray(v) && v.length === 2 && v.every((x) => Number.isInteger(x) && x >= 0);

/**
 * Checks an answer from the server before anything draws it: a replay, `null`, or a
 * string saying what is wrong with it (never trusted blindly: the webview indexes with it).
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
  if (!Array.isArray(frames) || frames.length !== moveString.length + 1) {
    return `frames must hold the start and one frame per move (${moveString.length + 1})`;
  }
  const inside = (c: Cell) => c[0] < (rows as number) && c[1] < (cols as number);
  for (const f of frames) {
    const frame = f as Partial<Frame> | null;
    if (!frame || !isCell(frame.player) || !isCell(frame.box) || !inside(frame.player) || !inside(frame.box)) {
      return 'every frame needs player and box cells inside the maze';
    }
  }
  if (!Array.isArray(dead) || !dead.every((c) => isCell(c) && inside(c))) {
    return 'dead must be a list of cells inside the maze';
  }
  const counted = countPushes(moveString);
  return {
    rows: rows as number,
    cols: cols as number,
    cells: cells as string[],
    moves: moveString,
    pushes: Number.isInteger(pushes) ? (pushes as number) : counted,
    frames: frames as Frame[],
    dead: dead as Cell[],
    ...(Number.isInteger(maze) ? { maze: maze as number } : {}),
    ...(Number.isInteger(version) ? { version: version as number } : {}),
  };
}

export function countPushes(moves: string): number {
  let n = 0;
  for (const m of moves) {
    if (m >= 'A' && m <= 'Z') {
      n++;
    }
  }
  return n;
}

/** `pushesBefore[k]`: how many of the first k moves are pushes (length M + 1). */
export function pushPrefix(moves: string): number[] {
  const out = [0];
  for (const m of moves) {
    out.push(out[out.length - 1] + (m >= 'A' && m <= 'Z' ? 1 : 0));
  }
  return out;
}

/** The counter under the board after move k: `push p of P · move k of M`. */
export function counterText(replay: Replay, prefix: number[], k: number): string {
  return `push ${prefix[k]} of ${replay.pushes} · move ${k} of ${replay.moves.length}`;
}

/** Cells (as `r * cols + c`) the box has stood on in frames 0..k, in order, once each. */
export function boxTrail(replay: Replay, k: number): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  for (let i = 0; i <= k && i < replay.frames.length; i++) {
    const [r, c] = replay.frames[i].box;
    const cell = r * replay.cols + c;
    if (!seen.has(cell)) {
      seen.add(cell);
      out.push(cell);
    }
  }
  return out;
}

/** Two replays show the same solution of the same maze (so the frame shown may stay). */
export function sameReplay(a: Replay | null, b: Replay | null): boolean {
  return !!a && !!b && a.moves === b.moves && a.cols === b.cols && a.cells.join('\n') === b.cells.join('\n');
}
