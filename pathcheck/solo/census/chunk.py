"""One chunk of a census: the counts and the extreme seeds of a contiguous seed range.

:func:`analyse_chunk` is the unit of work a census sends to a process or a Dask worker. Its
:class:`ChunkResult` keeps exact integer counts (histograms and factor totals, no float sums)
and, for the extremes, the ``top`` hardest, easiest, most- and fewest-dungeon seeds with ties
broken by the lower seed, and *every* seed with at least ``rare`` dungeons. So chunks merge
exactly in any order (:meth:`ChunkResult.merge`), and the merge of a range's chunks is the
chunk of the whole range:

>>> whole = analyse_chunk(0, 40, frozenset(), Limits(top=3, rare=6))
>>> left = analyse_chunk(0, 17, frozenset(), Limits(top=3, rare=6))
>>> left.merge(analyse_chunk(17, 40, frozenset(), Limits(top=3, rare=6))) == whole
True
>>> whole.hardest[0].seed, whole.dungeons[3]
(20, 18)
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import msgspec

from pathcheck.solo.census.files import TILES, ChunkEntry, Damage, check_chunk
from pathcheck.solo.deal import RULE_OF_REASON, analyse_deal


class Seed(NamedTuple):
    """A seed of an extreme list: its number, answer-key dungeons and difficulty score."""

    seed: int
    dungeons: int
    difficulty: float


@dataclass(frozen=True)
class Limits:
    """What a chunk keeps of its seeds: the ``top`` of each extreme, every seed with at least
    ``rare`` dungeons."""

    top: int = 20
    rare: int = 9


# The order of each extreme list (the first ``top`` entries are kept); ties: lower seed first.
ORDERS: dict[str, Callable[[Seed], tuple[float, int]]] = {
    "hardest": lambda s: (-s.difficulty, s.seed),
    "easiest": lambda s: (s.difficulty, s.seed),
    "most_dungeons": lambda s: (-s.dungeons, s.seed),
    "fewest_dungeons": lambda s: (s.dungeons, s.seed),
}


@dataclass(frozen=True)
class ChunkResult:
    """The census of seeds ``start..stop-1`` under ``rules`` (see the module doc).

    ``totals`` holds exact sums over the deals: ``sumsq`` (squared dungeon lengths; the
    memory factor is sumsq / 38), ``revisits``, ``path_lost``, ``rule_lost`` and
    ``revisit_deals`` (deals with at least one revisit).
    """

    start: int
    stop: int
    rules: frozenset[int]
    limits: Limits
    dungeons: Counter[int] = field(default_factory=Counter)
    lengths: Counter[int] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    bites: Counter[int] = field(default_factory=Counter)
    difficulty: Counter[float] = field(default_factory=Counter)
    totals: Counter[str] = field(default_factory=Counter)
    hardest: tuple[Seed, ...] = ()
    easiest: tuple[Seed, ...] = ()
    most_dungeons: tuple[Seed, ...] = ()
    fewest_dungeons: tuple[Seed, ...] = ()
    rare: tuple[Seed, ...] = ()
    seconds: float = field(default=0.0, compare=False)
    """Time the analysis took (not part of the result: equal chunks may take other times)."""
    cpu: float = field(default=0.0, compare=False)
    """CPU time of the analysing thread: what a core does, however busy the machine is."""

    @property
    def deals(self) -> int:
        """Seeds counted (the merge of separate chunks has gaps in ``start..stop``)."""
        return sum(self.dungeons.values())

    def merge(self, other: ChunkResult) -> ChunkResult:
        """The result of both chunks' seeds (same rules and limits; ranges need not touch:
        ``start``/``stop`` become the hull)."""
        if (other.rules, other.limits) != (self.rules, self.limits):
            raise ValueError("census chunks of other rules or limits do not merge")
        kept = {name: _keep(getattr(self, name) + getattr(other, name), ORDERS[name],
                            self.limits.top) for name in ORDERS}
        return ChunkResult(
            min(self.start, other.start), max(self.stop, other.stop), self.rules, self.limits,
            self.dungeons + other.dungeons, self.lengths + other.lengths,
            self.reasons + other.reasons, self.bites + other.bites,
            self.difficulty + other.difficulty, self.totals + other.totals,
            kept["hardest"], kept["easiest"], kept["most_dungeons"], kept["fewest_dungeons"],
            tuple(sorted(self.rare + other.rare)), self.seconds + other.seconds,
            self.cpu + other.cpu)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; :meth:`from_dict` reads it back exactly (floats round-trip)."""
        return {
            "start": self.start, "stop": self.stop, "rules": sorted(self.rules),
            "top": self.limits.top, "rare_dungeons": self.limits.rare,
            "dungeons": _pairs(self.dungeons), "lengths": _pairs(self.lengths),
            "reasons": dict(sorted(self.reasons.items())), "bites": _pairs(self.bites),
            "difficulty": _pairs(self.difficulty), "totals": dict(sorted(self.totals.items())),
            **{name: [list(s) for s in getattr(self, name)] for name in (*ORDERS, "rare")},
            "seconds": round(self.seconds, 4), "cpu": round(self.cpu, 4),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChunkResult:
        """:class:`~pathcheck.solo.census.files.Damage` (a ValueError) for a document that
        :meth:`to_dict` cannot have written."""
        try:
            entry = msgspec.convert(data, ChunkEntry)
        except msgspec.ValidationError as exc:
            raise Damage("", str(exc)) from None
        return cls.from_entry(entry)

    @classmethod
    def from_entry(cls, entry: ChunkEntry) -> ChunkResult:
        """The chunk a decoded chunk file holds, checked (:func:`check_chunk`) first."""
        check_chunk(entry)

        def seeds(kept: list[tuple[int, int, float]]) -> tuple[Seed, ...]:
            return tuple(Seed(*s) for s in kept)

        return cls(
            entry.start, entry.stop, frozenset(entry.rules),
            Limits(entry.top, entry.rare_dungeons), Counter(dict(entry.dungeons)),
            Counter(dict(entry.lengths)), Counter(dict(entry.reasons)),
            Counter(dict(entry.bites)), Counter(dict(entry.difficulty)),
            Counter(dict(entry.totals)), seeds(entry.hardest), seeds(entry.easiest),
            seeds(entry.most_dungeons), seeds(entry.fewest_dungeons), seeds(entry.rare),
            entry.seconds, entry.cpu,
        )


def merge_all(results: Iterable[ChunkResult]) -> ChunkResult | None:
    """:meth:`ChunkResult.merge` of many chunks at once (None for none), in time linear in
    their size: the rare seeds of the whole space may be hundreds of thousands.

    >>> parts = [analyse_chunk(a, a + 10, frozenset(), Limits(3, 5)) for a in (0, 10, 20)]
    >>> merge_all(parts) == parts[0].merge(parts[1]).merge(parts[2])
    True
    """
    total: ChunkResult | None = None
    rare: list[Seed] = []
    for result in results:
        part = replace(result, rare=())
        total = part if total is None else total.merge(part)
        rare += result.rare
    return None if total is None else replace(total, rare=tuple(sorted(rare)))


def _pairs(counter: Counter[Any]) -> list[list[Any]]:
    return [[k, n] for k, n in sorted(counter.items())]


def _keep(seeds: Iterable[Seed], order: Callable[[Seed], tuple[float, int]],
          top: int) -> tuple[Seed, ...]:
    return tuple(sorted(set(seeds), key=order)[:top])


# --- analysing a chunk -------------------------------------------------------------------


def analyse_chunk(start: int, stop: int, rules: frozenset[int], limits: Limits) -> ChunkResult:
    """The census of seeds ``start..stop-1``: in C when the extension is built (the same
    kernel as ``solo stats``), else seed by seed with :func:`analyse_deal`."""
    from pathcheck.solo import kernel

    began, cpu = time.perf_counter(), time.thread_time()
    if kernel.available():
        result = _analyse_kernel(start, stop, rules, limits)
    else:
        result = analyse_chunk_python(start, stop, rules, limits)
    return replace(result, seconds=time.perf_counter() - began, cpu=time.thread_time() - cpu)


def analyse_chunk_python(start: int, stop: int, rules: frozenset[int],
                         limits: Limits) -> ChunkResult:
    """:func:`analyse_chunk` with the Python reference, one :class:`DealStats` at a time."""
    dungeons: Counter[int] = Counter()
    lengths: Counter[int] = Counter()
    reasons: Counter[str] = Counter()
    bites: Counter[int] = Counter()
    difficulty: Counter[float] = Counter()
    totals: Counter[str] = Counter()
    seeds: list[Seed] = []
    for number in range(start, stop):
        stats = analyse_deal(number, rules)
        dungeons[stats.dungeons] += 1
        lengths.update(stats.lengths)
        reasons.update("held" if r is None else r for r in stats.reasons)
        bites.update({RULE_OF_REASON[r] for r in stats.reasons if r in RULE_OF_REASON})
        factors = stats.factors
        difficulty[factors.score] += 1
        totals.update(sumsq=sum(n * n for n in stats.lengths), revisits=factors.revisits,
                      path_lost=factors.path_lost, rule_lost=factors.rule_lost,
                      revisit_deals=int(factors.revisits > 0))
        seeds.append(Seed(number, stats.dungeons, factors.score))
    kept = {name: _keep(seeds, order, limits.top) for name, order in ORDERS.items()}
    return ChunkResult(
        start, stop, rules, limits, dungeons, lengths, reasons, bites, difficulty, +totals,
        kept["hardest"], kept["easiest"], kept["most_dungeons"], kept["fewest_dungeons"],
        rare=tuple(s for s in seeds if s.dungeons >= limits.rare))


_SCORES: dict[int, float] = {}
"""The difficulty score of each deal key met (of the standard deck's TILES): a chunk's 8,000
or so keys are mostly those of the chunk before, so a census scores each once."""


def _analyse_kernel(start: int, stop: int, rules: frozenset[int],
                    limits: Limits) -> ChunkResult:
    """The C path: one kernel call (as ``kernel.summarise_range`` makes it); the
    extremes are found in its per-deal arrays."""
    from pathcheck.solo.kernel import KernelRun, factors_of
    from pathcheck.speedups import _speedups

    run = KernelRun.of(start, stop - start, rules)
    reasons, bites, shapes = run.reasons, run.rule_bites, run.shapes
    deal_keys = run.key_counts
    score: dict[int, float] = {}
    by_score: dict[float, list[int]] = {}
    difficulty: Counter[float] = Counter()
    sumsq = revisits = path_lost = rule_lost = revisit_deals = 0
    for key, n in deal_keys.items():
        value = _SCORES.get(key)
        if value is None:
            value = _SCORES[key] = factors_of(key, TILES).score
        score[key] = value
        by_score.setdefault(value, []).append(key)
        difficulty[value] += n
        sumsq += (key & 0xFFFF) * n
        seen = key >> 16 & 0xFF
        revisits += seen * n
        path_lost += (key >> 24 & 0xFF) * n
        rule_lost += (key >> 32 & 0xFF) * n
        if seen:
            revisit_deals += n
    totals = Counter(sumsq=sumsq, revisits=revisits, path_lost=path_lost, rule_lost=rule_lost,
                     revisit_deals=revisit_deals)
    dungeons = run.dungeon_counts
    per_deal = shapes[0::2]  # one byte per deal: its number of dungeons

    def seed_at(index: int) -> Seed:
        return Seed(start + index, per_deal[index], score[run.keys[index]])

    def key_deals(wanted: list[tuple[int, int]]) -> list[int]:
        # The kernel says where a key's first and last deals are: a key of one or two deals
        # needs no search; the others are searched for together, in one pass in C from the
        # first deal of any of them.
        found: list[int] = []
        search: dict[int, int] = {}
        for key, most in wanted:
            first, last = run.places(key)
            if most == 1 or deal_keys[key] == 1:
                found.append(first)
            elif deal_keys[key] == 2:
                found += [first, last]
            else:
                search[key] = max(search.get(key, 0), most)
        if search:
            begin = min(run.places(key)[0] for key in search)
            most = max(search.values())
            for key, deals in zip(search, _speedups.solo_key_deals(
                    run.key_bytes, tuple(search), most, begin), strict=True):
                found += deals[:search[key]]
        return found

    ordered = [key for value in sorted(by_score) for key in by_score[value]]
    hardest = _select(ordered[::-1], deal_keys, score.__getitem__, limits.top)
    easiest = _select(ordered, deal_keys, score.__getitem__, limits.top)
    extremes = {
        "hardest": key_deals(hardest),
        "easiest": key_deals(easiest),
        "most_dungeons": _found_dungeons(per_deal, _select(
            sorted(dungeons, reverse=True), dungeons, float, limits.top)),
        "fewest_dungeons": _found_dungeons(per_deal, _select(
            sorted(dungeons), dungeons, float, limits.top)),
    }
    rare = sorted(i for v in dungeons if v >= limits.rare
                  for i in _find(per_deal, bytes([v]), 1, dungeons[v]))
    kept = {name: _keep(map(seed_at, found), ORDERS[name], limits.top)
            for name, found in extremes.items()}
    return ChunkResult(
        start, stop, rules, limits, dungeons, run.lengths, reasons, bites,
        difficulty, +totals,
        kept["hardest"], kept["easiest"], kept["most_dungeons"], kept["fewest_dungeons"],
        rare=tuple(seed_at(i) for i in rare))


def _found_dungeons(per_deal: bytes, wanted: list[tuple[int, int]]) -> list[int]:
    return [i for value, most in wanted for i in _find(per_deal, bytes([value]), 1, most)]


def _select(values: list[int], counts: Counter[int], rank: Callable[[int], float],
            top: int) -> list[tuple[int, int]]:
    """The values, each with how many of its deals to find, that hold the first ``top``
    deals in the order of ``values`` (best first), with ties broken by the lower seed: every
    deal of a value ranked before the boundary, and the first ``top`` deals of each value
    tied with the boundary."""
    wanted: list[tuple[int, int]] = []
    taken = 0
    boundary: float | None = None
    for value in values:
        if boundary is not None and rank(value) != boundary:
            break
        wanted.append((value, min(counts[value], top)))
        taken += counts[value]
        if taken >= top and boundary is None:
            boundary = rank(value)
    return wanted


def _find(data: bytes, pattern: bytes, width: int, most: int, begin: int = 0) -> list[int]:
    """Indices of the first ``most`` items of ``width`` bytes equal to ``pattern``, from byte
    ``begin`` (an item's start) on."""
    return list(_occurrences(data, pattern, width, most, begin))


def _occurrences(data: bytes, pattern: bytes, width: int, most: int,
                 begin: int = 0) -> Iterator[int]:
    position = data.find(pattern, begin)
    while position >= 0 and most > 0:
        if position % width == 0:  # an aligned item, not bytes straddling two
            yield position // width
            most -= 1
            position = data.find(pattern, position + width)
        else:
            position = data.find(pattern, position + 1)
