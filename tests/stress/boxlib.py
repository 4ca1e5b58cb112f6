"""Shared parts of the test solvers for `boxls stress`: reading POJ 1475 input,
printing the output, and searches with and without the classic mistakes.

Each solver file in this directory is one mistake (or none: correct.py); they are run
as `python3 -S FILE` by tests/it/stress.rs and benches/stress.rs.
"""

import heapq
import sys
from collections import deque

DIRS = ((-1, 0, "n"), (1, 0, "s"), (0, -1, "w"), (0, 1, "e"))


class Maze:
    def __init__(self, rows, cols, lines):
        self.rows, self.cols = rows, cols
        self.free = [[ch != "#" for ch in line] for line in lines]
        for y, line in enumerate(lines):
            for x, ch in enumerate(line):
                if ch == "S":
                    self.player = (y, x)
                elif ch == "B":
                    self.box = (y, x)
                elif ch == "T":
                    self.target = (y, x)

    def ok(self, y, x):
        return 0 <= y < self.rows and 0 <= x < self.cols and self.free[y][x]


def read_mazes(text):
    lines = text.split("\n")
    mazes, i = [], 0
    while i < len(lines):
        parts = lines[i].split()
        i += 1
        if len(parts) != 2:
            continue
        rows, cols = int(parts[0]), int(parts[1])
        if rows == 0 and cols == 0:
            break
        mazes.append(Maze(rows, cols, [l.rstrip() for l in lines[i : i + rows]]))
        i += rows
    return mazes


def main(solve, blank_after_last=True, case=lambda moves: moves):
    mazes = read_mazes(sys.stdin.read())
    out = []
    for k, maze in enumerate(mazes, 1):
        moves = solve(maze)
        out.append("Maze #%d\n%s\n" % (k, "Impossible." if moves is None else case(moves)))
        if blank_after_last or k < len(mazes):
            out.append("\n")
    sys.stdout.write("".join(out))


def unwind(parent, state):
    letters = []
    while parent[state] is not None:
        state, letter = parent[state]
        letters.append(letter)
    return "".join(reversed(letters))


def dijkstra(maze, moves_first=False, settle_on_discovery=False, ok=None):
    """Over (player, box) states; cost (pushes, moves) unless `moves_first`."""
    ok = ok or maze.ok
    key = (lambda p, m: (m, p)) if moves_first else (lambda p, m: (p, m))
    start = (maze.player, maze.box)
    best, parent, done = {start: (0, 0)}, {start: None}, set()
    if settle_on_discovery:
        done.add(start)
    heap = [(key(0, 0), start)]
    while heap:
        _, state = heapq.heappop(heap)
        if not settle_on_discovery:
            if state in done:
                continue
            done.add(state)
        pushes, moves = best[state]
        (py, px), (by, bx) = state
        if (by, bx) == maze.target:
            return unwind(parent, state)
        for dy, dx, ch in DIRS:
            ny, nx = py + dy, px + dx
            if not ok(ny, nx):
                continue
            if (ny, nx) == (by, bx):
                if not ok(by + dy, bx + dx):
                    continue
                nxt, cost, letter = ((ny, nx), (by + dy, bx + dx)), (pushes + 1, moves + 1), ch.upper()
            else:
                nxt, cost, letter = ((ny, nx), (by, bx)), (pushes, moves + 1), ch
            if settle_on_discovery:
                if nxt in done:
                    continue
                done.add(nxt)
            elif nxt in best and key(*best[nxt]) <= key(*cost):
                continue
            best[nxt], parent[nxt] = cost, (state, letter)
            heapq.heappush(heap, (key(*cost), nxt))
    return None


def walk(maze, start, goal, box):
    """The shortest walk from start to goal around the box (None if there is none)."""
    if start == goal:
        return ""
    parent = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for dy, dx, ch in DIRS:
            nxt = (cell[0] + dy, cell[1] + dx)
            if nxt in parent or nxt == box or not maze.ok(*nxt):
                continue
            parent[nxt] = (cell, ch)
            if nxt == goal:
                return unwind(parent, nxt)
            queue.append(nxt)
    return None


def push_search(maze, seen_key):
    """Breadth-first over pushes, the walks in between found by BFS; a state is kept
    the first time its `seen_key(box, player)` is reached (the mistakes live there)."""
    queue = deque([(maze.box, maze.player, "")])
    seen = {seen_key(maze.box, maze.player)}
    while queue:
        box, player, path = queue.popleft()
        if box == maze.target:
            return path
        for dy, dx, ch in DIRS:
            stand, ahead = (box[0] - dy, box[1] - dx), (box[0] + dy, box[1] + dx)
            if not maze.ok(*stand) or not maze.ok(*ahead):
                continue
            if seen_key(ahead, box) in seen:
                continue
            steps = walk(maze, player, stand, box)
            if steps is None:
                continue
            seen.add(seen_key(ahead, box))
            queue.append((ahead, box, path + steps + ch.upper()))
    return None
