"""Statistics over many solo deals, seed searches, and a record's divergence from the key.

The deal model (:class:`DealStats`, :class:`Summary`, :class:`Constraints`, ...) lives in
:mod:`pathcheck.solo.deal` and is re-exported here. :func:`summarise_range` and
:func:`search_range` use the C kernel (:mod:`pathcheck.solo.kernel`) when it is built, else
the Python references; :func:`summarise` and :func:`search` spread them over processes.

>>> summarise(0, 10, frozenset()).deals
10
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pathcheck.solo.deal import (
    DIFFICULTY_THRESHOLDS,
    GRADES,
    LOST_REASONS,
    PATH_REASONS,
    RULE_OF_REASON,
    W_MEMORY,
    W_PATH_LOST,
    W_REVISIT,
    W_RULE_LOST,
    Constraints,
    DealStats,
    Factors,
    Summary,
    analyse_deal,
    analyse_stack,
    grade_of,
)

__all__ = [
    "DIFFICULTY_THRESHOLDS", "GRADES", "LOST_REASONS", "PATH_REASONS", "RULE_OF_REASON",
    "W_MEMORY", "W_PATH_LOST", "W_REVISIT", "W_RULE_LOST", "Constraints", "DealStats",
    "Divergence", "Factors", "Summary", "analyse_deal", "analyse_stack", "chunks",
    "first_divergence", "grade_of", "search", "search_range", "search_range_python",
    "summarise", "summarise_range", "summarise_range_python",
]


def summarise_range(start: int, stop: int, rules: frozenset[int]) -> Summary:
    """Analyse seeds ``start..stop-1``: the unit of work of one process.

    Uses the C kernel (:mod:`pathcheck.solo.kernel`) when it is installed, which gives the
    same summary (floating-point sums aside) many times faster.
    """
    from pathcheck.solo import kernel

    if kernel.available():
        return kernel.summarise_range(start, stop, rules)
    return summarise_range_python(start, stop, rules)


def summarise_range_python(start: int, stop: int, rules: frozenset[int]) -> Summary:
    """:func:`summarise_range` seed by seed with :func:`analyse_deal` (the reference)."""
    summary = Summary(rules)
    for seed in range(start, stop):
        summary.add(analyse_deal(seed, rules))
    return summary


def chunks(start: int, count: int, size: int) -> list[tuple[int, int]]:
    """``[(start, stop), ...]`` covering ``count`` seeds from ``start``."""
    return [(s, min(s + size, start + count)) for s in range(start, start + count, size)]


def _bind_worker(parent: int) -> None:
    """A worker dies with the process that started it (even after ``kill -9``)."""
    from pathcheck.lifeline import bind_to_parent

    bind_to_parent(parent, ignore_interrupt=False)


def summarise(
    start: int,
    count: int,
    rules: frozenset[int],
    *,
    jobs: int = 1,
    chunk: int = 2000,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Analyse ``count`` seeds from ``start`` on ``jobs`` processes; ``progress(n)`` is called
    with the number of seeds finished after each chunk."""
    total = Summary(rules)
    parts = chunks(start, count, chunk)
    if jobs <= 1 or len(parts) == 1:
        for a, b in parts:
            total.merge(summarise_range(a, b, rules))
            if progress is not None:
                progress(b - a)
        return total
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=jobs, initializer=_bind_worker,
                             initargs=(os.getpid(),)) as pool:
        futures = {pool.submit(summarise_range, a, b, rules): b - a for a, b in parts}
        for future in as_completed(futures):
            total.merge(future.result())
            if progress is not None:
                progress(futures[future])
    return total


# --- searching seeds ---------------------------------------------------------------------


def search_range(start: int, stop: int, rules: frozenset[int], wanted: Constraints,
                 modulo: int) -> list[DealStats]:
    """The deals of seeds ``start..stop-1`` (modulo ``modulo``) that fit: one process's work.

    Uses the C kernel (:mod:`pathcheck.solo.kernel`) when it is installed.
    """
    from pathcheck.solo import kernel

    if kernel.available():
        return kernel.search_range(start, stop, rules, wanted, modulo)
    return search_range_python(start, stop, rules, wanted, modulo)


def search_range_python(start: int, stop: int, rules: frozenset[int], wanted: Constraints,
                        modulo: int) -> list[DealStats]:
    """:func:`search_range` seed by seed with :func:`analyse_deal` (the reference)."""
    found = []
    for n in range(start, stop):
        stats = analyse_deal(n % modulo, rules)
        if wanted.fits(stats):
            found.append(stats)
    return found


