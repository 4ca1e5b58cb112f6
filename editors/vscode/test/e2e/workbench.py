"""What every VS Code e2e driver shares (drive.py, stress_failure.py, preview_perf.py):
the browser, the workbench page with the gestures the drivers use, the arguments every
driver takes, and the run itself (a fresh output folder, the workbench opened, a
failure printed and the driver's exit code 1).
"""

import argparse
import re
import sys
import time
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, sync_playwright

# Generous: the machine may be busy with other builds; every wait polls the page.
TIMEOUT = 90.0
CHROMIUM_ARGS = [
    "--no-sandbox",  # root, in a container
    "--disable-background-networking",  # the network is closed; don't try
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-gpu",
]
VIEWPORT = {"width": 1400, "height": 900}


class Failure(Exception):
    pass


class Workbench:
    """The VS Code page, with the few gestures the test needs."""

    def __init__(self, page: Page, out: Path, url: str = ""):
        self.page = page
        self.out = out
        self.url = url
        self.shots = 0
        self.passed = 0

    def open(self):
        """Loads the workbench at `self.url` and waits for it."""
        self.page.set_default_timeout(TIMEOUT * 1000)
        self.page.goto(self.url)
        self.wait_for("the workbench", lambda: self.page.locator(".monaco-workbench").is_visible(), 180)

    def new_window(self):
        """The same workspace in a new browser window with a profile of its own (no
        service worker, no storage: what a first window sees); the old one is closed."""
        browser = self.page.context.browser
        self.page.context.close()
        self.page = browser.new_page(viewport=VIEWPORT)
        self.open()

    # --- waiting and looking -------------------------------------------------------

    def wait_for(self, what: str, probe, timeout: float = TIMEOUT):
        """Polls `probe()` until it returns something truthy; fails naming `what`."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            try:
                last = probe()
            except PlaywrightError as err:  # the DOM changes under us while VS Code renders
                last = err
            else:
                if last:
                    return last
            self.page.wait_for_timeout(250)
        shot = self.shot("FAILED-" + re.sub(r"[^a-z0-9]+", "-", what.lower())[:40])
        shot.with_suffix(".html").write_text(self.page.content())
        raise Failure(f"timed out after {timeout:.0f}s waiting for {what}; last seen: {last!r}")

    def shot(self, name: str):
        self.shots += 1
        path = self.out / f"{self.shots:02d}-{name}.png"
        # Finished, not mid-fade: hovers and menus fade in.
        self.page.screenshot(path=str(path), animations="disabled")
        return path

    def ok(self, step: str, name: str):
        self.passed += 1
        shot = self.shot(name)
        print(f"ok {self.passed} {step} ({shot.name})", flush=True)

    def text(self, selector: str) -> str:
        return " ".join(self.page.locator(selector).all_inner_texts())

    def editor_lines(self) -> dict:
        """Line number -> rendered text (inlay hints included) of the visible lines of
        the active editor, matched by their vertical position."""
        lines = self.page.evaluate(
            """() => {
              const editor = document.querySelector('.editor-group-container.active .monaco-editor')
                || document.querySelector('.monaco-editor');
              if (!editor) return {};
              const numbers = {};
              for (const n of editor.querySelectorAll('.margin-view-overlays .line-numbers')) {
                const top = n.parentElement.style.top || n.style.top;
                numbers[top] = parseInt(n.textContent, 10);
              }
              const lines = {};
              for (const l of editor.querySelectorAll('.view-lines .view-line')) {
                const line = numbers[l.style.top];
                if (line) lines[line] = l.textContent.replace(/\\u00a0/g, ' ');
              }
              return lines;
            }"""
        )
        return {int(line): text for line, text in lines.items()}

    # --- gestures --------------------------------------------------------------------

    def command(self, title: str):
        """Runs a command from the palette by its exact title."""
        self.page.keyboard.press("F1")
        box = self.page.locator(".quick-input-widget input")
        box.wait_for(state="visible")
        box.fill(">" + title)
        row = self.page.locator(".quick-input-widget .quick-input-list .monaco-list-row").filter(has=self.label(title))
        self.wait_for(f"the command {title!r} in the palette", lambda: row.count() > 0 and row.first.is_visible())
        row.first.click()

    def label(self, text: str):
        """A list row's or quick-open row's label reading exactly `text` (not a longer
        name containing it)."""
        return self.page.locator(".label-name", has_text=re.compile("^" + re.escape(text) + "$"))

    def open_file(self, name: str):
        self.page.keyboard.press("Control+P")
        box = self.page.locator(".quick-input-widget input")
        box.wait_for(state="visible")
        box.fill(name)
        row = self.page.locator(".quick-input-widget .quick-input-list .monaco-list-row", has_text=name).first
        self.wait_for(f"{name} in quick open", lambda: row.is_visible())
        self.page.keyboard.press("Enter")
        self.wait_opened(name)

    def open_from_explorer(self, name: str):
        """Opens a file by clicking its row in the Explorer (which lists a new file at
        once; quick open's list may not have it yet)."""
        row = self.page.locator(".explorer-folders-view .monaco-list-row").filter(has=self.label(name))
        self.wait_for(f"{name} in the Explorer", lambda: row.count() == 1 and row.first.is_visible())
        row.first.click()
        self.wait_opened(name)

    def wait_opened(self, name: str):
        """Until `name`'s tab is the active one and its text is drawn."""
        tab = self.page.locator(f".tabs-container .tab.active[data-resource-name='{name}']")
        self.wait_for(f"the editor tab of {name}", lambda: tab.is_visible())
        self.wait_for(f"{name}'s text", lambda: self.editor_lines())

    def show_tab(self, name: str):
        """Clicks an editor tab: a file's by its name, another (Settings) by its label."""
        if name.endswith(".box"):
            tab = self.page.locator(f".tabs-container .tab[data-resource-name='{name}']").first
        else:
            tab = self.page.locator(".tabs-container .tab", has_text=name).first
        tab.click()
        self.wait_for(f"the editor tab of {name}", lambda: "active" in (tab.get_attribute("class") or ""))
        if name.endswith(".box"):
            self.wait_for(f"{name}'s text", lambda: self.editor_lines())

    def go_to(self, line: int, column: int = 1):
        self.page.keyboard.press("Control+G")
        box = self.page.locator(".quick-input-widget input")
        box.wait_for(state="visible")
        box.fill(f":{line}:{column}")
        self.page.keyboard.press("Enter")
        position = self.page.locator(".statusbar-item", has_text=f"Ln {line}, Col {column}")
        self.wait_for(f"the cursor at {line}:{column}", lambda: position.count() > 0)


def arguments() -> argparse.ArgumentParser:
    """The arguments run.sh gives every driver; a driver adds its own."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--workspace", required=True, type=Path)
    ap.add_argument("--boxls", required=True)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    return ap


def fresh_folder(out: Path) -> Path:
    """`out`, made if missing, without the screenshots and pages of an earlier run."""
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("*.png"), *out.glob("*.html")]:
        old.unlink()
    return out


def run(args, out: Path, label: str, steps):
    """Opens the workbench at `args.url` in Chromium and runs `steps(wb)`; a `Failure`
    is printed and ends the driver with exit code 1, else `label: N passed` is printed."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        wb = Workbench(browser.new_page(viewport=VIEWPORT), out, args.url)
        wb.workspace = args.workspace
        wb.boxls = args.boxls
        try:
            wb.open()
            steps(wb)
        except Failure as err:
            print(f"FAILED: {err}", file=sys.stderr)
            sys.exit(1)
        finally:
            browser.close()
    print(f"{label}: {wb.passed} passed, screenshots in {out}")


def header_lines(text: str) -> list:
    """The 1-based line of each maze header in a `.box` text (the `0 0` terminator left out)."""
    lines = text.splitlines()
    out, i = [], 0
    while i < len(lines):
        m = re.fullmatch(r"\s*(\d+)\s+(\d+)\s*", lines[i])
        if m and (int(m[1]), int(m[2])) != (0, 0):
            out.append(i + 1)
            i += int(m[1])
        i += 1
    return out
