import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { MAX_CELL, cellAt, clamp, fit, follow, pan, snapCell, visible, zoomAt, zoomStep } from '../../src/preview/view';

const canvas = { width: 800, height: 600 };

test('fit shows the whole board, centred, at a crisp zoom when magnified', () => {
  for (const [rows, cols] of [[7, 11], [100, 100], [1000, 1000], [2000, 2000], [3, 4000]]) {
    const v = fit(rows, cols, canvas, 8);
    assert.ok(v.cell < 1 || Number.isInteger(v.cell), `${rows}x${cols}: ${v.cell}`);
    if (v.cell < 1) {
      assert.ok(cols * v.cell > (canvas.width - 16) * 0.95 || rows * v.cell > (canvas.height - 16) * 0.95, 'a big board fills the room');
    }
    assert.ok(Number.isInteger(v.x) && Number.isInteger(v.y));
    assert.ok(v.x >= 0 && v.y >= 0 && v.x + cols * v.cell <= canvas.width && v.y + rows * v.cell <= canvas.height, `${rows}x${cols}`);
    const all = visible(v, rows, cols, canvas);
    assert.deepEqual(all, { r0: 0, r1: rows, c0: 0, c1: cols });
  }
  assert.equal(fit(2, 2, canvas).cell, MAX_CELL);
});

test('zoom steps are whole pixels per cell (or whole fractions) and move every time', () => {
  let cell = 1 / 64;
  const seen = [cell];
  while (cell < MAX_CELL) {
    const next = zoomStep(cell, 1);
    assert.ok(next > cell);
    assert.equal(snapCell(next), next);
    cell = next;
    seen.push(cell);
  }
  assert.equal(zoomStep(MAX_CELL, 1), MAX_CELL);
  for (let i = seen.length - 1; i > 0; i--) {
    assert.equal(zoomStep(seen[i], -1), seen[i - 1]);
  }
  assert.equal(zoomStep(7, 1), 8); // from a fitted zoom off the ladder
  assert.equal(zoomStep(7, -1), 6);
});

test('zooming keeps the cell under the pointer in place', () => {
  const v = { cell: 4, x: 10, y: 20 };
  const z = zoomAt(v, 8, 210, 120); // cell (25, 50) at the pointer
  assert.deepEqual(cellAt(z, 210, 120, 1000, 1000), [25, 50]);
  assert.deepEqual(cellAt(v, 210, 120, 1000, 1000), [25, 50]);
});

test('the view follows the box only when it nears an edge of a board bigger than the canvas', () => {
  const v = { cell: 10, x: 0, y: 0 };
  assert.equal(follow(v, 30, 40, canvas, 1000, 1000), v); // (405, 305): in the middle
  const moved = follow(v, 30, 75, canvas, 1000, 1000); // x = 755: near the right edge
  assert.notEqual(moved, v);
  assert.equal(moved.x + 75.5 * 10, 400); // centred across
  assert.equal(moved.y, 0); // and not down: the box is in the middle that way
  // Never past the board's edge: at the far corner the board's corner meets the canvas's.
  const corner = follow(v, 999, 999, canvas, 1000, 1000);
  assert.deepEqual([corner.x, corner.y], [800 - 10000, 600 - 10000]);
  // A board that fits the canvas does not move, wherever the box is.
  const fitted = fit(7, 11, canvas);
  assert.equal(follow(fitted, 6, 10, canvas, 7, 11), fitted);
});

test('panning keeps part of the board on the canvas', () => {
  const v = fit(100, 100, canvas);
  const far = pan(v, 1e6, -1e6, 100, 100, canvas);
  assert.ok(far.x < canvas.width && far.y + 100 * far.cell > 0);
  assert.deepEqual(clamp(far, 100, 100, canvas), far);
  const near = pan(v, 3, 4, 100, 100, canvas);
  assert.deepEqual([near.x - v.x, near.y - v.y], [3, 4]);
});

test('only the visible cells are drawn when zoomed in', () => {
  const v = { cell: 20, x: -1000, y: -500 };
  const r = visible(v, 1000, 1000, canvas);
  assert.deepEqual(r, { r0: 25, r1: 55, c0: 50, c1: 90 });
  assert.deepEqual(visible({ cell: 20, x: 900, y: 0 }, 10, 10, canvas), { r0: 0, r1: 10, c0: 0, c1: 0 });
});
