"""Reads what the boxls preview draws on its canvas, for drive.py and preview_perf.py.

The page writes the view it drew on the canvas's data attributes (device pixels per
cell, the board's corner, the frame, the pieces' cells); these helpers find a cell's
pixels from that and read them back, and resolve the board's theme colours themselves
(from the stylesheet's `--board-*` variables, painted on a scratch canvas), so an
assertion compares drawn pixels with the theme, not with the page's own bookkeeping.
"""

import re
import subprocess

STATE_JS = """() => {
  const c = document.getElementById('board');
  const d = c ? c.dataset : {};
  const num = (k) => (d[k] === undefined || d[k] === '' ? null : Number(d[k]));
  const cell = (k) => (d[k] ? d[k].split(',').map(Number) : null);
  const status = document.getElementById('status');
  return {
    title: document.getElementById('title').textContent,
    status: status.hidden ? '' : status.textContent,
    state: status.hidden ? '' : status.dataset.status || '',
    stage: !document.getElementById('stage').hidden,
    counter: document.getElementById('counter').textContent,
    playing: document.body.dataset.playing,
    summary: document.getElementById('position').textContent,
    frame: num('frame'), player: cell('player'), box: cell('box'),
    cell: num('cell'), x: num('x'), y: num('y'), width: num('width'), height: num('height'),
    rows: num('rows'), cols: num('cols'), dpr: num('dpr'), drawnAt: num('drawnAt'), openMs: num('openMs'), receivedMs: num('receivedMs'), work: d.work || '',
    openedAt: num('openedAt'), answeredAt: num('answeredAt'), loadedAt: Number(document.body.dataset.loadedAt) || null,
    replays: Number(document.body.dataset.replays) || 0,
  };
}"""

# Each named colour of the board as [r, g, b], resolved from the stylesheet's variables.
PALETTE_JS = """() => {
  const probe = document.createElement('span');
  document.body.appendChild(probe);
  const scratch = document.createElement('canvas');
  scratch.width = scratch.height = 1;
  const ctx = scratch.getContext('2d', { willReadFrequently: true });
  const bg = (() => { probe.style.color = 'var(--board-background)'; return getComputedStyle(probe).color; })();
  const out = {};
  for (const name of ['background', 'rock', 'floor', 'dead', 'dead-flat', 'trail', 'target', 'box', 'player', 'heat', 'unsolvable']) {
    probe.style.color = `var(--board-${name})`;
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, 1, 1);
    ctx.fillStyle = getComputedStyle(probe).color;
    ctx.fillRect(0, 0, 1, 1);
    out[name] = [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  }
  probe.remove();
  return out;
}"""

# The pixels of cells [r, c] as drawn: the centre pixel and every pixel inside the cell
# (its border pixels, where grid lines go, left out).
CELLS_JS = """(_body, cells) => {
  const c = document.getElementById('board');
  const d = c.dataset;
  const size = Number(d.cell), x0 = Number(d.x), y0 = Number(d.y);
  const ctx = c.getContext('2d');
  return cells.map(([r, col]) => {
    const x = x0 + col * size, y = y0 + r * size;
    const cx = Math.floor(x + size / 2), cy = Math.floor(y + size / 2);
    const centre = [...ctx.getImageData(cx, cy, 1, 1).data.slice(0, 3)];
    const inner = Math.max(1, Math.floor(size) - 2);
    const data = ctx.getImageData(Math.floor(x) + 1, Math.floor(y) + 1, inner, inner).data;
    const seen = {};
    for (let i = 0; i < data.length; i += 4) {
      const key = `${data[i]},${data[i + 1]},${data[i + 2]}`;
      seen[key] = (seen[key] || 0) + 1;
    }
    return { centre, seen, total: inner * inner };
  });
}"""


