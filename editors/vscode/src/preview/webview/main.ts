// The preview's page script (runs in the webview, bundled to dist/preview.js): draws
// the board the extension posts on a canvas and plays the solution from the server's
// per-move deltas (the player's cell after each move, each push's box and cell: no
// move is played here). Messages from the extension:
//   { type: 'replay', seq, title, replay, answeredAt }  a solved maze or level to show
//   { type: 'keep', seq, title }  the maze shown is still current: keep it
//   { type: 'message', seq, title, text, kind }  no board: why (broken, unsolvable, …)
//   { type: 'difficulty', map }  the board's difficulty map (`boxls/difficulty`), for
//     the difficulty layer; kept only if it is the map of the board shown
// A message with a lower `seq` than the last one shown is stale and ignored. The page
// tells the extension when the layer is switched on or off: { type: 'layer', difficulty }.
//
// What is drawn is also written on the canvas's data attributes (frame, player, box —
// the first box — and boxes, goals, the view: device pixels per cell and the board's
// corner), so tests can find a cell's pixels and read them.
import { ICONS } from '../icons';
import { Boxes, Replay, SPEEDS, Track, Trail, counterText, defaultSpeed, nextPush, previousPush, sameReplay, track } from '../replay';
import { Size, View, cellAt, clamp, fit, follow, pan, zoomAt, zoomStep } from '../view';
import { BoardPainter, Palette } from './board';
import { DifficultyMap, cellText, rangeText, shades } from '../difficulty';
import { placeTip } from '../tip';

interface ReplayMessage {
  type: 'replay';
  seq: number;
  title: string;
  replay: Replay;
  /** `Date.now()` when the extension had the server's answer. */
  answeredAt?: number;
}
interface KeepMessage {
  type: 'keep';
  seq: number;
  title: string;
}
interface TextMessage {
  type: 'message';
  seq: number;
  title: string;
  text: string;
  kind: 'info' | 'error' | 'warning';
  /** The maze's status (`unsolvable`, `invalid`, …) when the text is about one. */
  status?: string;
}
interface DifficultyMessage {
  type: 'difficulty';
  map: DifficultyMap;
}
type Incoming = ReplayMessage | KeepMessage | TextMessage | DifficultyMessage;

declare function acquireVsCodeApi(): { postMessage(msg: unknown): void };
const vscodeApi = acquireVsCodeApi();

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const titleEl = byId<HTMLHeadingElement>('title');
const statusEl = byId<HTMLParagraphElement>('status');
const stage = byId<HTMLDivElement>('stage');
const viewport = byId<HTMLDivElement>('viewport');
const canvas = byId<HTMLCanvasElement>('board');
const back = byId<HTMLButtonElement>('back');
const play = byId<HTMLButtonElement>('play');
const forward = byId<HTMLButtonElement>('forward');
const skip = byId<HTMLButtonElement>('next-push');
const scrub = byId<HTMLInputElement>('scrub');
const counter = byId<HTMLSpanElement>('counter');
const speedSelect = byId<HTMLSelectElement>('speed');
const zoomOutButton = byId<HTMLButtonElement>('zoom-out');
const zoomInButton = byId<HTMLButtonElement>('zoom-in');
const fitButton = byId<HTMLButtonElement>('fit');
const followButton = byId<HTMLButtonElement>('follow');
const position = byId<HTMLParagraphElement>('position');
const difficultyButton = byId<HTMLButtonElement>('difficulty');
const difficultyLegend = byId<HTMLParagraphElement>('difficulty-legend');
const difficultyRange = byId<HTMLSpanElement>('difficulty-range');
const tip = byId<HTMLDivElement>('cell-tip');
const trailName = byId<HTMLSpanElement>('trail-name');
const targetName = byId<HTMLSpanElement>('target-name');

const painter = new BoardPainter(canvas);

let lastSeq = -1;
let replay: Replay | null = null;
let moves: Track = {
  board: new Uint16Array(0),
  player: new Int32Array(1),
  pushOf: new Int32Array(0),
  moveOf: new Int32Array(0),
  box: new Int32Array(0),
  from: new Int32Array(0),
  to: new Int32Array(0),
  start: new Int32Array(1),
  prefix: new Int32Array(1),
};
let boxes = new Boxes(moves);
let trail: Trail | null = null;
let frame = 0;
/** The targets (goals), and which cells are one. */
let targets: [number, number][] = [];
let goalAt = new Uint8Array(0);

