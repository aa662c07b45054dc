"""The Igrology robot memory game: ``robot-memory/1`` logs.

The package has the layout every game has; the entry point names ``adjudicator:ADJUDICATOR``.
"""
