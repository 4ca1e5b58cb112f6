import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { besideBoxes } from '../../src/preview/view';

// At fit on a 2000×2000 board a cell is a quarter of a pixel: the player (disc of
// radius 4.2) and the box beside it (square of half-width 5.3) would be drawn on top
// of each other. The disc goes beside the box, on the canvas.
const radius = 4.2;
const half = 5.3;
const covers = (p: [number, number], [bx, by]: number[]) => Math.abs(p[0] - bx) < half + radius && Math.abs(p[1] - by) < half + radius;
const onCanvas = (p: [number, number], w: number, h: number) => p[0] >= radius && p[1] >= radius && p[0] <= w - radius && p[1] <= h - radius;

test('the player above a box at a quarter pixel a cell is drawn above it, not over it', () => {
  const box = [100, 100.25];
  const p = besideBoxes(100, 100, radius, half, [box], 400, 400);
  assert.ok(!covers(p, box), `${p}`);
  assert.equal(p[0], 100, 'moved along the axis it stood on');
  assert.ok(p[1] < 100, 'on its own side of the box (above it)');
});

test('at the canvas edge the player goes to a side of the box that is on the canvas', () => {
  // The board's top-left corner: the player's own side (above) is off the canvas.
  const box = [3, 3.25];
  const p = besideBoxes(3, 3, radius, half, [box], 400, 400);
  assert.ok(!covers(p, box) && p[0] >= 0 && p[1] >= 0, `${p}`);
  assert.ok(p[0] <= 400 && p[1] <= 400 && (p[0] > 3 || p[1] > 3.25), `beside the box, its centre on the canvas: ${p}`);
  const q = besideBoxes(20, 3, radius, half, [[20, 3.25]], 400, 400);
  assert.ok(!covers(q, [20, 3.25]) && onCanvas(q, 400, 400), `${q}`);
});

test('a player clear of every box stays where it is', () => {
  assert.deepEqual(besideBoxes(50, 50, radius, half, [[70, 50], [50, 30]], 400, 400), [50, 50]);
});

test('among many boxes the player goes where it covers none', () => {
  const boxes = [[100.2, 100], [100, 99.8], [100, 100.2]];
  const p = besideBoxes(100, 100, radius, half, boxes, 400, 400);
  assert.ok(boxes.every((b) => !covers(p, b)) && onCanvas(p, 400, 400), `${p}`);
});
