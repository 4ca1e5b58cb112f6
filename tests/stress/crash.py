"""Mistake: the answer is copied into a fixed buffer of 24 moves (sized for the
sample); a longer answer raises IndexError, a runtime error."""
import boxlib

BUFFER = 24


def solve(maze):
    moves = boxlib.dijkstra(maze)
    if moves is None:
        return None
    buffer = [""] * BUFFER
    for i, letter in enumerate(moves):
        buffer[i] = letter
    return "".join(buffer)


boxlib.main(solve)
