"""The boxls preview on big boards in a real VS Code (code-server in Chromium): opens
100×100, 1000×1000 and 2000×2000 rooms, each in a browser window of its own, reads the
canvas back (the board drawn, steps advance, play runs, the editor still takes typing
while it plays, the preview closed and opened again) and prints how long things take,
measured from the page. Started by run.sh after drive.py.

Each size's first preview is the first webview of its window; the second open shows
what VS Code adds to every later one: code-server serves all webviews of a window from
one origin, and each new webview's host registers a service worker of its own there,
which replaces the last one's — Chromium activates a replacing worker only after a
fixed second. A text editor opened beside the file, timed like the preview (before
the second open, and as the first split of a new window), shows what VS Code's window
spends on making room for anything beside a 2,000-column file.

    python preview_perf.py --url URL --workspace DIR --boxls PATH --out DIR [--sizes 100,1000]

Only what is not a timing is asserted; the figures are printed as a report
(`preview-perf: …` lines), compared with the goals in the manual's editor-tests chapter.
"""

import re
import statistics
import subprocess
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError

import preview_canvas
from workbench import TIMEOUT, Failure, Workbench, arguments, fresh_folder, run

# In the workbench page: every requestAnimationFrame gap and every long task, so the
# longest stall of VS Code's own main thread can be read while the preview plays. A long
# task's `name` says whose it was: `self` (the workbench's own), `same-origin-descendant`
# or `cross-origin-descendant` (a frame inside, such as the preview's), ... Each is kept
# with when it ended (`Date.now()` time), so that a report can start at a click.
WATCH_MAIN_JS = """() => {
  const w = (window.__boxlsWatch = { gaps: [], long: [], on: true, last: performance.now() });
  const at = (t) => performance.timeOrigin + t;
  const tick = (t) => { if (!w.on) return; w.gaps.push([t - w.last, at(t)]); w.last = t; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) w.long.push([e.duration, e.name, at(e.startTime + e.duration)]); })
      .observe({ type: 'longtask', buffered: false });
  } catch (e) {}
}"""
# The gaps and long tasks seen; with `since` (a `Date.now()` time) only those that ended
# after it, the first gap included (without, the first gap is the watch's own start).
STOP_MAIN_JS = """(since) => {
  const w = window.__boxlsWatch; w.on = false;
  const after = (end) => since === undefined || since === null || end >= since;
  const gaps = w.gaps.filter((g) => after(g[1])).map((g) => g[0]);
  return { gaps: since === undefined || since === null ? gaps.slice(1) : gaps, long: w.long.filter((l) => after(l[2])).map((l) => [l[0], l[1]]) };
}"""

# In the preview's page: when each key went down, and when the frame it changed was
# painted (the first animation frame after the canvas says it drew it).
WATCH_KEYS_JS = """() => {
  const c = document.getElementById('board');
  const w = (window.__boxlsKeys = { down: [], painted: [] });
  window.addEventListener('keydown', () => w.down.push(performance.now()), true);
  new MutationObserver(() => requestAnimationFrame(() => w.painted.push(performance.now())))
    .observe(c, { attributes: true, attributeFilter: ['data-frame'] });
}"""
KEYS_JS = "() => window.__boxlsKeys"

