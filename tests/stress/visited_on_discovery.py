"""Mistake: a state is marked visited when it enters the priority queue, so a better
way to it found later is ignored (loses the fewest-moves tie-break)."""
import boxlib

boxlib.main(lambda maze: boxlib.dijkstra(maze, settle_on_discovery=True))