/** Moves per second; once the user picks one it is kept for every board. */
let speed = 4;
let speedChosen = false;
/** While playing: where the clock started (frame and time), for fractional positions. */
let playing: { from: number; at: number } | undefined;
let fraction = 0;

/** The canvas size in device pixels, and the device pixels per CSS pixel. */
let size: Size = { width: 1, height: 1 };
let dpr = window.devicePixelRatio || 1;
let view: View = { cell: 1, x: 0, y: 0 };
/** The view is the fitted one (refitted when the panel is resized) until the user zooms or pans. */
let fitted = true;
let following = true;
/** The difficulty layer: switched on, and the map of the board shown once it came. */
let layer = false;
let difficulty: DifficultyMap | null = null;
let drawQueued = false;
let drawnAt = 0;

window.addEventListener('message', (event: MessageEvent<Incoming>) => {
  const msg = event.data;
  if (msg?.type === 'difficulty') {
    takeDifficulty(msg.map);
    return;
  }
  if (!msg || typeof msg.seq !== 'number' || msg.seq <= lastSeq) {
    return;
  }
  lastSeq = msg.seq;
  document.body.dataset.seq = String(msg.seq);
  titleEl.textContent = msg.title;
  if (msg.type === 'replay') {
    if (msg.answeredAt) {
      canvas.dataset.receivedMs = String(Date.now() - msg.answeredAt);
    }
    showReplay(msg.replay, msg.answeredAt);
  } else if (msg.type === 'keep') {
    if (replay) {
      statusEl.hidden = true;
      stage.hidden = false;
    }
  } else {
    showMessage(msg.text, msg.kind, msg.status);
  }
});

function showMessage(text: string, kind: TextMessage['kind'], status = ''): void {
  pause();
  difficulty = null;
  showLayer();
  statusEl.dataset.status = status;
  replay = null;
  stage.hidden = true;
  statusEl.hidden = false;
  statusEl.textContent = text;
  statusEl.className = kind;
}

function showReplay(next: Replay, answeredAt: number | undefined): void {
  statusEl.hidden = true;
  stage.hidden = false;
  if (sameReplay(replay, next)) {
    // The same maze and solution (an edit elsewhere): keep the frame and keep playing.
    replay = next;
    return;
  }
  const played = track(next);
  if (typeof played === 'string') {
    showMessage(`The server's replay does not play: ${played}.`, 'error');
    return;
  }
  pause();
  replay = next;
  moves = played;
  boxes = new Boxes(played);
  trail = new Trail(next.rows * next.cols, played);
  frame = 0;
  fraction = 0;
  targets = next.goals.map(([r, c]) => [r, c]);
  goalAt = new Uint8Array(next.rows * next.cols);
  for (const [r, c] of next.goals) {
    goalAt[r * next.cols + c] = 1;
  }
  if (!speedChosen) {
    speed = defaultSpeed(count());
    speedSelect.value = String(speed);
  }
  scrub.max = String(count());
  // As wide as the counter ever gets, so the controls do not move while it counts.
  counter.style.minWidth = `${counterText(next, played, count()).length}ch`;
  const what = next.maze ? (next.format === 'sokoban' ? `Level ${next.maze}: ` : `Maze #${next.maze}: `) : '';
  canvas.setAttribute('aria-label', `${what}${next.rows} rows, ${next.cols} columns`);
  // A level has many boxes: the view follows the player, the trail is all the boxes'.
  const many = next.boxes.length > 1;
  trailName.textContent = many ? "boxes' trail" : "box's trail";
  // A level's `.` is a goal (its own word in Sokoban), a maze's `T` a target.
  targetName.textContent = next.format === 'sokoban' ? 'goal' : 'target';
  followButton.title = many ? 'Follow the player (B)' : 'Follow the box (B)';
  followButton.setAttribute('aria-label', many ? 'Follow the player' : 'Follow the box');
  canvas.dataset.rows = String(next.rows);
  canvas.dataset.cols = String(next.cols);
  painter.setBoard(next.rows, next.cols, played.board, next.dead);
  difficulty = null;
  showLayer();
  for (const cell of played.start) {
    painter.setTrail(cell, true);
  }
  measure();
  refit();
  drawnAt = answeredAt ?? -1;
  showFrame(0);
}

