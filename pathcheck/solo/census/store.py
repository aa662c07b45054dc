"""A census directory: its manifest and one compressed JSON file per finished chunk.

::

    CENSUS_DIR/census.json                    what is counted (rules, range, chunk size, limits)
    CENSUS_DIR/chunks/<start>-<stop>.json.gz  one ChunkResult, written atomically when done

A chunk file exists only once its chunk is complete (temporary file, fsync, rename), so the
chunks present are exactly the work done, and running the census again does the rest.

>>> import tempfile
>>> plan = Plan(frozenset({2}), start=0, count=10, chunk=4)
>>> plan.chunks()
[(0, 4), (4, 8), (8, 10)]
>>> folder = CensusDir(tempfile.mkdtemp())
>>> folder.open(plan).plan == plan
True
>>> folder.done()
set()
"""

from __future__ import annotations

import gzip
import json
import os
import re
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from pathcheck.errors import InputError, IOFailure
from pathcheck.output import write_atomic
from pathcheck.reading.bounded import UnfitFile, gunzip, read_regular
from pathcheck.solo.census.chunk import ChunkResult, Limits
from pathcheck.solo.census.files import (
    FORMAT,
    MANIFEST_BYTES,
    MAX_CHUNKS,
    ChunkEntry,
    Damage,
    PlanEntry,
    chunk_limit,
    decode,
)
from pathcheck.solo.seed_codes import SEED_LIMIT

MANIFEST = "census.json"
CHUNKS = "chunks"
_CHUNK_NAME = re.compile(r"[0-9]{11}-[0-9]{11}\.json\.gz")


class CensusError(InputError):
    """A census directory that cannot be used (another census, a damaged chunk file ...)."""


@dataclass(frozen=True)
class Plan:
    """What a census counts: seeds ``start .. start+count-1`` under ``rules``, in chunks of
    ``chunk`` seeds, keeping ``limits`` of each chunk's seeds."""

    rules: frozenset[int]
    start: int = 0
    count: int = SEED_LIMIT
    chunk: int = 1 << 20
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        if not (self.start >= 0 and self.count >= 1 and self.start + self.count <= SEED_LIMIT):
            raise CensusError(f"seeds {self.start}..{self.start + self.count - 1} are not "
                              f"within 0..{SEED_LIMIT - 1}")
        if self.chunk < 1 or self.limits.top < 1 or self.limits.rare < 1:
            raise CensusError("the chunk size, --top and --rare-dungeons must be at least 1")
        chunks = -(-self.count // self.chunk)
        if chunks > MAX_CHUNKS:
            raise CensusError(f"{self.count:,} seeds in chunks of {self.chunk:,} make "
                              f"{chunks:,} chunks, more than the limit of {MAX_CHUNKS:,} "
                              f"(see Limits in docs/cli.md): use chunks of at least "
                              f"{-(-self.count // MAX_CHUNKS):,} seeds")

    def chunks(self) -> list[tuple[int, int]]:
        end = self.start + self.count
        return [(s, min(s + self.chunk, end)) for s in range(self.start, end, self.chunk)]

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "rules": sorted(self.rules), "start": self.start,
                "count": self.count, "chunk": self.chunk, **asdict(self.limits)}

    @classmethod
    def from_entry(cls, entry: PlanEntry) -> Plan:
        """The plan a decoded ``census.json`` holds; CensusError for one out of range."""
        return cls(frozenset(entry.rules), entry.start, entry.count, entry.chunk,
                   Limits(entry.top, entry.rare))


