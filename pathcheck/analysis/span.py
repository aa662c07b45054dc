"""Memory span: how often a player is right against how long ago the deciding information
was seen (a move's ``age``, docs/analysis.md), binned, and the age at which they are right
half as often as at the youngest age, with a 95% interval from the counts.

>>> estimate([[90, 100], [80, 100], [60, 100], [30, 100], [10, 100], [0, 0]])
(5.0, 3.8, 6.3)
>>> estimate([[9, 10], [8, 10], [6, 10], [3, 10], [1, 10], [0, 0]])  # few moves: wide
(5.0, 2.0, None)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

BINS = ((1, 1), (2, 2), (3, 4), (5, 8), (9, 16), (17, 10**9))
"""The age bins: first and last age of each."""
LABELS = ("1", "2", "3-4", "5-8", "9-16", "17+")
MIDDLES = (1.0, 2.0, 3.5, 6.5, 12.5, 24.0)
"""The age each bin stands for when the span is read off between two bins."""
Z = 1.96


def bin_of(age: int) -> int:
    """The bin of ``age`` (1 and up).

    >>> [bin_of(a) for a in (1, 2, 3, 4, 5, 16, 17, 99)]
    [0, 1, 2, 2, 3, 4, 5, 5]
    """
    return 0 if age <= 1 else 1 if age == 2 else min(5, (age - 1).bit_length())


def wilson(right: int, total: int) -> tuple[float, float]:
    """The 95% Wilson interval of ``right / total``.

    >>> [round(x, 3) for x in wilson(8, 10)]
    [0.49, 0.943]
    """
    if not total:
        return 0.0, 1.0
    p = right / total
    centre = p + Z * Z / (2 * total)
    spread = Z * math.sqrt(p * (1 - p) / total + Z * Z / (4 * total * total))
    scale = 1 + Z * Z / total
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def _half_age(shares: Sequence[float | None], base: float) -> float | None:
    """Where ``shares`` (by bin, None: no move) first falls under half of ``base``, read off
    linearly between the bins' middle ages; None if it never does."""
    target = base / 2
    before: tuple[float, float] | None = None
    for middle, share in zip(MIDDLES, shares, strict=True):
        if share is None:
            continue
        if share < target:
            if before is None:
                return middle
            age, had = before
            return round(age + (middle - age) * (had - target) / (had - share), 1)
        before = (middle, share)
    return None


def estimate(bins: Sequence[Sequence[int]]) -> tuple[float | None, float | None, float | None]:
    """The span (the age at which the player is right half as often as in the youngest bin
    with a move) and its 95% interval: read off with the youngest bin at the top of its
    interval and the others at the bottom (low), and the other way round (high). ``bins``:
    [right, total] per bin. None where the share never halves (or no move was judged)."""
    first = next((i for i, (_, total) in enumerate(bins) if total), None)
    if first is None:
        return None, None, None
    shares = [right / total if total else None for right, total in bins]
    bounds = [wilson(right, total) if total else None for right, total in bins]
    low = [None if b is None else b[0] for b in bounds]
    high = [None if b is None else b[1] for b in bounds]
    base = shares[first]
    assert base is not None
    if base == 0:
        return None, None, None
    span = _half_age(shares, base)
    pessimistic = _half_age([high[first], *low[first + 1:]] if first == 0 else
                            [*low[:first], high[first], *low[first + 1:]], high[first] or 0.0)
    optimistic = _half_age([*high[:first], low[first], *high[first + 1:]], low[first] or 0.0)
    return span, pessimistic, optimistic
