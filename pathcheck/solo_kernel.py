"""Seed statistics through the C kernel: perfect play of many seeds at once.

:func:`summarise_range` gives the same :class:`~pathcheck.solo_stats.Summary` as analysing
every seed with :func:`~pathcheck.solo_stats.analyse_deal`, from the histograms and per-deal
keys that ``pathcheck._speedups.solo_kernel`` returns (the tests compare both). Each distinct
deal key (squared lengths, revisits, path-Lost and rule-Lost counts) is scored once by
:class:`~pathcheck.solo_stats.Factors`, so the difficulty values are exactly those of the
Python path. Without the extension, :func:`available` is False.
"""

from __future__ import annotations

from array import array
from collections import Counter

from pathcheck.fasttrace import REASONS
from pathcheck.solo_stats import Factors, Summary, _compiled, grade_of
from pathcheck.speedups import _speedups, _tables

RULE_BITS = (2, 3, 4)
"""Rule of each bit of the kernel's bite mask (out-of-bounds, ghost-five, ghost-twice)."""


def available() -> bool:
    return _speedups is not None


def _mask(rules: frozenset[int]) -> int:
    return sum(1 << (rule - 1) for rule in rules if rule in (2, 3, 4))


def summarise_range(start: int, stop: int, rules: frozenset[int]) -> Summary:
    """Analyse seeds ``start..stop-1`` in C (see the module doc)."""
    _, base = _compiled()
    dungeons, lengths, reasons, bites, keys = _speedups.solo_kernel(
        _tables(), bytes(base), start, stop - start, _mask(rules))
    summary = Summary(rules)
    summary.deals = stop - start
    summary.dungeon_counts = _histogram(dungeons)
    summary.lengths = _histogram(lengths)
    summary.reasons = Counter({("held" if REASONS[code] is None else str(REASONS[code])): n
                               for code, n in enumerate(array("q", reasons)) if n})
    if rules:
        summary.rule_bites = Counter({RULE_BITS[bit]: n for bit, n in
                                      enumerate(array("q", bites)[:3]) if n})
    tiles = len(base)
    deal_keys = Counter(array("q", keys))
    for key, n in sorted(deal_keys.items()):
        factors = Factors(
            memory=(key & 0xFFFF) / tiles,
            revisits=key >> 16 & 0xFF,
            path_lost=key >> 24 & 0xFF,
            rule_lost=key >> 32 & 0xFF,
        )
        score = factors.score
        summary.difficulty[score] += n
        summary.grades[grade_of(score, rules)] += n
        sums = summary.factor_sums
        sums["memory"] += factors.memory * n
        sums["revisits"] += factors.revisits * n
        sums["path_lost"] += factors.path_lost * n
        sums["rule_lost"] += factors.rule_lost * n
        if factors.revisits:
            summary.revisit_deals += n
    return summary


def _histogram(raw: bytes) -> Counter[int]:
    return Counter({value: n for value, n in enumerate(array("q", raw)) if n})
