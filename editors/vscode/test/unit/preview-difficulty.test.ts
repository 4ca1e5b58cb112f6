import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { PLAIN, UNSOLVABLE, cellText, noMapText, parseDifficulty, pushRange, rangeText, shades } from '../../src/preview/difficulty';

// As the server answers boxls/difficulty (README: Custom requests) for
//   #####
//   #S.B#
//   #..T#
//   #####
const answer = {
  version: 4,
  maze: 1,
  rows: 4,
  cols: 5,
  kinds: ['#####', '#Sxx#', '#x.T#', '#####'],
  pushes: [
    [null, null, null, null, null],
    [null, null, null, null, null],
    [null, null, 1, null, null],
    [null, null, null, null, null],
  ],
  moves: [
    [null, null, null, null, null],
    [null, null, null, null, null],
    [null, null, 2, null, null],
    [null, null, null, null, null],
  ],
  maxPushes: 1,
};

test('a boxls/difficulty answer parses; null is no maze', () => {
  const map = parseDifficulty(JSON.parse(JSON.stringify(answer)));
  assert.ok(map && typeof map === 'object');
  assert.equal(map.maxPushes, 1);
  assert.equal(parseDifficulty(null), null);
});

test('malformed answers are refused with a reason', () => {
  assert.match(String(parseDifficulty({ ...answer, kinds: ['#####'] })), /kinds must be 4 strings/);
  assert.match(String(parseDifficulty({ ...answer, kinds: ['#####', '#S?x#', '#x.T#', '#####'] })), /letters/);
  const pushes = answer.pushes.map((row) => [...row]);
  pushes[1][2] = 3; // a count on an unsolvable cell
  assert.match(String(parseDifficulty({ ...answer, pushes })), /pushes must be/);
  assert.match(String(parseDifficulty({ ...answer, moves: [] })), /moves must be/);
  assert.match(String(parseDifficulty('x')), /expected an object/);
});

test('hovering a cell says what the box would need from there', () => {
  const map = parseDifficulty(answer);
  assert.ok(map && typeof map === 'object');
  assert.equal(cellText(map, 2, 2), 'box here: 1 push · 2 moves');
  assert.equal(cellText(map, 1, 2), 'box here: unsolvable');
  assert.equal(cellText(map, 2, 3), 'box here: already on the target');
  assert.equal(cellText(map, 1, 1), undefined, 'the start');
  assert.equal(cellText(map, 0, 0), undefined, 'rock');
  assert.equal(cellText(map, 9, 9), undefined, 'off the board');
});

test('shades run from the fewest pushes to the most; the legend names the range', () => {
  const map = parseDifficulty({
    ...answer,
    kinds: ['#####', '#S..#', '#x.T#', '#####'],
    pushes: [answer.pushes[0], [null, null, 4, 2, null], [null, null, 3, null, null], answer.pushes[3]],
    moves: [answer.moves[0], [null, null, 9, 5, null], [null, null, 7, null, null], answer.moves[3]],
    maxPushes: 4,
  });
  assert.ok(map && typeof map === 'object');
  assert.deepEqual(pushRange(map), { least: 2, most: 4 });
  const s = shades(map);
  assert.equal(s[0], PLAIN);
  assert.equal(s[6], PLAIN, 'the start');
  assert.equal(s[13], PLAIN, 'the target');
  assert.equal(s[11], UNSOLVABLE);
  assert.deepEqual([s[8], s[12], s[7]], [0, 0.5, 1]);
  assert.equal(rangeText(map), '2 – 4 pushes');
  const one = parseDifficulty(answer);
  assert.ok(one && typeof one === 'object');
  assert.equal(rangeText(one), '1 push');
  assert.equal(shades(one)[12], 1);
});

test('a board the server has no map for says why, from its own boxes and size', () => {
  const cell: [number, number] = [1, 1];
  assert.equal(
    noMapText({ boxes: [cell, cell, cell], rows: 7, cols: 7 }),
    'No difficulty map: it shows the pushes one box needs from each cell, and this level has 3 boxes.',
  );
  assert.equal(
    noMapText({ boxes: [cell], rows: 300, cols: 300 }),
    'No difficulty map for this board: its 90,000 cells are more than the 65,536 mapped.',
  );
  assert.equal(noMapText({ boxes: [cell], rows: 200, cols: 200 }), 'No difficulty map for this board: it has more cells than boxls.solve.maxCells.');
});
