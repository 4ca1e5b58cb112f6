"""Mistake: fewest total moves first, pushes second."""
import boxlib

boxlib.main(lambda maze: boxlib.dijkstra(maze, moves_first=True))
