"""Memo Dice: ``memo-dice/1`` logs.

The package has the layout every game has; the entry point names ``adjudicator:ADJUDICATOR``.
"""
