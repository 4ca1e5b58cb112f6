"""Mistake: no blank line after the last maze's answer."""
import boxlib

boxlib.main(boxlib.dijkstra, blank_after_last=False)
