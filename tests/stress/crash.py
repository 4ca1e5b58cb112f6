"""Mistake: no bounds check below the last row; Python raises IndexError (a runtime
error) when the search steps south from a free cell in the last row."""
import boxlib


def solve(maze):
    def ok(y, x):
        # Row -1 wraps around silently in Python; row `rows` raises.
        return 0 <= x < maze.cols and y >= -maze.rows and maze.free[y][x] and y >= 0

    return boxlib.dijkstra(maze, ok=ok)


boxlib.main(solve)
