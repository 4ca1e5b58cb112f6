import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { MazeState, noBoard, parseMazeState } from '../../src/preview/maze';

// As the server answers boxls/maze (README: Custom requests), with fields the preview ignores.
const answer = {
  version: 3,
  maze: 2,
  headerLine: 9,
  lastLine: 12,
  rows: 3,
  cols: 4,
  status: 'unsolvable',
  reason: 'the box can never reach the target',
  pushes: null,
  moves: null,
  solution: null,
  recorded: null,
  firstError: null,
};

test('a boxls/maze answer parses; null is no maze', () => {
  const state = parseMazeState(JSON.parse(JSON.stringify(answer)));
  assert.deepEqual(state, { version: 3, maze: 2, rows: 3, cols: 4, status: 'unsolvable', reason: answer.reason, firstError: null });
  assert.equal(parseMazeState(null), null);
});

test('malformed boxls/maze answers are refused with a reason', () => {
  assert.match(String(parseMazeState({ ...answer, status: 'stuck' })), /unknown status "stuck"/);
  assert.match(String(parseMazeState({ ...answer, maze: '2' })), /maze must be an integer/);
  assert.match(String(parseMazeState({ ...answer, firstError: { code: 1 } })), /firstError/);
  assert.match(String(parseMazeState(7)), /expected an object/);
});

test("what the panel says is chosen by the status; the server's sentence is shown, not read", () => {
  const state = (patch: Partial<MazeState>): MazeState => ({ ...(parseMazeState(answer) as MazeState), ...patch });
  // Whatever the wording, the same status gives the same kind of note.
  for (const reason of ['the box can never reach the target', 'Kein Weg zum Ziel']) {
    const note = noBoard(state({ reason }));
    assert.deepEqual(note, { text: `Maze #2: ${reason}`, kind: 'warning', status: 'unsolvable' });
  }
  const broken = noBoard(state({ status: 'invalid', reason: 'x', firstError: { code: 'bad-char', message: 'unknown cell `x`' } }));
  assert.deepEqual(broken, { text: 'Maze #2 has errors, so it cannot be solved: unknown cell `x` (bad-char)', kind: 'error', status: 'invalid' });
  assert.equal(noBoard(state({ status: 'solving', reason: 'anything' })).text, 'Maze #2: solving…');
  for (const status of ['tooLarge', 'timedOut', 'failed'] as const) {
    assert.deepEqual(noBoard(state({ status, reason: 'why' })), { text: 'Maze #2: why', kind: 'info', status });
  }
});
