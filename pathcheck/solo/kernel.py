"""Seed statistics through the C kernel: perfect play of many seeds at once.

:func:`summarise_range` gives the same :class:`~pathcheck.solo.deal.Summary` as analysing
every seed with :func:`~pathcheck.solo.deal.analyse_deal`, from the histograms and the
per-deal keys that ``pathcheck._speedups.solo_kernel`` returns (the tests compare both). Each
distinct deal key (squared lengths, revisits, path-Lost and rule-Lost counts; the kernel
counts the deals of each) is scored once by :class:`~pathcheck.solo.deal.Factors`, so the
difficulty values are exactly those of the Python path. Without the extension,
:func:`available` is False.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass

from pathcheck.solo.deal import (
    Constraints,
    DealStats,
    Factors,
    Summary,
    _compiled,
    analyse_deal,
    grade_of,
)
from pathcheck.speedups import _speedups, _tables
from pathcheck.tracer.constants import REASONS, AdditionalRule, tracing_mask


def available() -> bool:
    return _speedups is not None


def factors_of(key: int, tiles: int) -> Factors:
    """The difficulty factors a kernel deal key packs (see ``solo_kernel`` in the C file)."""
    return Factors(memory=(key & 0xFFFF) / tiles, revisits=key >> 16 & 0xFF,
                   path_lost=key >> 24 & 0xFF, rule_lost=key >> 32 & 0xFF)


@dataclass(frozen=True)
class KernelRun:
    """One call of the C kernel over seeds ``start..start+count-1``, decoded.

    ``keys`` holds one deal key a seed (see :func:`factors_of`), ``key_bytes`` the same as
    the kernel's int64 bytes (not copied); ``shapes`` two bytes a seed: its number of dungeons
    and the bit set of its Lost reason codes; ``key_counts`` the number of seeds of each key
    and :meth:`places` the indices (from 0 at ``start``) of its first and last seed (both
    counted in C).
    """

    tiles: int
    dungeon_counts: Counter[int]
    lengths: Counter[int]
    reasons: Counter[str]
    rule_bites: Counter[int]
    keys: memoryview
    key_bytes: bytes
    shapes: bytes
    key_counts: Counter[int]
    key_table: array[int]
    """The kernel's key histogram: (key, deals, first, last) quadruples in key order."""

    def places(self, key: int) -> tuple[int, int]:
        """The indices of the first and the last seed of a key the run has."""
        table = self.key_table
        i = 4 * bisect_left(range(len(table) // 4), key, key=lambda j: table[4 * j])
        if i == len(table) or table[i] != key:
            raise KeyError(key)
        return table[i + 2], table[i + 3]

    @classmethod
    def of(cls, start: int, count: int, rules: frozenset[int]) -> KernelRun:
        _, base = _compiled()
        dungeons, lengths, reasons, bites, keys, shapes, key_counts = _speedups.solo_kernel(
            _tables(), bytes(base), start, count, tracing_mask(rules))
        table = array("q", key_counts)  # key, deals, first, last
        # The kernel counts the deals each rule bit bites, by the rule's AdditionalRule bit.
        rule_bites = Counter({AdditionalRule(1 << bit).number: n for bit, n in
                              enumerate(array("q", bites)) if n}) if rules else Counter()
        return cls(
            tiles=len(base),
            dungeon_counts=_histogram(dungeons),
            lengths=_histogram(lengths),
            reasons=Counter({("held" if REASONS[code] is None else str(REASONS[code])): n
                             for code, n in enumerate(array("q", reasons)) if n}),
            rule_bites=rule_bites,
            keys=memoryview(keys).cast("q"),
            key_bytes=keys,
            shapes=shapes,
            key_counts=Counter(dict(zip(table[0::4], table[1::4], strict=True))),
            key_table=table,
        )


def summarise_range(start: int, stop: int, rules: frozenset[int]) -> Summary:
    """Analyse seeds ``start..stop-1`` in C (see the module doc)."""
    run = KernelRun.of(start, stop - start, rules)
    summary = Summary(rules)
    summary.deals = stop - start
    summary.dungeon_counts = run.dungeon_counts
    summary.lengths = run.lengths
    summary.reasons = run.reasons
    summary.rule_bites = run.rule_bites
    for key, n in sorted(run.key_counts.items()):
        factors = factors_of(key, run.tiles)
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


def search_range(start: int, stop: int, rules: frozenset[int], wanted: Constraints,
                 modulo: int) -> list[DealStats]:
    """:func:`pathcheck.solo.stats.search_range` in C: the kernel plays every seed, Python
    looks only at the deals that fit (and analyses those again, for their full stats)."""
    reason_bits = {name: code for code, name in enumerate(REASONS) if name is not None}
    needed = 0
    for reason in wanted.lost_by:
        needed |= 1 << reason_bits[reason]
    grades: dict[int, str] = {}
    found: list[DealStats] = []
    first = start
    while first < stop:
        # Seeds wrap at ``modulo``: one kernel call per contiguous run.
        seed = first % modulo
        run = min(stop - first, modulo - seed)
        kernel = KernelRun.of(seed, run, rules)
        key_list, shapes, tiles = kernel.keys, kernel.shapes, kernel.tiles
        for i in range(run):
            dungeons, reasons = shapes[2 * i], shapes[2 * i + 1]
            if wanted.min_dungeons is not None and dungeons < wanted.min_dungeons:
                continue
            if wanted.max_dungeons is not None and dungeons > wanted.max_dungeons:
                continue
            if reasons & needed != needed:
                continue
            if wanted.grade is not None:
                key = key_list[i]
                if key not in grades:
                    grades[key] = grade_of(factors_of(key, tiles).score, rules)
                if grades[key] != wanted.grade:
                    continue
            stats = analyse_deal(seed + i, rules)
            if wanted.fits(stats):  # the Python analysis has the last word
                found.append(stats)
        first += run
    return found
