"""One solo deal played perfectly: its statistics, difficulty and grade; their sums.

:func:`analyse_deal` is a pure function of ``(seed, rules)``; :class:`Summary` aggregates
:class:`DealStats` and merges across processes. The C kernel (:mod:`pathcheck.solo.kernel`)
and the drivers over many seeds (:mod:`pathcheck.solo.stats`, which re-exports every name
here) both build on this module, which imports neither.

>>> stats = analyse_deal(0, frozenset())
>>> stats.dungeons, stats.lengths, stats.reasons[0]
(3, (13, 13, 12), 'dead-end')
>>> stats.grade in GRADES
True
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from pathcheck.solo.seed_codes import permutation
from pathcheck.tracer import constants
from pathcheck.tracer.constants import REASONS, tracing_mask
from pathcheck.tracer.fast import STEP, CompiledTileSet, compile_tileset, trace_indices
from pathcheck.tracer.tileset import load_tileset

PATH_REASONS = frozenset({"loop", "reverse", "dead-end"})
"""Lost reasons found only by following the path over tiles already laid (rulebook A-C)."""
RULE_OF_REASON = {str(REASONS[code]): rule.number
                  for code, rule in constants.RULE_OF_REASON.items()}
"""The additional rule behind each rule-made Lost reason."""
LOST_REASONS = tuple(r for r in REASONS if r is not None and r != "misplaced")
"""Reasons perfect play can meet (it never misplaces)."""

# Difficulty = sum of weight * factor (docs/seeds.md, "Difficulty").
W_MEMORY = 1.0
"""Per unit of memory load: sum of squared dungeon lengths / tiles (the mean length of the
dungeon a tile lies in)."""
W_REVISIT = 1.5
"""Per placement whose path runs over tiles already laid (Two-Path and Repeat tiles passed
again): the player must trace it in memory."""
W_PATH_LOST = 3.0
"""Per Lost point by loop, reverse or dead-end: seen only by tracing the layout."""
W_RULE_LOST = 1.0
"""Per Lost point made by an additional rule (bound, ghosts): found by counting."""

GRADES = ("easy", "medium", "hard")
DIFFICULTY_THRESHOLDS: dict[frozenset[int], tuple[float, float]] = {
    frozenset(): (21.6, 24.2),
    frozenset({2}): (17.3, 19.5),
    frozenset({3}): (19.4, 21.1),
    frozenset({4}): (18.0, 20.1),
    frozenset({2, 3}): (16.9, 18.9),
    frozenset({2, 4}): (16.3, 18.4),
    frozenset({3, 4}): (17.9, 19.9),
    frozenset({2, 3, 4}): (16.3, 18.3),
}
"""(easy at most, hard above) per rule set: the 33rd and 67th percentiles of seeds 0-99,999."""


@cache
def _compiled() -> tuple[CompiledTileSet, tuple[int, ...]]:
    ts = load_tileset()
    compiled = compile_tileset(ts)
    deck = tuple(compiled.index[t] for t in ts.deck_ids(advanced=True))
    return compiled, (compiled.index[ts.start], *deck)


@dataclass(frozen=True)
class Factors:
    """The inputs of the difficulty score of one deal."""

    memory: float
    revisits: int
    path_lost: int
    rule_lost: int

    @property
    def score(self) -> float:
        return round(W_MEMORY * self.memory + W_REVISIT * self.revisits
                     + W_PATH_LOST * self.path_lost + W_RULE_LOST * self.rule_lost, 1)

    def explain(self) -> str:
        """``"memory 12.3 x1.0 + revisits 2 x1.5 + ..."``."""
        return (f"memory {self.memory:.1f} x{W_MEMORY:g} + revisits {self.revisits} "
                f"x{W_REVISIT:g} + path Lost {self.path_lost} x{W_PATH_LOST:g} + rule Lost "
                f"{self.rule_lost} x{W_RULE_LOST:g} = {self.score:g}")


@dataclass(frozen=True)
class DealStats:
    """Perfect play of one seed under one rule set.

    ``lengths`` and ``reasons`` have one entry per dungeon (``None``: the last dungeon held
    to the last tile); ``revisits`` counts placements whose path ran over laid tiles.
    """

    seed: int
    rules: frozenset[int]
    lengths: tuple[int, ...]
    reasons: tuple[str | None, ...]
    revisits: int

    @property
    def dungeons(self) -> int:
        return len(self.lengths)

    @property
    def factors(self) -> Factors:
        tiles = sum(self.lengths)
        return Factors(
            memory=sum(n * n for n in self.lengths) / tiles,
            revisits=self.revisits,
            path_lost=sum(r in PATH_REASONS for r in self.reasons),
            rule_lost=sum(r in RULE_OF_REASON for r in self.reasons),
        )

    @property
    def difficulty(self) -> float:
        return self.factors.score

    @property
    def grade(self) -> str:
        return grade_of(self.difficulty, self.rules)

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "rules": sorted(self.rules), "dungeons": self.dungeons,
                "lengths": list(self.lengths), "reasons": list(self.reasons),
                "revisits": self.revisits, "difficulty": self.difficulty, "grade": self.grade}


def grade_of(difficulty: float, rules: Iterable[int]) -> str:
    easy, hard = DIFFICULTY_THRESHOLDS[frozenset(rules)]
    return "easy" if difficulty <= easy else "hard" if difficulty > hard else "medium"


def analyse_deal(seed: int, rules: frozenset[int]) -> DealStats:
    """Perfect play of ``seed``'s stack with the fast tracer (spec section 5)."""
    compiled, base = _compiled()
    order = permutation(seed, len(base) - 1)
    stack = [base[0], *(base[1 + k] for k in order)]
    return analyse_stack(compiled, stack, rules, seed)


