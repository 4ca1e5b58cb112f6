"""Drives the boxls extension inside a real VS Code (code-server) in Chromium, the way a
user would, and asserts what the page shows. Started by run.sh, which installs the tools,
the .vsix and the workspace; each step saves a screenshot in the output folder.

    python drive.py --url URL --workspace DIR --boxls PATH --out DIR --server PATH [--setting PATH] [--only-hints]

--server is the executable the extension is expected to run: the one bundled in the
.vsix when no boxls.path is set, else the --setting value (also in settings.json).
--only-hints runs the hints and the log's choice only (the second, boxls.path run).
"""

import json
import re
import subprocess
import tempfile
import time
from pathlib import Path


import preview_canvas
from workbench import Failure, Workbench, arguments, fresh_folder, header_lines, run


# --- what the sample should show ----------------------------------------------------------


def plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def expected_hints(sample: Path, answers: Path) -> dict:
    """Header line -> the hint text, from the judge's answers in sample.out."""
    moves = [m for m in re.findall(r"Maze #\d+\n(.*)\n", answers.read_text())]
    headers = header_lines(sample.read_text())
    assert len(headers) == len(moves), (headers, moves)
    hints = {}
    for line, answer in zip(headers, moves):
        if answer == "Impossible.":
            hints[line] = "unsolvable"
        else:
            pushes = sum(c.isupper() for c in answer)
            hints[line] = f"{plural(pushes, 'push', 'pushes')} · {plural(len(answer), 'move', 'moves')}"
    return hints


# --- the steps ---------------------------------------------------------------------------


def step_hints(wb: Workbench, hints: dict):
    wb.open_file("sample.box")
    lines = wb.wait_for("the inlay hints on every header of sample.box", lambda: hints_shown(wb, hints))
    for line in hints:
        print(f"   line {line}: {lines[line]!r}")
    wb.ok("inlay hints on every header of sample.box", "sample-hints")


def hints_shown(wb: Workbench, hints: dict):
    """The editor's lines when every header shows its hint (and none says solving…)."""
    lines = wb.editor_lines()
    for line, hint in hints.items():
        text = lines.get(line, "")
        if not text.endswith(hint) or "solving" in text:
            return None
    return lines


def step_hover(wb: Workbench, maze3_header: int, moves: str):
    wb.go_to(maze3_header, 1)
    wb.command("Show or Focus Hover")
    hover = wb.page.locator(".monaco-hover:not(.hidden) .hover-contents").first
    text = wb.wait_for("the hover on maze 3's header", lambda: moves in hover.inner_text() and hover.inner_text())
    for expected in ("6 pushes", "28 moves", moves):
        if expected not in text:
            raise Failure(f"the hover lacks {expected!r}: {text!r}")
    wb.ok("hover on a header: counts, moves and the drawing", "hover")
    wb.page.keyboard.press("Escape")


def action_menu(wb: Workbench):
    """Opens the code action menu (the light bulb's) at the cursor; returns its rows."""
    wb.page.keyboard.press("Control+.")
    rows = wb.page.locator(".action-widget .monaco-list-row")
    wb.wait_for("the code action menu", lambda: rows.count() > 0 and rows.first.is_visible())
    return rows


def choose_action(wb: Workbench, rows, title: str):
    """Moves the menu's focus to the row reading `title` with the arrow keys, and runs it."""
    focused = rows.filter(has_text=title).and_(wb.page.locator(".focused"))
    for _ in range(rows.count() + 1):
        if focused.count() == 1:
            wb.page.keyboard.press("Enter")
            return
        wb.page.keyboard.press("ArrowDown")
        wb.page.wait_for_timeout(50)
    raise Failure(f"could not focus {title!r} in the menu: {rows.all_inner_texts()}")


def step_onto(wb: Workbench, line: int, column: int):
    """Puts the cursor at line:column by a jump to the column before, then Right in the
    editor. VS Code shows the light bulb only if the editor has the keyboard when the
    cursor's code actions come back; a jump (Ctrl+G) moves the cursor while its box
    still has it, so its answer may find the editor without it, and no bulb is drawn
    until the cursor moves again."""
    wb.go_to(line, column - 1)
    editor = wb.page.locator(".editor-group-container.active .monaco-editor.focused")
    wb.wait_for("the editor to have the keyboard", lambda: editor.count() > 0)
    wb.page.keyboard.press("ArrowRight")
    position = wb.page.locator(".statusbar-item", has_text=f"Ln {line}, Col {column}")
    wb.wait_for(f"the cursor at {line}:{column}", lambda: position.count() > 0)


def step_insert_solution(wb: Workbench, line_in_maze: int, solution_line: int, moves: str):
    step_onto(wb, line_in_maze, 3)
    # Drawn in the glyph margin of the cursor's line (a content widget in older versions).
    bulb = wb.page.locator(".codicon-gutter-lightbulb, .lightBulbWidget .codicon-light-bulb").first
    wb.wait_for("the light bulb next to the cursor", lambda: bulb.is_visible())
    rows = action_menu(wb)
    item = rows.filter(has_text="Insert optimal solution")
    wb.wait_for("'Insert optimal solution' in the light-bulb menu", lambda: item.count() == 1)
    print(f"   menu: {rows.all_inner_texts()}")
    wb.ok("the light-bulb menu offers Insert optimal solution", "lightbulb-menu")
    choose_action(wb, rows, "Insert optimal solution")
    want = f"; solution: {moves}"
    wb.wait_for(f"line {solution_line} to read {want!r}", lambda: wb.editor_lines().get(solution_line) == want)
    wb.ok(f"Insert optimal solution wrote line {solution_line}: {want}", "inserted-solution")


def step_convert(wb: Workbench, boxls: str, header_line: int):
    """*Convert Maze #1 to XSB* from the light-bulb menu. The server offers it without the
    new file's text (VS Code resolves an action when it is chosen); chosen, it creates
    sample-maze-1.xsb beside sample.box holding maze 1 as `boxls convert` writes it."""
    wb.go_to(header_line + 1, 2)  # the maze's (only) row
    title = "Convert Maze #1 to XSB"
    rows = action_menu(wb)
    item = rows.filter(has_text=title)
    wb.wait_for(f"{title!r} in the light-bulb menu", lambda: item.count() == 1)
    choose_action(wb, rows, title)
    made = wb.workspace / "sample-maze-1.xsb"
    wb.wait_for(f"{made.name} created", lambda: made.exists())
    converted = subprocess.run([boxls, "convert", str(wb.workspace / "sample.box")], capture_output=True, text=True, check=True)
    want = converted.stdout.split("\n; 2\n")[0]
    # The text goes in as an edit of the new file, unsaved until it is saved.
    wb.open_from_explorer(made.name)
    text = saved_text(wb, made.name)
    if text != want:
        raise Failure(f"{made.name} should hold maze 1 as `boxls convert` writes it: {text!r}, not {want!r}")
    wb.ok(f"{title} created {made.name} with the maze as `boxls convert` writes it", "converted")
    wb.show_tab("sample.box")


def code_lens(wb: Workbench, text: str):
    """A code lens by its text: a link when it has a command, plain text when not."""
    return wb.page.locator(".codelens-decoration > *", has_text=text)


