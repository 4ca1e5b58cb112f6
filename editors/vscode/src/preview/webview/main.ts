// The preview's page script (runs in the webview, bundled to dist/preview.js): draws
// the board the extension posts on a canvas and plays the solution from the server's
// per-move deltas (the player's cell after each move, each push's box and cell: no
// move is played here). Messages from the extension:
//   { type: 'replay', seq, title, replay, answeredAt, openedAt }  a solved maze or level to show
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
import { DifficultyMap, cellText, noMapText, rangeText, shades } from '../difficulty';
import { placeTip } from '../tip';

interface ReplayMessage {
  type: 'replay';
  seq: number;
  title: string;
  replay: Replay;
  /** `Date.now()` when the extension had the server's answer. */
  answeredAt?: number;
  /** `Date.now()` when the extension created the panel this page is in. */
  openedAt?: number;
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
  /** null: the server has none for the board shown (the page tells the user why). */
  map: DifficultyMap | null;
}
type Incoming = ReplayMessage | KeepMessage | TextMessage | DifficultyMessage;

declare function acquireVsCodeApi(): { postMessage(msg: unknown): void };
const vscodeApi = acquireVsCodeApi();

/** The longest the page works on a new board before it lets VS Code's window run. */
const SLICE_MS = 30;

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
const difficultyNone = byId<HTMLParagraphElement>('difficulty-none');
const tip = byId<HTMLDivElement>('cell-tip');
const trailName = byId<HTMLSpanElement>('trail-name');
const targetName = byId<HTMLSpanElement>('target-name');

const painter = new BoardPainter(canvas);

