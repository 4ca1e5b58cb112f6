"""Mistake: the answer is copied into a fixed buffer of 16 moves (sized for small
mazes); a longer answer raises IndexError, a runtime error."""
import boxlib

BUFFER = 16


def solve(maze):
    moves = boxlib.dijkstra(maze)
    if moves is None:
        return None
    buffer = [""] * BUFFER
    for i, letter in enumerate(moves):
        buffer[i] = letter
    return "".join(buffer)


boxlib.main(solve)
