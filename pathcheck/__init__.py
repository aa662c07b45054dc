"""pathcheck: replay recorded play of memory board games and rule on it.

The heart is an exact tracer for the *dungeon in memory* ("Diminuendo") game::

    >>> from pathcheck import trace_notation
    >>> result = trace_notation("START@N R1@N R2@E R3@S I4@W")
    >>> result.lost_at is None
    True
    >>> trace_notation("START@N L4@E").reason
    <LostReason.MISPLACED: 'misplaced'>

The engine never imports click and never prints; the CLI lives in :mod:`pathcheck.cli`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pathcheck import _moved

__version__ = "0.1.0"

_moved.install()  # the module paths before the move into wings keep importing (deprecated)

if TYPE_CHECKING:
    from pathcheck.tracer.dungeon import LostReason, TraceResult, trace, trace_notation

__all__ = ["LostReason", "TraceResult", "__version__", "trace", "trace_notation"]


def __getattr__(name: str) -> Any:
    # Lazy: keeps `import pathcheck` (and so `pathcheck --help`) cheap.
    if name in ("LostReason", "TraceResult", "trace", "trace_notation"):
        from pathcheck.tracer import dungeon

        return getattr(dungeon, name)
    raise AttributeError(name)
