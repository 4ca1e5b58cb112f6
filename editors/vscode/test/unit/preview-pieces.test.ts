import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { besideBoxes } from '../../src/preview/view';

// At fit on a 2000×2000 board a cell is a quarter of a pixel: the player (disc of
// radius 4.2) and the box beside it (square of half-width 5.3) would be drawn on top
// of each other. The disc is moved until it just clears every box.
const radius = 4.2;
const half = 5.3;
const covers = (p: [number, number], [bx, by]: number[]) => Math.abs(p[0] - bx) < half + radius && Math.abs(p[1] - by) < half + radius;

test('the player beside a box at a quarter pixel a cell is drawn beside it, not over it', () => {
  const box = [100, 100.25];
  const p = besideBoxes(100, 100, radius, half, [box]);
  assert.ok(!covers(p, box), `${p}`);
  assert.equal(p[0], 100, 'moved along the axis it stood on');
  assert.ok(p[1] < 100, 'away from the box (above it)');
});

test('a player clear of every box stays where it is', () => {
  assert.deepEqual(besideBoxes(50, 50, radius, half, [[70, 50], [50, 30]]), [50, 50]);
});

test('each box the disc would cover pushes it away, the last one clears it', () => {
  const boxes = [[100.2, 100], [80, 100]];
  const p = besideBoxes(100, 100, radius, half, boxes);
  assert.ok(!covers(p, boxes[0]) && !covers(p, boxes[1]), `${p}`);
  assert.ok(p[0] < 100);
});