/** Moves to frame k: the trail gains or loses the cells between, the controls follow. */
function showFrame(k: number): void {
  if (!replay || !trail) {
    return;
  }
  frame = Math.max(0, Math.min(k, count()));
  boxes.seek(frame);
  trail.seek(frame, (cell, on) => painter.setTrail(cell, on));
  const text = counterText(replay, moves, frame);
  scrub.value = String(frame);
  scrub.setAttribute('aria-valuetext', text);
  counter.textContent = text;
  back.disabled = frame === 0;
  forward.disabled = frame === count();
  skip.disabled = nextPush(moves, frame) === frame;
  if (!playing) {
    describe();
  }
  if (frame === count()) {
    pause();
  }
  if (following) {
    const [fr, fc] = rc(focus());
    setView(follow(view, fr, fc, size, replay.rows, replay.cols), false);
  }
  queueDraw();
}

/** How many moves the solution has. */
const count = () => moves.pushOf.length;

/** What the view follows: the box of a maze, the player of a level (many boxes). */
const focus = () => (boxes.at.length === 1 ? boxes.at[0] : moves.player[frame]);

/** How many boxes stand on a goal at the frame shown. */
function onGoals(): number {
  let n = 0;
  for (const cell of boxes.at) {
    n += goalAt[cell];
  }
  return n;
}

/** The accessible summary of the frame shown (not while playing: it would chatter). */
function describe(): void {
  if (!replay) {
    return;
  }
  const [pr, pc] = rc(moves.player[frame]);
  const move = frame > 0 ? replay.moves[frame - 1] : undefined;
  const pushed = frame > 0 && moves.pushOf[frame - 1] >= 0;
  let where: string;
  if (boxes.at.length === 1) {
    const [br, bc] = rc(boxes.at[0]);
    where = `box at row ${br + 1}, column ${bc + 1}`;
  } else {
    where = `${onGoals()} of ${boxes.at.length} boxes on goals`;
  }
  position.textContent =
    `${counterText(replay, moves, frame)}${move ? ` (${pushed ? 'push' : 'walk'} ${move})` : ''}: ` +
    `player at row ${pr + 1}, column ${pc + 1}; ${where}`;
}

const rc = (cell: number): [number, number] => (replay ? [Math.floor(cell / replay.cols), cell % replay.cols] : [0, 0]);

function queueDraw(): void {
  if (!drawQueued) {
    drawQueued = true;
    requestAnimationFrame(onFrame);
  }
}

function onFrame(now: number): void {
  drawQueued = false;
  if (playing && replay) {
    const at = playing.from + ((now - playing.at) * speed) / 1000;
    const k = Math.min(count(), Math.floor(at));
    fraction = k < count() ? at - k : 0;
    if (k !== frame) {
      showFrame(k);
    }
    if (playing) {
      queueDraw();
    }
  } else {
    fraction = 0;
  }
  draw();
}

/** Paints the frame shown (a move under way is drawn part of the way). */
function draw(): void {
  if (!replay) {
    return;
  }
  const between = (a: number, b: number): [number, number] => {
    const [ar, ac] = rc(a);
    const [br, bc] = rc(b);
    return [ar + (br - ar) * fraction, ac + (bc - ac) * fraction];
  };
  const next = Math.min(frame + 1, count());
  const player = between(moves.player[frame], moves.player[next]);
  // The box the next move pushes is drawn part of the way too.
  const push = frame < count() ? moves.pushOf[frame] : -1;
  const drawn: [number, number][] = [];
  const onGoal: boolean[] = [];
  for (let i = 0; i < boxes.at.length; i++) {
    const cell = boxes.at[i];
    drawn.push(push >= 0 && moves.box[push] === i ? between(cell, moves.to[push]) : rc(cell));
    onGoal.push(goalAt[cell] === 1);
  }
  painter.draw(view, size, { player, boxes: drawn, onGoal, targets }, dpr);
  const d = canvas.dataset;
  d.frame = String(frame);
  d.player = rc(moves.player[frame]).join(',');
  d.box = rc(boxes.at[0]).join(',');
  d.boxes = [...boxes.at].map((cell) => rc(cell).join(',')).join(';');
  d.goals = targets.map((t) => t.join(',')).join(';');
  d.onGoals = String(onGoals());
  d.cell = String(view.cell);
  d.x = String(view.x);
  d.y = String(view.y);
  d.width = String(size.width);
  d.height = String(size.height);
  d.dpr = String(dpr);
  if (drawnAt !== 0) {
    // The first paint of a new board: how long after the server's answer it came.
    d.drawnAt = String(Date.now());
    d.openMs = drawnAt > 0 ? String(Date.now() - drawnAt) : '';
    drawnAt = 0;
  }
}

