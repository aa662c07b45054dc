"""The formats of a census's own files, checked before anything is trusted.

``census.json``, the chunk files and ``runs.jsonl`` are written by pathcheck, but read back
from a directory anyone may have touched: each is read as a regular file of bounded size
(:func:`pathcheck.reading.bounded.read_regular`; a chunk's decompression is bounded too),
decoded into the typed structures below (ranges included: no negative count, no infinite
difficulty, no rule the census cannot count) and then checked as a whole (a chunk's counts
add up to its seeds). What does not fit is a :class:`Damage`: the JSON pointer and what is wrong.

>>> decode(b'{"format": "pathcheck-census/1", "rules": [9], "start": 0, "count": 10,'
...        b' "chunk": 5, "top": 20, "rare": 9}', PlanEntry)
Traceback (most recent call last):
  ...
pathcheck.solo.census.files.Damage: /rules/0: 9 is not one of 2, 3, 4
>>> decode(b'{"top": 1e400}', PlanEntry).top
Traceback (most recent call last):
  ...
pathcheck.solo.census.files.Damage: /top: Number out of range
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar

import msgspec

from pathcheck.inputs.logformat import locate
from pathcheck.reading.bounded import Guard, cut, duplicate_keys, guard
from pathcheck.solo.deal import LOST_REASONS
from pathcheck.solo.seed_codes import SEED_LIMIT

FORMAT = "pathcheck-census/1"
MANIFEST_BYTES = 64 << 10
"""``census.json`` at most (it is about 150 bytes)."""
RUNS_BYTES = 4 << 20
"""``runs.jsonl`` at most (a run adds about 250 bytes: some 16,000 runs)."""
MAX_CHUNKS = 1 << 17
"""Chunks of one census at most: the whole space in chunks of 2^18 seeds (the default 2^20
makes 32,768), so listing and merging them stays quick."""
TILES = 38
"""Tiles in a solo stack: a deal has at most 38 dungeons, a dungeon at most 38 tiles."""
MAX_DIFFICULTY = 1000.0
"""Far above any difficulty score (at most about 250: every factor is bounded by the tiles)."""
SEED_BYTES = 32
"""A stored seed of an extreme list at most: ``[34359738367,38,247.5],``."""
CHUNK_OVERHEAD = 64 << 10
"""A chunk file's histograms and totals at most (they have a few hundred entries)."""
REASONS = ("held", *LOST_REASONS)
TOTALS = ("path_lost", "revisit_deals", "revisits", "rule_lost", "sumsq")

S = TypeVar("S")

Seeds = Annotated[int, msgspec.Meta(ge=0, le=SEED_LIMIT)]
Positive = Annotated[int, msgspec.Meta(ge=1, le=SEED_LIMIT)]
Count = Annotated[int, msgspec.Meta(ge=0, le=SEED_LIMIT)]
Total = Annotated[int, msgspec.Meta(ge=0, le=SEED_LIMIT * TILES * TILES)]
Dungeons = Annotated[int, msgspec.Meta(ge=0, le=TILES)]
Length = Annotated[int, msgspec.Meta(ge=1, le=TILES)]
Difficulty = Annotated[float, msgspec.Meta(ge=0, le=MAX_DIFFICULTY)]
Seconds = Annotated[float, msgspec.Meta(ge=0, le=1e9)]
Rule = Literal[2, 3, 4]
Workers = Annotated[int, msgspec.Meta(ge=0, le=1 << 20)]


class Damage(ValueError):
    """What is wrong in a census file: a JSON ``pointer`` ("" the whole file) and why."""

    def __init__(self, pointer: str, message: str) -> None:
        self.pointer, self.message = pointer, message
        super().__init__(f"{pointer or '/'}: {message}")


class PlanEntry(msgspec.Struct, forbid_unknown_fields=True):
    """``census.json``."""

    format: Literal["pathcheck-census/1"]
    rules: list[Rule]
    start: Seeds
    count: Positive
    chunk: Positive
    top: Positive
    rare: Positive


class ChunkEntry(msgspec.Struct, forbid_unknown_fields=True):
    """A chunk file (:meth:`~pathcheck.solo.census.chunk.ChunkResult.to_dict`)."""

    start: Seeds
    stop: Positive
    rules: list[Rule]
    top: Positive
    rare_dungeons: Positive
    dungeons: list[tuple[Dungeons, Count]]
    lengths: list[tuple[Length, Count]]
    reasons: dict[Literal[REASONS], Count]  # type: ignore[valid-type]
    bites: list[tuple[Rule, Count]]
    difficulty: list[tuple[Difficulty, Count]]
    totals: dict[Literal[TOTALS], Total]  # type: ignore[valid-type]
    hardest: list[tuple[Seeds, Dungeons, Difficulty]]
    easiest: list[tuple[Seeds, Dungeons, Difficulty]]
    most_dungeons: list[tuple[Seeds, Dungeons, Difficulty]]
    fewest_dungeons: list[tuple[Seeds, Dungeons, Difficulty]]
    rare: list[tuple[Seeds, Dungeons, Difficulty]]
    seconds: Seconds = 0.0
    cpu: Seconds = 0.0


Outcome = Literal["complete", "interrupted", "failed", "running"]


class RunEntry(msgspec.Struct, forbid_unknown_fields=True):
    """A line of ``runs.jsonl``: one run (``outcome`` "running": a run that has not ended, or
    was killed without a chance to say so; its last line wins, see ``run``)."""

    backend: Literal["dask", "processes", "none"]
    workers: Workers
    chunks: Count
    seeds: Count
    skipped: Count
    seconds: Seconds
    busy: Seconds
    cpu: Seconds
    outcome: Outcome = "complete"
    run: Annotated[str, msgspec.Meta(max_length=64)] = ""
    """Which run a line is about (a start line and an end line share it)."""
    started: Annotated[float, msgspec.Meta(ge=0, le=1e11)] = 0.0
    """When the run began (seconds since the epoch)."""