def step_code_lens(wb: Workbench, hints: dict, maze3_hint: str, maze4_lens: str, solution_line: int, moves: str):
    for hint in hints.values():
        lens = code_lens(wb, hint)
        wb.wait_for(f"a code lens reading {hint!r}", lambda: lens.count() > 0)
    lenses = wb.page.locator(".codelens-decoration").all_inner_texts()
    print(f"   lenses: {lenses}")
    lens = wb.page.locator(".codelens-decoration a", has_text=maze4_lens)
    wb.wait_for(f"the code lens {maze4_lens!r}", lambda: lens.count() == 1)
    lens.click()
    want = f"; solution: {moves}"
    wb.wait_for(f"line {solution_line} to read {want!r}", lambda: wb.editor_lines().get(solution_line) == want)
    # Both recorded lines are optimal now (maze 3's from the light bulb, maze 4's from
    # the lens), and the lenses say so.
    for hint in (maze3_hint, maze4_lens.split(" — ")[0]):
        done = code_lens(wb, f"{hint} — solution up to date")
        wb.wait_for(f"the code lens {hint!r} to say the solution is up to date", lambda: done.count() == 1)
    wb.ok(f"clicking the code lens {maze4_lens!r} wrote line {solution_line}; both lenses say up to date", "code-lens-click")


def step_semantic_token(wb: Workbench, line: int, column: int):
    wb.go_to(line, column)
    wb.command("Developer: Inspect Editor Tokens and Scopes")
    widget = wb.page.locator(".token-inspect-widget")
    text = wb.wait_for("the token inspector", lambda: "semantic token type" in widget.inner_text() and widget.inner_text())
    compact = re.sub(r"\s+", " ", text)
    for expected in ("semantic token type free", "modifiers dead", "invalid.deprecated.dead.box"):
        if expected not in compact:
            raise Failure(f"the token inspector lacks {expected!r}: {compact!r}")
    wb.ok(f"the cell at {line}:{column} is a semantic token free + dead, styled invalid.deprecated.dead.box", "semantic-token")
    wb.page.keyboard.press("Escape")


def problems(wb: Workbench, file: str) -> list:
    """(code, line, column) of each boxls entry listed under `file` in the Problems panel."""
    rows = wb.page.evaluate(
        """() => {
          let file = '';
          const out = [];
          for (const row of document.querySelectorAll('.markers-panel .monaco-list-row')) {
            if (row.getAttribute('aria-level') === '1') {
              file = row.querySelector('.label-name')?.textContent ?? '';
              continue;
            }
            const details = row.querySelector('.marker-message-details-container');
            if (!details) continue;
            out.push({
              file,
              source: details.querySelector('.marker-source')?.textContent ?? '',
              code: details.querySelector('.marker-code')?.textContent ?? '',
              where: details.querySelector('.marker-line')?.textContent ?? '',
            });
          }
          return out;
        }"""
    )
    out = []
    for row in rows:
        m = re.fullmatch(r"\[Ln (\d+), Col (\d+)\]", row["where"].strip())
        if row["file"] == file and row["source"].strip() == "boxls" and m:
            out.append((row["code"].strip(), int(m[1]), int(m[2])))
    return sorted(out)


def step_problems(wb: Workbench, expected: list):
    wb.open_file("broken.box")
    wb.page.keyboard.press("Control+Shift+M")
    wb.wait_for(f"the Problems panel to list {expected}", lambda: problems(wb, "broken.box") == expected)
    print(f"   problems: {problems(wb, 'broken.box')}")
    wb.ok(f"the Problems panel lists {', '.join(code for code, _, _ in expected)} as boxls check does", "problems")


def step_quick_fix(wb: Workbench, line: int, column: int, title: str, fixed: str, remaining: list):
    wb.go_to(line, column)
    rows = action_menu(wb)
    item = rows.filter(has_text=title)
    wb.wait_for(f"the quick fix {title!r}", lambda: item.count() == 1)
    wb.shot("quick-fix-menu")
    choose_action(wb, rows, title)
    wb.wait_for(f"line {line} to read {fixed!r}", lambda: wb.editor_lines().get(line) == fixed)
    wb.wait_for(f"the Problems panel to list only {remaining}", lambda: problems(wb, "broken.box") == remaining)
    wb.ok(f"the quick fix {title!r} made line {line} {fixed!r} and its problem went away", "quick-fix-applied")


def step_sokoban_level(wb: Workbench, boxls: str):
    """A Sokoban level (levels.xsb): its language, the server's tokens on it, no problems;
    walls typed over the two cells above its two boxes freeze them (one `frozen-boxes`
    per box in the Problems panel, where `boxls check` puts them); undo clears them."""
    name, line, column = "levels.xsb", 5, 3
    original = "#     #"
    frozen = "# ##  #"
    wb.open_file(name)
    language = wb.page.locator(".statusbar-item", has_text="Sokoban level")
    wb.wait_for("the language mode Sokoban level in the status bar", lambda: language.count() > 0)
    # The preview shows levels too: its title-bar button is offered (step_level_preview
    # clicks it).
    preview = wb.page.locator(".editor-group-container.active .editor-actions .action-label[aria-label^='Open Preview to the Side']")
    wb.wait_for("the preview's button on a Sokoban level", lambda: preview.count() > 0)
    # The first box: the server's token (it read the document) on the grammar's scope.
    wb.go_to(line + 1, column)
    wb.command("Developer: Inspect Editor Tokens and Scopes")
    widget = wb.page.locator(".token-inspect-widget")
    text = wb.wait_for("the token inspector", lambda: "semantic token type" in widget.inner_text() and widget.inner_text())
    compact = re.sub(r"\s+", " ", text)
    for expected in ("semantic token type box", "entity.name.type.box.sokoban"):
        if expected not in compact:
            raise Failure(f"the token inspector lacks {expected!r}: {compact!r}")
    wb.page.keyboard.press("Escape")
    if not wb.page.locator(".markers-panel").is_visible():
        wb.page.keyboard.press("Control+Shift+M")
    wb.wait_for("the Problems panel", lambda: wb.page.locator(".markers-panel").is_visible())
    if problems(wb, name):
        raise Failure(f"{name} should have no problems: {problems(wb, name)}")
    wb.ok(f"{name} opens as a Sokoban level, the server's token on a box, no problems", "sokoban-level")

    wb.go_to(line, column)
    wb.page.keyboard.press("Shift+ArrowRight")
    wb.page.keyboard.press("Shift+ArrowRight")
    wb.page.keyboard.type("##")
    wb.wait_for(f"line {line} to read {frozen!r}", lambda: wb.editor_lines().get(line) == frozen)
    with tempfile.TemporaryDirectory() as scratch:
        edited = Path(scratch) / name
        edited.write_text((wb.workspace / name).read_text().replace(original, frozen, 1))
        expected = cli_problems(boxls, edited)
    boxes = [("frozen-boxes", line + 1, column), ("frozen-boxes", line + 1, column + 1)]
    if expected != boxes:
        raise Failure(f"boxls check should find the two frozen boxes {boxes}: {expected}")
    wb.wait_for(f"the Problems panel to list {boxes}", lambda: problems(wb, name) == boxes)
    print(f"   problems: {problems(wb, name)}")
    # Rows are words to VS Code: the language's defaults keep its suggestions from
    # popping up over the board while typing.
    if wb.page.locator(".editor-widget.suggest-widget.visible").count():
        raise Failure("typing into a level opened the suggestions")
    wb.ok(f"walls typed above the boxes: the Problems panel lists frozen-boxes on both ({boxes})", "sokoban-frozen")

    wb.page.keyboard.press("Control+Z")
    wb.wait_for(f"line {line} to read {original!r} again", lambda: wb.editor_lines().get(line) == original)
    wb.wait_for(f"no problems for {name}", lambda: not problems(wb, name))
    wb.ok("undo: the level as it was, its problems gone", "sokoban-undone")