// --- the difficulty layer -----------------------------------------------------------

/** Keeps a map the extension sent if it is the board's (same maze, version and size). */
function takeDifficulty(map: DifficultyMap): void {
  const fits =
    !!replay &&
    map.rows === replay.rows &&
    map.cols === replay.cols &&
    (replay.maze === undefined || replay.maze === map.maze) &&
    (replay.version === undefined || replay.version === map.version);
  if (fits && layer) {
    difficulty = map;
    showLayer();
  }
}

function setLayer(on: boolean): void {
  layer = on;
  difficultyButton.setAttribute('aria-pressed', String(on));
  if (!on) {
    difficulty = null;
  }
  showLayer();
  vscodeApi.postMessage({ type: 'layer', difficulty: on });
}

/** Shades the board and shows the legend while the layer is on and its map is in. */
function showLayer(): void {
  const active = layer && !!difficulty;
  painter.setShades(active && difficulty ? shades(difficulty) : null);
  difficultyLegend.hidden = !active;
  difficultyRange.textContent = active && difficulty ? rangeText(difficulty) : '';
  document.body.dataset.difficulty = active ? 'on' : layer ? 'waiting' : 'off';
  if (!active) {
    hideTip();
  }
  queueDraw();
}

function hideTip(): void {
  tip.hidden = true;
  tip.textContent = '';
  delete tip.dataset.cell;
}

/** Over a cell with the layer on: what the box would need from there, by the pointer. */
function showTip(e: PointerEvent): void {
  if (!replay || !difficulty || pointers.size > 0) {
    hideTip();
    return;
  }
  const r = canvas.getBoundingClientRect();
  const at = cellAt(view, (e.clientX - r.left) * dpr, (e.clientY - r.top) * dpr, replay.rows, replay.cols);
  const text = at && cellText(difficulty, at[0], at[1]);
  if (!at || !text) {
    hideTip();
    return;
  }
  tip.textContent = text;
  tip.dataset.cell = at.join(',');
  tip.hidden = false;
  // Beside the pointer, inside the viewport and off the hovered cell (all in CSS pixels
  // from the viewport's corner; the view is in the canvas's device pixels).
  const room = viewport.getBoundingClientRect();
  const ox = r.left - room.left + view.x / dpr;
  const oy = r.top - room.top + view.y / dpr;
  const side = view.cell / dpr;
  const cell = { left: ox + at[1] * side, top: oy + at[0] * side, right: ox + (at[1] + 1) * side, bottom: oy + (at[0] + 1) * side };
  const place = placeTip(
    { x: e.clientX - room.left, y: e.clientY - room.top },
    cell,
    { width: tip.offsetWidth, height: tip.offsetHeight },
    { width: room.width, height: room.height },
  );
  tip.style.left = `${place.left}px`;
  tip.style.top = `${place.top}px`;
}

// --- playing ------------------------------------------------------------------------

function pause(): void {
  if (playing) {
    playing = undefined;
    fraction = 0;
    describe();
    queueDraw();
  }
  play.innerHTML = ICONS.play;
  play.title = 'Play (Space)';
  play.setAttribute('aria-label', 'Play');
  document.body.dataset.playing = 'false';
}

function start(): void {
  if (!replay || count() === 0) {
    return;
  }
  if (frame === count()) {
    showFrame(0); // play again from the start
  }
  playing = { from: frame, at: performance.now() };
  play.innerHTML = ICONS.pause;
  play.title = 'Pause (Space)';
  play.setAttribute('aria-label', 'Pause');
  document.body.dataset.playing = 'true';
  queueDraw();
}

const toggle = () => (playing ? pause() : start());
const step = (to: number) => {
  pause();
  showFrame(to);
};

function setSpeed(next: number): void {
  if (playing) {
    // Keep the piece where it is; only the pace changes.
    playing = { from: frame + fraction, at: performance.now() };
  }
  speed = next;
  speedChosen = true;
  speedSelect.value = String(speed);
}

function changeSpeed(direction: 1 | -1): void {
  const i = SPEEDS.indexOf(speed);
  setSpeed(SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, (i < 0 ? 2 : i) + direction))]);
}

// --- the view -----------------------------------------------------------------------

