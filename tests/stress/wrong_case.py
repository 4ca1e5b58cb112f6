"""Mistake: prints every move in lower case (pushes too)."""
import boxlib

boxlib.main(boxlib.dijkstra, case=str.lower)