/** No board yet: nothing to index. */
const noMoves: Track = {
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

/** The preview's state, in one place: what is shown, how, and what the user set. */
interface PreviewState {
  lastSeq: number;
  /** The board being painted, not yet shown; a later message replaces it (or clears
   * it), which abandons its painting. */
  painting: Replay | null;
  /** The last board's opening, in milliseconds of the page's work (for the tests). */
  work: { began: number; track: number; slices: number; longest: number; shown: number; painted: number };
  replay: Replay | null;
  moves: Track;
  boxes: Boxes;
  trail: Trail | null;
  frame: number;
  /** The targets (goals), and which cells are one. */
  targets: [number, number][];
  goalAt: Uint8Array;
  /** Moves per second; once the user picks one it is kept for every board. */
  speed: number;
  speedChosen: boolean;
  /** While playing: where the clock started (frame and time), for fractional positions. */
  playing: { from: number; at: number } | undefined;
  fraction: number;
  /** The canvas size in device pixels, and the device pixels per CSS pixel. */
  size: Size;
  dpr: number;
  view: View;
  /** The view is the fitted one (refitted when the panel is resized) until the user zooms or pans. */
  fitted: boolean;
  following: boolean;
  /** The difficulty layer: switched on, and the map of the board shown once it came. */
  layer: boolean;
  difficulty: DifficultyMap | null;
  /** The server answered that the board shown has no map (with the layer on). */
  noMap: boolean;
  drawQueued: boolean;
  /** When the server answered with the board not yet painted (0: painted). */
  drawnAt: number;
  /** A two-finger pinch's scale since it last zoomed a step. */
  pinch: number;
  /** The wheel's travel since it last zoomed a step. */
  wheel: number;
}

const ui: PreviewState = {
  lastSeq: -1,
  painting: null,
  work: { began: 0, track: 0, slices: 0, longest: 0, shown: 0, painted: 0 },
  replay: null,
  moves: noMoves,
  boxes: new Boxes(noMoves),
  trail: null,
  frame: 0,
  targets: [],
  goalAt: new Uint8Array(0),
  speed: 4,
  speedChosen: false,
  playing: undefined,
  fraction: 0,
  size: { width: 1, height: 1 },
  dpr: window.devicePixelRatio || 1,
  view: { cell: 1, x: 0, y: 0 },
  fitted: true,
  following: true,
  layer: false,
  difficulty: null,
  noMap: false,
  drawQueued: false,
  drawnAt: 0,
  pinch: 1,
  wheel: 0,
};

window.addEventListener('message', (event: MessageEvent<Incoming>) => {
  const msg = event.data;
  if (msg?.type === 'replay') {
    // How many boards this page was sent (the tests check an open sends one).
    document.body.dataset.replays = String(Number(document.body.dataset.replays ?? '0') + 1);
  }
  if (msg?.type === 'difficulty') {
    takeDifficulty(msg.map);
    return;
  }
  if (!msg || typeof msg.seq !== 'number' || msg.seq <= ui.lastSeq) {
    return;
  }
  ui.lastSeq = msg.seq;
  document.body.dataset.seq = String(msg.seq);
  titleEl.textContent = msg.title;
  if (msg.type === 'replay') {
    showReplay(msg.replay, msg.answeredAt, msg.openedAt);
  } else if (msg.type === 'keep') {
    if (ui.replay) {
      statusEl.hidden = true;
      stage.hidden = false;
    }
  } else {
    showMessage(msg.text, msg.kind, msg.status);
  }
});

function showMessage(text: string, kind: TextMessage['kind'], status = ''): void {
  pause();
  ui.painting = null;
  ui.difficulty = null;
  ui.noMap = false;
  showLayer();
  statusEl.dataset.status = status;
  ui.replay = null;
  stage.hidden = true;
  statusEl.hidden = false;
  statusEl.textContent = text;
  statusEl.className = kind;
}

function showReplay(next: Replay, answeredAt: number | undefined, openedAt: number | undefined): void {
  statusEl.hidden = true;
  stage.hidden = false;
  if (sameReplay(ui.replay, next)) {
    // The same maze and solution (an edit elsewhere): keep the frame and keep playing.
    ui.replay = next;
    return;
  }
  if (sameReplay(ui.painting, next)) {
    return; // already being painted
  }
  if (answeredAt) {
    // How long the answer that opens this board took to reach the page (the tests read it).
    canvas.dataset.receivedMs = String(Date.now() - answeredAt);
    // With when the panel was created, beside when this page loaded (`loadedAt`): the
    // perf test splits an open into VS Code's part and ours.
    canvas.dataset.answeredAt = String(answeredAt);
    canvas.dataset.openedAt = String(openedAt ?? '');
  }
  const began = performance.now();
  const played = track(next);
  if (typeof played === 'string') {
    showMessage(`The server's replay does not play: ${played}.`, 'error');
    return;
  }
  ui.work = { began, track: performance.now() - began, slices: 0, longest: 0, shown: 0, painted: 0 };
  pause();
  // Nothing is drawn while the new board is painted; a later message supersedes it.
  ui.replay = null;
  ui.painting = next;
  ui.difficulty = null;
  ui.noMap = false;
  const steps = painter.openBoard(next.rows, next.cols, played.board, next.dead);
  void runSliced(steps, () => ui.painting === next).then((painted) => {
    if (painted) {
      boardPainted(next, played, answeredAt);
    }
  });
}

/** Runs `steps`, letting the page run (and VS Code's window, which shares its thread)
 * every `SLICE_MS` or so; false if `current()` turns false meanwhile. */
async function runSliced(steps: Iterator<void>, current: () => boolean): Promise<boolean> {
  // The task that took the message has decoded it: the painting starts in a task of its own.
  await yieldToPage();
  if (!current()) {
    return false;
  }
  let start = performance.now();
  const sliced = () => {
    const took = performance.now() - start;
    ui.work.slices++;
    ui.work.longest = Math.max(ui.work.longest, took);
  };
  while (!steps.next().done) {
    if (performance.now() - start > SLICE_MS) {
      sliced();
      await yieldToPage();
      if (!current()) {
        return false;
      }
      start = performance.now();
    }
  }
  sliced();
  return current();
}

/** Lets the page's other tasks (and VS Code's window) run. A message on a channel, not a
 * timer: Chromium clamps nested timers and may throttle them in a frame that is still
 * hidden while the webview loads. */
function yieldToPage(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** The new board is painted: its pieces, trail, controls and view, then its first frame. */
function boardPainted(next: Replay, played: Track, answeredAt: number | undefined): void {
  const began = performance.now();
  ui.work.painted = began - ui.work.began;
  ui.replay = next;
  ui.painting = null;
  ui.moves = played;
  ui.boxes = new Boxes(played);
  ui.trail = new Trail(next.rows * next.cols, played);
  ui.frame = 0;
  ui.fraction = 0;
  ui.targets = next.goals.map(([r, c]) => [r, c]);
  ui.goalAt = new Uint8Array(next.rows * next.cols);
  for (const [r, c] of next.goals) {
    ui.goalAt[r * next.cols + c] = 1;
  }
  if (!ui.speedChosen) {
    ui.speed = defaultSpeed(count());
    speedSelect.value = String(ui.speed);
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
  // A map that came while the board was painted is this board's (`takeDifficulty`).
  showLayer();
  for (const cell of played.start) {
    painter.setTrail(cell, true);
  }
  measure();
  refit();
  ui.drawnAt = answeredAt ?? -1;
  showFrame(0);
  ui.work.shown = performance.now() - began;
}

/** Moves to frame k: the trail gains or loses the cells between, the controls follow. */
function showFrame(k: number): void {
  if (!ui.replay || !ui.trail) {
    return;
  }
  ui.frame = Math.max(0, Math.min(k, count()));
  ui.boxes.seek(ui.frame);
  ui.trail.seek(ui.frame, (cell, on) => painter.setTrail(cell, on));
  const text = counterText(ui.replay, ui.moves, ui.frame);
  scrub.value = String(ui.frame);
  scrub.setAttribute('aria-valuetext', text);
  counter.textContent = text;
  back.disabled = ui.frame === 0;
  forward.disabled = ui.frame === count();
  skip.disabled = nextPush(ui.moves, ui.frame) === ui.frame;
  if (!ui.playing) {
    describe();
  }
  if (ui.frame === count()) {
    pause();
  }
  if (ui.following) {
    const [fr, fc] = rc(focus());
    setView(follow(ui.view, fr, fc, ui.size, ui.replay.rows, ui.replay.cols), false);
  }
  queueDraw();
}

/** How many moves the solution has. */
const count = () => ui.moves.pushOf.length;

/** What the view follows: the box of a maze, the player of a level (many boxes). */
const focus = () => (ui.boxes.at.length === 1 ? ui.boxes.at[0] : ui.moves.player[ui.frame]);

/** How many boxes stand on a goal at the frame shown. */
function onGoals(): number {
  let n = 0;
  for (const cell of ui.boxes.at) {
    n += ui.goalAt[cell];
  }
  return n;
}

/** The accessible summary of the frame shown (not while playing: it would chatter). */
function describe(): void {
  if (!ui.replay) {
    return;
  }
  const [pr, pc] = rc(ui.moves.player[ui.frame]);
  const move = ui.frame > 0 ? ui.replay.moves[ui.frame - 1] : undefined;
  const pushed = ui.frame > 0 && ui.moves.pushOf[ui.frame - 1] >= 0;
  let where: string;
  if (ui.boxes.at.length === 1) {
    const [br, bc] = rc(ui.boxes.at[0]);
    where = `box at row ${br + 1}, column ${bc + 1}`;
  } else {
    where = `${onGoals()} of ${ui.boxes.at.length} boxes on goals`;
  }
  position.textContent =
    `${counterText(ui.replay, ui.moves, ui.frame)}${move ? ` (${pushed ? 'push' : 'walk'} ${move})` : ''}: ` +
    `player at row ${pr + 1}, column ${pc + 1}; ${where}`;
}

const rc = (cell: number): [number, number] => (ui.replay ? [Math.floor(cell / ui.replay.cols), cell % ui.replay.cols] : [0, 0]);

function queueDraw(): void {
  if (!ui.drawQueued) {
    ui.drawQueued = true;
    requestAnimationFrame(onFrame);
  }
}

function onFrame(now: number): void {
  ui.drawQueued = false;
  if (ui.playing && ui.replay) {
    const at = ui.playing.from + ((now - ui.playing.at) * ui.speed) / 1000;
    const k = Math.min(count(), Math.floor(at));
    ui.fraction = k < count() ? at - k : 0;
    if (k !== ui.frame) {
      showFrame(k);
    }
    if (ui.playing) {
      queueDraw();
    }
  } else {
    ui.fraction = 0;
  }
  draw();
}

/** Paints the frame shown (a move under way is drawn part of the way). */
function draw(): void {
  if (!ui.replay) {
    return;
  }
  const drawBegan = performance.now();
  const between = (a: number, b: number): [number, number] => {
    const [ar, ac] = rc(a);
    const [br, bc] = rc(b);
    return [ar + (br - ar) * ui.fraction, ac + (bc - ac) * ui.fraction];
  };
  const next = Math.min(ui.frame + 1, count());
  const player = between(ui.moves.player[ui.frame], ui.moves.player[next]);
  // The box the next move pushes is drawn part of the way too.
  const push = ui.frame < count() ? ui.moves.pushOf[ui.frame] : -1;
  const drawn: [number, number][] = [];
  const onGoal: boolean[] = [];
  for (let i = 0; i < ui.boxes.at.length; i++) {
    const cell = ui.boxes.at[i];
    drawn.push(push >= 0 && ui.moves.box[push] === i ? between(cell, ui.moves.to[push]) : rc(cell));
    onGoal.push(ui.goalAt[cell] === 1);
  }
  painter.draw(ui.view, ui.size, { player, boxes: drawn, onGoal, targets: ui.targets }, ui.dpr);
  const d = canvas.dataset;
  d.frame = String(ui.frame);
  d.player = rc(ui.moves.player[ui.frame]).join(',');
  d.box = rc(ui.boxes.at[0]).join(',');
  d.boxes = [...ui.boxes.at].map((cell) => rc(cell).join(',')).join(';');
  d.goals = ui.targets.map((t) => t.join(',')).join(';');
  d.onGoals = String(onGoals());
  d.cell = String(ui.view.cell);
  d.x = String(ui.view.x);
  d.y = String(ui.view.y);
  d.width = String(ui.size.width);
  d.height = String(ui.size.height);
  d.dpr = String(ui.dpr);
  if (ui.drawnAt !== 0) {
    // The first paint of a new board: how long after the server's answer it came, and
    // the page's longest pieces of work on the way (the tests report them).
    const w = ui.work;
    const ms = (t: number) => `${t.toFixed(0)} ms`;
    const drawn = performance.now();
    d.work =
      `decode ${ms(w.track)}, paint ${w.slices} slices ≤ ${ms(w.longest)} (done ${ms(w.painted)} after the answer came), ` +
      `show ${ms(w.shown)}, first draw ${ms(drawn - drawBegan)} (${ms(drawn - w.began)} after the answer came)`;
    d.drawnAt = String(Date.now());
    d.openMs = ui.drawnAt > 0 ? String(Date.now() - ui.drawnAt) : '';
    ui.drawnAt = 0;
  }
}

// --- the difficulty layer -----------------------------------------------------------

/** Keeps a map the extension sent if it is the board's (same maze, version and size);
 * null is the server's answer for the board shown: it has no map. */
function takeDifficulty(map: DifficultyMap | null): void {
  // While a board is painted its map is kept for `boardPainted` to show.
  const board = ui.replay ?? ui.painting;
  if (map === null) {
    ui.noMap = !!board && ui.layer;
    if (ui.replay) {
      showLayer();
    }
    return;
  }
  const fits =
    !!board &&
    map.rows === board.rows &&
    map.cols === board.cols &&
    (board.maze === undefined || board.maze === map.maze) &&
    (board.version === undefined || board.version === map.version);
  if (fits && ui.layer) {
    ui.difficulty = map;
    if (ui.replay) {
      showLayer();
    }
  }
}

function setLayer(on: boolean): void {
  ui.layer = on;
  difficultyButton.setAttribute('aria-pressed', String(on));
  if (!on) {
    ui.difficulty = null;
    ui.noMap = false;
  }
  showLayer();
  vscodeApi.postMessage({ type: 'layer', difficulty: on });
}

/** Shades the board and shows the legend while the layer is on and its map is in. */
function showLayer(): void {
  const active = ui.layer && !!ui.difficulty;
  painter.setShades(active && ui.difficulty ? shades(ui.difficulty) : null);
  difficultyLegend.hidden = !active;
  difficultyRange.textContent = active && ui.difficulty ? rangeText(ui.difficulty) : '';
  const none = ui.layer && ui.noMap && !!ui.replay;
  difficultyNone.hidden = !none;
  difficultyNone.textContent = none && ui.replay ? noMapText(ui.replay) : '';
  document.body.dataset.difficulty = active ? 'on' : none ? 'none' : ui.layer ? 'waiting' : 'off';
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
  if (!ui.replay || !ui.difficulty || pointers.size > 0) {
    hideTip();
    return;
  }
  const r = canvas.getBoundingClientRect();
  const at = cellAt(ui.view, (e.clientX - r.left) * ui.dpr, (e.clientY - r.top) * ui.dpr, ui.replay.rows, ui.replay.cols);
  const text = at && cellText(ui.difficulty, at[0], at[1]);
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
  const ox = r.left - room.left + ui.view.x / ui.dpr;
  const oy = r.top - room.top + ui.view.y / ui.dpr;
  const side = ui.view.cell / ui.dpr;
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
  if (ui.playing) {
    ui.playing = undefined;
    ui.fraction = 0;
    describe();
    queueDraw();
  }
  play.innerHTML = ICONS.play;
  play.title = 'Play (Space)';
  play.setAttribute('aria-label', 'Play');
  document.body.dataset.playing = 'false';
}

function start(): void {
  if (!ui.replay || count() === 0) {
    return;
  }
  if (ui.frame === count()) {
    showFrame(0); // play again from the start
  }
  ui.playing = { from: ui.frame, at: performance.now() };
  play.innerHTML = ICONS.pause;
  play.title = 'Pause (Space)';
  play.setAttribute('aria-label', 'Pause');
  document.body.dataset.playing = 'true';
  queueDraw();
}

const toggle = () => (ui.playing ? pause() : start());
const step = (to: number) => {
  pause();
  showFrame(to);
};

function setSpeed(next: number): void {
  if (ui.playing) {
    // Keep the piece where it is; only the pace changes.
    ui.playing = { from: ui.frame + ui.fraction, at: performance.now() };
  }
  ui.speed = next;
  ui.speedChosen = true;
  speedSelect.value = String(ui.speed);
}

function changeSpeed(direction: 1 | -1): void {
  const i = SPEEDS.indexOf(ui.speed);
  setSpeed(SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, (i < 0 ? 2 : i) + direction))]);
}