def notifications(wb: Workbench) -> list:
    """The text of every notification in the notification center (toasts included)."""
    return wb.page.locator(".notifications-center .notification-list-item").all_inner_texts()


def settings_path_input(wb: Workbench):
    row = wb.page.locator(".settings-editor .setting-item-contents").filter(
        has=wb.page.locator(".setting-item-label", has_text=re.compile(r"^Path$"))
    ).filter(has=wb.page.locator(".setting-item-category", has_text="Boxls"))
    field = row.locator("input")
    wb.wait_for("the boxls.path field in the Settings editor", lambda: field.count() == 1 and field.is_visible())
    return field


def set_path_in_settings_editor(wb: Workbench, value: str):
    field = settings_path_input(wb)
    field.fill(value)
    field.press("Enter")


def step_wrong_path(wb: Workbench, hints: dict, bad: str, good: str):
    wb.command("Preferences: Open User Settings")
    search = wb.page.locator(".settings-editor .settings-header .monaco-editor textarea, .settings-editor .suggest-input-container textarea").first
    search.wait_for(state="visible")
    search.fill("boxls.path")
    # A machine setting: in a remote window (which code-server is) VS Code lists it under
    # the Remote tab only.
    wb.page.locator(".settings-editor .settings-tabs-widget .action-label", has_text="Remote").click()
    set_path_in_settings_editor(wb, bad)
    toast = wb.page.locator(".notifications-toasts .notification-toast", has_text="did not start")
    text = wb.wait_for("the error notification", lambda: toast.count() > 0 and toast.first.inner_text())
    if bad not in text or "Open settings" not in text:
        raise Failure(f"the notification should name `{bad}` and offer Open settings: {text!r}")
    # No second notification (the language client's own) follows: watch for a while.
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        shown = wb.page.locator(".notifications-toasts .notification-toast").all_inner_texts()
        if len(shown) != 1:
            raise Failure(f"expected one notification, saw {len(shown)}: {shown}")
        wb.page.wait_for_timeout(250)
    message = next(line for line in text.splitlines() if "did not start" in line)
    wb.ok(f"a wrong boxls.path gives one notification: {message!r}", "wrong-path-notification")

    # The server is gone, and the hints with it.
    wb.show_tab("sample.box")
    first = min(hints)
    wb.wait_for("the hints to go", lambda: wb.editor_lines().get(first, "").strip() == "1 7")

    wb.command("Notifications: Show Notifications")
    center = wb.page.locator(".notifications-center .notification-list-item")
    wb.wait_for("the notification center", lambda: center.count() > 0)
    if len(notifications(wb)) != 1:
        raise Failure(f"the notification center should hold one notification: {notifications(wb)}")
    wb.ok("no hints without the server; the notification center holds that one notification", "notification-center")

    center.first.locator(".monaco-button", has_text="Open settings").click()
    set_path_in_settings_editor(wb, good)
    wb.show_tab("sample.box")
    wb.wait_for("the inlay hints again, from the restarted server", lambda: hints_shown(wb, hints))
    for hint in hints.values():
        lens = code_lens(wb, hint)
        wb.wait_for(f"the code lens {hint!r} again", lambda: lens.count() > 0)
    wb.command("Notifications: Show Notifications")
    if len(notifications(wb)) != 0:
        raise Failure(f"restoring boxls.path should leave no notification: {notifications(wb)}")
    wb.command("Notifications: Hide Notifications")
    wb.ok("Open settings, the working boxls.path restored: the hints are back", "restored-path")


def maze_rows(sample: Path, header_line: int) -> list:
    """The rows of the maze whose header is on `header_line` (1-based) of the file."""
    lines = sample.read_text().splitlines()
    rows = int(lines[header_line - 1].split()[0])
    return lines[header_line : header_line + rows]


def find(rows: list, ch: str) -> list:
    return next([r, c] for r, row in enumerate(rows) for c, x in enumerate(row) if x == ch)


def preview_board(frame) -> dict:
    """What the preview shows: the canvas's view and pieces, the counter, the title."""
    return preview_canvas.state(frame)


def check_drawn(frame, rows: list, player, box, dead: set, trail: set):
    """Reads the canvas back: every cell in its colour, the box and the player where
    they should be, dead squares hatched, the target ringed."""
    colours = preview_canvas.palette(frame)
    everything = [(r, c) for r in range(len(rows)) for c in range(len(rows[0]))]
    drawn = preview_canvas.cells(frame, everything)
    target = find(rows, "T")
    for (r, c), pixels in zip(everything, drawn):
        if [r, c] in (list(player), list(box), target):
            continue
        want = preview_canvas.expected_kind(rows, r, c, dead, trail)
        got = preview_canvas.kind_of(pixels, colours)
        if got != want:
            raise Failure(f"cell ({r}, {c}) {rows[r][c]!r} should be drawn {want}, is {got}: {pixels}")
    at = dict(zip(everything, drawn))
    if not preview_canvas.near(at[tuple(player)]["centre"], colours["player"]):
        raise Failure(f"the player should be drawn at {player}: {at[tuple(player)]['centre']}")
    if not preview_canvas.near(at[tuple(box)]["centre"], colours["box"]):
        raise Failure(f"the box should be drawn at {box}: {at[tuple(box)]['centre']}")
    if list(box) != target and preview_canvas.share(at[tuple(target)], colours["target"]) < 0.05:
        raise Failure(f"the target at {target} should be ringed: {at[tuple(target)]}")


