import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { contentSecurityPolicy, makeNonce, previewHtml } from '../../src/preview/html';
import { Replay, boxTrail, counterText, parseReplay, pushPrefix, sameReplay } from '../../src/preview/replay';

// Maze #1 of the sample: `SB....T`, solved by EEEEE.
const line: Replay = {
  rows: 1,
  cols: 7,
  cells: ['SB....T'],
  moves: 'EEEEE',
  pushes: 5,
  frames: [0, 1, 2, 3, 4, 5].map((k) => ({ player: [0, k] as [number, number], box: [0, k + 1] as [number, number] })),
  dead: [],
};

test('a well-formed answer parses; null stays null', () => {
  assert.deepEqual(parseReplay(JSON.parse(JSON.stringify(line))), line);
  assert.equal(parseReplay(null), null);
});

test("the server's maze number and document version are kept when present", () => {
  const parsed = parseReplay({ ...line, maze: 1, version: 7 });
  assert.ok(parsed && typeof parsed === 'object');
  assert.equal(parsed.maze, 1);
  assert.equal(parsed.version, 7);
});

test('malformed answers are refused with a reason, never drawn', () => {
  const bad = (patch: Record<string, unknown>) => parseReplay({ ...line, ...patch });
  assert.match(String(bad({ rows: 0 })), /rows and cols/);
  assert.match(String(bad({ cells: ['SB...T'] })), /1 strings of 7 cells/);
  assert.match(String(bad({ moves: 'EEXEE' })), /move string/);
  assert.match(String(bad({ frames: line.frames.slice(1) })), /one frame per move \(6\)/);
  assert.match(String(bad({ frames: [...line.frames.slice(0, 5), { player: [0, 5], box: [0, 7] }] })), /inside the maze/);
  assert.match(String(bad({ dead: [[1, 0]] })), /dead/);
  assert.match(String(parseReplay('nope')), /expected an object/);
});

test('the counter counts pushes up to the move shown', () => {
  const r: Replay = { ...line, moves: 'eeNwS', pushes: 2, frames: Array(6).fill({ player: [0, 0], box: [0, 1] }) };
  const prefix = pushPrefix(r.moves);
  assert.deepEqual(prefix, [0, 0, 0, 1, 1, 2]);
  assert.equal(counterText(r, prefix, 0), 'push 0 of 2 · move 0 of 5');
  assert.equal(counterText(r, prefix, 3), 'push 1 of 2 · move 3 of 5');
  assert.equal(counterText(r, prefix, 5), 'push 2 of 2 · move 5 of 5');
});

test("the box's trail lists each cell it stood on once, up to the frame", () => {
  assert.deepEqual(boxTrail(line, 0), [1]);
  assert.deepEqual(boxTrail(line, 3), [1, 2, 3, 4]);
  const back: Replay = { ...line, frames: [line.frames[0], line.frames[1], line.frames[0]] };
  assert.deepEqual(boxTrail(back, 2), [1, 2]);
});

test('the same maze and solution is the same replay; another solution is not', () => {
  assert.ok(sameReplay(line, { ...line }));
  assert.ok(!sameReplay(line, { ...line, cells: ['SB...#T'] }));
  assert.ok(!sameReplay(line, { ...line, moves: 'EEEEW' }));
  assert.ok(!sameReplay(null, line));
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
