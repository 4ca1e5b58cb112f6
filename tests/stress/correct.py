"""Correct: Dijkstra over (player, box), fewest pushes then fewest moves."""
import boxlib

boxlib.main(boxlib.dijkstra)