def analyse_stack(
    compiled: CompiledTileSet, stack: Sequence[int], rules: frozenset[int], seed: int = -1
) -> DealStats:
    """Perfect play of a stack of tile indices (START first)."""
    mask = tracing_mask(rules)
    lengths: list[int] = []
    reasons: list[str | None] = []
    revisits = 0
    start = 0
    movement = 0
    while start < len(stack):
        arrows: list[int] = []
        lost_at, code, cells, movement = trace_indices(
            compiled, stack[start:], None, mask, movement, arrows)
        length = lost_at or len(stack) - start
        for k in range(length - 1):
            if cells[k + 1] - STEP[arrows[k + 1]] != cells[k]:
                revisits += 1
        lengths.append(length)
        reasons.append(REASONS[code])
        start += length
    return DealStats(seed, rules, tuple(lengths), tuple(reasons), revisits)


# --- aggregation -------------------------------------------------------------------------


@dataclass
class Summary:
    """Counts over many deals; :meth:`merge` adds another process's counts."""

    rules: frozenset[int]
    deals: int = 0
    dungeon_counts: Counter[int] = field(default_factory=Counter)
    lengths: Counter[int] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    rule_bites: Counter[int] = field(default_factory=Counter)
    """Deals in which the rule made at least one dungeon Lost."""
    difficulty: Counter[float] = field(default_factory=Counter)
    grades: Counter[str] = field(default_factory=Counter)
    factor_sums: dict[str, float] = field(
        default_factory=lambda: dict.fromkeys(("memory", "revisits", "path_lost", "rule_lost"),
                                              0.0))
    revisit_deals: int = 0

    def add(self, stats: DealStats) -> None:
        self.deals += 1
        self.dungeon_counts[stats.dungeons] += 1
        lengths, reasons = self.lengths, self.reasons
        for length in stats.lengths:
            lengths[length] += 1
        for reason in stats.reasons:
            reasons["held" if reason is None else reason] += 1
        if self.rules:
            self.rule_bites.update({RULE_OF_REASON[r] for r in stats.reasons
                                    if r in RULE_OF_REASON})
        factors = stats.factors
        score = factors.score
        self.difficulty[score] += 1
        self.grades[grade_of(score, self.rules)] += 1
        sums = self.factor_sums
        sums["memory"] += factors.memory
        sums["revisits"] += factors.revisits
        sums["path_lost"] += factors.path_lost
        sums["rule_lost"] += factors.rule_lost
        self.revisit_deals += stats.revisits > 0

    def merge(self, other: Summary) -> None:
        self.deals += other.deals
        for mine, theirs in ((self.dungeon_counts, other.dungeon_counts),
                             (self.lengths, other.lengths), (self.reasons, other.reasons),
                             (self.rule_bites, other.rule_bites),
                             (self.difficulty, other.difficulty), (self.grades, other.grades)):
            mine.update(theirs)  # type: ignore[arg-type]
        for name, value in other.factor_sums.items():
            self.factor_sums[name] += value
        self.revisit_deals += other.revisit_deals

    def percentile(self, q: float) -> float:
        """The difficulty at quantile ``q`` (0-1), nearest rank."""
        rank = max(1, math.ceil(q * self.deals))
        seen = 0
        for value in sorted(self.difficulty):
            seen += self.difficulty[value]
            if seen >= rank:
                return value
        return math.nan

    def mean(self, counter: Counter[int]) -> float:
        total = sum(counter.values())
        return sum(k * v for k, v in counter.items()) / total if total else math.nan

    def to_dict(self) -> dict[str, Any]:
        d = max(self.deals, 1)
        return {
            "deals": self.deals,
            "rules": sorted(self.rules),
            "dungeons": {str(k): v for k, v in sorted(self.dungeon_counts.items())},
            "dungeons_mean": self.mean(self.dungeon_counts),
            "lengths": {str(k): v for k, v in sorted(self.lengths.items())},
            "length_mean": self.mean(self.lengths),
            "reasons": dict(self.reasons.most_common()),
            "rule_bites": {f"#{r}": self.rule_bites[r] / d for r in sorted(self.rules)},
            "difficulty": {
                "mean": sum(k * v for k, v in self.difficulty.items()) / d,
                "p33": self.percentile(1 / 3), "p50": self.percentile(0.5),
                "p67": self.percentile(2 / 3),
                "thresholds": list(DIFFICULTY_THRESHOLDS[self.rules]),
                "grades": {g: self.grades[g] for g in GRADES},
                "factor_means": {k: v / d for k, v in sorted(self.factor_sums.items())},
                "weights": {"memory": W_MEMORY, "revisits": W_REVISIT,
                            "path_lost": W_PATH_LOST, "rule_lost": W_RULE_LOST},
            },
        }


@dataclass(frozen=True)
class Constraints:
    """What ``pathcheck solo new`` asks of a deal's answer key (None / empty: anything).

    >>> Constraints(min_dungeons=3).fits(analyse_deal(0, frozenset()))
    True
    """

    min_dungeons: int | None = None
    max_dungeons: int | None = None
    lost_by: frozenset[str] = frozenset()
    grade: str | None = None

    @property
    def any(self) -> bool:
        return self != Constraints()

    def fits(self, stats: DealStats) -> bool:
        return ((self.min_dungeons is None or stats.dungeons >= self.min_dungeons)
                and (self.max_dungeons is None or stats.dungeons <= self.max_dungeons)
                and all(r in stats.reasons for r in self.lost_by)
                and (self.grade is None or stats.grade == self.grade))