def step_preview(wb: Workbench, sample: Path, headers: list, hints: dict, answers: list):
    maze3 = maze_rows(sample, headers[2])
    wb.show_tab("sample.box")
    wb.go_to(headers[2] + 3, 3)
    wb.page.locator(".editor-actions .action-label[aria-label^='Open Preview to the Side']").first.click()
    outer = wb.page.locator("iframe.webview.ready")
    wb.wait_for("the preview's webview", lambda: outer.count() > 0)
    frame = wb.page.frame_locator("iframe.webview.ready").frame_locator("#active-frame")
    moves = answers[2]
    pushes = sum(ch.isupper() for ch in moves)
    played = preview_canvas.play_moves(maze3, moves)
    dead = preview_canvas.dead_squares(wb.boxls, sample, 3)
    if (1, 5) not in dead:
        raise Failure(f"boxls render should hatch the top corridor's cell (1, 5) of maze 3: {sorted(dead)}")
    start = f"push 0 of {pushes} · move 0 of {len(moves)}"
    board = wb.wait_for(f"the preview to show {start!r}", lambda: (b := preview_board(frame))["counter"] == start and b["frame"] == 0 and b)
    if "Maze #3" not in board["title"] or (board["rows"], board["cols"]) != (len(maze3), len(maze3[0])):
        raise Failure(f"the preview should draw maze 3 ({len(maze3)}x{len(maze3[0])}): {board}")
    # Row 2 of maze 3, column 6 (among others): a free cell the box can never leave the
    # top corridor from.
    check_drawn(frame, maze3, *played[0], dead=dead, trail={played[0][1]})
    wb.ok(f"the preview draws maze 3 at the start: {start}", "preview-start")

    # Step forward with the button, then with the keyboard.
    frame.locator("#forward").click()
    want = f"push 0 of {pushes} · move 1 of {len(moves)}"
    board = wb.wait_for(f"the counter {want!r}", lambda: (b := preview_board(frame))["counter"] == want and b["frame"] == 1 and b)
    check_drawn(frame, maze3, *played[1], dead=dead, trail={played[0][1]})
    frame.locator("#board").click()
    wb.page.keyboard.press("ArrowRight")
    want = f"push 0 of {pushes} · move 2 of {len(moves)}"
    wb.wait_for(f"the counter {want!r} after the Right key", lambda: preview_board(frame)["counter"] == want)
    wb.page.keyboard.press("ArrowLeft")
    want = f"push 0 of {pushes} · move 1 of {len(moves)}"
    wb.wait_for(f"the counter {want!r} after the Left key", lambda: (b := preview_board(frame))["counter"] == want and b["frame"] == 1)
    check_drawn(frame, maze3, *played[1], dead=dead, trail={played[0][1]})
    if (sent := preview_board(frame)["replays"]) != 1:
        raise Failure(f"opening the preview should send the page its board once, was sent {sent}")
    wb.ok(f"step forward (button, Right) and back (Left): {want}", "preview-step")

    # Play to the end: the box ends on the target, its trail behind it.
    frame.locator("#play").click()
    end = f"push {pushes} of {pushes} · move {len(moves)} of {len(moves)}"
    wb.wait_for("the replay to be playing", lambda: preview_board(frame)["playing"] == "true")
    board = wb.wait_for(f"play to reach {end!r}", lambda: (b := preview_board(frame))["counter"] == end and b["playing"] == "false" and b, 60)
    trail = {box for _, box in played}
    check_drawn(frame, maze3, *played[-1], dead=dead, trail=trail)
    if list(played[-1][1]) != find(maze3, "T"):
        raise Failure("at the end the box should be on the target")
    wb.ok(f"play runs the solution to the end: {end}, box on T, its trail drawn", "preview-end")

    # Follow the cursor to maze 4, then break and fix maze 1 as you type.
    wb.show_tab("sample.box")
    wb.go_to(headers[3] + 2, 2)
    want = f"push 0 of {sum(ch.isupper() for ch in answers[3])} · move 0 of {len(answers[3])}"
    wb.wait_for(f"the preview to follow to maze 4 ({want})", lambda: (b := preview_board(frame))["counter"] == want and "Maze #4" in b["title"] and b)
    wb.ok("the preview follows the cursor to maze 4", "preview-follows")

    wb.go_to(headers[0] + 1, 4)
    wb.page.keyboard.press("Shift+ArrowRight")
    wb.page.keyboard.type("#")
    wb.wait_for("the preview to say maze 1 is unsolvable", lambda: (b := preview_board(frame))["state"] == "unsolvable" and "Maze #1" in b["status"])
    wb.shot("preview-unsolvable")
    wb.page.keyboard.press("Shift+ArrowLeft")
    wb.page.keyboard.type("x")
    wb.wait_for("the preview to say maze 1 has errors", lambda: (b := preview_board(frame))["state"] == "invalid" and "has errors" in b["status"])
    wb.shot("preview-broken")
    wb.page.keyboard.press("Control+Z")
    wb.page.keyboard.press("Control+Z")
    m1 = f"push 0 of {sum(ch.isupper() for ch in answers[0])} · move 0 of {len(answers[0])}"
    wb.wait_for(f"the preview to show maze 1 again ({m1})", lambda: preview_board(frame)["counter"] == m1)
    wb.ok("typing redraws the preview: unsolvable, broken, then the replay again", "preview-typing")

    # An open sends the page its board once (the page loads while the server answers).
    # Hidden behind another editor, the page is dropped; shown again, it loads anew and
    # is sent the board at the cursor, once.
    loaded = preview_board(frame)["loadedAt"]
    preview_tab = wb.page.locator(".tabs-container .tab", has_text="Preview sample.box").first
    preview_tab.click()  # its group active: the new file opens in front of it
    wb.command("File: New Untitled Text File")
    wb.wait_for("the preview's page to be dropped", lambda: wb.page.locator("iframe.webview.ready").count() == 0)
    preview_tab.click()
    board = wb.wait_for(
        f"the preview to load again and show maze 1 ({m1})",
        lambda: (b := preview_board(frame))["loadedAt"] not in (None, loaded) and b["counter"] == m1 and "Maze #1" in b["title"] and b,
    )
    if board["replays"] != 1:
        raise Failure(f"the reloaded page should be sent its board once, was sent {board['replays']}")
    wb.ok("hidden and shown again, the preview reloads with maze 1, sent once", "preview-reloaded")
    # The new file closed, the preview is in front again (and loads again).
    loaded = board["loadedAt"]
    wb.show_tab("Untitled-1")
    wb.command("View: Close Editor")
    wb.wait_for(
        f"the preview in front again showing maze 1 ({m1})",
        lambda: (b := preview_board(frame))["loadedAt"] not in (None, loaded) and b["counter"] == m1 and b["replays"] == 1,
    )


def xsb_levels(text: str) -> list:
    """Each level's board rows of an XSB text (maximal runs of lines starting with a
    wall after optional spaces), with the 1-based line of its first row."""
    levels, rows, first = [], [], 0
    for number, line in enumerate(text.splitlines(), 1):
        if re.match(r"^ *#", line):
            if not rows:
                first = number
            rows.append(line)
        elif rows:
            levels.append((first, rows))
            rows = []
    if rows:
        levels.append((first, rows))
    return levels


def xsb_pieces(rows: list):
    """The player, the boxes and the goals of an XSB board, as (row, col)."""
    at = lambda chars: {(r, c) for r, row in enumerate(rows) for c, x in enumerate(row) if x in chars}
    return next(iter(at("@+"))), at("$*"), at(".*+")


def check_level_drawn(frame, rows: list, player, boxes: set, goals: set):
    """Reads the canvas back: walls as rock, the boxes (a box on a goal with the goal's
    ring inside it), the goals ringed, the player, the other floor as floor."""
    colours = preview_canvas.palette(frame)
    board = preview_board(frame)
    everything = [(r, c) for r in range(board["rows"]) for c in range(board["cols"])]
    drawn = dict(zip(everything, preview_canvas.cells(frame, everything)))
    for (r, c), pixels in drawn.items():
        ch = rows[r][c] if c < len(rows[r]) else " "
        if (r, c) in boxes:
            if not preview_canvas.near(pixels["centre"], colours["box"]):
                raise Failure(f"a box should be drawn at {(r, c)}: {pixels['centre']}")
            if (r, c) in goals and preview_canvas.share(pixels, colours["target"]) < 0.02:
                raise Failure(f"the box at {(r, c)} is on a goal: its ring should show: {pixels}")
        elif (r, c) == tuple(player):
            if not preview_canvas.near(pixels["centre"], colours["player"]):
                raise Failure(f"the player should be drawn at {player}: {pixels['centre']}")
        elif (r, c) in goals:
            if preview_canvas.share(pixels, colours["target"]) < 0.05:
                raise Failure(f"the goal at {(r, c)} should be ringed: {pixels}")
        elif ch == "#":
            got = preview_canvas.kind_of(pixels, colours)
            if got != "rock":
                raise Failure(f"the wall at {(r, c)} should be drawn rock, is {got}: {pixels}")
        elif preview_canvas.near(pixels["centre"], colours["box"]):
            raise Failure(f"no box should be drawn at {(r, c)}")


