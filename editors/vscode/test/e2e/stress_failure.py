"""`boxls stress`'s failure file in a real VS Code (code-server in Chromium): runs
`boxls stress` on a wrong solver of tests/stress/ into the workspace, opens the file it
wrote, and asserts that the user sees what `boxls check` says about the program's
recorded answer (`solution-not-optimal` or `solution-illegal`) in the Problems panel
and in the hover on the answer. Started by run.sh after drive.py; the screenshot of the
hover is the manual's picture of a stress session (a copy is committed under docs/src/images/).

    python stress_failure.py --url URL --workspace DIR --boxls PATH --out DIR [--solver NAME]
"""

import re
import shutil
import subprocess
from pathlib import Path


from drive import cli_problems, problems
from workbench import Failure, Workbench, arguments, fresh_folder, run

FILE = "stress-failure.box"
CODES = ("solution-not-optimal", "solution-illegal")


def run_stress(boxls: str, root: Path, workspace: Path, solver: str, out: Path) -> Path:
    """The session the manual's stress chapter shows, `boxls stress --seed 1 -- python3 SOLVER.py`, run
    in the workspace beside a copy of the solver, as a user would; with a minute per run
    instead of two seconds, so that a busy machine cannot turn its wrong answer into a
    time-limit failure (seen at load 10: a 3×5 maze still running after 2000 ms)."""
    for name in (f"{solver}.py", "boxlib.py"):
        shutil.copy(root / "tests/stress" / name, workspace / name)
    file = workspace / FILE
    file.unlink(missing_ok=True)
    command = [boxls, "stress", "--seed", "1", "--timeout-ms", "60000", "--", "python3", f"{solver}.py"]
    ran = subprocess.run(command, cwd=workspace, capture_output=True, text=True, timeout=600)
    (out / "session.txt").write_text(ran.stdout)
    for line in ran.stdout.splitlines():
        print(f"   | {line}", flush=True)
    if ran.returncode != 1 or not file.exists():
        raise Failure(f"boxls stress should find a failure (exit 1) and write {file}: exit {ran.returncode}\n{ran.stderr}")
    text = file.read_text()
    if "; kind: wrong-answer\n" not in text or "; solution: " not in text:
        raise Failure(f"the failure file should be a wrong answer with its `; solution:` line:\n{text}")
    return file


def open_path(wb: Workbench, path: Path):
    """File: Open File…, then the file picked in the dialog as a user would: its row
    clicked when the dialog shows the file's folder (the file is newer than the
    workspace's file list that quick open searches), else the full path typed. The
    dialog fills in its folder once it has read it, which can overwrite what was typed
    (seen on a busy machine for 90 s on end), so a click comes first, and the whole
    gesture is repeated if the file still did not open."""
    tab = wb.page.locator(f".tabs-container .tab.active[data-resource-name='{path.name}']")
    box = wb.page.locator(".quick-input-widget input")
    row = wb.page.locator(".quick-input-widget .monaco-list-row", has_text=path.name)
    folder = f"{path.parent}/"
    for _ in range(3):
        wb.command("File: Open File...")
        box.wait_for(state="visible")
        wb.wait_for("the Open File dialog's folder", lambda: box.input_value().endswith("/"))
        if box.input_value() == folder:
            wb.wait_for(f"{path.name} in the dialog's list", lambda: row.count() > 0)
            row.first.click()
        else:
            box.fill(str(path))
            wb.page.wait_for_timeout(250)
            if box.input_value() == folder:  # the dialog overwrote it: click instead
                wb.wait_for(f"{path.name} in the dialog's list", lambda: row.count() > 0)
                row.first.click()
            else:
                wb.page.keyboard.press("Enter")
        for _ in range(40):
            if tab.count() and tab.is_visible():
                break
            wb.page.wait_for_timeout(250)
        if tab.count() and tab.is_visible():
            break
        wb.page.keyboard.press("Escape")
    wb.wait_for(f"the editor tab of {path.name}", lambda: tab.is_visible())
    wb.wait_for(f"{path.name}'s text", lambda: wb.editor_lines())


def hover_text(wb: Workbench) -> str:
    return " ".join(wb.page.locator(".monaco-hover:not(.hidden) .hover-contents").all_inner_texts())


def step_failure_file(wb: Workbench, file: Path, expected: list):
    open_path(wb, file)
    wb.page.keyboard.press("Control+Shift+M")
    wb.wait_for(f"the Problems panel to list {expected}", lambda: problems(wb, FILE) == expected)
    print(f"   problems: {problems(wb, FILE)}")
    wb.ok(f"the Problems panel lists {', '.join(code for code, _, _ in expected)} for {FILE}, as boxls check does", "stress-problems")
    code, line, column = expected[0]
    # On the first move of the recorded answer: the diagnostic and the step-through.
    wb.go_to(line, column)
    wb.command("Show or Focus Hover")
    # The diagnostic's part comes first, the server's step-through after it.
    text = wb.wait_for(
        f"the hover on the answer naming {code} and stepping through it",
        lambda: code in (t := hover_text(wb)) and "move 1 of " in t and t,
    )
    compact = re.sub(r"\s+", " ", text)
    print(f"   hover: {compact[:200]}")
    wb.ok(f"the hover on the recorded answer shows {code} and move 1 of the program's answer", "stress-failure")


def main():
    ap = arguments()
    ap.add_argument("--solver", default="nested_first_path")
    args = ap.parse_args()
    out = fresh_folder(args.out / "stress-failure")
    root = Path(__file__).resolve().parents[4]

    def steps(wb: Workbench):
        file = run_stress(args.boxls, root, args.workspace, args.solver, out)
        expected = [p for p in cli_problems(args.boxls, file) if p[0] in CODES]
        if not expected:
            raise Failure(f"boxls check should flag the recorded answer with one of {CODES}")
        step_failure_file(wb, file, expected)

    run(args, out, "stress-failure", steps)


if __name__ == "__main__":
    main()
