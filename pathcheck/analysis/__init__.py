"""Puzzle analysis: each move of a log against a perfect memory of what the mover had seen.

One module per game (``dungeon``, ``dungeon_solo``, ``memoarrr``, ``memo_dice``,
``robot_memory``), each ``analyse(log, *, source) -> GameAnalysis`` built on the game's own
log reader and replay; ``core`` holds the shared values (``Mark``, ``AnalysedMove``,
``PlayerSummary``, ``GameAnalysis``), ``positions`` the dungeon positions
(``pathcheck analyse --position``), ``table`` the tournament table (``--by-player``). See
docs/analysis.md.

>>> import random
>>> from pathcheck.games.memo_dice.gen import random_game
>>> analyse(random_game(random.Random(1), players=2), source="demo").format
'memo-dice/1'
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Mapping
from typing import Any

from pathcheck.analysis.core import GameAnalysis
from pathcheck.errors import RecordError

ANALYSERS: dict[str, str] = {
    "game/1": "pathcheck.analysis.dungeon",
    "solo/1": "pathcheck.analysis.dungeon_solo",
    "memoarrr/1": "pathcheck.analysis.memoarrr",
    "memo-dice/1": "pathcheck.analysis.memo_dice",
    "robot-memory/1": "pathcheck.analysis.robot_memory",
}
"""Log format -> the module that analyses it (imported when a log of it comes)."""


def analyse(log: Mapping[str, Any], *, source: str,
            formats: tuple[str, ...] | None = None, for_json: bool = False) -> GameAnalysis:
    """The analysis of one decoded log, by its ``format`` (only among ``formats`` when a
    game was named); RecordError naming ``/format`` for a log no analysis reads, or any
    error of the game's reader. ``for_json``: as :func:`analyse_decoded`'s."""
    fmt = log.get("format")
    if not isinstance(fmt, str):
        raise RecordError(source, None, "/format",
                          "missing \"format\" (e.g. \"game/1\"): the analysis needs it")
    if formats is not None and fmt not in formats:
        raise RecordError(source, None, "/format",
                          f"format {fmt[:40]!r} is not the named game's (it reads "
                          f"{', '.join(formats)})")
    if fmt not in ANALYSERS:
        from pathcheck.reading.meant_for import format_advice

        advice = format_advice(fmt)
        raise RecordError(source, None, "/format",
                          f"no analysis reads format {fmt[:40]!r}"
                          + (f": {advice}" if advice else
                             f" (there is one for {', '.join(ANALYSERS)})"))
    module = importlib.import_module(ANALYSERS[fmt])
    if for_json and _takes_for_json(module.analyse):
        encoded: GameAnalysis = module.analyse(log, source=source, for_json=True)
        return encoded
    result: GameAnalysis = module.analyse(log, source=source)
    return result


@functools.cache
def _takes_for_json(function: Any) -> bool:
    """Whether an analysing function takes ``for_json`` (asked once a function)."""
    return "for_json" in inspect.signature(function).parameters


_MISSING = object()
_analyse_read: dict[str, Any] = {}
"""Per format: its module's ``analyse_entry`` (the analysis of the typed log, as the game's
LogFormat decodes it), ``analyse_read`` (of the log as the game's reader reads it) and
``analyse_raw`` (of the JSON text), each None where it has none, looked up once (a batch asks
at every log)."""


def analyse_decoded(raw: bytes, fmt: str, *, source: str,
                    formats: tuple[str, ...] | None = None,
                    for_json: bool = False) -> GameAnalysis | None:
    """The analysis of a log given as its JSON text (passed by the reader's guard), read
    straight into its game's typed values as ``adjudicate`` reads it
    (:attr:`pathcheck.games.GameAdjudicator.typed_readers`), for the games whose analysis
    takes a log so read (``analyse_read``); None when that does not apply or the text does
    not fit the format: :func:`analyse` then reads it the usual way, which gives the same
    analysis or words the error.

    ``for_json``: the analysis will only be encoded (its ``to_json``), so a game whose
    ``analyse_entry`` or ``analyse_raw`` takes ``for_json`` may hand back parts already
    encoded (the moves, as a :class:`msgspec.Raw`): the same bytes, no values made to be
    encoded."""
    if fmt not in ANALYSERS or (formats is not None and fmt not in formats):
        return None
    found = _analyse_read.get(fmt, _MISSING)
    if found is _MISSING:
        module = importlib.import_module(ANALYSERS[fmt])
        found = _analyse_read[fmt] = (getattr(module, "analyse_entry", None),
                                      getattr(module, "analyse_read", None),
                                      getattr(module, "analyse_raw", None))
    analyse_entry, analyse_read, analyse_raw = found
    if analyse_raw is not None:  # the game reads the text itself (Memoarrr!, solo records)
        raw_result: GameAnalysis | None = (
            analyse_raw(raw, source=source, for_json=True)
            if for_json and _takes_for_json(analyse_raw) else analyse_raw(raw, source=source))
        return raw_result
    if analyse_entry is None and analyse_read is None:
        return None
    typed = _typed_reader.get(fmt, _MISSING)
    if typed is _MISSING:  # looked up once a format: a batch asks at every log
        from pathcheck import games

        typed = _typed_reader[fmt] = next(
            ((log_format, read_entry) for name, log_format, read_entry
             in getattr(games.for_format(fmt), "typed_readers", ()) if name == fmt), None)
    if typed is None:
        return None
    log_format, read_entry = typed
    entry = log_format.decode(raw)
    if entry is None:
        return None
    result: GameAnalysis = (
        analyse_entry(entry, source=source, for_json=True)
        if for_json and analyse_entry is not None and _takes_for_json(analyse_entry)
        else analyse_entry(entry, source=source) if analyse_entry is not None
        else analyse_read(read_entry(entry, source=source), source=source))
    return result


_typed_reader: dict[str, Any] = {}
"""Per format: its game's typed reader (the LogFormat and ``read_entry`` that adjudicate
reads it with), or None where the game has none."""
