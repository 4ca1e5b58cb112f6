import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { contentSecurityPolicy, makeNonce, previewHtml } from '../../src/preview/html';
import {
  Boxes,
  Replay,
  boardCodes,
  SPEEDS,
  Trail,
  counterText,
  defaultSpeed,
  nextPush,
  parseReplay,
  previousPush,
  sameReplay,
  track,
} from '../../src/preview/replay';

// Maze #1 of the sample: `SB....T`, solved by EEEEE (the server's deltas).
const line: Replay = {
  format: 'box',
  rows: 1,
  cols: 7,
  cells: ['SB....T'],
  moves: 'EEEEE',
  pushes: 5,
  player: [0, 0],
  boxes: [[0, 1]],
  goals: [[0, 6]],
  steps: [1, 2, 3, 4, 5],
  pushed: [
    [0, 0, 2],
    [1, 0, 3],
    [2, 0, 4],
    [3, 0, 5],
    [4, 0, 6],
  ],
  dead: [],
};

// A level of two boxes: push the left one left, walk right, push the right one right.
const pair: Replay = {
  format: 'sokoban',
  rows: 1,
  cols: 8,
  cells: ['#TBS.BT#'],
  moves: 'LrrR',
  pushes: 2,
  player: [0, 3],
  boxes: [
    [0, 2],
    [0, 5],
  ],
  goals: [
    [0, 1],
    [0, 6],
  ],
  steps: [2, 3, 4, 5],
  pushed: [
    [0, 0, 1],
    [3, 1, 6],
  ],
  dead: [],
  maze: 2,
  title: 'Pair',
};

const wire = (r: Replay, extra: Record<string, unknown> = {}) => JSON.parse(JSON.stringify({ ...r, start: { player: r.player, box: r.boxes[0] }, frames: [], ...extra }));

test('an answer (a maze or a level) parses as the server sent it', () => {
  assert.deepEqual(parseReplay(wire(line, { maze: 1, version: 7, title: null })), { ...line, maze: 1, version: 7 });
  assert.deepEqual(parseReplay(wire(pair)), pair);
  assert.equal(parseReplay(null), null);
});

test('a compact answer (the board as runs) parses and indexes like the rows', () => {
  const { cells: _rows, ...rest } = pair;
  const compact: Replay = { ...rest, runs: '#TBS.BT#' };
  assert.deepEqual(parseReplay(wire(compact)), compact);
  const room = { rows: 3, cols: 5, runs: '5#|#.2 #|5#' };
  const rows = { rows: 3, cols: 5, cells: ['#####', '#.  #', '#####'] };
  assert.deepEqual(boardCodes(room), boardCodes(rows));
  const fromRuns = track({ ...pair, cells: undefined, runs: '#TBS.BT#' });
  const fromRows = track(pair);
  assert.deepEqual(fromRuns, fromRows);
});

test('runs that do not code the board are refused', () => {
  const bad = (runs: string) => boardCodes({ rows: 2, cols: 3, runs });
  assert.ok(boardCodes({ rows: 2, cols: 3, runs: '3#|#.#' }) instanceof Uint16Array);
  for (const runs of ['3#', '3#|2#', '3#|4#', '3#|#.#|3#', '3#|0#3#', '3#|#.#2', '3#||#.#', '9#|3#']) {
    assert.match(String(bad(runs)), /runs must code 2 rows of 3 cells/, runs);
  }
  assert.match(String(parseReplay(wire(pair, { cells: undefined, runs: '#TBS.BT' }))), /runs must code 1 rows of 8 cells/);
});

test('malformed answers are refused with a reason, never drawn', () => {
  const bad = (patch: Record<string, unknown>, r: Replay = pair) => parseReplay(wire(r, patch));
  assert.match(String(bad({ rows: 0 })), /rows and cols/);
  assert.match(String(bad({ cells: ['#TBS.BT'] })), /1 strings of 8 cells/);
  assert.match(String(bad({ moves: 3 })), /move string/);
  assert.match(String(bad({ player: [0, 9] })), /player start/);
  assert.match(String(bad({ boxes: [] })), /boxes/);
  assert.match(String(bad({ goals: [[2, 0]] })), /goals/);
  assert.match(String(bad({ dead: [[1, 0]] })), /dead/);
  assert.match(String(bad({ steps: [2, 3, 4] })), /one cell index .* per move \(4\)/);
  assert.match(String(bad({ steps: [2, 3, 4, 8] })), /below 8/);
  assert.match(String(bad({ pushed: [[0, 0]] })), /triples/);
  assert.match(String(parseReplay('nope')), /expected an object/);
});