def step_level_preview(wb: Workbench, boxls: str):
    """The preview on a Sokoban level (levels.xsb's Warehouse, two boxes): drawn as the
    file says at the start; End shows the end, every box on a goal; Home then Play plays
    the server's deltas to the same end; the cursor in the next level follows it."""
    name = "levels.xsb"
    text = (wb.workspace / name).read_text()
    levels = xsb_levels(text)
    (first, rows), (corridor_line, _) = levels[0], levels[1]
    player, boxes, goals = xsb_pieces(rows)
    solved = [json.loads(line) for line in subprocess.run([boxls, "solve", "--json", str(wb.workspace / name)], capture_output=True, text=True, check=True).stdout.splitlines()]
    pushes, moves = solved[0]["pushes"], solved[0]["moves"]
    wb.show_tab(name)
    wb.go_to(first + 2, 3)
    wb.page.locator(".editor-group-container.active .editor-actions .action-label[aria-label^='Open Preview to the Side']").first.click()
    frame = wb.page.frame_locator("iframe.webview.ready").frame_locator("#active-frame")
    start = f"push 0 of {pushes} · move 0 of {moves}"
    board = wb.wait_for(
        f"the preview to show Level 1 at {start!r}",
        lambda: (b := preview_board(frame))["counter"] == start and "Level 1" in b["title"] and b["frame"] == 0 and b,
    )
    drawn_boxes = {tuple(map(int, cell.split(","))) for cell in frame.locator("#board").get_attribute("data-boxes").split(";")}
    if drawn_boxes != boxes or (board["rows"], board["cols"]) != (len(rows), max(map(len, rows))) or tuple(board["player"]) != player:
        raise Failure(f"the preview should start Level 1 as the file says (boxes {sorted(boxes)}, player {player}): {sorted(drawn_boxes)}, {board}")
    check_level_drawn(frame, rows, player, boxes, goals)
    legend = frame.locator("#legend").inner_text()
    if "goal" not in legend or "target" in legend or "boxes' trail" not in legend:
        raise Failure(f"a level's legend should say goal and boxes' trail: {legend!r}")
    wb.ok(f"the preview draws Level 1 (Warehouse) at the start: {len(boxes)} boxes where the file has them, {start}; the legend says goal", "level-preview-start")

    # The difficulty layer maps one box: on a level with several it says so, no shading.
    button, body, note = frame.locator("#difficulty"), frame.locator("body"), frame.locator("#difficulty-none")
    button.click()
    said = wb.wait_for("the layer to say Level 1 has no map", lambda: body.get_attribute("data-difficulty") == "none" and note.is_visible() and note.inner_text())
    if f"this level has {len(boxes)} boxes" not in said or frame.locator("#difficulty-legend").is_visible():
        raise Failure(f"the note should give the level's {len(boxes)} boxes as the reason, with no legend: {said!r}")
    check_level_drawn(frame, rows, player, boxes, goals)
    wb.ok(f"the difficulty layer on Level 1 says {said!r}, the board drawn as before", "level-preview-no-map")
    button.click()
    wb.wait_for("the layer off again", lambda: body.get_attribute("data-difficulty") == "off" and not note.is_visible())

    frame.locator("#board").click()
    wb.page.keyboard.press("End")
    end = f"push {pushes} of {pushes} · move {moves} of {moves}"
    board = wb.wait_for(f"End to show {end!r}", lambda: (b := preview_board(frame))["counter"] == end and b["frame"] == moves and b)
    canvas = frame.locator("#board")
    final = {tuple(map(int, cell.split(","))) for cell in canvas.get_attribute("data-boxes").split(";")}
    if final != goals or canvas.get_attribute("data-on-goals") != str(len(goals)):
        raise Failure(f"at the end every box should be on a goal {sorted(goals)}: {sorted(final)}")
    check_level_drawn(frame, rows, board["player"], final, goals)
    wb.ok(f"End: {end}, every box drawn on a goal", "level-preview-end")

    wb.page.keyboard.press("Home")
    wb.wait_for(f"Home to show {start!r}", lambda: preview_board(frame)["counter"] == start)
    frame.locator("#play").click()
    wb.wait_for("the level's replay to be playing", lambda: preview_board(frame)["playing"] == "true")
    board = wb.wait_for(f"play to reach {end!r}", lambda: (b := preview_board(frame))["counter"] == end and b["playing"] == "false" and b, 90)
    played = {tuple(map(int, cell.split(","))) for cell in canvas.get_attribute("data-boxes").split(";")}
    if played != goals:
        raise Failure(f"play should end with every box on a goal {sorted(goals)}: {sorted(played)}")
    check_level_drawn(frame, rows, board["player"], played, goals)
    wb.ok(f"play runs the level's solution to the end: every box on a goal", "level-preview-played")

    wb.show_tab(name)
    wb.go_to(corridor_line + 1, 2)
    want = f"push 0 of {solved[1]['pushes']} · move 0 of {solved[1]['moves']}"
    wb.wait_for(f"the preview to follow to Level 2 ({want})", lambda: (b := preview_board(frame))["counter"] == want and "Level 2" in b["title"] and b)
    wb.ok("the preview follows the cursor to Level 2 (Corridor)", "level-preview-follows")


def box_here(boxls: str, rows: list) -> dict:
    """(r, c) -> (pushes, moves) or None, for the box starting on each free cell (the
    maze's S and T kept), from one `boxls solve` per cell: independent of the server's
    difficulty map."""
    out = {}
    plain = [row.replace("B", ".") for row in rows]
    for r, row in enumerate(plain):
        for c, ch in enumerate(row):
            if ch != ".":
                continue
            placed = [x if i != r else x[:c] + "B" + x[c + 1 :] for i, x in enumerate(plain)]
            text = f"{len(rows)} {len(rows[0])}\n" + "\n".join(placed) + "\n0 0\n"
            solved = subprocess.run([boxls, "solve", "-"], input=text, capture_output=True, text=True, check=True).stdout
            answer = solved.splitlines()[1]
            out[(r, c)] = None if answer == "Impossible." else (sum(ch.isupper() for ch in answer), len(answer))
    return out


def tip_text(cost) -> str:
    if cost is None:
        return "box here: unsolvable"
    return f"box here: {plural(cost[0], 'push', 'pushes')} · {plural(cost[1], 'move', 'moves')}"


def saved_text(wb: Workbench, name: str) -> str:
    """Saves the active editor and returns the file's text as written."""
    wb.page.keyboard.press("Control+S")
    dirty = wb.page.locator(f".tabs-container .tab.dirty[data-resource-name='{name}']")
    wb.wait_for(f"{name} saved", lambda: dirty.count() == 0)
    return (wb.workspace / name).read_text()