// --- the view -----------------------------------------------------------------------

/** The canvas's size in device pixels, exact where the browser says so. */
function measure(entry?: ResizeObserverEntry): void {
  ui.dpr = window.devicePixelRatio || 1;
  const box = entry?.devicePixelContentBoxSize?.[0];
  const width = box ? box.inlineSize : Math.round(viewport.clientWidth * ui.dpr);
  const height = box ? box.blockSize : Math.round(viewport.clientHeight * ui.dpr);
  ui.size = { width: Math.max(1, width), height: Math.max(1, height) };
  if (canvas.width !== ui.size.width || canvas.height !== ui.size.height) {
    canvas.width = ui.size.width;
    canvas.height = ui.size.height;
  }
  canvas.style.width = `${ui.size.width / ui.dpr}px`;
  canvas.style.height = `${ui.size.height / ui.dpr}px`;
}

function refit(): void {
  if (ui.replay) {
    ui.fitted = true;
    ui.view = fit(ui.replay.rows, ui.replay.cols, ui.size, Math.round(8 * ui.dpr));
    queueDraw();
  }
}

function setView(next: View, byUser: boolean): void {
  if (next === ui.view) {
    return;
  }
  ui.view = ui.replay ? clamp(next, ui.replay.rows, ui.replay.cols, ui.size) : next;
  if (byUser) {
    ui.fitted = false;
  }
  queueDraw();
}

