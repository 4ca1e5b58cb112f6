"""Mistake: "can the player get around the box" answered with bridges (2-edge-connected
components) instead of articulation points. Where two cycles meet at the box's cell,
the player is believed to get around it, and the walk printed goes through the box.

Otherwise correct: Dijkstra over pushes (fewest pushes, then moves), each walk the
shortest one (around the box when there is one)."""
import heapq
import sys

import boxlib

sys.setrecursionlimit(100000)


def two_edge_components(maze):
    cells = [(y, x) for y in range(maze.rows) for x in range(maze.cols) if maze.free[y][x]]
    order, low, bridges, counter = {}, {}, set(), [0]

    def neighbours(cell):
        for dy, dx, _ in boxlib.DIRS:
            nxt = (cell[0] + dy, cell[1] + dx)
            if maze.ok(*nxt):
                yield nxt

    def dfs(cell, parent):
        order[cell] = low[cell] = counter[0]
        counter[0] += 1
        for nxt in neighbours(cell):
            if nxt == parent:
                continue
            if nxt in order:
                low[cell] = min(low[cell], order[nxt])
            else:
                dfs(nxt, cell)
                low[cell] = min(low[cell], low[nxt])
                if low[nxt] > order[cell]:
                    bridges.add(frozenset((cell, nxt)))

    for cell in cells:
        if cell not in order:
            dfs(cell, None)
    component, label = {}, 0
    for cell in cells:
        if cell in component:
            continue
        stack = [cell]
        component[cell] = label
        while stack:
            here = stack.pop()
            for nxt in neighbours(here):
                if nxt not in component and frozenset((here, nxt)) not in bridges:
                    component[nxt] = label
                    stack.append(nxt)
        label += 1
    return component


def walk_anyway(maze, start, goal, box):
    """The walk the solver believes in: around the box, else straight through it."""
    steps = boxlib.walk(maze, start, goal, box)
    if steps is None:
        steps = boxlib.walk(maze, start, goal, None)
    return steps


def solve(maze):
    component = two_edge_components(maze)
    first = {}
    for dy, dx, ch in boxlib.DIRS:
        stand = (maze.box[0] - dy, maze.box[1] - dx)
        if maze.ok(*stand):
            steps = boxlib.walk(maze, maze.player, stand, maze.box)
            if steps is not None:
                first[stand] = steps
    heap, best, parent = [], {}, {}
    for stand, steps in first.items():
        state = (maze.box, stand)
        best[state], parent[state] = (0, len(steps)), (None, steps)
        heapq.heappush(heap, ((0, len(steps)), state))
    done = set()
    while heap:
        (pushes, moves), state = heapq.heappop(heap)
        if state in done:
            continue
        done.add(state)
        box, player = state
        if box == maze.target:
            path = []
            while state is not None:
                state, piece = parent[state]
                path.append(piece)
            return "".join(reversed(path))
        for dy, dx, ch in boxlib.DIRS:
            stand, ahead = (box[0] - dy, box[1] - dx), (box[0] + dy, box[1] + dx)
            if not maze.ok(*stand) or not maze.ok(*ahead):
                continue
            if stand == player:
                steps = ""
            elif component.get(stand) == component.get(player):
                steps = walk_anyway(maze, player, stand, box)
            else:
                continue
            after = (ahead, box)
            cost = (pushes + 1, moves + len(steps) + 1)
            if after in best and best[after] <= cost:
                continue
            best[after], parent[after] = cost, (state, steps + ch.upper())
            heapq.heappush(heap, (cost, after))
    return None


boxlib.main(solve)