def step_make_hardest(wb: Workbench):
    """*Make Maze #1 hardest* from the Refactor menu: the document becomes what
    `boxls hardest --maze 1` writes, and one undo takes it all back."""
    wb.show_tab("sample.box")
    before = saved_text(wb, "sample.box")
    expected = subprocess.run([wb.boxls, "hardest", "--maze", "1", "-"], input=before, capture_output=True, text=True, check=True).stdout
    header = header_lines(before)[0]
    old_row = before.splitlines()[header]
    new_row, solution = expected.splitlines()[header : header + 2]
    if new_row == old_row or not solution.startswith("; solution: "):
        raise Failure(f"boxls hardest should move maze 1's S, B and T: {old_row!r} -> {new_row!r}, {solution!r}")
    wb.go_to(header + 1, 3)
    # The light bulb lists it (with its counts once the server has searched: asked again
    # until then, the way a user would open the menu again).
    item = None
    for _ in range(20):
        rows = action_menu(wb)
        item = rows.filter(has_text=re.compile(r"Make Maze #1 hardest \(\d+ → \d+ push"))
        if item.count() > 0:
            break
        wb.page.keyboard.press("Escape")
        wb.page.wait_for_timeout(500)
    if not item or item.count() == 0:
        raise Failure("the light bulb never offered 'Make Maze #1 hardest (… pushes)'")
    menu = rows.all_inner_texts()
    print(f"   light bulb: {menu}")
    # Keeping its target, maze 1's own placement may already be the hardest: then that
    # action is not offered.
    kept = subprocess.run([wb.boxls, "hardest", "--keep-target", "--maze", "1", "-"], input=before, capture_output=True, text=True, check=True).stdout
    moves_kept = kept.splitlines()[header] != old_row
    if moves_kept != any("keeping the target" in m for m in menu):
        raise Failure(f"'… keeping the target' should be offered exactly when it moves something ({moves_kept}): {menu}")
    wb.ok(f"the light bulb offers Make Maze #1 hardest with the counts ('… keeping the target' {'too' if moves_kept else 'not: nothing to move'})", "hardest-lightbulb")
    wb.page.keyboard.press("Escape")
    # The Refactor menu (asks for refactor kinds only): run it from there. VS Code
    # cancels a code-action request when focus or selection moves while it runs (the
    # command palette closing, on a busy machine) and then says "No refactorings
    # available": opened again, the way a user would, until the menu lists it.
    rows = wb.page.locator(".action-widget .monaco-list-row")
    none = wb.page.get_by_text("No refactorings available")
    title = re.compile(r"Make Maze #1 hardest \(\d+ → \d+ push")
    for _ in range(10):
        wb.command("Refactor...")
        shown = wb.wait_for("the Refactor menu or its 'No refactorings available'", lambda: rows.filter(has_text=title).count() == 1 or none.count() > 0)
        if rows.filter(has_text=title).count() == 1:
            break
        print(f"   refactor menu: none available (shown: {shown}); asked again")
        wb.page.keyboard.press("Escape")
        wb.page.wait_for_timeout(500)
    wb.wait_for("Make Maze #1 hardest in the Refactor menu", lambda: rows.filter(has_text=title).count() == 1)
    print(f"   refactor menu: {rows.all_inner_texts()}")
    wb.shot("hardest-refactor-menu")
    focused = rows.filter(has_text=title).and_(wb.page.locator(".focused"))
    for _ in range(rows.count() + 1):
        if focused.count() == 1:
            break
        wb.page.keyboard.press("ArrowDown")
        wb.page.wait_for_timeout(50)
    wb.page.keyboard.press("Enter")
    wb.wait_for(f"maze 1 to read {new_row!r} with {solution!r}", lambda: (l := wb.editor_lines()).get(header + 1) == new_row and l.get(header + 2) == solution)
    after = saved_text(wb, "sample.box")
    if after != expected:
        raise Failure(f"the document after Make Maze #1 hardest differs from boxls hardest --maze 1:\n{after!r}\n{expected!r}")
    wb.ok(f"Make Maze #1 hardest from the Refactor menu wrote what boxls hardest does: {new_row} / {solution}", "hardest-applied")
    wb.page.keyboard.press("Control+Z")
    wb.wait_for(f"one undo to bring back {old_row!r}", lambda: (l := wb.editor_lines()).get(header + 1) == old_row and not l.get(header + 2, "").startswith("; solution"))
    wb.page.keyboard.press("Control+Shift+Z")
    wb.wait_for("redo to make it hardest again", lambda: wb.editor_lines().get(header + 1) == new_row)
    if saved_text(wb, "sample.box") != expected:
        raise Failure("undo then redo should give boxls hardest's text again")
    wb.ok("one undo takes the whole edit back, redo puts it again", "hardest-undo")
    return expected


def step_difficulty_layer(wb: Workbench, text: str):
    """The preview's difficulty layer on maze 3: each free cell shaded by its pushes,
    the legend's range, and hovering a cell (in the preview and in the editor) says what
    the box would need from there — all checked against `boxls solve` per cell."""
    header = header_lines(text)[2]
    rows = maze_rows_of(text, header)
    costs = box_here(wb.boxls, rows)
    solvable = {cell: cost for cell, cost in costs.items() if cost}
    least = min(p for p, _ in solvable.values())
    most = max(p for p, _ in solvable.values())
    wb.show_tab("sample.box")
    wb.go_to(header + 3, 3)
    frame = wb.page.frame_locator("iframe.webview.ready").frame_locator("#active-frame")
    wb.wait_for("the preview to follow to maze 3", lambda: "Maze #3" in preview_board(frame)["title"] and preview_board(frame)["frame"] == 0)
    button = frame.locator("#difficulty")
    button.click()
    body = frame.locator("body")
    wb.wait_for("the difficulty layer on", lambda: body.get_attribute("data-difficulty") == "on")
    legend = frame.locator("#difficulty-legend")
    want = f"{least} – {plural(most, 'push', 'pushes')}"
    text_shown = wb.wait_for(f"the legend to read {want!r}", lambda: legend.is_visible() and want in legend.inner_text() and legend.inner_text())
    if "unsolvable" not in text_shown or button.get_attribute("aria-pressed") != "true":
        raise Failure(f"the legend should name unsolvable cells, the button be pressed: {text_shown!r}")
    # The cells' colours: unsolvable ones in their colour; solvable ones the floor mixed
    # towards the heat colour by their pushes.
    colours = preview_canvas.palette(frame)
    board = preview_board(frame)
    pieces = {tuple(board["player"]), tuple(board["box"]), tuple(find(rows, "T"))}
    cells = [cell for cell in costs if cell not in pieces]
    drawn = dict(zip(cells, preview_canvas.cells(frame, cells)))

    def colour_of(cell):
        cost = costs[cell]
        if cost is None:
            return colours["unsolvable"]
        t = 0.3 + 0.7 * ((cost[0] - least) / (most - least) if most > least else 1)
        return [round(f + (h - f) * t) for f, h in zip(colours["floor"], colours["heat"])]

    for cell in cells:
        cost, want_colour = costs[cell], colour_of(cell)
        if preview_canvas.share(drawn[cell], want_colour) < 0.5:
            raise Failure(f"cell {cell} ({cost}) should be drawn {want_colour}: {drawn[cell]}")
    wb.ok(f"the difficulty layer shades maze 3's {len(cells)} free cells by pushes; legend: {' '.join(text_shown.split())}", "difficulty-layer")

    # Hover: the hardest cell, the easiest, an unsolvable one.
    hardest = max(solvable, key=lambda c: solvable[c])
    easiest = min(solvable, key=lambda c: solvable[c])
    hopeless = next(c for c, cost in costs.items() if cost is None and c not in pieces)
    tip = frame.locator("#cell-tip")
    for cell in (easiest, hopeless, hardest):
        b = preview_board(frame)
        x = (b["x"] + (cell[1] + 0.5) * b["cell"]) / b["dpr"]
        y = (b["y"] + (cell[0] + 0.5) * b["cell"]) / b["dpr"]
        frame.locator("#board").hover(position={"x": x, "y": y})
        want = tip_text(costs[cell])
        wb.wait_for(f"the tip over {cell} to read {want!r}", lambda: tip.is_visible() and tip.inner_text() == want and tip.get_attribute("data-cell") == f"{cell[0]},{cell[1]}")
    wb.ok(f"hovering cell {hardest} in the preview shows {tip_text(costs[hardest])!r}", "difficulty-hover")
    step_tip_placement(wb, frame, costs, cells, colour_of)

    # The editor's hover on the same cell says the same.
    wb.show_tab("sample.box")
    wb.go_to(header + 1 + hardest[0], hardest[1] + 1)
    wb.command("Show or Focus Hover")
    hover = wb.page.locator(".monaco-hover:not(.hidden) .hover-contents").first
    want = tip_text(costs[hardest])
    wb.wait_for(f"the editor hover to say {want!r}", lambda: want in hover.inner_text())
    wb.ok(f"the editor's hover on that cell: {want!r}", "difficulty-editor-hover")
    wb.page.keyboard.press("Escape")

    button.click()
    wb.wait_for("the layer off again", lambda: body.get_attribute("data-difficulty") == "off" and not legend.is_visible())
    check_drawn(frame, rows, *preview_canvas.play_moves(rows, "")[0], dead=preview_canvas.dead_squares(wb.boxls, wb.workspace / "sample.box", 3), trail={tuple(board["box"])})
    wb.ok("the layer off: the board is drawn as before", "difficulty-off")