/** The canvas's size in device pixels, exact where the browser says so. */
function measure(entry?: ResizeObserverEntry): void {
  dpr = window.devicePixelRatio || 1;
  const box = entry?.devicePixelContentBoxSize?.[0];
  const width = box ? box.inlineSize : Math.round(viewport.clientWidth * dpr);
  const height = box ? box.blockSize : Math.round(viewport.clientHeight * dpr);
  size = { width: Math.max(1, width), height: Math.max(1, height) };
  if (canvas.width !== size.width || canvas.height !== size.height) {
    canvas.width = size.width;
    canvas.height = size.height;
  }
  canvas.style.width = `${size.width / dpr}px`;
  canvas.style.height = `${size.height / dpr}px`;
}

function refit(): void {
  if (replay) {
    fitted = true;
    view = fit(replay.rows, replay.cols, size, Math.round(8 * dpr));
    queueDraw();
  }
}

function setView(next: View, byUser: boolean): void {
  if (next === view) {
    return;
  }
  view = replay ? clamp(next, replay.rows, replay.cols, size) : next;
  if (byUser) {
    fitted = false;
  }
  queueDraw();
}

/** Zooms one step about a device pixel (the box when following, else the canvas's middle). */
function zoom(direction: 1 | -1, px?: number, py?: number): void {
  if (!replay) {
    return;
  }
  const cell = zoomStep(view.cell, direction);
  if (px === undefined || py === undefined) {
    const [br, bc] = rc(focus());
    [px, py] = following ? [view.x + (bc + 0.5) * view.cell, view.y + (br + 0.5) * view.cell] : [size.width / 2, size.height / 2];
  }
  setView(zoomAt(view, cell, px, py), true);
}

function panBy(dx: number, dy: number): void {
  if (replay) {
    setFollowing(false);
    setView(pan(view, dx, dy, replay.rows, replay.cols, size), true);
  }
}

function setFollowing(on: boolean): void {
  following = on;
  followButton.setAttribute('aria-pressed', String(on));
  if (on && replay) {
    const [br, bc] = rc(focus());
    setView(follow(view, br, bc, size, replay.rows, replay.cols), true);
  }
}

new ResizeObserver((entries) => {
  measure(entries[entries.length - 1]);
  if (fitted) {
    refit();
  } else if (replay) {
    setView(clamp(view, replay.rows, replay.cols, size), false);
  }
  // Resizing cleared the canvas: paint it now, before this frame is shown.
  draw();
}).observe(viewport);

// Drag to pan; two fingers pinch to zoom.
const pointers = new Map<number, { x: number; y: number }>();
let pinch = 1;
canvas.addEventListener('pointerdown', (e) => {
  canvas.setPointerCapture(e.pointerId);
  pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
  canvas.focus();
});
canvas.addEventListener('pointermove', (e) => {
  const last = pointers.get(e.pointerId);
  if (!last) {
    return;
  }
  if (pointers.size === 1) {
    panBy((e.clientX - last.x) * dpr, (e.clientY - last.y) * dpr);
  } else if (pointers.size === 2) {
    const [a, b] = [...pointers.entries()].map(([id, p]) => (id === e.pointerId ? { x: e.clientX, y: e.clientY } : p));
    const [a0, b0] = [...pointers.values()];
    const ratio = Math.hypot(a.x - b.x, a.y - b.y) / Math.max(1, Math.hypot(a0.x - b0.x, a0.y - b0.y));
    pinch *= ratio;
    if (pinch > 1.25 || pinch < 0.8) {
      const r = canvas.getBoundingClientRect();
      zoom(pinch > 1 ? 1 : -1, ((a.x + b.x) / 2 - r.left) * dpr, ((a.y + b.y) / 2 - r.top) * dpr);
      pinch = 1;
    }
  }
  pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
});
const lift = (e: PointerEvent) => {
  pointers.delete(e.pointerId);
  pinch = 1;
};
canvas.addEventListener('pointermove', showTip);
canvas.addEventListener('pointerleave', hideTip);
canvas.addEventListener('pointerup', lift);
canvas.addEventListener('pointercancel', lift);

// The wheel (and a trackpad's pinch, which arrives as a wheel with Ctrl) zooms about
// the pointer; with Shift it pans.
let wheel = 0;
canvas.addEventListener(
  'wheel',
  (e) => {
    e.preventDefault();
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? size.height : 1;
    if (e.shiftKey) {
      panBy(-(e.deltaX || e.deltaY) * unit * dpr, 0);
      return;
    }
    wheel += e.deltaY * unit;
    const threshold = e.ctrlKey ? 12 : 40;
    if (Math.abs(wheel) >= threshold) {
      const r = canvas.getBoundingClientRect();
      zoom(wheel < 0 ? 1 : -1, (e.clientX - r.left) * dpr, (e.clientY - r.top) * dpr);
      wheel = 0;
    }
  },
  { passive: false },
);