def decode(data: bytes, struct: type[S]) -> S:
    """The JSON text ``data`` as ``struct``; :class:`Damage` naming where it does not fit:
    bytes that are not UTF-8 and a key given twice (which msgspec would let the last one
    win) are damage too, named as such.

    >>> decode(b'{"top": 1, "top": 2}', PlanEntry)
    Traceback (most recent call last):
      ...
    pathcheck.solo.census.files.Damage: /top: the key 'top' is given twice
    """
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as bad:
        line = data.count(b"\n", 0, bad.start) + 1
        where = f", line {line}" if b"\n" in data else ""
        raise Damage("", f"not JSON: not UTF-8 text (byte {bad.start}{where})") from None
    # too deep to look for keys given twice: the types say what is wrong with it, below
    twice = duplicate_keys(data) if guard(data) is Guard.MAY_REPEAT else []
    if twice:
        key = twice[0].rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
        raise Damage(twice[0], f"the key {cut(key)} is given twice")
    try:
        value: S = msgspec.json.decode(data, type=struct)
        return value
    except msgspec.ValidationError as exc:
        raise _locate(data, struct, str(exc)) from None
    except msgspec.DecodeError as exc:
        raise Damage("", f"not JSON ({exc})") from None
    except RecursionError:
        raise Damage("", "not JSON of this kind: arrays nested too deep") from None


def _locate(data: bytes, struct: type[Any], error: str) -> Damage:
    """Where msgspec's validation ``error`` is, as a JSON pointer (see logformat.locate; the
    text is decoded again only to name a key of an object, and may not decode: 1e400)."""
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        value = None
    try:
        pointer, message = locate(value, struct, error)
    except (LookupError, TypeError):  # a key that cannot be found again: msgspec's words
        message, _, path = error.partition(" - at ")
        return Damage("", f"{message} at {path}" if path else message)
    return Damage(pointer, message)


def chunk_limit(seeds: int, top: int) -> int:
    """The bytes a chunk file of ``seeds`` seeds keeping ``top`` extremes can decompress to:
    its histograms, four extreme lists and the rare seeds (at most every seed)."""
    return CHUNK_OVERHEAD + SEED_BYTES * (4 * min(top, seeds) + seeds)


def check_chunk(entry: ChunkEntry) -> None:
    """What the types cannot say: the counts of a chunk add up to its seeds, and its extreme
    seeds lie in its range (so a damaged chunk never makes a census count wrong)."""
    seeds = entry.stop - entry.start
    if seeds < 1:
        raise Damage("/stop", f"the chunk ends ({entry.stop}) before it starts ({entry.start})")
    for name in ("dungeons", "lengths", "bites", "difficulty"):
        _once([key for key, _ in getattr(entry, name)], f"/{name}")
    _sums_to(entry.dungeons, seeds, "/dungeons", "deals")
    _sums_to(entry.difficulty, seeds, "/difficulty", "deals")
    dungeons = sum(k * n for k, n in entry.dungeons)
    _sums_to(entry.lengths, dungeons, "/lengths", "dungeons")
    _sums_to(list(entry.reasons.items()), dungeons, "/reasons", "dungeons")
    for index, (rule, n) in enumerate(entry.bites):
        if rule not in entry.rules or n > seeds:
            raise Damage(f"/bites/{index}", f"rule #{rule} biting {n:,} of {seeds:,} deals "
                         f"under rules {sorted(entry.rules)}")
    if entry.totals.get("revisit_deals", 0) > seeds:
        raise Damage("/totals/revisit_deals", f"more than the chunk's {seeds:,} deals")
    for name in ("hardest", "easiest", "most_dungeons", "fewest_dungeons", "rare"):
        kept = getattr(entry, name)
        most = seeds if name == "rare" else min(entry.top, seeds)
        if len(kept) > most:
            raise Damage(f"/{name}", f"{len(kept):,} seeds, more than the {most:,} kept")
        _once([seed for seed, _, _ in kept], f"/{name}")
        for index, (seed, held, _) in enumerate(kept):
            if not entry.start <= seed < entry.stop:
                raise Damage(f"/{name}/{index}/0", f"seed {seed} is outside the chunk's seeds "
                             f"{entry.start}-{entry.stop - 1}")
            if name == "rare" and held < entry.rare_dungeons:
                raise Damage(f"/{name}/{index}/1", f"{held} dungeons, fewer than the "
                             f"{entry.rare_dungeons} of a rare seed")
    rare = sum(n for k, n in entry.dungeons if k >= entry.rare_dungeons)
    if len(entry.rare) != rare:
        raise Damage("/rare", f"{len(entry.rare):,} seeds, but {rare:,} deals of the chunk "
                     f"have {entry.rare_dungeons}+ dungeons")


def _once(keys: list[Any], pointer: str) -> None:
    seen: set[Any] = set()
    for index, key in enumerate(keys):
        if key in seen:
            raise Damage(f"{pointer}/{index}", f"{key!r} is given twice")
        seen.add(key)


def _sums_to(pairs: list[tuple[Any, int]], total: int, pointer: str, what: str) -> None:
    found = sum(n for _, n in pairs)
    if found != total:
        raise Damage(pointer, f"counts {found:,} {what}, not the chunk's {total:,}")