# In the preview's page, while playing: frames painted per second and moves shown.
WATCH_PLAY_JS = """() => {
  const c = document.getElementById('board');
  const w = (window.__boxlsPlay = { frames: 0, gaps: [], moves: new Set(), on: true, last: performance.now(), start: performance.now() });
  const tick = (t) => {
    if (!w.on) return;
    w.frames++; w.gaps.push(t - w.last); w.last = t; w.moves.add(c.dataset.frame);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""
STOP_PLAY_JS = """() => { const w = window.__boxlsPlay; w.on = false;
  return { frames: w.frames, seconds: (performance.now() - w.start) / 1000, gaps: w.gaps, moves: w.moves.size }; }"""

# In the workbench page: how long each typed character takes to show in the editor.
TYPE_WATCH_JS = """(ch) => { window.__boxlsTyped = new Promise((resolve) => {
  const lines = document.querySelector('.editor-group-container.active .monaco-editor .view-lines');
  const before = lines.textContent.split(ch).length;
  const t0 = performance.now();
  const done = () => { obs.disconnect(); resolve(performance.now() - t0); };
  const obs = new MutationObserver(() => { if (lines.textContent.split(ch).length > before) done(); });
  obs.observe(lines, { subtree: true, childList: true, characterData: true });
}); }"""


def room(n: int) -> list:
    """An n×n room with a pillar every fourth cell of every fourth row; S and B at the
    top left, T near the bottom right (as the Neovim screen test's big room)."""
    rows = [
        ["#" if r % 4 == 2 and 2 <= c < n - 2 and c % 4 == 2 else "." for c in range(n)] for r in range(n)
    ]
    rows[0][1], rows[1][1], rows[n - 2][n - 2] = "S", "B", "T"
    return ["".join(row) for row in rows]


def room_dead(n: int):
    """The room's dead squares: its edges (a box pushed against one never leaves it, and
    the target is not on one); the pillars stand alone, so they make no dead corner."""

    class Edges:
        def __contains__(self, cell):
            r, c = cell
            return r in (0, n - 1) or c in (0, n - 1)

    return Edges()


def solve(boxls: str, file: Path) -> str:
    out = subprocess.run([boxls, "solve", str(file)], capture_output=True, text=True, check=True).stdout
    return out.splitlines()[1]


def ms(values) -> str:
    return "/".join(f"{v:.0f}" for v in values) + " ms"


class Report:
    def __init__(self):
        self.rows = []

    def add(self, size: str, what: str, value: str):
        self.rows.append((size, what, value))
        print(f"preview-perf: {size} {what}: {value}", flush=True)


def long_tasks(tasks: list) -> str:
    """The long tasks seen, longest first, each with whose it was (at most four)."""
    if not tasks:
        return ", no long task"
    shown = ", ".join(f"{d:.0f} ms {name}" for d, name in sorted(tasks, reverse=True)[:4])
    return f", long tasks {shown}"


def wait_painted(wb: Workbench, frame, what: str, pred, timeout: float = TIMEOUT):
    return wb.wait_for(what, lambda: (s := preview_canvas.state(frame)) and pred(s) and s, timeout)


def close_editors(wb: Workbench):
    """Every editor closed, the preview's webview gone."""
    # The palette sometimes drops the click, so the command is repeated until it is.
    close = wb.page.locator(".tabs-container .tab", has_text="Preview").locator(".codicon-close")
    for _ in range(10):
        if wb.page.locator("iframe.webview").count() == 0:
            break
        wb.page.keyboard.press("Escape")
        palette(wb, "View: Close All Editors")
        wb.page.wait_for_timeout(1000)
        # drive.py, run before in the same VS Code, leaves its edits to the sample and
        # broken.box unsaved: closing asks about them, and those edits are not kept.
        dont_save = wb.page.locator(".monaco-dialog-box .monaco-button", has_text=re.compile("Don.t Save"))
        if dont_save.count():
            dont_save.first.click()
            wb.page.wait_for_timeout(1000)
        if wb.page.locator("iframe.webview").count() and close.count():
            close.first.click(force=True)
            wb.page.wait_for_timeout(1000)
    wb.wait_for("no preview open", lambda: wb.page.locator("iframe.webview").count() == 0)


def close_preview(wb: Workbench):
    """The preview's tab closed by its close button; the other editors stay."""
    close = wb.page.locator(".tabs-container .tab", has_text="Preview").locator(".codicon-close")
    for _ in range(10):
        if wb.page.locator("iframe.webview").count() == 0:
            break
        if close.count():
            close.first.click(force=True)
        wb.page.wait_for_timeout(1000)
    wb.wait_for("the preview closed", lambda: wb.page.locator("iframe.webview").count() == 0)


def webview_host_log(wb: Workbench):
    """What VS Code's webview hosts log about their service worker until `stop()`: the
    part of an open that is VS Code's (the host waits for its worker to take over)."""
    seen = []

    def on_console(message):
        if "service worker controller" in message.text:
            seen.append(message.text)

    wb.page.on("console", on_console)
    return seen, lambda: wb.page.remove_listener("console", on_console)


def service_worker_wait(seen: list) -> str:
    """Whose service worker the new webview's host found in control (its log line)."""
    if not seen:
        return "not logged"
    line = seen[-1]
    if "No service worker controller" in line:
        return "none in control: registered anew"
    found = line.split("Found: ", 1)[-1].split(" ", 1)[0].rstrip(".")
    if "/webview/browser/pre/service-worker.js" in found:
        return "an earlier webview's in control: replaced (Chromium activates a replacing worker after a fixed 1 s)"
    return f"code-server's own in control ({found.rsplit('/', 1)[-1]}): registered anew"


def side_editor_gap(wb: Workbench, size: str, report: Report):
    """What a text editor opened beside the board's file costs VS Code's window (the
    preview opens beside it the same way): its longest frame gap and long tasks."""
    wb.page.evaluate(WATCH_MAIN_JS)
    box = quick_input(wb, "Control+P")
    box.fill("notes.txt")
    # Ctrl+Enter opens the focused row beside: wait until the list has settled on notes.txt.
    focused = wb.page.locator(".quick-input-widget .quick-input-list .monaco-list-row.focused .label-name")
    wb.wait_for("notes.txt focused in quick open", lambda: focused.count() == 1 and focused.inner_text() == "notes.txt")
    pressed = wb.page.evaluate("Date.now()")
    wb.page.keyboard.press("Control+Enter")
    beside = wb.page.locator(".editor-group-container").nth(1).locator(".tab.active[data-resource-name='notes.txt']")
    wb.wait_for("notes.txt beside the board's file", lambda: beside.count() > 0)
    wb.page.wait_for_timeout(1000)
    main = wb.page.evaluate(STOP_MAIN_JS, pressed)
    report.add(size, "VS Code's window as a text editor opens beside it (no preview)", f"longest frame gap {max(main['gaps'], default=0):.0f} ms{long_tasks(main['long'])}")
    # By its tab's close button: the palette would first take the focus back to the left group.
    beside.locator(".codicon-close").click(force=True)
    wb.wait_for("the editor beside closed", lambda: wb.page.locator(".editor-group-container").count() == 1)


def settle(wb: Workbench, name: str, moves: str):
    """Where every timing here starts: the file's solve shown (its hint's counts), the
    cursor in the room, the solve's dead squares drawn, and the whole file's semantic
    tokens taken by VS Code's window."""
    hint = f"{sum(ch.isupper() for ch in moves)} pushes · {len(moves)} moves"
    wb.wait_for(f"{name} solved ({hint})", lambda: wb.editor_lines().get(1, "").endswith(hint), 300)
    wb.go_to(3, 3)
    wait_dead_squares_shown(wb, name)
    wait_tokens_taken(wb, name)


# The language client's trace (`boxls.trace.server: messages`, set by `main`): each
# request sent and each answer received, by method and id.
TOKENS_SENT = re.compile(r"Sending request '(textDocument/semanticTokens/full(?:/delta)?) - \((\d+)\)'")
TOKENS_BACK = re.compile(r"Received response '(textDocument/semanticTokens/full(?:/delta)?) - \((\d+)\)'")

# VS Code's window: when its last long task ended (`Date.now()` time), watched from now.
WATCH_QUIET_JS = """() => {
  if (window.__boxlsQuiet) return;
  const q = (window.__boxlsQuiet = { last: Date.now() });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) q.last = Math.max(q.last, performance.timeOrigin + e.startTime + e.duration); })
    .observe({ type: 'longtask', buffered: false });
}"""
QUIET_SINCE_JS = "() => Date.now() - window.__boxlsQuiet.last"


def trace_of_window(wb: Workbench) -> Path:
    """The trace of the newest window's extension host (each window starts its own)."""
    logs = wb.workspace.parent / "user" / "logs"
    traces = sorted(logs.glob("*/exthost*/output_logging_*/*boxls (trace).log"), key=lambda p: p.parent.name)
    if not traces:
        raise Failure(f"no boxls trace under {logs} (boxls.trace.server should be on)")
    return traces[-1]


def wait_tokens_taken(wb: Workbench, name: str):
    """Until every semantic-tokens request of the window has its answer (the first
    `full` of a 2000×2000 room is 5 MB, the server's answer comes after the viewport's
    `range`, which already drew the dead squares) and VS Code's window has then run no
    long task for half a second: it takes the tokens in one (a command issued meanwhile
    waits behind it)."""
    wb.page.evaluate(WATCH_QUIET_JS)

    def answered() -> bool:
        text = trace_of_window(wb).read_text(errors="replace")
        sent = {m[2] for m in TOKENS_SENT.finditer(text)}
        back = {m[2] for m in TOKENS_BACK.finditer(text)}
        return bool(sent) and sent <= back

    wb.wait_for(f"{name}'s semantic tokens answered", answered, 300)
    wb.wait_for("VS Code's window quiet after taking them", lambda: wb.page.evaluate(QUIET_SINCE_JS) >= 500, 60)
    if not answered():
        # Asked again meanwhile (an edit, a refresh): wait for that answer too.
        wait_tokens_taken(wb, name)


def wait_dead_squares_shown(wb: Workbench, name: str):
    """Until the editor draws the solve's dead squares: the server re-sends the file's
    semantic tokens once the solve has found them (the left column of the room is dead),
    and VS Code's window is busy taking them — not a moment to time anything else."""
    first_token = """() => {
      const editor = document.querySelector('.editor-group-container.active .monaco-editor');
      if (!editor) return 0;
      const lines = {};
      for (const n of editor.querySelectorAll('.margin-view-overlays .line-numbers')) {
        lines[n.parentElement.style.top || n.style.top] = parseInt(n.textContent, 10);
      }
      for (const l of editor.querySelectorAll('.view-lines .view-line')) {
        if (lines[l.style.top] === 6) {
          const span = l.querySelector('span > span');
          return span ? span.textContent.length : 0;
        }
      }
      return 0;
    }"""
    # Line 6 is a row of floor only: one token until its dead end cells are known.
    wb.wait_for(f"{name}'s dead squares drawn", lambda: wb.page.evaluate(first_token) == 1, 300)


def open_preview(wb: Workbench, name: str, n: int, moves: str, report: Report, size: str, control: bool = False):
    """Opens the file, waits for the solve, then the preview: command → board drawn.
    With `control`, first a text editor beside the file, measured the same way."""
    if control:
        # Opened again: only the preview closed, the file's tab shown again.
        close_preview(wb)
        wb.show_tab(name)
    else:
        # The last size's preview must be gone, or it would draw this board before the command.
        close_editors(wb)
        open_file(wb, name)
    wb.wait_for(f"{name}'s text", lambda: wb.editor_lines())
    settle(wb, name, moves)
    pushes = sum(ch.isupper() for ch in moves)
    if control:
        side_editor_gap(wb, size, report)
        wb.go_to(3, 3)
    seen, stop_log = webview_host_log(wb)
    # VS Code's own window from the command's click to the first paint: its longest frame
    # gap and long tasks (the palette's own, before the click, left out).
    wb.page.evaluate(WATCH_MAIN_JS)
    t0 = palette(wb, "boxls: Open Preview to the Side")
    wb.wait_for("the preview's webview", lambda: wb.page.locator("iframe.webview.ready").count() > 0, 300)
    frame = wb.page.frame_locator("iframe.webview.ready").frame_locator("#active-frame")
    start = f"push 0 of {pushes} · move 0 of {len(moves)}"
    s = wait_painted(wb, frame, f"the {n}×{n} board drawn", lambda s: s["rows"] == n and s["counter"] == start and s["drawnAt"], 300)
    report.add(size, "command → board drawn", f"{s['drawnAt'] - t0:.0f} ms")
    report.add(size, "server's answer → board drawn", f"{s['openMs']:.0f} ms (of which to the page {s['receivedMs']:.0f} ms)")
    report.add(size, "the page's work", s["work"])
    # Who had the time: the extension's command handler, VS Code loading the webview's
    # page (its webview host waits for its service worker), the server, the page.
    if s["openedAt"] and s["loadedAt"] and s["answeredAt"]:
        report.add(
            size,
            "command → panel created / page loaded / server's answer / board drawn",
            f"{s['openedAt'] - t0:.0f} / {s['loadedAt'] - t0:.0f} / {s['answeredAt'] - t0:.0f} / {s['drawnAt'] - t0:.0f} ms",
        )
    stop_log()
    report.add(size, "the webview host's service worker", service_worker_wait(seen))
    main = wb.page.evaluate(STOP_MAIN_JS, t0)
    report.add(size, "VS Code's window while the board opens", f"longest frame gap {max(main['gaps'], default=0):.0f} ms{long_tasks(main['long'])}")
    # The board goes to the page once, whether the page or the server's answer is first.
    sent = preview_canvas.state(frame)["replays"]
    if sent != 1:
        raise Failure(f"an open should send the page its board once, was sent {sent}")
    return frame, s


def check_fit(frame, rows: list, s: dict):
    """At fit, the whole board is on the canvas and the pieces are drawn where they stand."""
    n = len(rows)
    if not (s["x"] >= 0 and s["y"] >= 0 and s["x"] + n * s["cell"] <= s["width"] and s["y"] + n * s["cell"] <= s["height"]):
        raise Failure(f"the fitted board should be wholly on the canvas: {s}")
    colours = preview_canvas.palette(frame)
    # Where a cell is smaller than a piece, the player and the box are drawn larger
    # than their cells, at least 8 CSS px across, and side by side: neither hides the
    # other. A disc 8 px across is 50 px², a square 64 px²; their outline and
    # anti-aliased rims are not counted (a 5.4 px disc, as before, showed 15–20 px).
    dpr = s["dpr"] or 1
    reach = int(24 * dpr)
    for piece, cell, least in (("player", s["player"], 28), ("box", s["box"], 51)):
        drawn = preview_canvas.pixels_of(preview_canvas.around(frame, cell, reach), colours[piece])
        if drawn < least * dpr * dpr:
            raise Failure(f"the {piece} should be drawn at least 8 px across near {cell} at fit, unhidden: {drawn} px of its colour")


def check_zoomed(frame, rows: list, played, k: int, s: dict):
    """Zoomed in on the box: every visible cell near it drawn in its colour, the pieces
    where the moves put them, the trail behind the box."""
    colours = preview_canvas.palette(frame)
    player, box = played[k]
    trail = {b for _, b in played[: k + 1]}
    around = [
        (r, c)
        for r in range(box[0] - 4, box[0] + 5)
        for c in range(box[1] - 4, box[1] + 5)
        if 0 <= r < len(rows) and 0 <= c < len(rows) and on_canvas(s, r, c)
    ]
    target = next((r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x == "T")
    drawn = dict(zip(around, preview_canvas.cells(frame, around)))
    for (r, c), pixels in drawn.items():
        if (r, c) in (player, box, target):
            continue
        want = preview_canvas.expected_kind(rows, r, c, room_dead(len(rows)), trail)
        got = preview_canvas.kind_of(pixels, colours)
        if got != want:
            raise Failure(f"cell ({r}, {c}) should be drawn {want}, is {got}")
    if not preview_canvas.near(drawn[box]["centre"], colours["box"]):
        raise Failure(f"the box should be drawn at {box}: {drawn[box]['centre']}")
    if player in drawn and not preview_canvas.near(drawn[player]["centre"], colours["player"]):
        raise Failure(f"the player should be drawn at {player}: {drawn[player]['centre']}")
    return len(drawn)


def on_canvas(s: dict, r: int, c: int) -> bool:
    x, y = s["x"] + c * s["cell"], s["y"] + r * s["cell"]
    return x >= 0 and y >= 0 and x + s["cell"] <= s["width"] and y + s["cell"] <= s["height"]


def write_room(workspace: Path, n: int) -> Path:
    path = workspace / f"room-{n}.box"
    path.write_text(f"{n} {n}\n" + "\n".join(room(n)) + "\n0 0\n")
    return path


def run_size(wb: Workbench, workspace: Path, boxls: str, n: int, report: Report):
    """In a window of its own: the board's first preview there (checked and timed),
    zoom, steps, play; then a text editor beside the file (timed) and the preview
    opened again after closing it (checked and timed)."""
    name = f"room-{n}.box"
    rows = room(n)
    moves = solve(boxls, workspace / name)
    played = preview_canvas.play_moves(rows, moves)
    size = f"{n}×{n}"

    frame, s = open_preview(wb, name, n, moves, report, f"{size} first preview in its window")
    check_fit(frame, rows, s)
    wb.ok(f"{size}: the preview draws the whole board at fit, {len(moves)} moves", f"perf-{n}-fit")

    # Zoom in (keys, following the box) until cells are big enough to read one by one.
    frame.locator("#board").click()
    for _ in range(40):
        if (preview_canvas.state(frame)["cell"] or 0) >= 14:
            break
        wb.page.keyboard.type("+")
        wb.page.wait_for_timeout(30)
    s = wait_painted(wb, frame, "a zoomed-in view", lambda s: s["cell"] >= 14)
    checked = check_zoomed(frame, rows, played, 0, s)
    wb.ok(f"{size}: zoomed in with +, {checked} cells round the box read back from the canvas", f"perf-{n}-zoomed")

    # Steps: key → frame painted.
    frame.locator("body").evaluate(WATCH_KEYS_JS)
    steps = 12
    for k in range(1, steps + 1):
        wb.page.keyboard.press("ArrowRight")
        wait_painted(wb, frame, f"frame {k}", lambda s, k=k: s["frame"] == k)
    wb.page.wait_for_timeout(100)
    keys = frame.locator("body").evaluate(KEYS_JS)
    lat = [p - d for d, p in zip(keys["down"], keys["painted"])]
    s = preview_canvas.state(frame)
    check_zoomed(frame, rows, played, steps, s)
    report.add(size, "key (Right) → frame painted", f"median {statistics.median(lat):.0f} ms, max {max(lat):.0f} ms")
    wb.ok(f"{size}: {steps} steps with Right, the pieces drawn where the moves put them", f"perf-{n}-steps")

    # Skip to the next push: the box moves.
    push_at = next(i for i in range(steps, len(moves)) if moves[i].isupper()) + 1
    wb.page.keyboard.press("]")
    wait_painted(wb, frame, f"the frame after the next push ({push_at})", lambda s: s["frame"] == push_at)
    wb.ok(f"{size}: ] skips to just after the next push (move {push_at})", f"perf-{n}-skip")

    # Play, watching both pages' frames; then type in another editor while it plays.
    open_notes(wb)
    wb.page.evaluate(WATCH_MAIN_JS)
    frame.locator("body").evaluate(WATCH_PLAY_JS)
    before = preview_canvas.state(frame)["frame"]
    start_playing(wb, frame)
    wb.page.wait_for_timeout(4000)
    play = frame.locator("body").evaluate(STOP_PLAY_JS)
    main = wb.page.evaluate(STOP_MAIN_JS)
    wb.shot(f"perf-{n}-playing")
    speed = frame.locator("#speed").input_value()
    report.add(size, "while playing", f"{play['frames'] / play['seconds']:.0f} frames/s, {play['moves']} moves shown in {play['seconds']:.1f} s at {speed} moves/s, longest frame gap {max(play['gaps'][1:]):.0f} ms")
    report.add(size, "VS Code's window while playing", f"longest frame gap {max(main['gaps'], default=0):.0f} ms{long_tasks(main['long'])}")
    typed = type_in_notes(wb, "typed while playing")
    s = preview_canvas.state(frame)
    if s["frame"] <= before + 10 or s["playing"] != "true":
        raise Failure(f"play should advance the frames: from {before} to {s['frame']}, playing {s['playing']}")
    report.add(size, "a key typed in the editor while playing → shown", f"median {statistics.median(typed):.0f} ms, max {max(typed):.0f} ms")
    wb.ok(f"{size}: play advances ({before} → {s['frame']}) and the editor takes typing meanwhile", f"perf-{n}-typing")
    frame.locator("#play").click()

    frame, s = open_preview(wb, name, n, moves, report, f"{size} re-opened", control=True)
    check_fit(frame, rows, s)
    wb.ok(f"{size}: closed and opened again, the preview draws the whole board at fit", f"perf-{n}-reopened")


def first_split(wb: Workbench, workspace: Path, boxls: str, n: int, report: Report):
    """A new window's first split: a text editor opened beside the solved board's file."""
    name = f"room-{n}.box"
    open_file(wb, name)
    settle(wb, name, solve(boxls, workspace / name))
    side_editor_gap(wb, f"{n}×{n} first split of a window", report)


def start_playing(wb: Workbench, frame):
    """Space on the board starts play. Right after quick open put notes.txt in front, a
    busy window may not give the preview's page the click's focus, and the key then goes
    to the editor: the click and the key are repeated while the preview is not playing
    (it is asked first, so a late key never toggles play off again)."""
    for _ in range(5):
        if preview_canvas.state(frame)["playing"] == "true":
            return
        frame.locator("#board").click()
        wb.page.keyboard.press("Space")
        for _ in range(40):
            wb.page.wait_for_timeout(250)
            if preview_canvas.state(frame)["playing"] == "true":
                return
    wait_painted(wb, frame, "playing", lambda s: s["playing"] == "true")


def focus_workbench(wb: Workbench):
    """Keys go to VS Code again, not to the preview's page (whose frame had the focus):
    a click in the left editor group, wherever it is (empty or not)."""
    box = wb.page.locator(".part.editor .editor-group-container").first.bounding_box()
    wb.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.75)


def quick_input(wb: Workbench, key: str):
    """Opens the quick input with `key` (F1, Ctrl+P), first taking the keys back from the
    preview (retried: right after the preview had the focus a click may not take it)."""
    box = wb.page.locator(".quick-input-widget input")
    for _ in range(5):
        focus_workbench(wb)
        wb.page.keyboard.press(key)
        try:
            box.wait_for(state="visible", timeout=5000)
            return box
        except PlaywrightError:
            wb.page.keyboard.press("Escape")
    raise Failure(f"{key} does not open the quick input")


def open_file(wb: Workbench, name: str):
    """Quick open, the file's row clicked; again if no tab shows (a busy window may drop it)."""
    tab = wb.page.locator(f".tabs-container .tab.active[data-resource-name='{name}']")
    for attempt in range(3):
        box = quick_input(wb, "Control+P")
        box.fill(name)
        # By its exact label: room-100.box's query also matches room-1000.box.
        row = wb.page.locator(".quick-input-widget .quick-input-list .monaco-list-row").filter(has=wb.label(name)).first
        wb.wait_for(f"{name} in quick open", lambda: row.is_visible())
        row.click()
        try:
            return wb.wait_for(f"the editor tab of {name}", lambda: tab.count() > 0, 20 if attempt < 2 else TIMEOUT)
        except Failure:
            if attempt == 2:
                raise
            wb.page.keyboard.press("Escape")


def palette(wb: Workbench, title: str) -> float:
    """Runs a command from the palette; returns when it was clicked (`Date.now()`)."""
    for attempt in range(3):
        box = quick_input(wb, "F1")
        try:
            box.fill(">" + title, timeout=10000)
            break
        except PlaywrightError:
            # The quick input can close again right after it showed (the focus going
            # back to the preview): open it again.
            if attempt == 2:
                raise
    row = wb.page.locator(".quick-input-widget .quick-input-list .monaco-list-row").filter(has=wb.label(title)).first
    wb.wait_for(f"the command {title!r} in the palette", lambda: row.is_visible())
    clicked = wb.page.evaluate("Date.now()")
    row.click()
    return clicked


def open_notes(wb: Workbench):
    """notes.txt in the left editor group (the preview keeps its maze: it follows .box
    editors only)."""
    open_file(wb, "notes.txt")


def type_in_notes(wb: Workbench, text: str) -> list:
    """Types into notes.txt and waits for each character to show."""
    wb.page.locator(".editor-group-container .monaco-editor .view-lines").first.click()
    wb.page.keyboard.press("Control+End")
    latencies = []
    for ch in text.replace(" ", ""):
        wb.page.evaluate(TYPE_WATCH_JS, ch)
        wb.page.keyboard.type(ch)
        latencies.append(wb.page.evaluate("() => window.__boxlsTyped"))
    shown = " ".join(wb.page.locator(".editor-group-container.active .view-lines").all_inner_texts())
    if text.replace(" ", "") not in shown.replace("\u00a0", "").replace(" ", ""):
        raise Failure(f"the editor should show what was typed while the preview plays: {shown!r}")
    wb.page.keyboard.press("Control+S")  # saved: closing it asks nothing
    wb.wait_for("notes.txt saved", lambda: wb.page.locator(".tabs-container .tab.active.dirty[data-resource-name='notes.txt']").count() == 0)
    return latencies


def main():
    ap = arguments()
    ap.add_argument("--sizes", default="100,1000,2000")
    args = ap.parse_args()
    out = fresh_folder(args.out / "preview-perf")
    (args.workspace / "notes.txt").write_text("notes\n")
    # The language client's trace tells when the file's semantic tokens have come (settle).
    (args.workspace / ".vscode").mkdir(exist_ok=True)
    (args.workspace / ".vscode" / "settings.json").write_text('{ "boxls.trace.server": "messages" }\n')
    sizes = [int(v) for v in args.sizes.split(",")]
    # Every file before the first quick open, which lists the folder once.
    for n in sizes:
        write_room(args.workspace, n)
    report = Report()

    def steps(wb: Workbench):
        for i, n in enumerate(sizes):
            if i > 0:
                wb.new_window()
            run_size(wb, args.workspace, args.boxls, n, report)
        # The first split of a window costs VS Code more than later ones, whatever opens
        # beside: the same control as before the re-opened preview, but in a new window.
        for n in sizes:
            wb.new_window()
            first_split(wb, args.workspace, args.boxls, n, report)

    run(args, out, "preview-perf", steps)


if __name__ == "__main__":
    main()