test('deltas that cannot be drawn are refused, naming the first', () => {
  const bad = (patch: Partial<Replay>) => parseReplay(wire({ ...pair, ...patch }));
  assert.match(String(bad({ boxes: [[0, 0]] })), /box 1 must start on a free cell/);
  assert.match(String(bad({ boxes: [[0, 2], [0, 2]] })), /box 2 must start on a free cell of its own/);
  assert.match(String(bad({ player: [0, 2] })), /player must start on a free cell without a box/);
  assert.match(String(bad({ steps: [2, 3, 4, 7] })), /move 4 puts the player off the free cells/);
  assert.match(String(bad({ pushed: [[0, 0, 1]] })), /move 4 puts the player .* onto a box/);
  assert.match(String(bad({ pushed: [[0, 2, 1], [3, 1, 6]] })), /push 1 moves box 3 of 2/);
  assert.match(String(bad({ pushed: [[0, 0, 5], [3, 1, 6]] })), /push 1 \(move 1\) puts box 1 .* onto another box/);
  assert.match(String(bad({ pushed: [[0, 0, 1], [0, 1, 6]] })), /push 2 names move 1: pushes must be in move order/);
  assert.match(String(bad({ pushed: [[0, 0, 1], [3, 1, 6], [9, 1, 7]] })), /within the 4 moves/);
});

test('the track indexes the player after each move and each push with the cell it leaves', () => {
  const t = track(pair);
  assert.ok(typeof t === 'object');
  assert.deepEqual([...t.player], [3, 2, 3, 4, 5]);
  assert.deepEqual([...t.pushOf], [0, -1, -1, 1]);
  assert.deepEqual([...t.from], [2, 5]);
  assert.deepEqual([...t.to], [1, 6]);
  assert.deepEqual([...t.prefix], [0, 1, 1, 1, 2]);
  const boxes = new Boxes(t);
  boxes.seek(4);
  assert.deepEqual([...boxes.at], [1, 6], 'every box on a goal at the end');
  boxes.seek(1);
  assert.deepEqual([...boxes.at], [1, 5]);
  boxes.seek(0);
  assert.deepEqual([...boxes.at], [2, 5]);
});

test('the counter counts pushes up to the move shown', () => {
  const t = track(pair);
  assert.ok(typeof t === 'object');
  assert.equal(counterText(pair, t, 0), 'push 0 of 2 · move 0 of 4');
  assert.equal(counterText(pair, t, 1), 'push 1 of 2 · move 1 of 4');
  assert.equal(counterText(pair, t, 4), 'push 2 of 2 · move 4 of 4');
});

test('skipping goes to just after the next (or previous) push', () => {
  // eeNwwSe on a room: pushes are moves 3 and 6.
  const t = track({
    ...line,
    rows: 3,
    cols: 7,
    cells: ['.......', '.......', '.......'],
    moves: 'eeNwwSe',
    player: [2, 0],
    boxes: [[1, 2]],
    steps: [15, 16, 9, 8, 7, 14, 15],
    pushed: [
      [2, 0, 2],
      [5, 0, 1],
    ],
  });
  assert.ok(typeof t === 'object', String(t));
  assert.equal(nextPush(t, 0), 3);
  assert.equal(nextPush(t, 3), 6);
  assert.equal(nextPush(t, 6), 6); // no push left: stay
  assert.equal(previousPush(t, 7), 6);
  assert.equal(previousPush(t, 6), 3);
  assert.equal(previousPush(t, 3), 0);
});

