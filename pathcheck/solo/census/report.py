"""What a census found: the merged chunks as ``solo stats`` figures, the extremes, and picking
seeds from them for ``solo new --census``.

:meth:`Census.summary` is the :class:`~pathcheck.solo.stats.Summary` ``solo stats`` computes
for the same seeds (histograms exactly equal; the factor means are exact sums divided once),
so :meth:`Census.to_dict` has the fields of ``solo stats --format json`` plus ``extremes``
and ``census``.

>>> import tempfile
>>> from pathcheck.solo.census import CensusDir, Plan, run_census
>>> folder = CensusDir(tempfile.mkdtemp()).open(Plan(frozenset(), start=0, count=300, chunk=100))
>>> run_census(folder, jobs=1, use_dask=False).chunks
3
>>> census = Census.load(folder)
>>> census.complete, census.summary().deals, census.extremes()["hardest"][0].seed
(True, 300, 138)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from pathcheck.errors import ExitCode
from pathcheck.solo.census.chunk import ORDERS, ChunkResult, Seed, merge_all
from pathcheck.solo.census.files import TILES, RunEntry
from pathcheck.solo.census.run import read_runs
from pathcheck.solo.census.store import CensusDir, CensusError, Plan
from pathcheck.solo.deal import Constraints, DealStats, Summary, analyse_deal, grade_of
from pathcheck.solo.seed_codes import SEED_LIMIT, SeedCode

EXTREMES = (*ORDERS, "rare")
MEASURED = 1e-6
"""Seconds below this are no measurement (a rate from them would be absurd, or infinite)."""


class CensusMismatch(CensusError):
    """A census asked for something it does not cover (other rules)."""

    exit_code = ExitCode.USAGE


@dataclass(frozen=True)
class Census:
    """A census directory read back: its plan, the merged chunks and the runs so far."""

    plan: Plan
    result: ChunkResult | None
    """All stored chunks merged (None: none stored yet)."""
    chunks_done: int
    runs: tuple[RunEntry, ...] = ()
    counted: tuple[tuple[int, int], ...] = ()
    """The seed ranges of the stored chunks, ``(first, last)``, adjacent chunks joined."""

    @classmethod
    def load(cls, folder: CensusDir) -> Census:
        plan = folder.plan
        done = sorted(folder.done())
        runs = tuple(read_runs(folder))
        total = merge_all(folder.read(a, b) for a, b in done)
        counted: list[tuple[int, int]] = []
        for a, b in done:
            if counted and counted[-1][1] == a - 1:
                counted[-1] = (counted[-1][0], b - 1)
            else:
                counted.append((a, b - 1))
        return cls(plan, total, len(done), runs, tuple(counted))

    def span(self, most: int = 3) -> str:
        """The counted seeds in words: ``"0-99,999"``, ``"200-299 and 500-599"``; past
        ``most`` ranges the first ones and how many there are.

        >>> Census(Plan(frozenset()), None, 2, counted=((0, 9), (20, 29))).span()
        '0-9 and 20-29'
        """
        texts = [f"{a:,}-{b:,}" for a, b in self.counted[:most]]
        if len(self.counted) > most:
            return f"{', '.join(texts)}, ... ({len(self.counted):,} ranges)"
        if len(texts) <= 1:
            return texts[0] if texts else "none"
        return f"{', '.join(texts[:-1])} and {texts[-1]}"

    @property
    def complete(self) -> bool:
        return self.chunks_done == len(self.plan.chunks())

    @property
    def deals(self) -> int:
        return 0 if self.result is None else self.result.deals

    def summary(self) -> Summary:
        """The statistics of the counted seeds, as ``solo stats`` reports them."""
        rules = self.plan.rules
        summary = Summary(rules)
        r = self.result
        if r is None:
            return summary
        summary.deals = r.deals
        summary.dungeon_counts = Counter(r.dungeons)
        summary.lengths = Counter(r.lengths)
        summary.reasons = Counter(r.reasons)
        summary.rule_bites = Counter(r.bites)
        summary.difficulty = Counter(r.difficulty)
        for score, n in r.difficulty.items():
            summary.grades[grade_of(score, rules)] += n
        summary.factor_sums = {"memory": r.totals["sumsq"] / TILES,
                               "revisits": float(r.totals["revisits"]),
                               "path_lost": float(r.totals["path_lost"]),
                               "rule_lost": float(r.totals["rule_lost"])}
        summary.revisit_deals = r.totals["revisit_deals"]
        return summary

    def extremes(self) -> dict[str, tuple[Seed, ...]]:
        r = self.result
        return {name: () if r is None else getattr(r, name) for name in EXTREMES}

    @property
    def busy_seconds(self) -> float:
        """Worker seconds spent on the stored chunks."""
        return 0.0 if self.result is None else self.result.seconds

    @property
    def rate(self) -> float | None:
        """Seeds per second of one core: per CPU second of the analysing threads (per worker
        second for chunks stored without CPU times)."""
        if self.result is None:
            return None
        seconds = self.result.cpu or self.result.seconds
        return self.deals / seconds if seconds >= MEASURED else None

    def to_dict(self) -> dict[str, Any]:
        """The fields of ``solo stats --format json`` (``seconds``: the runs' wall time,
        ``jobs``: the most workers a run had), then ``extremes`` and ``census``."""
        plan = self.plan
        rules = plan.rules
        extremes = {name: [seed_dict(s, rules) for s in seeds]
                    for name, seeds in self.extremes().items()}
        busy, rate = self.busy_seconds, self.rate
        return {
            "start": plan.start,
            "jobs": max((run.workers for run in self.runs), default=0),
            "seconds": round(sum(run.seconds for run in self.runs), 3),
            **self.summary().to_dict(),
            "extremes": extremes,
            "census": {
                **{k: v for k, v in plan.to_dict().items() if k != "rules"},
                "chunks": len(plan.chunks()), "chunks_done": self.chunks_done,
                "complete": self.complete, "seeds_counted": [list(r) for r in self.counted],
                "runs": len(self.runs),
                "runs_unfinished": sum(run.outcome != "complete" for run in self.runs),
                "busy_seconds": round(busy, 3),
                "cpu_seconds": round(0.0 if self.result is None else self.result.cpu, 3),
                "seeds_per_core_second": None if rate is None else round(rate),
            },
        }

    # --- solo new --census ---------------------------------------------------------------

    def pick(self, rules: frozenset[int], wanted: Constraints, count: int,
             first: int) -> tuple[list[DealStats], bool]:
        """The first ``count`` recorded seeds from ``first`` on (in seed order, wrapping)
        that fit ``wanted``, and whether the census records *every* fitting seed of its range
        (then finding fewer means there are no more).

        The census keeps the extremes and every seed with ``limits.rare``+ dungeons, so it
        is exhaustive for a ``--min-dungeons`` at or past that, or past the ``top`` most
        dungeons it kept (and likewise ``--max-dungeons`` with the fewest).
        """
        if rules != self.plan.rules:
            have = " ".join(f"#{r}" for r in sorted(self.plan.rules)) or "none"
            asked = " ".join(f"#{r}" for r in sorted(rules)) or "none"
            raise CensusMismatch(f"the census counts rules {have}, not {asked}: run a census "
                                 "of those rules or search without --census")
        candidates = sorted({s.seed for seeds in self.extremes().values() for s in seeds},
                            key=lambda seed: (seed - first) % SEED_LIMIT)
        found = []
        for seed in candidates:
            stats = analyse_deal(seed, rules)
            if wanted.fits(stats):
                found.append(stats)
                if len(found) == count:
                    break
        return found, self._exhaustive(wanted)

    def _exhaustive(self, wanted: Constraints) -> bool:
        top = self.plan.limits.top
        ext = self.extremes()
        if wanted.min_dungeons is not None:
            most = ext["most_dungeons"]
            if (wanted.min_dungeons >= self.plan.limits.rare or len(most) < top
                    or most[-1].dungeons < wanted.min_dungeons):
                return True
        if wanted.max_dungeons is not None:
            fewest = ext["fewest_dungeons"]
            if len(fewest) < top or fewest[-1].dungeons > wanted.max_dungeons:
                return True
        return False


def seed_dict(seed: Seed, rules: frozenset[int]) -> dict[str, Any]:
    """One seed of an extreme list for JSON output: its code, dungeons, difficulty, grade."""
    return {"seed": seed.seed, "code": str(SeedCode(seed.seed, rules)),
            "dungeons": seed.dungeons, "difficulty": seed.difficulty,
            "grade": grade_of(seed.difficulty, rules)}