# The hovered cell's tip and rectangle, the board's viewport and the webview's window,
# each as {left, top, right, bottom} in the webview's CSS pixels, read from the page:
# the tip's box as laid out, the cell's from the canvas's box and the view it drew.
TIP_JS = """(_body, cell) => {
  const box = (r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
  const c = document.getElementById('board'), d = c.dataset, dpr = Number(d.dpr);
  const b = c.getBoundingClientRect(), side = Number(d.cell) / dpr;
  const left = b.left + Number(d.x) / dpr + cell[1] * side, top = b.top + Number(d.y) / dpr + cell[0] * side;
  const tip = document.getElementById('cell-tip');
  return {
    tip: tip.hidden ? null : box(tip.getBoundingClientRect()), text: tip.textContent, at: tip.dataset.cell || '',
    cell: { left, top, right: left + side, bottom: top + side },
    viewport: box(document.getElementById('viewport').getBoundingClientRect()),
    window: { left: 0, top: 0, right: document.documentElement.clientWidth, bottom: document.documentElement.clientHeight },
  };
}"""


def inside(a: dict, b: dict) -> bool:
    return a["left"] >= b["left"] and a["top"] >= b["top"] and a["right"] <= b["right"] and a["bottom"] <= b["bottom"]


def intersect(a: dict, b: dict) -> dict:
    return {"left": max(a["left"], b["left"]), "top": max(a["top"], b["top"]), "right": min(a["right"], b["right"]), "bottom": min(a["bottom"], b["bottom"])}


def overlaps(a: dict, b: dict) -> bool:
    i = intersect(a, b)
    return i["left"] < i["right"] and i["top"] < i["bottom"]


def drag_board(wb: Workbench, frame, dx: float, dy: float):
    """Drags the board by about (dx, dy) CSS pixels with the mouse (the preview pans).
    Whole pixels, in one move: the page rounds each move's pan, so fractional steps
    would add up to a few pixels off."""
    box = frame.locator("#board").bounding_box()
    x, y = round(box["x"] + box["width"] / 2), round(box["y"] + box["height"] / 2)
    wb.page.mouse.move(x, y)
    wb.page.mouse.down()
    wb.page.mouse.move(x + round(dx), y + round(dy))
    wb.page.mouse.up()


def edge_gap(frame, cell) -> tuple:
    """CSS pixels from the cell's right and bottom edges to the viewport's."""
    g = frame.locator("body").evaluate(TIP_JS, list(cell))
    return g["viewport"]["right"] - g["cell"]["right"], g["viewport"]["bottom"] - g["cell"]["bottom"]


def push_to_edge(wb: Workbench, frame, cell, right: bool, bottom: bool):
    """Pans the board until the cell's right (and/or bottom) edge lies 2 CSS pixels from
    the viewport's: where a tip right-below the pointer has no room."""
    near = lambda g: (not right or abs(g[0] - 2) <= 1.5) and (not bottom or abs(g[1] - 2) <= 1.5)

    def drag_rest():
        # Drags what is left each time round (the pan may land a pixel off), until near.
        g = edge_gap(frame, cell)
        if near(g):
            return True
        drag_board(wb, frame, g[0] - 2 if right else 0, g[1] - 2 if bottom else 0)
        return False

    wb.wait_for(f"the board panned to put {cell} at the edge", drag_rest)


def hover_tip(wb: Workbench, frame, cell, costs: dict, colour_of, where: str) -> dict:
    """Hovers the cell's centre and checks the tip from the page's geometry: it says the
    cell's cost, lies inside the viewport and the window, and does not cover the cell
    (whose pixels are checked to be where its rectangle says)."""
    b = preview_board(frame)
    x = (b["x"] + (cell[1] + 0.5) * b["cell"]) / b["dpr"]
    y = (b["y"] + (cell[0] + 0.5) * b["cell"]) / b["dpr"]
    frame.locator("#board").hover(position={"x": x, "y": y})
    want = tip_text(costs[cell])
    at = f"{cell[0]},{cell[1]}"
    g = wb.wait_for(
        f"the tip over {cell} ({where}) to read {want!r}",
        lambda: (g := frame.locator("body").evaluate(TIP_JS, list(cell)))["tip"] and g["text"] == want and g["at"] == at and g,
    )
    if preview_canvas.share(preview_canvas.cells(frame, [cell])[0], colour_of(cell)) < 0.5:
        raise Failure(f"cell {cell} should be drawn in its shade inside {g['cell']}")
    tip, seen = g["tip"], intersect(g["cell"], g["viewport"])
    if not inside(tip, g["viewport"]) or not inside(tip, g["window"]):
        raise Failure(f"the tip over {cell} ({where}) should lie inside the viewport {g['viewport']} and the window {g['window']}: {tip}")
    if overlaps(tip, seen):
        raise Failure(f"the tip over {cell} ({where}) covers the cell {seen}: {tip}")
    return g


def step_tip_placement(wb: Workbench, frame, costs: dict, free: list, colour_of):
    """The tip beside the pointer never covers the hovered cell nor leaves the view: an
    ordinary cell, then the rightmost free column, the bottom free row and their corner,
    each pushed (by panning) against the viewport's edge."""
    fitted = preview_board(frame)
    rows, cols = fitted["rows"], fitted["cols"]
    # The middle row's leftmost free cell: room right of it for the tip.
    ordinary = min(free, key=lambda c: (abs(c[0] - (rows - 1) / 2), c[1], c[0]))
    # A solvable one if it can be (the longer tip).
    right = min((c for c in free if c[1] == max(x for _, x in free)), key=lambda c: (costs[c] is None, c[0]))
    bottom = min((c for c in free if c[0] == max(r for r, _ in free)), key=lambda c: c[1])
    corner = max((c for c in free if c[0] == bottom[0]), key=lambda c: c[1])
    g = hover_tip(wb, frame, ordinary, costs, colour_of, "an ordinary cell")
    # With room for it, the tip goes where it does by default: right of the pointer (the
    # cell's centre), below the cell.
    pointer_x = (g["cell"]["left"] + g["cell"]["right"]) / 2
    if g["viewport"]["right"] - pointer_x < 14 + g["tip"]["right"] - g["tip"]["left"]:
        raise Failure(f"the ordinary cell {ordinary} should leave room right of it for the tip: {g}")
    if not (g["tip"]["left"] >= pointer_x and g["tip"]["top"] >= g["cell"]["bottom"]):
        raise Failure(f"over an ordinary cell the tip should go right-below the pointer, under the cell {g['cell']}: {g['tip']}")

    push_to_edge(wb, frame, right, right=True, bottom=False)
    g = hover_tip(wb, frame, right, costs, colour_of, "the rightmost column, at the view's right edge")
    width = g["tip"]["right"] - g["tip"]["left"]
    if g["viewport"]["right"] - g["cell"]["right"] >= width:
        raise Failure(f"the right-edge case should leave no room for the tip right of {right}: {g}")
    wb.ok(f"the tip over {right} at the right edge: inside the view, off the cell ({g['text']!r})", "difficulty-tip-right-edge")

    frame.locator("#fit").click()
    wb.wait_for("the board fitted again", lambda: (b := preview_board(frame))["x"] == fitted["x"] and b["y"] == fitted["y"] and b["cell"] == fitted["cell"])
    push_to_edge(wb, frame, bottom, right=False, bottom=True)
    g = hover_tip(wb, frame, bottom, costs, colour_of, "the bottom row, at the view's bottom edge")
    if g["viewport"]["bottom"] - g["cell"]["bottom"] >= g["tip"]["bottom"] - g["tip"]["top"]:
        raise Failure(f"the bottom-edge case should leave no room for the tip below {bottom}: {g}")
    push_to_edge(wb, frame, corner, right=True, bottom=True)
    g = hover_tip(wb, frame, corner, costs, colour_of, "the bottom-right corner of the view")
    wb.ok(f"the tip over {bottom} at the bottom edge and over {corner} in the corner: inside the view, off the cell", "difficulty-tip-bottom-edge")

    frame.locator("#fit").click()
    wb.wait_for("the board fitted again", lambda: (b := preview_board(frame))["x"] == fitted["x"] and b["y"] == fitted["y"] and b["cell"] == fitted["cell"])