/** Zooms one step about a device pixel (the box when following, else the canvas's middle). */
function zoom(direction: 1 | -1, px?: number, py?: number): void {
  if (!ui.replay) {
    return;
  }
  const cell = zoomStep(ui.view.cell, direction);
  if (px === undefined || py === undefined) {
    const [br, bc] = rc(focus());
    [px, py] = ui.following ? [ui.view.x + (bc + 0.5) * ui.view.cell, ui.view.y + (br + 0.5) * ui.view.cell] : [ui.size.width / 2, ui.size.height / 2];
  }
  setView(zoomAt(ui.view, cell, px, py), true);
}

function panBy(dx: number, dy: number): void {
  if (ui.replay) {
    setFollowing(false);
    setView(pan(ui.view, dx, dy, ui.replay.rows, ui.replay.cols, ui.size), true);
  }
}

function setFollowing(on: boolean): void {
  ui.following = on;
  followButton.setAttribute('aria-pressed', String(on));
  if (on && ui.replay) {
    const [br, bc] = rc(focus());
    setView(follow(ui.view, br, bc, ui.size, ui.replay.rows, ui.replay.cols), true);
  }
}

new ResizeObserver((entries) => {
  measure(entries[entries.length - 1]);
  if (ui.fitted) {
    refit();
  } else if (ui.replay) {
    setView(clamp(ui.view, ui.replay.rows, ui.replay.cols, ui.size), false);
  }
  // Resizing cleared the canvas: paint it now, before this frame is shown.
  draw();
}).observe(viewport);

