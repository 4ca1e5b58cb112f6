"""Mistake: BFS over pushes with a BFS for each walk, keeping the first path that
reaches a (box, player) state: fewest pushes, but not the fewest moves among them."""
import boxlib

boxlib.main(lambda maze: boxlib.push_search(maze, lambda box, player: (box, player)))
