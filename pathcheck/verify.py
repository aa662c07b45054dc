"""Verifying records: trace, check, and a plain result value (spec section 6 "Results").

>>> from pathcheck.inputs.records import parse_dgn_line
>>> rec = parse_dgn_line("START@N R1@N R2@E !Ann R3@S I4@W !Bob", source="-", line=1)
>>> v = verify_record(rec)
>>> v.trace.lost_at, dict(v.check.points)
(None, {'Ann': 0, 'Bob': 0})
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pathcheck.errors import IOFailure, RecordError
from pathcheck.inputs.records import DungeonRecord, Record, SoloRecord
from pathcheck.solo.play import SoloResult, check_solo
from pathcheck.tracer.check import CheckResult, score_lost_cards
from pathcheck.tracer.dungeon import TraceResult, trace


@dataclass(frozen=True)
class DungeonVerdict:
    """The verdict on one dungeon record: its trace and, with LOST cards or players, the check."""

    record: DungeonRecord
    trace: TraceResult
    check: CheckResult | None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "source": self.record.source,
            "line": self.record.line,
            "kind": "dungeon",
        }
        if self.record.pointer:
            out["pointer"] = self.record.pointer
        out.update(self.trace.to_dict())
        rule = self.trace.rule
        out["rule"] = None if rule is None else {"section": rule.section, "quote": rule.quote}
        if self.check is not None:
            out["points"] = dict(self.check.points)
            out["outcomes"] = [o.to_dict() for o in self.check.outcomes]
        return out


@dataclass(frozen=True)
class SoloVerdict:
    """The verdict on a solo record: each dungeon's trace and the solo check."""

    record: SoloRecord
    result: SoloResult

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"source": self.record.source, "line": self.record.line,
                               "kind": "solo"}
        if self.record.pointer:
            out["pointer"] = self.record.pointer
        out.update(self.result.to_dict())
        return out


Verdict = DungeonVerdict | SoloVerdict


def verify_record(record: Record, *, with_passes: bool = False) -> Verdict:
    """Trace a record and, where it names LOST cards or players, score its check.

    ``with_passes`` keeps the path taken in the traces, for drawing.
    """
    if isinstance(record, SoloRecord):
        return SoloVerdict(record, check_solo(record.dungeons, rules=record.rules,
                                              tileset=record.tileset, with_passes=with_passes))
    result = trace(record.tiles, tileset=record.tileset, rules=record.rules,
                   with_passes=with_passes)
    check = None
    if record.lost or record.players is not None:
        check = score_lost_cards(result.lost_at, record.lost, record.players)
    return DungeonVerdict(record, result, check)


def error_dict(error: RecordError) -> dict[str, Any]:
    """An invalid record as a JSON result line (so jsonl output keeps one line per record)."""
    return {"source": error.source, "line": error.line, "kind": "invalid",
            "pointer": error.pointer, "error": error.message}


def unreadable_dict(error: IOFailure) -> dict[str, Any]:
    """A file that cannot be read as a JSON result line, in its place in the output."""
    return {"source": str(error).split(": ", 1)[0], "line": None, "kind": "unreadable",
            "error": str(error)}
