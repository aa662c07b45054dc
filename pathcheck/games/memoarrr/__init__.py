"""Memoarrr! (2018 and 2023 editions): ``memoarrr/1`` logs.

The package has the layout every game has; the entry point names ``adjudicator:ADJUDICATOR``.
"""