test('the trail, moved frame by frame or far, is every cell a box stood on up to the frame', () => {
  // A box pushed right, back left over its own cells, and right again (cols 7).
  const cells = [1, 2, 3, 3, 2, 1, 1, 2, 3, 4];
  const r: Replay = {
    ...line,
    cells: ['.......'],
    moves: 'x'.repeat(cells.length - 1),
    player: [0, 6],
    boxes: [[0, 1]],
    steps: cells.slice(1).map(() => 6),
    pushed: cells.slice(1).flatMap((c, k) => (c !== cells[k] ? [[k, 0, c] as [number, number, number]] : [])),
  };
  const t = track(r);
  assert.ok(typeof t === 'object', String(t));
  const naive = (k: number) => new Set([...cells.slice(0, k + 1)]);
  const trail = new Trail(7, t);
  const on = new Set([1]);
  const changes: number[] = [];
  for (const k of [3, 9, 0, 5, 4, 8, 9, 2, 0]) {
    changes.length = 0;
    trail.seek(k, (cell, joins) => {
      changes.push(cell);
      joins ? on.add(cell) : on.delete(cell);
    });
    assert.deepEqual([...on].sort(), [...naive(k)].sort(), `frame ${k}`);
    assert.equal(trail.frame, k);
    for (let cell = 0; cell < 7; cell++) {
      assert.equal(trail.has(cell), naive(k).has(cell));
    }
  }
  // One step touches at most one cell.
  trail.seek(1, () => undefined);
  changes.length = 0;
  trail.seek(2, (cell) => changes.push(cell));
  assert.deepEqual(changes, [3]);
});

test('the trail of many boxes starts on every box', () => {
  const t = track(pair);
  assert.ok(typeof t === 'object');
  const trail = new Trail(8, t);
  assert.deepEqual([1, 2, 5, 6].map((c) => trail.has(c)), [false, true, true, false]);
  trail.seek(4, () => undefined);
  assert.deepEqual([1, 2, 5, 6].map((c) => trail.has(c)), [true, true, true, true]);
});

test('the same board and solution is the same replay; another solution or board is not', () => {
  assert.ok(sameReplay(line, { ...line }));
  assert.ok(!sameReplay(line, { ...line, cells: ['SB...#T'] }));
  assert.ok(!sameReplay(line, { ...line, moves: 'EEEEW' }));
  assert.ok(!sameReplay(line, { ...line, dead: [[0, 6]] }));
  assert.ok(!sameReplay(pair, { ...pair, steps: [2, 3, 4, 4] }));
  assert.ok(!sameReplay(pair, { ...pair, boxes: [[0, 2], [0, 4]] }));
  assert.ok(!sameReplay(null, line));
});

test('the default speed plays a long solution in about a minute', () => {
  assert.equal(defaultSpeed(28), 4);
  assert.equal(defaultSpeed(3994), 120);
  assert.ok(SPEEDS.includes(defaultSpeed(10 ** 9)));
});

test('the page allows only its own files and its one nonce', () => {
  const r = { cspSource: 'https://file+.vscode-resource.example', scriptUri: 'https://x/preview.js', styleUri: 'https://x/preview.css', nonce: makeNonce() };
  const csp = contentSecurityPolicy(r);
  assert.match(csp, /^default-src 'none'; /);
  assert.match(csp, new RegExp(`script-src 'nonce-${r.nonce.replace(/[+/]/g, '\\$&')}'`));
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  const html = previewHtml(r);
  const scripts = html.match(/<script[^>]*>/g) ?? [];
  assert.equal(scripts.length, 1);
  assert.ok(scripts[0].includes(`nonce="${r.nonce}"`));
  assert.notEqual(makeNonce(), makeNonce());
  assert.ok(makeNonce().length >= 24);
});

test('the page has a canvas board and every control, each with a name', () => {
  const html = previewHtml({ cspSource: 'x', scriptUri: 's', styleUri: 'c', nonce: 'n' });
  assert.match(html, /<canvas id="board"[^>]*tabindex="0"/);
  for (const id of ['back', 'play', 'forward', 'next-push', 'zoom-out', 'zoom-in', 'fit', 'follow']) {
    assert.match(html, new RegExp(`<button id="${id}" type="button" title="[^"]+" aria-label="[^"]+"`), id);
  }
  assert.match(html, /<select id="speed" aria-label="Moves per second">/);
  assert.equal((html.match(/<option value=/g) ?? []).length, SPEEDS.length);
});
