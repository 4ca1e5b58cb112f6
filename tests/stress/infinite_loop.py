"""Mistake: keeps searching forever when there is no solution (never prints
`Impossible.`)."""
import boxlib


def solve(maze):
    moves = boxlib.dijkstra(maze)
    while moves is None:
        pass
    return moves


boxlib.main(solve)
