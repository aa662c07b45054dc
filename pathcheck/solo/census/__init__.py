"""The census of solo seeds: every challenge of a seed range analysed, in chunks, on a Dask
cluster or local processes, resumable and exactly mergeable (docs/seeds.md, "The census").

- :mod:`pathcheck.solo.census.chunk`: the analysis of one chunk (:class:`ChunkResult`).
- :mod:`pathcheck.solo.census.store`: the census directory (manifest and chunk files).
- :mod:`pathcheck.solo.census.run`: running the missing chunks (Dask or local processes).
- :mod:`pathcheck.solo.census.report`: the merged result, as ``solo stats`` reports it, and the
  extremes (:class:`Census`).
"""

from __future__ import annotations

from pathcheck.solo.census.chunk import ChunkResult, Limits, Seed, analyse_chunk
from pathcheck.solo.census.report import Census, CensusMismatch
from pathcheck.solo.census.run import RunInfo, dask_available, run_census
from pathcheck.solo.census.store import CensusDir, CensusError, Plan

__all__ = [
    "Census",
    "CensusDir",
    "CensusError",
    "CensusMismatch",
    "ChunkResult",
    "Limits",
    "Plan",
    "RunInfo",
    "Seed",
    "analyse_chunk",
    "dask_available",
    "run_census",
]
