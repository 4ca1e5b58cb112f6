// The `boxls/maze` answer (the state of the maze at a position, as data) and what the
// preview says when there is no board. No imports: unit-tested under plain node.

export type Status = 'solved' | 'solving' | 'unsolvable' | 'invalid' | 'tooLarge' | 'timedOut' | 'failed';

const STATUSES: Status[] = ['solved', 'solving', 'unsolvable', 'invalid', 'tooLarge', 'timedOut', 'failed'];

/** The fields of the server's `MazeInfo` the preview reads (see the manual's Custom requests). */
export interface MazeState {
  version: number;
  maze: number;
  rows: number;
  cols: number;
  status: Status;
  reason: string | null;
  firstError: { code: string; message: string } | null;
}

/** What the panel shows when there is no board: a sentence, how it reads, and why. */
export interface Note {
  text: string;
  kind: 'info' | 'error' | 'warning';
  /** The maze's status, when the note is about one (the page exposes it as data). */
  status?: Status;
}

/** Checks a `boxls/maze` answer: the state, `null` (no maze there), or what is wrong. */
export function parseMazeState(v: unknown): MazeState | null | string {
  if (v === null || v === undefined) {
    return null;
  }
  if (typeof v !== 'object') {
    return `expected an object, got ${typeof v}`;
  }
  const r = v as Record<string, unknown>;
  for (const key of ['version', 'maze', 'rows', 'cols']) {
    if (!Number.isInteger(r[key])) {
      return `${key} must be an integer`;
    }
  }
  if (!STATUSES.includes(r.status as Status)) {
    return `unknown status ${JSON.stringify(r.status)}`;
  }
  if (r.reason !== null && typeof r.reason !== 'string') {
    return 'reason must be a string or null';
  }
  const e = r.firstError as Record<string, unknown> | null | undefined;
  if (e !== null && e !== undefined && (typeof e !== 'object' || typeof e.code !== 'string' || typeof e.message !== 'string')) {
    return 'firstError must have a code and a message';
  }
  return {
    version: r.version as number,
    maze: r.maze as number,
    rows: r.rows as number,
    cols: r.cols as number,
    status: r.status as Status,
    reason: (r.reason as string | null) ?? null,
    firstError: e ? { code: e.code as string, message: e.message as string } : null,
  };
}

/** What the panel says about a maze the server has not solved: chosen by its status, the
 * server's reason shown as it is (never read). */
export function noBoard(state: MazeState): Note {
  const k = `Maze #${state.maze}`;
  const reason = state.reason ?? '';
  switch (state.status) {
    case 'invalid': {
      const error = state.firstError;
      return {
        text: `${k} has errors, so it cannot be solved: ${error ? `${error.message} (${error.code})` : reason}`,
        kind: 'error',
        status: state.status,
      };
    }
    case 'unsolvable':
      return { text: `${k}: ${reason}`, kind: 'warning', status: state.status };
    case 'solving':
      return { text: `${k}: solving…`, kind: 'info', status: state.status };
    default:
      return { text: `${k}: ${reason}`, kind: 'info', status: state.status };
  }
}
