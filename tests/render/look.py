#!/usr/bin/env python3
"""Checks headless Chromium's screenshots of `boxls render` pictures: the PNG is the
picture's size and, at the places the SVG puts them, shows rock, target, box and player
in their colours; an animation's later frame has moved the box and the player; an
unsolvable maze shows its warning; an animated Sokoban level shows every box where it
starts, and at its end a box on every goal. Standard library only (a small PNG decoder).

    look.py still SVG PNG
    look.py animated SVG PNG_AT_START PNG_LATER
    look.py unsolvable SVG PNG
    look.py level SVG PNG_AT_START PNG_AT_END
"""
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

ROCK = (0x3D, 0x47, 0x56)
FLOOR = (0xFF, 0xFF, 0xFF)
TRAIL = (0xE8, 0x59, 0x0C)
BOX = (0xC9, 0x8A, 0x3E)
PLAYER = (0x1F, 0x6F, 0xEB)
TARGET = (0x1A, 0x7F, 0x37)
WARNING = (0xB4, 0x23, 0x18)
INK = (0x1F, 0x23, 0x28)


def decode_png(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA, non-interlaced PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit(f"{path}: unexpected PNG format {header}")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 0xFF
        rows.append([tuple(line[x * channels : x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def near(colour, expected, tolerance=40):
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected))


class Picture:
    """An SVG picture and its screenshot."""

    def __init__(self, svg, png):
        self.svg, self.png = svg, png
        root = ET.parse(svg).getroot()
        self.width, self.height = float(root.get("width")), float(root.get("height"))
        self.nodes = {n.get("id"): n for n in root.iter() if n.get("id")}
        self.rock = self.rock_cell(root)
        bx, by, self.cell = self.numbers("board")
        self.board = (bx, by)
        self.png_width, self.png_height, self.rows = decode_png(png)
        self.failures = []

    def rock_cell(self, root):
        """(column, row) of some rock cell: the first rock rectangle, or else the first
        cell the floor leaves uncovered when rock is the background."""
        board = self.nodes["board"]
        for node in board:
            if node.get("class") == "rock" and node.get("d"):
                col, row = re.match(r"M(\d+) (\d+)", node.get("d")).groups()
                return int(col), int(row)
        floor = set()
        for col, row, w, h in re.findall(r"M(\d+) (\d+)h(\d+)v(\d+)", self.nodes["floor"].get("d", "")):
            floor.update((c, r) for c in range(int(col), int(col) + int(w))
                         for r in range(int(row), int(row) + int(h)))
        cols, rows = (int(float(board.find("*[@class='rock']").get(k))) for k in ("width", "height"))
        return next((c, r) for r in range(rows) for c in range(cols) if (c, r) not in floor)

    def numbers(self, node_id):
        text = self.nodes[node_id].get("transform")
        return [float(n) for n in re.findall(r"-?[\d.]+", text)]

    def at(self, node_id, dx=0.0, dy=0.0):
        """Pixel position of a piece's centre, moved by a fraction of a cell."""
        x, y = self.numbers(node_id)[:2]
        return x + dx * self.cell, y + dy * self.cell

    def pixel(self, x, y):
        return self.rows[int(round(y))][int(round(x))]

    def expect(self, what, point, colour, want=True):
        got = self.pixel(*point)
        if near(got, colour) != want:
            verb = "should" if want else "should not"
            self.failures.append(
                f"{self.png}: {what} at {point}: got #{bytes(got).hex()}, "
                f"{verb} be #{bytes(colour).hex()}"
            )

    def count(self, colour, tolerance=40):
        return sum(near(p, colour, tolerance) for row in self.rows for p in row)

    def check_frame(self):
        if (self.png_width, self.png_height) != (round(self.width), round(self.height)):
            self.failures.append(
                f"{self.png}: {self.png_width}x{self.png_height}, "
                f"the SVG is {self.width}x{self.height}"
            )
            return False
        colours = len({p for row in self.rows[::4] for p in row[::4]})
        if colours < 12:
            self.failures.append(f"{self.png}: only {colours} colours: a blank page?")
        bx, by = self.board
        col, row = self.rock
        rock = (bx + (col + 0.5) * self.cell, by + (row + 0.5) * self.cell)
        self.expect(f"rock (cell {col},{row})", rock, ROCK)
        goals = [k for k in self.nodes if re.fullmatch(r"goal-\d+", k)] or ["target"]
        for goal in goals:
            self.expect(f"the {goal}", self.at(goal), TARGET)
        return True

    def check_pieces(self):
        self.expect("the box", self.at("box", 0.25, 0.0), BOX)
        self.expect("the player", self.at("player", 0.15, 0.12), PLAYER)

    def report(self):
        for failure in self.failures:
            print(f"FAIL {failure}")
        return not self.failures


def main(argv):
    mode = argv[1] if len(argv) > 1 else ""
    if mode == "still" and len(argv) == 4:
        pic = Picture(argv[2], argv[3])
        if pic.check_frame():
            pic.check_pieces()
            trail = pic.count(TRAIL, 30)
            if trail < pic.cell * pic.cell / 2:
                pic.failures.append(f"{pic.png}: the trail is hardly visible ({trail} pixels)")
            ink = pic.count(INK, 30)
            if ink < 200:
                pic.failures.append(f"{pic.png}: no caption text ({ink} dark pixels)")
        ok = pic.report()
    elif mode == "animated" and len(argv) == 5:
        start, later = Picture(argv[2], argv[3]), Picture(argv[2], argv[4])
        for pic in (start, later):
            pic.check_frame()
        start.check_pieces()
        # Later on, the box and the player have left their start cells.
        later.expect("the box's start cell, left", later.at("box", 0.25, 0.0), BOX, want=False)
        later.expect("the player's start cell, left", later.at("player", 0.15, 0.12), PLAYER, want=False)
        moved = sum(a != b for ra, rb in zip(start.rows, later.rows) for a, b in zip(ra, rb))
        if moved < 2 * start.cell * start.cell:
            later.failures.append(f"{later.png}: only {moved} pixels changed since the start")
        ok = start.report() & later.report()
    elif mode == "unsolvable" and len(argv) == 4:
        pic = Picture(argv[2], argv[3])
        if pic.check_frame():
            pic.check_pieces()
            warning = pic.count(WARNING, 30)
            if warning < 100:
                pic.failures.append(f"{pic.png}: no warning headline ({warning} red pixels)")
            if pic.count(TRAIL, 20) > 0:
                pic.failures.append(f"{pic.png}: a trail on an unsolvable maze")
        ok = pic.report()
    elif mode == "level" and len(argv) == 5:
        start, end = Picture(argv[2], argv[3]), Picture(argv[2], argv[4])
        start.check_frame()
        if end.check_frame():
            end.failures = [f for f in end.failures if "goal-" not in f]  # boxes cover them now
        boxes = sorted(k for k in start.nodes if re.fullmatch(r"box-\d+", k))
        goals = sorted(k for k in start.nodes if re.fullmatch(r"goal-\d+", k))
        if len(boxes) < 2 or len(boxes) != len(goals):
            start.failures.append(f"{start.svg}: {len(boxes)} boxes and {len(goals)} goals drawn")
        for box in boxes:
            start.expect(f"{box} at its start", start.at(box, 0.25, 0.0), BOX)
        # At the end the boxes stand on the goals: box colour where each goal is.
        for goal in goals:
            end.expect(f"a box on {goal} at the end", end.at(goal, 0.25, 0.0), BOX)
        ok = start.report() & end.report()
    else:
        sys.exit(__doc__)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
