"""Analysing many logs as a stream: the items of ``adjudicate``'s reader
(:func:`pathcheck.batch.logs.process_logs`), each analysed and rendered in a worker or here,
in input order, one line of error per bad log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import msgspec

from pathcheck import games
from pathcheck.analysis import analyse, analyse_decoded
from pathcheck.analysis.core import GameAnalysis
from pathcheck.batch.logs import failure_line, format_of, invalid_entry, unreadable_entry
from pathcheck.errors import InputError, IOFailure, PathcheckError, RecordError
from pathcheck.inputs.items import ERROR, JSON_LINE, Item, located, log_value
from pathcheck.reading.bounded import Guard, guard


@dataclass(frozen=True)
class AnalyseSettings:
    """The GAME named on the command line (None: the log's ``format`` decides), the output
    format (``none``: not rendered, the caller only keeps the values) and whether to hand
    back each analysis (the tournament table and the replay page need them)."""

    game: str | None = None
    output: str = "text"
    keep: bool = False
    keep_logs: bool = False
    """Hand back each decoded log too (the replay page draws it)."""


class Analysed(NamedTuple):
    """One log analysed and rendered, or the one-line error that stopped it."""

    status: str
    """``analysed``, ``invalid`` (exit 3) or ``unreadable`` (a whole file, exit 4)."""
    text: bytes
    error: str
    line: int
    size: int
    analysis: GameAnalysis | None = None
    log: dict[str, object] | None = None
    """The decoded log, when kept (the replay page draws it)."""
    written: bool = False
    """The text was written to the output already (``text`` is then b"";
    :mod:`pathcheck.batch.baton`)."""


def analyse_item(item: Item, settings: AnalyseSettings) -> Analysed:
    """One item analysed and rendered; every error is caught and worded in one line."""
    if isinstance(item.payload, IOFailure):
        text = b"" if settings.output == "none" else unreadable_entry(item.payload,
                                                                      settings.output)
        return Analysed("unreadable", text, f"pathcheck: error: {item.payload}", 0, 0)
    if item.kind == ERROR and isinstance(item.payload, RecordError | InputError):
        return _invalid(item, item.payload, f"pathcheck: invalid: {item.payload}", settings)
    source = item.source if not item.pointer else f"{item.source}#{item.pointer}"
    try:
        formats = None if settings.game is None else games.load(settings.game).formats
        checked = None
        if item.kind == JSON_LINE:
            checked = guard(item.payload.rstrip(b"\r\n"))  # once, for both reads
        result = None
        for_json = settings.output in ("json", "jsonl") and not settings.keep
        if checked is Guard.CLEAR and not settings.keep_logs:
            result = _typed(item, source, formats, for_json=for_json)
        value = None
        if result is None:
            value = log_value(item, checked)
            try:
                result = analyse(value, source=source, formats=formats, for_json=for_json)
            except RecordError as exc:
                raise located(exc, item) from exc
    except PathcheckError as exc:
        return _invalid(item, exc, failure_line(item, exc), settings)
    result = msgspec.structs.replace(result, line=item.line or None)
    return Analysed("analysed", render(result, settings.output), "", item.line, item.size,
                    result if settings.keep else None, value if settings.keep_logs else None)


def _invalid(item: Item, exc: PathcheckError, message: str,
             settings: AnalyseSettings) -> Analysed:
    """A log that could not be analysed: its line for stderr, and in JSON output the
    ``"kind": "invalid"`` entry in its place, as ``adjudicate`` writes (output line N stays
    input log N)."""
    text = b"" if settings.output == "none" else invalid_entry(item, exc, settings.output)
    return Analysed("invalid", text, message, item.line, item.size)


def _typed(item: Item, source: str, formats: tuple[str, ...] | None, *,
           for_json: bool) -> GameAnalysis | None:
    """A JSON line (passed by the reader's guard) read straight into its game's typed
    values, as ``adjudicate`` reads it (:func:`pathcheck.analysis.analyse_decoded`; with
    ``for_json``, as an analysis only to be encoded); None: the usual way reads it."""
    raw = item.payload.rstrip(b"\r\n")
    try:
        fmt = format_of(raw)
        if not isinstance(fmt, str):
            return None
        return analyse_decoded(raw, fmt, source=source, formats=formats, for_json=for_json)
    except (msgspec.DecodeError, UnicodeDecodeError, PathcheckError):
        return None  # the usual way words it


def render(analysis: GameAnalysis, output: str) -> bytes:
    """An analysis as text, as an indented element of the ``json`` array, or as one line."""
    if output == "none":
        return b""
    if output == "text":
        from pathcheck.analysis.report import render_analysis

        return render_analysis(analysis).encode("utf-8")
    encoded = analysis.to_json()
    if output == "json":
        return b"  " + msgspec.json.format(encoded, indent=2).replace(b"\n", b"\n  ")
    return encoded