def maze_rows_of(text: str, header_line: int) -> list:
    lines = text.splitlines()
    count = int(lines[header_line - 1].split()[0])
    return lines[header_line : header_line + count]


def step_setting_reaches_server(wb: Workbench, hints: dict):
    """A setting changed in the Settings editor reaches the running server (which pulls it)."""
    wb.command("Preferences: Open User Settings")
    search = wb.page.locator(".settings-editor .suggest-input-container textarea").first
    search.wait_for(state="visible")
    search.fill("boxls.inlayHints.enable")
    box = wb.page.locator(".settings-editor .setting-item-contents .setting-value-checkbox").first
    wb.wait_for("the inlay hints checkbox", lambda: box.is_visible())
    first = min(hints)
    box.click()
    wb.show_tab("sample.box")
    wb.wait_for("the hints to go when switched off", lambda: wb.editor_lines().get(first, "x").strip() == "1 7")
    wb.shot("hints-off")
    wb.show_tab("Settings")
    box.click()
    wb.show_tab("sample.box")
    wb.wait_for("the hints back when switched on", lambda: hints_shown(wb, hints))
    wb.ok("boxls.inlayHints.enable off and on in the Settings editor: the server follows", "hints-setting")


def step_log(wb: Workbench, wants: list):
    """The boxls output channel names each command line run and why one failed."""
    wb.page.locator(".part.panel .composite-bar .action-label", has_text=re.compile("^Output$", re.I)).first.click()
    picker = wb.page.locator(".part.panel select.monaco-select-box").first
    wb.wait_for("the output channel picker", lambda: picker.is_visible())
    picker.select_option(label="boxls")
    view = wb.page.locator(".part.panel .output-view .view-lines")
    # The newest lines (the panel shows the end of the log; long lines wrap).
    # Compared without whitespace: the panel wraps long lines anywhere (even inside a path).
    shown = lambda: re.sub(r"\s+", "", view.inner_text())
    wb.wait_for(f"the boxls log to hold {wants}", lambda: all(re.sub(r"\s+", "", w) in shown() for w in wants))
    wb.ok("the boxls log names the command lines run and the failure", "log")


def started_line(server: str, setting: str) -> str:
    """The log's line for the server the extension should have chosen, and why."""
    why = "from the boxls.path setting" if setting else "bundled with the extension"
    return f"Starting the server: {server} lsp ({why}"


def run_steps(wb: Workbench, root: Path, boxls: str, hints: dict, server: str, setting: str):
    answers = re.findall(r"Maze #\d+\n(.*)\n", (root / "examples/sample.out").read_text())
    headers = sorted(hints)
    step_hints(wb, hints)
    step_hover(wb, headers[2], answers[2])
    # Insert maze 3's solution under its last row (the 7 rows after its header). Before
    # any other file is shown in this editor: VS Code 1.100's light bulb keeps its
    # gutter mark's id across the editor's change of file, and back on sample.box it
    # moves a mark that is not there (no bulb, though the code actions come).
    step_insert_solution(wb, headers[2] + 3, headers[2] + 8, answers[2])
    # Maze 4 moved down a line; its lens inserts under its 8 rows.
    step_code_lens(wb, hints, hints[headers[2]], hints[headers[3]] + " — insert solution", headers[3] + 1 + 9, answers[3])
    step_convert(wb, boxls, headers[0])
    # Row 2 of maze 3, column 6: a free cell the box can never leave the top corridor from.
    step_semantic_token(wb, headers[2] + 2, 6)
    expected = cli_problems(boxls, wb.workspace / "broken.box")
    step_problems(wb, expected)
    fixed = [p for p in expected if p[0] != "bad-char"]
    bad = next(p for p in expected if p[0] == "bad-char")
    step_quick_fix(wb, bad[1], bad[2], "Replace with `B`", "#SB.T", fixed)
    step_sokoban_level(wb, boxls)
    # A wrong boxls.path, then the setting as it was (empty: the bundled server again).
    step_wrong_path(wb, {headers[0]: hints[headers[0]]}, "/nonexistent/boxls", setting)
    step_log(
        wb,
        [
            "The server did not start: no working boxls. Tried: /nonexistent/boxls (from the boxls.path setting): no such file (ENOENT)",
            started_line(server, setting),
            "Server running",
        ],
    )
    step_setting_reaches_server(wb, {headers[0]: hints[headers[0]]})
    step_preview(wb, root / "examples/sample.box", headers, hints, answers)
    text = step_make_hardest(wb)
    step_difficulty_layer(wb, text)
    step_level_preview(wb, boxls)


def cli_problems(boxls: str, file: Path) -> list:
    """(code, line, column) of each diagnostic `boxls check` prints: what Problems must show."""
    out = subprocess.run([boxls, "check", str(file)], capture_output=True, text=True).stdout
    found = re.findall(r"^(?:error|warning|info)\[([a-z-]+)\]:.*\n\s*┌─ .*:(\d+):(\d+)$", out, re.M)
    if not found:
        raise Failure(f"boxls check found nothing in {file}: {out!r}")
    return sorted((code, int(line), int(col)) for code, line, col in found)


def main():
    ap = arguments()
    ap.add_argument("--server", required=True)
    ap.add_argument("--setting", default="")
    ap.add_argument("--only-hints", action="store_true")
    args = ap.parse_args()
    root = Path(__file__).resolve().parents[4]
    hints = expected_hints(root / "examples/sample.box", root / "examples/sample.out")

    def steps(wb: Workbench):
        if args.only_hints:
            step_hints(wb, hints)
            wb.command("View: Toggle Output")  # the panel (closed until now)
            step_log(wb, [started_line(args.server, args.setting), "Server running"])
        else:
            run_steps(wb, root, args.boxls, hints, args.server, args.setting)

    run(args, fresh_folder(args.out), "vscode-e2e", steps)


if __name__ == "__main__":
    main()
