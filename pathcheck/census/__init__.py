"""The census of solo seeds: every challenge of a seed range analysed, in chunks, on a Dask
cluster or local processes, resumable and exactly mergeable (docs/seeds.md, "The census").

- :mod:`pathcheck.census.chunk`: the analysis of one chunk (:class:`ChunkResult`).
- :mod:`pathcheck.census.store`: the census directory (manifest and chunk files).
- :mod:`pathcheck.census.run`: running the missing chunks (Dask or local processes).
- :mod:`pathcheck.census.report`: the merged result, as ``solo stats`` reports it, and the
  extremes (:class:`Census`).
"""

from __future__ import annotations

from pathcheck.census.chunk import ChunkResult, Limits, Seed, analyse_chunk
from pathcheck.census.report import Census, CensusMismatch
from pathcheck.census.run import RunInfo, dask_available, run_census
from pathcheck.census.store import CensusDir, CensusError, Plan

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