// A double click centres the view on that cell.
canvas.addEventListener('dblclick', (e) => {
  if (!replay) {
    return;
  }
  const r = canvas.getBoundingClientRect();
  const px = (e.clientX - r.left) * dpr;
  const py = (e.clientY - r.top) * dpr;
  if (cellAt(view, px, py, replay.rows, replay.cols)) {
    zoom(1, px, py);
  }
});

// Theme changes (VS Code rewrites the page's CSS variables and body class): new colours.
function readPalette(): Palette {
  const probe = document.createElement('span');
  document.body.appendChild(probe);
  const colour = (name: string) => {
    probe.style.color = `var(--board-${name})`;
    return getComputedStyle(probe).color;
  };
  const highContrast = document.body.classList.contains('vscode-high-contrast') || document.body.classList.contains('vscode-high-contrast-light');
  const palette: Palette = {
    background: colour('background'),
    rock: colour('rock'),
    floor: colour('floor'),
    grid: colour('grid'),
    dead: colour('dead'),
    deadFlat: colour('dead-flat'),
    trail: colour('trail'),
    heat: colour('heat'),
    unsolvable: colour('unsolvable'),
    target: colour('target'),
    box: colour('box'),
    player: colour('player'),
    outline: colour(highContrast ? 'contrast' : 'floor'),
    highContrast,
  };
  probe.remove();
  return palette;
}
painter.setPalette(readPalette());
new MutationObserver(() => {
  painter.setPalette(readPalette());
  queueDraw();
}).observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'], subtree: false });
new MutationObserver(() => {
  painter.setPalette(readPalette());
  queueDraw();
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

// --- controls -------------------------------------------------------------------------

play.addEventListener('click', toggle);
back.addEventListener('click', () => step(frame - 1));
forward.addEventListener('click', () => step(frame + 1));
skip.addEventListener('click', () => replay && step(nextPush(moves, frame)));
scrub.addEventListener('input', () => step(Number(scrub.value)));
speedSelect.addEventListener('change', () => setSpeed(Number(speedSelect.value)));
zoomInButton.addEventListener('click', () => zoom(1));
zoomOutButton.addEventListener('click', () => zoom(-1));
fitButton.addEventListener('click', refit);
followButton.addEventListener('click', () => setFollowing(!following));
difficultyButton.addEventListener('click', () => setLayer(!layer));
speedSelect.value = String(speed);

document.addEventListener('keydown', (e) => {
  if (!replay || e.altKey || e.ctrlKey || e.metaKey) {
    return; // VS Code's keys
  }
  // The slider and the speed list handle their own arrows; buttons their Space/Enter.
  const onField = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement;
  const onControl = onField || e.target instanceof HTMLButtonElement;
  const panStep = Math.round(Math.min(size.width, size.height) / 8);
  let handled = true;
  if (e.shiftKey && e.key.startsWith('Arrow')) {
    const [dx, dy] = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key] ?? [0, 0];
    panBy(dx * panStep, dy * panStep);
  } else if (e.key === ' ' && !onControl) {
    toggle();
  } else if (e.key === 'ArrowLeft' && !onField) {
    step(frame - 1);
  } else if (e.key === 'ArrowRight' && !onField) {
    step(frame + 1);
  } else if (e.key === 'Home' && !onField) {
    step(0);
  } else if (e.key === 'End' && !onField) {
    step(count());
  } else if (e.key === ']' || (e.key === 'PageDown' && !onField)) {
    step(nextPush(moves, frame));
  } else if (e.key === '[' || (e.key === 'PageUp' && !onField)) {
    step(previousPush(moves, frame));
  } else if (e.key === '+' || e.key === '=') {
    zoom(1);
  } else if (e.key === '-' || e.key === '_') {
    zoom(-1);
  } else if (e.key === 'f' || e.key === 'F' || e.key === '0') {
    refit();
  } else if (e.key === 'b' || e.key === 'B') {
    setFollowing(!following);
  } else if (e.key === 'd' || e.key === 'D') {
    setLayer(!layer);
  } else if (e.key === '>' || e.key === '.') {
    changeSpeed(1);
  } else if (e.key === '<' || e.key === ',') {
    changeSpeed(-1);
  } else {
    handled = false;
  }
  if (handled) {
    e.preventDefault();
  }
});

vscodeApi.postMessage({ type: 'ready' });