// Drag to pan; two fingers pinch to zoom.
const pointers = new Map<number, { x: number; y: number }>();
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
    panBy((e.clientX - last.x) * ui.dpr, (e.clientY - last.y) * ui.dpr);
  } else if (pointers.size === 2) {
    const [a, b] = [...pointers.entries()].map(([id, p]) => (id === e.pointerId ? { x: e.clientX, y: e.clientY } : p));
    const [a0, b0] = [...pointers.values()];
    const ratio = Math.hypot(a.x - b.x, a.y - b.y) / Math.max(1, Math.hypot(a0.x - b0.x, a0.y - b0.y));
    ui.pinch *= ratio;
    if (ui.pinch > 1.25 || ui.pinch < 0.8) {
      const r = canvas.getBoundingClientRect();
      zoom(ui.pinch > 1 ? 1 : -1, ((a.x + b.x) / 2 - r.left) * ui.dpr, ((a.y + b.y) / 2 - r.top) * ui.dpr);
      ui.pinch = 1;
    }
  }
  pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
});
const lift = (e: PointerEvent) => {
  pointers.delete(e.pointerId);
  ui.pinch = 1;
};
canvas.addEventListener('pointermove', showTip);
canvas.addEventListener('pointerleave', hideTip);
canvas.addEventListener('pointerup', lift);
canvas.addEventListener('pointercancel', lift);

