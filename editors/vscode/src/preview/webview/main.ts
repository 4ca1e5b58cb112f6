// The preview's page script (runs in the webview, bundled to dist/preview.js): draws
// the board the extension posts and plays the solution. Messages from the extension:
//   { type: 'replay', seq, title, replay }  a solved maze to show
//   { type: 'message', seq, title, text, kind }  no board: why (broken, unsolvable, …)
// A message with a lower `seq` than the last one shown is stale and ignored.
import { ICONS } from '../icons';
import { Replay, boxTrail, counterText, pushPrefix, sameReplay } from '../replay';

interface ReplayMessage {
  type: 'replay';
  seq: number;
  title: string;
  replay: Replay;
}
interface TextMessage {
  type: 'message';
  seq: number;
  title: string;
  text: string;
  kind: 'info' | 'error' | 'warning';
}
type Incoming = ReplayMessage | TextMessage;

declare function acquireVsCodeApi(): { postMessage(msg: unknown): void };
const vscodeApi = acquireVsCodeApi();

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const titleEl = byId<HTMLHeadingElement>('title');
const statusEl = byId<HTMLParagraphElement>('status');
const stage = byId<HTMLDivElement>('stage');
const board = byId<HTMLDivElement>('board');
const back = byId<HTMLButtonElement>('back');
const play = byId<HTMLButtonElement>('play');
const forward = byId<HTMLButtonElement>('forward');
const scrub = byId<HTMLInputElement>('scrub');
const counter = byId<HTMLSpanElement>('counter');
const position = byId<HTMLParagraphElement>('position');

/** One move every this many milliseconds while playing. */
const STEP_MS = 250;

let lastSeq = -1;
let replay: Replay | null = null;
let prefix: number[] = [0];
let frame = 0;
let timer: ReturnType<typeof setInterval> | undefined;
/** The board's cell elements, row-major, so a frame touches only the cells it changes. */
let cells: HTMLElement[] = [];
/** Cells currently marked player / box / trail, to unmark on the next frame. */
let marked: { player: number; box: number; trail: number[] } = { player: -1, box: -1, trail: [] };

window.addEventListener('message', (event: MessageEvent<Incoming>) => {
  const msg = event.data;
  if (!msg || typeof msg.seq !== 'number' || msg.seq <= lastSeq) {
    return;
  }
  lastSeq = msg.seq;
  document.body.dataset.seq = String(msg.seq);
  titleEl.textContent = msg.title;
  if (msg.type === 'replay') {
    showReplay(msg.replay);
  } else {
    showMessage(msg.text, msg.kind);
  }
});

function showMessage(text: string, kind: TextMessage['kind']): void {
  pause();
  replay = null;
  stage.hidden = true;
  statusEl.hidden = false;
  statusEl.textContent = text;
  statusEl.className = kind;
}

function showReplay(next: Replay): void {
  statusEl.hidden = true;
  stage.hidden = false;
  if (sameReplay(replay, next)) {
    // The same maze and solution (the cursor moved, or an edit elsewhere): keep playing.
    replay = next;
    return;
  }
  pause();
  replay = next;
  prefix = pushPrefix(next.moves);
  buildBoard(next);
  scrub.max = String(next.moves.length);
  showFrame(0);
}

function buildBoard(r: Replay): void {
  const size = cellSize(r);
  board.style.setProperty('--cell', `${size}px`);
  board.style.gridTemplateColumns = `repeat(${r.cols}, var(--cell))`;
  board.setAttribute('aria-label', `Maze of ${r.rows} rows and ${r.cols} columns`);
  const dead = new Set(r.dead.map(([row, col]) => row * r.cols + col));
  const fragment = document.createDocumentFragment();
  cells = [];
  for (let row = 0; row < r.rows; row++) {
    for (let col = 0; col < r.cols; col++) {
      const ch = r.cells[row][col];
      const el = document.createElement('div');
      const index = row * r.cols + col;
      el.className = `cell ${ch === '#' ? 'rock' : 'floor'}${ch === 'T' ? ' target' : ''}${dead.has(index) ? ' dead' : ''}`;
      cells.push(el);
      fragment.appendChild(el);
    }
  }
  board.replaceChildren(fragment);
  marked = { player: -1, box: -1, trail: [] };
}

