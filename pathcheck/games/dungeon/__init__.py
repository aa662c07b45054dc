"""Dungeon in memory (the "Diminuendo" dungeon): ``game/1`` logs and ``solo/1`` records.

The package has the layout every game has; the entry point names ``adjudicator:ADJUDICATOR``.
"""
