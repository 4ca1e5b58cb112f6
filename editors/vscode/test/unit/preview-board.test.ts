import { test } from 'node:test';
import * as assert from 'node:assert/strict';

// The painter draws on canvases; under plain node it gets just enough of one: fillRect
// remembers a `#rrggbb` colour for getImageData (how `word` reads a CSS colour), image
// data is plain bytes, and drawing calls do nothing.
function fakeCanvas() {
  let rgb = [0, 0, 0];
  const ctx = {
    fillStyle: '#000000',
    strokeStyle: '',
    lineWidth: 1,
    fillRect() {
      const hex = String(ctx.fillStyle).slice(1);
      rgb = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
    },
    getImageData: () => ({ data: Uint8ClampedArray.from([...rgb, 255]) }),
    createImageData: (width: number, height: number) => ({ width, height, data: new Uint8ClampedArray(width * height * 4) }),
    clearRect() {},
    putImageData() {},
    beginPath() {},
    moveTo() {},
    lineTo() {},
    stroke() {},
    createPattern: () => ({}),
  };
  return { width: 0, height: 0, getContext: () => ctx };
}
(globalThis as { document?: unknown }).document = { createElement: fakeCanvas };

// Imported after the fake document is in place (the painter makes canvases as it starts).
const { BoardPainter, word } = require('../../src/preview/webview/board') as typeof import('../../src/preview/webview/board');

const palette = (floor: string) => ({
  background: '#000000',
  rock: '#111111',
  floor,
  grid: '#222222',
  dead: '#333333',
  deadFlat: '#444444',
  trail: '#555555',
  heat: '#ff0000',
  unsolvable: '#666666',
  target: '#777777',
  box: '#888888',
  player: '#999999',
  outline: '#aaaaaa',
  highContrast: false,
});

test('a theme change while a big board is painted in slices leaves no row in the old colours', () => {
  const painter = new BoardPainter(fakeCanvas() as unknown as HTMLCanvasElement);
  painter.setPalette(palette('#102030'));
  const rows = 600;
  const cols = 3;
  const floor = new Uint16Array(rows * cols).fill('.'.charCodeAt(0));
  const steps = painter.openBoard(rows, cols, floor, []);
  // Read the cells, make the images, then paint some of the rows in the first colours.
  for (let i = 0; i < 9; i++) {
    assert.equal(steps.next().done, false);
  }
  const words = () => (painter as unknown as { words: Uint32Array }).words;
  const first = word('#102030');
  assert.equal(words()[0], first, 'the first rows are painted by now');
  assert.notEqual(words()[rows * cols - 1], first, 'the last rows are not yet');
  painter.setPalette(palette('#405060'));
  while (!steps.next().done) {
    // the rest of the slices
  }
  const now = word('#405060');
  const stale = words().findIndex((w) => w !== now);
  assert.equal(stale, -1, `row ${Math.floor(stale / cols)} kept the old floor`);
});