/** Fits the board into the panel, between 3 and 32 pixels a cell. */
function cellSize(r: Replay): number {
  const width = Math.max(100, document.body.clientWidth - 32);
  const height = Math.max(100, window.innerHeight - 180);
  return Math.max(3, Math.min(32, Math.floor(Math.min(width / r.cols, height / r.rows))));
}

function showFrame(k: number): void {
  if (!replay) {
    return;
  }
  frame = Math.max(0, Math.min(k, replay.moves.length));
  const { player, box } = replay.frames[frame];
  const cols = replay.cols;
  for (const i of marked.trail) cells[i]?.classList.remove('trail');
  if (marked.player >= 0) cells[marked.player]?.classList.remove('player');
  if (marked.box >= 0) cells[marked.box]?.classList.remove('box');
  const trail = boxTrail(replay, frame);
  for (const i of trail) cells[i]?.classList.add('trail');
  const p = player[0] * cols + player[1];
  const b = box[0] * cols + box[1];
  cells[p]?.classList.add('player');
  cells[b]?.classList.add('box');
  marked = { player: p, box: b, trail };

  scrub.value = String(frame);
  scrub.setAttribute('aria-valuetext', counterText(replay, prefix, frame));
  counter.textContent = counterText(replay, prefix, frame);
  board.dataset.frame = String(frame);
  const move = frame > 0 ? replay.moves[frame - 1] : undefined;
  position.textContent =
    `${counter.textContent}${move ? ` (${move >= 'A' && move <= 'Z' ? 'push' : 'walk'} ${move})` : ''}: ` +
    `player at row ${player[0] + 1}, column ${player[1] + 1}; box at row ${box[0] + 1}, column ${box[1] + 1}`;
  back.disabled = frame === 0;
  forward.disabled = frame === replay.moves.length;
  if (frame === replay.moves.length) {
    pause();
  }
}

function pause(): void {
  if (timer !== undefined) {
    clearInterval(timer);
    timer = undefined;
  }
  play.innerHTML = ICONS.play;
  play.title = 'Play (Space)';
  play.setAttribute('aria-label', 'Play');
  document.body.dataset.playing = 'false';
}

function start(): void {
  if (!replay || replay.moves.length === 0) {
    return;
  }
  if (frame === replay.moves.length) {
    showFrame(0); // play again from the start
  }
  play.innerHTML = ICONS.pause;
  play.title = 'Pause (Space)';
  play.setAttribute('aria-label', 'Pause');
  document.body.dataset.playing = 'true';
  timer = setInterval(() => showFrame(frame + 1), STEP_MS);
}

const toggle = () => (timer === undefined ? start() : pause());
const step = (delta: number) => {
  pause();
  showFrame(frame + delta);
};

// A narrower or wider panel gets cells of a size that fits it.
window.addEventListener('resize', () => {
  if (replay) {
    board.style.setProperty('--cell', `${cellSize(replay)}px`);
  }
});

play.addEventListener('click', toggle);
back.addEventListener('click', () => step(-1));
forward.addEventListener('click', () => step(1));
scrub.addEventListener('input', () => {
  pause();
  showFrame(Number(scrub.value));
});

document.addEventListener('keydown', (e) => {
  if (!replay || e.altKey || e.ctrlKey || e.metaKey) {
    return;
  }
  // The slider handles its own arrows; buttons handle Space/Enter themselves.
  const onControl = e.target instanceof HTMLInputElement || e.target instanceof HTMLButtonElement;
  switch (e.key) {
    case ' ':
      if (!onControl) {
        toggle();
        e.preventDefault();
      }
      break;
    case 'ArrowLeft':
      if (!(e.target instanceof HTMLInputElement)) {
        step(-1);
        e.preventDefault();
      }
      break;
    case 'ArrowRight':
      if (!(e.target instanceof HTMLInputElement)) {
        step(1);
        e.preventDefault();
      }
      break;
    case 'Home':
      step(-frame);
      e.preventDefault();
      break;
    case 'End':
      step(replay.moves.length - frame);
      e.preventDefault();
      break;
  }
});

vscodeApi.postMessage({ type: 'ready' });