class CensusDir:
    """The files of one census (see the module doc)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._plan: Plan | None = None

    @property
    def manifest(self) -> Path:
        return self.path / MANIFEST

    @property
    def plan(self) -> Plan:
        """The census's plan, read from its manifest (CensusError if there is none)."""
        if self._plan is None:
            self._plan = self.read_plan()
        return self._plan

    def exists(self) -> bool:
        return os.path.lexists(self.manifest)

    def read_plan(self) -> Plan:
        manifest = self.manifest
        try:
            data = read_regular(manifest, MANIFEST_BYTES)
        except FileNotFoundError:
            if not self.path.is_dir():
                raise IOFailure(f"{self.path}: no such census directory") from None
            raise CensusError(f"{self.path}: not a census directory (no {MANIFEST}); "
                              "make one with: pathcheck solo census --out DIR") from None
        except UnfitFile as exc:
            raise CensusError(f"{manifest}: damaged census manifest: {exc.reason}") from None
        except OSError as exc:
            raise IOFailure(f"{manifest}: cannot read: {exc.strerror or exc}") from exc
        try:
            return Plan.from_entry(decode(data, PlanEntry))
        except (Damage, CensusError) as exc:
            raise CensusError(f"{manifest}: not a pathcheck census manifest: {exc}") from None

    def open(self, plan: Plan) -> CensusDir:
        """Take up a census of ``plan`` here, or continue the same one; CensusError when the
        directory holds another census (it is never overwritten). Nothing is written yet:
        :meth:`commit` does that once the run really starts, so that a run that never starts
        fixes no plan."""
        if self.exists():
            found = self.read_plan()
            if found != plan:
                raise CensusError(f"{self.path} holds another census ({describe(found)}); "
                                  f"asked: {describe(plan)}. Use another --out directory.")
        elif self.path.exists() and (not self.path.is_dir() or any(self.path.iterdir())):
            raise CensusError(f"{self.path} exists and is not a census directory; "
                              "name a new or empty directory")
        self._plan = plan
        return self

    def commit(self) -> None:
        """Write the manifest, if it is not there yet (the census exists from now on)."""
        if not self.exists():
            write_atomic(self.manifest, json.dumps(self.plan.to_dict(), indent=2) + "\n")

    def chunk_path(self, start: int, stop: int) -> Path:
        return self.path / CHUNKS / f"{start:011d}-{stop:011d}.json.gz"

    def done(self) -> set[tuple[int, int]]:
        """The planned chunks whose files are present (one listing of the chunk folder)."""
        try:
            with os.scandir(self.path / CHUNKS) as entries:
                present = {e.name for e in entries if _CHUNK_NAME.fullmatch(e.name)}
        except FileNotFoundError:
            return set()
        except NotADirectoryError:  # not "nothing done yet": a resume could not store a chunk
            raise CensusError(f"{self.path / CHUNKS}: damaged census: not a folder (the "
                              "finished chunks are kept in one); move it away, then run the "
                              "census again") from None
        except OSError as exc:
            raise IOFailure(f"{self.path / CHUNKS}: cannot read: {exc.strerror or exc}") from exc
        return {c for c in self.plan.chunks() if self.chunk_path(*c).name in present}

    def last_write(self) -> float | None:
        """When the newest chunk file was written (seconds since the epoch; None: none)."""
        try:
            with os.scandir(self.path / CHUNKS) as entries:
                return max((e.stat(follow_symlinks=False).st_mtime for e in entries
                            if _CHUNK_NAME.fullmatch(e.name)), default=None)
        except OSError:
            return None

    def write(self, result: ChunkResult) -> None:
        """Store a finished chunk (atomically; an interruption leaves no partial file)."""
        self.commit()
        text = json.dumps(result.to_dict(), separators=(",", ":")) + "\n"
        write_atomic(self.chunk_path(result.start, result.stop),
                     gzip.compress(text.encode("utf-8"), mtime=0))

    def read(self, start: int, stop: int) -> ChunkResult:
        """A stored chunk, read as a regular file of bounded size, decompressed to at most
        what a chunk of its seeds can hold, and checked; CensusError naming what is wrong."""
        path = self.chunk_path(start, stop)
        plan = self.plan
        limit = chunk_limit(stop - start, plan.limits.top)
        try:
            result = ChunkResult.from_entry(decode(gunzip(read_regular(path, limit), limit),
                                                   ChunkEntry))
        except UnfitFile as exc:
            _damaged(path, exc.reason)
        except OSError as exc:
            raise IOFailure(f"{path}: cannot read: {exc.strerror or exc}") from exc
        except (ValueError, zlib.error) as exc:  # Damage, gunzip's ValueError
            _damaged(path, str(exc))
        if (result.start, result.stop, result.rules, result.limits) != (
                start, stop, plan.rules, plan.limits):
            raise CensusError(f"{path}: the chunk does not belong to this census")
        return result


def _damaged(path: Path, what: str) -> NoReturn:
    raise CensusError(f"{path}: damaged chunk file: {what}; delete it and run the census "
                      "again to redo that chunk")


def describe(plan: Plan) -> str:
    """``"rules #2 #3, seeds 0-999, chunks of 100"``."""
    rules = " ".join(f"#{r}" for r in sorted(plan.rules)) or "none"
    return (f"rules {rules}, seeds {plan.start:,}-{plan.start + plan.count - 1:,}, chunks of "
            f"{plan.chunk:,}, top {plan.limits.top}, rare {plan.limits.rare}+ dungeons")