// The wheel (and a trackpad's pinch, which arrives as a wheel with Ctrl) zooms about
// the pointer; with Shift it pans.
canvas.addEventListener(
  'wheel',
  (e) => {
    e.preventDefault();
    const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? ui.size.height : 1;
    if (e.shiftKey) {
      panBy(-(e.deltaX || e.deltaY) * unit * ui.dpr, 0);
      return;
    }
    ui.wheel += e.deltaY * unit;
    const threshold = e.ctrlKey ? 12 : 40;
    if (Math.abs(ui.wheel) >= threshold) {
      const r = canvas.getBoundingClientRect();
      zoom(ui.wheel < 0 ? 1 : -1, (e.clientX - r.left) * ui.dpr, (e.clientY - r.top) * ui.dpr);
      ui.wheel = 0;
    }
  },
  { passive: false },
);

// A double click centres the view on that cell.
canvas.addEventListener('dblclick', (e) => {
  if (!ui.replay) {
    return;
  }
  const r = canvas.getBoundingClientRect();
  const px = (e.clientX - r.left) * ui.dpr;
  const py = (e.clientY - r.top) * ui.dpr;
  if (cellAt(ui.view, px, py, ui.replay.rows, ui.replay.cols)) {
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
back.addEventListener('click', () => step(ui.frame - 1));
forward.addEventListener('click', () => step(ui.frame + 1));
skip.addEventListener('click', () => ui.replay && step(nextPush(ui.moves, ui.frame)));
scrub.addEventListener('input', () => step(Number(scrub.value)));
speedSelect.addEventListener('change', () => setSpeed(Number(speedSelect.value)));
zoomInButton.addEventListener('click', () => zoom(1));
zoomOutButton.addEventListener('click', () => zoom(-1));
fitButton.addEventListener('click', refit);
followButton.addEventListener('click', () => setFollowing(!ui.following));
difficultyButton.addEventListener('click', () => setLayer(!ui.layer));
speedSelect.value = String(ui.speed);

document.addEventListener('keydown', (e) => {
  if (!ui.replay || e.altKey || e.ctrlKey || e.metaKey) {
    return; // VS Code's keys
  }
  // The slider and the speed list handle their own arrows; buttons their Space/Enter.
  const onField = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement;
  const onControl = onField || e.target instanceof HTMLButtonElement;
  const panStep = Math.round(Math.min(ui.size.width, ui.size.height) / 8);
  let handled = true;
  if (e.shiftKey && e.key.startsWith('Arrow')) {
    const [dx, dy] = { ArrowLeft: [1, 0], ArrowRight: [-1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key] ?? [0, 0];
    panBy(dx * panStep, dy * panStep);
  } else if (e.key === ' ' && !onControl) {
    toggle();
  } else if (e.key === 'ArrowLeft' && !onField) {
    step(ui.frame - 1);
  } else if (e.key === 'ArrowRight' && !onField) {
    step(ui.frame + 1);
  } else if (e.key === 'Home' && !onField) {
    step(0);
  } else if (e.key === 'End' && !onField) {
    step(count());
  } else if (e.key === ']' || (e.key === 'PageDown' && !onField)) {
    step(nextPush(ui.moves, ui.frame));
  } else if (e.key === '[' || (e.key === 'PageUp' && !onField)) {
    step(previousPush(ui.moves, ui.frame));
  } else if (e.key === '+' || e.key === '=') {
    zoom(1);
  } else if (e.key === '-' || e.key === '_') {
    zoom(-1);
  } else if (e.key === 'f' || e.key === 'F' || e.key === '0') {
    refit();
  } else if (e.key === 'b' || e.key === 'B') {
    setFollowing(!ui.following);
  } else if (e.key === 'd' || e.key === 'D') {
    setLayer(!ui.layer);
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

document.body.dataset.loadedAt = String(Date.now());
vscodeApi.postMessage({ type: 'ready' });