def search(
    first: int,
    rules: frozenset[int],
    wanted: Constraints,
    *,
    count: int,
    limit: int,
    modulo: int,
    jobs: int = 1,
    chunk: int = 2000,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[DealStats], int]:
    """The first ``count`` fitting seeds from ``first`` on (in seed order, wrapping at
    ``modulo``), trying at most ``limit``; returns them and the number of seeds tried."""
    parts = chunks(first, limit, chunk)
    found: list[DealStats] = []
    tried = 0
    if jobs <= 1 or len(parts) == 1:
        for a, b in parts:
            found += search_range(a, b, rules, wanted, modulo)
            tried += b - a
            if progress is not None:
                progress(b - a)
            if len(found) >= count:
                break
        return found[:count], tried
    from concurrent.futures import Future, ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs, initializer=_bind_worker,
                             initargs=(os.getpid(),)) as pool:
        pending: list[tuple[Future[list[DealStats]], int]] = []
        queue = iter(parts)
        for a, b in queue:  # a window of chunks in flight, consumed in seed order
            pending.append((pool.submit(search_range, a, b, rules, wanted, modulo), b - a))
            if len(pending) < 2 * jobs:
                continue
            future, size = pending.pop(0)
            found += future.result()
            tried += size
            if progress is not None:
                progress(size)
            if len(found) >= count:
                break
        for future, size in pending:
            if len(found) >= count:
                future.cancel()
                continue
            found += future.result()
            tried += size
            if progress is not None:
                progress(size)
    return found[:count], tried


# --- comparing a record with the answer key ----------------------------------------------


@dataclass(frozen=True)
class Divergence:
    """The first stack tile where a record leaves the answer key, and how.

    Directions are compared relative to the first tile of their dungeon (its arrow is free).
    ``kind`` is the solo failure it makes: ``misplaced``, ``late`` or ``premature``.
    """

    position: int
    tile: str
    kind: str
    key_dungeon: int
    key_index: int
    key_dir: str
    record_dungeon: int
    record_index: int
    record_dir: str

    def describe(self) -> str:
        where = f"stack tile {self.position} ({self.tile})"
        if self.kind == "late":
            return (f"{where}: the key starts dungeon {self.key_dungeon} with it (dungeon "
                    f"{self.key_dungeon - 1} was Lost on the tile before); the record lays it "
                    f"on dungeon {self.record_dungeon} as tile {self.record_index}")
        if self.kind == "premature":
            return (f"{where}: the record starts dungeon {self.record_dungeon} with it; the key "
                    f"lays it on dungeon {self.key_dungeon} as tile {self.key_index} (that "
                    f"dungeon is not Lost yet)")
        return (f"{where}, tile {self.key_index} of dungeon {self.key_dungeon}: the key lays "
                f"it @{self.key_dir}, the record @{self.record_dir}")

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _walk(dungeons: Sequence[Sequence[Any]]) -> list[tuple[int, int, int, int]]:
    """(dungeon, index, dir, dir relative to the dungeon's first tile) per stack tile."""
    out = []
    for number, dungeon in enumerate(dungeons, start=1):
        first = int(dungeon[0].dir) if dungeon else 0
        for index, placement in enumerate(dungeon, start=1):
            out.append((number, index, int(placement.dir), (int(placement.dir) - first) % 4))
    return out


def first_divergence(
    key: Sequence[Sequence[Any]], record: Sequence[Sequence[Any]]
) -> Divergence | None:
    """Compare placements (objects with ``tile`` and ``dir``) of the key and of a record of
    the same stack; None when the record plays the key (up to the first tiles' arrows)."""
    names = "NESW"
    tiles = [p.tile for d in key for p in d]
    for position, (k, r) in enumerate(zip(_walk(key), _walk(record), strict=False), start=1):
        if k[1] == 1 and r[1] != 1:
            kind = "late"
        elif r[1] == 1 and k[1] != 1:
            kind = "premature"
        elif k[1] != 1 and k[3] != r[3]:
            kind = "misplaced"
        else:
            continue
        key_dir = names[(k[3] + r[2] - r[3]) % 4]  # the key's arrow in the record's frame
        return Divergence(position, tiles[position - 1], kind, k[0], k[1], key_dir, r[0], r[1],
                          names[r[2]])
    return None
