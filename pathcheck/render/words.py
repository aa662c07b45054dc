"""Counted nouns in text for people: one tile, 2 tiles."""

from __future__ import annotations


def counted(number: int, noun: str) -> str:
    """``number`` and ``noun``, plural unless the number is 1 (``-y`` becomes ``-ies``,
    ``-s`` ``-ses``); the number with thousands separated by commas.

    >>> counted(1, "tile"), counted(8, "tile"), counted(0, "battery"), counted(2, "process")
    ('1 tile', '8 tiles', '0 batteries', '2 processes')
    >>> counted(1, "Dask worker"), counted(12_000, "seed")
    ('1 Dask worker', '12,000 seeds')
    """
    if number == 1:
        return f"1 {noun}"
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        plural = noun[:-1] + "ies"
    elif noun.endswith(("s", "x", "ch", "sh")):
        plural = noun + "es"
    else:
        plural = noun + "s"
    return f"{number:,} {plural}"
