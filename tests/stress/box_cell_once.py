"""Mistake: each box cell is visited once, whichever side the player is on (answers
`Impossible.` for some solvable mazes, and worse strings for others)."""
import boxlib

boxlib.main(lambda maze: boxlib.push_search(maze, lambda box, player: box))
