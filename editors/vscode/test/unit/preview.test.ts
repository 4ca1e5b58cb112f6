import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { contentSecurityPolicy, makeNonce, previewHtml } from '../../src/preview/html';
import {
  Replay,
  SPEEDS,
  Trail,
  counterText,
  defaultSpeed,
  nextPush,
  parseReplay,
  previousPush,
  pushPrefix,
  sameReplay,
  track,
} from '../../src/preview/replay';

// Maze #1 of the sample: `SB....T`, solved by EEEEE.
const line: Replay = {
  rows: 1,
  cols: 7,
  cells: ['SB....T'],
  moves: 'EEEEE',
  pushes: 5,
  start: { player: [0, 0], box: [0, 1] },
  dead: [],
};
const lineFrames = [0, 1, 2, 3, 4, 5].map((k) => ({ player: [0, k], box: [0, k + 1] }));

// A room where the player walks round the box and pushes it down, then left.
const room: Replay = {
  rows: 5,
  cols: 5,
  cells: ['#####', '#.S.#', '#.B.#', '#T..#', '#####'],
  moves: 'SwsE',
  pushes: 2,
  start: { player: [1, 2], box: [2, 2] },
  dead: [],
};

test('an answer with frames: false (start, no frames) parses and replays', () => {
  const answer = { ...line, frames: [], maze: 1, version: 7 };
  const parsed = parseReplay(JSON.parse(JSON.stringify(answer)));
  assert.deepEqual(parsed, { ...line, maze: 1, version: 7 });
  assert.equal(parseReplay(null), null);
});

test('an answer with every frame (and no start) parses when the frames agree with the moves', () => {
  const { start: _start, ...noStart } = line;
  assert.deepEqual(parseReplay({ ...noStart, frames: lineFrames }), line);
  const wrong = lineFrames.map((f, k) => (k === 3 ? { player: [0, 3], box: [0, 5] } : f));
  assert.match(String(parseReplay({ ...line, frames: wrong })), /frame 3 disagrees with the moves/);
});

test('malformed answers are refused with a reason, never drawn', () => {
  const bad = (patch: Record<string, unknown>) => parseReplay({ ...line, frames: [], ...patch });
  assert.match(String(bad({ rows: 0 })), /rows and cols/);
  assert.match(String(bad({ cells: ['SB...T'] })), /1 strings of 7 cells/);
  assert.match(String(bad({ moves: 'EEXEE' })), /move string/);
  assert.match(String(bad({ frames: lineFrames.slice(1) })), /one frame per move \(6\)/);
  assert.match(String(bad({ start: undefined })), /needs a start/);
  assert.match(String(bad({ start: { player: [0, 0], box: [0, 9] } })), /inside the maze/);
  assert.match(String(bad({ dead: [[1, 0]] })), /dead/);
  assert.match(String(parseReplay('nope')), /expected an object/);
});

test('illegal moves are refused, naming the first', () => {
  const bad = (patch: Partial<Replay>) => parseReplay({ ...room, frames: [], ...patch });
  assert.match(String(bad({ moves: 'n' })), /move 1 \(n\) leaves the free cells/);
  assert.match(String(bad({ moves: 's' })), /move 1 \(s\) walks into the box/);
  assert.match(String(bad({ moves: 'eS' })), /move 2 \(S\) pushes no box/);
  assert.match(String(bad({ moves: 'SS' })), /move 2 \(S\) pushes the box off the free cells/);
  assert.match(String(bad({ start: { player: [2, 2], box: [2, 2] } })), /two free cells/);
});

test('the track holds the player and the box after each move', () => {
  const t = track(room);
  assert.ok(typeof t === 'object');
  const cell = (r: number, c: number) => r * 5 + c;
  assert.deepEqual([...t.player], [cell(1, 2), cell(2, 2), cell(2, 1), cell(3, 1), cell(3, 2)]);
  assert.deepEqual([...t.box], [cell(2, 2), cell(3, 2), cell(3, 2), cell(3, 2), cell(3, 3)]);
});

test('the counter counts pushes up to the move shown', () => {
  const r: Replay = { ...line, moves: 'eeNwS', pushes: 2 };
  const prefix = pushPrefix(r.moves);
  assert.deepEqual([...prefix], [0, 0, 0, 1, 1, 2]);
  assert.equal(counterText(r, prefix, 0), 'push 0 of 2 · move 0 of 5');
  assert.equal(counterText(r, prefix, 3), 'push 1 of 2 · move 3 of 5');
  assert.equal(counterText(r, prefix, 5), 'push 2 of 2 · move 5 of 5');
});

test('skipping goes to just after the next (or previous) push', () => {
  const moves = 'eeNwwSe';
  assert.equal(nextPush(moves, 0), 3);
  assert.equal(nextPush(moves, 3), 6);
  assert.equal(nextPush(moves, 6), 6); // no push left: stay
  assert.equal(previousPush(moves, 7), 6);
  assert.equal(previousPush(moves, 6), 3);
  assert.equal(previousPush(moves, 3), 0);
});

test('the trail, moved frame by frame or far, is every cell the box stood on up to the frame', () => {
  // A box pushed right, back left over its own cells, and right again.
  const boxes = Int32Array.from([1, 2, 3, 3, 2, 1, 1, 2, 3, 4]);
  const naive = (k: number) => new Set([...boxes.slice(0, k + 1)]);
  const trail = new Trail(7, boxes);
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

test('the same maze and solution is the same replay; another solution or board is not', () => {
  assert.ok(sameReplay(line, { ...line }));
  assert.ok(!sameReplay(line, { ...line, cells: ['SB...#T'] }));
  assert.ok(!sameReplay(line, { ...line, moves: 'EEEEW' }));
  assert.ok(!sameReplay(line, { ...line, dead: [[0, 6]] }));
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
