import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Box, placeTip } from '../../src/preview/tip';

const room = { width: 600, height: 400 };
const tip = { width: 200, height: 22 };

const cellBox = (row: number, col: number, side: number, x = 0, y = 0): Box => ({
  left: x + col * side,
  top: y + row * side,
  right: x + (col + 1) * side,
  bottom: y + (row + 1) * side,
});
const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const placed = (p: { left: number; top: number }): Box => ({ left: p.left, top: p.top, right: p.left + tip.width, bottom: p.top + tip.height });
const inside = (b: Box, r = room) => b.left >= 0 && b.top >= 0 && b.right <= r.width && b.bottom <= r.height;

test('the tip goes right-below the pointer, past the hovered cell', () => {
  const cell = cellBox(2, 2, 10);
  assert.deepEqual(placeTip({ x: 25, y: 25 }, cell, tip, room), { left: 39, top: 43 });
  // A big cell: below its bottom edge, not just below the pointer.
  const big = cellBox(1, 1, 80);
  assert.deepEqual(placeTip({ x: 120, y: 100 }, big, tip, room), { left: 134, top: 164 });
});

test('near the right edge it flips left of the pointer, near the bottom above the cell', () => {
  const right = cellBox(3, 9, 60, 0, 0); // columns 540..600: touching the right edge
  const p = placeTip({ x: 570, y: 210 }, right, tip, room);
  assert.equal(p.left, 570 - 14 - tip.width);
  assert.ok(inside(placed(p)) && !overlaps(placed(p), right));
  const bottom = cellBox(6, 2, 60, 0, -20); // rows 340..400: touching the bottom edge
  const q = placeTip({ x: 150, y: 370 }, bottom, tip, room);
  assert.equal(q.top, 340 - 4 - tip.height);
  assert.ok(inside(placed(q)) && !overlaps(placed(q), bottom));
  const corner = cellBox(6, 9, 60, 0, -20);
  const c = placeTip({ x: 590, y: 395 }, corner, tip, room);
  assert.ok(inside(placed(c)) && !overlaps(placed(c), corner));
});

test('every pointer on every cell of a board: inside the view and off the cell', () => {
  for (const side of [6, 24, 54, 96]) {
    for (const [x0, y0] of [[8, 8], [-30, -30], [300, 200]]) {
      for (let row = 0; y0 + row * side < room.height; row++) {
        for (let col = 0; x0 + col * side < room.width; col++) {
          const cell = cellBox(row, col, side, x0, y0);
          if (cell.right <= 0 || cell.bottom <= 0) {
            continue;
          }
          for (const [fx, fy] of [[0.1, 0.1], [0.5, 0.5], [0.9, 0.9]]) {
            const pointer = { x: cell.left + fx * side, y: cell.top + fy * side };
            if (pointer.x < 0 || pointer.y < 0 || pointer.x >= room.width || pointer.y >= room.height) {
              continue;
            }
            const b = placed(placeTip(pointer, cell, tip, room));
            const seen = { left: Math.max(0, cell.left), top: Math.max(0, cell.top), right: Math.min(room.width, cell.right), bottom: Math.min(room.height, cell.bottom) };
            assert.ok(inside(b), `side ${side} cell ${row},${col}: ${JSON.stringify(b)}`);
            assert.ok(!overlaps(b, seen), `side ${side} cell ${row},${col}: ${JSON.stringify(b)} covers ${JSON.stringify(seen)}`);
          }
        }
      }
    }
  }
});

test('a view too short for the tip above or below the cell: beside it; smaller than both: clamped', () => {
  const short = { width: 600, height: 60 };
  const cell = cellBox(0, 2, 60);
  const p = placeTip({ x: 150, y: 30 }, cell, tip, short);
  assert.equal(p.left, 184);
  assert.ok(inside(placed(p), short) && !overlaps(placed(p), cell));
  const tiny = { width: 100, height: 30 };
  const q = placeTip({ x: 50, y: 15 }, cellBox(0, 0, 100), tip, tiny);
  assert.deepEqual(q, { left: 0, top: 8 });
});