# The pixels within `reach` device pixels of cell [r, c]'s centre, counted by colour.
AROUND_JS = """(_body, [r, col, reach]) => {
  const c = document.getElementById('board');
  const d = c.dataset;
  const size = Number(d.cell), x0 = Number(d.x), y0 = Number(d.y);
  const cx = Math.floor(x0 + (col + 0.5) * size), cy = Math.floor(y0 + (r + 0.5) * size);
  const left = Math.max(0, cx - reach), top = Math.max(0, cy - reach);
  const w = Math.min(c.width, cx + reach + 1) - left, h = Math.min(c.height, cy + reach + 1) - top;
  const data = c.getContext('2d').getImageData(left, top, w, h).data;
  const seen = {};
  for (let i = 0; i < data.length; i += 4) {
    const key = `${data[i]},${data[i + 1]},${data[i + 2]}`;
    seen[key] = (seen[key] || 0) + 1;
  }
  return { seen, total: w * h };
}"""


def around(frame, cell, reach: int) -> dict:
    """The canvas within `reach` device pixels of `cell`'s centre: pixels by colour."""
    return frame.locator("body").evaluate(AROUND_JS, [cell[0], cell[1], reach])


def pixels_of(drawn: dict, colour, tolerance: int = 6) -> int:
    """How many of the pixels counted in `drawn` are `colour`."""
    return sum(n for key, n in drawn["seen"].items() if near([int(v) for v in key.split(",")], colour, tolerance))


def state(frame) -> dict:
    return frame.locator("body").evaluate(STATE_JS)


def palette(frame) -> dict:
    return frame.locator("body").evaluate(PALETTE_JS)


def cells(frame, where: list) -> list:
    return frame.locator("body").evaluate(CELLS_JS, [list(c) for c in where])


def near(a, b, tolerance: int = 6) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def share(pixels: dict, colour, tolerance: int = 6) -> float:
    """The fraction of a cell's inner pixels drawn in `colour`."""
    hits = sum(n for key, n in pixels["seen"].items() if near([int(v) for v in key.split(",")], colour, tolerance))
    return hits / max(1, pixels["total"])


def kind_of(pixels: dict, colours: dict) -> str:
    """What a cell is drawn as: the board colour covering most of its inner pixels
    (a dead square: its stripes cover a good part of it)."""
    if share(pixels, colours["dead"]) > 0.15:
        return "dead"
    best = max(("rock", "floor", "trail"), key=lambda name: share(pixels, colours[name]))
    return best


def expected_kind(rows: list, r: int, c: int, dead: set, trail: set) -> str:
    if rows[r][c] == "#":
        return "rock"
    if (r, c) in trail:
        return "trail"
    return "dead" if (r, c) in dead else "floor"


def dead_squares(boxls: str, file, maze: int) -> set:
    """The maze's dead squares as `boxls render` draws them (its `#dead` path of merged
    rectangles, `M col row` or `m dcol drow` then `h w v h h -w z` each): an
    independent source for what the preview must hatch."""
    svg = subprocess.run([boxls, "render", str(file), "--maze", str(maze)], capture_output=True, text=True, check=True).stdout
    found = re.search(r'<path id="dead"[^>]* d="([^"]*)"', svg)
    cells = set()
    col = row = 0
    for move, x, y, w, h in re.findall(r"([Mm])(-?\d+) (-?\d+)h(\d+)v(\d+)h-\d+z", found[1] if found else ""):
        col, row = (int(x), int(y)) if move == "M" else (col + int(x), row + int(y))
        cells |= {(r, c) for r in range(row, row + int(h)) for c in range(col, col + int(w))}
    return cells


def play_moves(rows: list, moves: str):
    """The player's and the box's (row, col) after each move, from the maze's S and B."""
    find = lambda ch: next((r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x == ch)
    player, box = find("S"), find("B")
    out = [(player, box)]
    step = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}
    for m in moves:
        dr, dc = step[m.lower()]
        player = (player[0] + dr, player[1] + dc)
        if m.isupper():
            box = (box[0] + dr, box[1] + dc)
        out.append((player, box))
    return out
