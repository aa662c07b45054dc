"""The fast path of a ``solo/1`` record given as JSON text: decoded straight into its typed
form, read and traced in one C call, a clean record's rounds worded in a second.

:func:`rule_solo_decoded` takes a record of the standard tile set with no seed code (and no
``tileset``): msgspec decodes the text into
:class:`~pathcheck.games.dungeon.log.SoloEntry` (no dict is made) and
``_speedups.solo_trace`` (speedups/c/solo_rule.c) reads every placement against the tile
set's tables and traces every dungeon in order, handing back each one's length, Lost point,
reason, its tiles as ``ID@DIR`` and the token of the tile it got Lost at. A clean record (START
first, every tile once, each dungeon Lost exactly at its last tile but the last, which holds)
is worded by ``_speedups.solo_word`` as :func:`~pathcheck.games.dungeon.solo.rule_read` words
it (:func:`_clean` is the same wording in Python, the tests compare both); any other record C
read is ruled by :func:`~pathcheck.games.dungeon.solo.rule_read` itself (the plain reference),
read from the typed form. Anything C does not read (or no extension) is None: the caller
decodes the text and :func:`~pathcheck.games.dungeon.solo.rule_solo` rules on it, or words
its error. tests/games/test_dungeon_solo_decoded.py compares both paths byte for byte.

>>> import msgspec
>>> from pathcheck.solo.play import answer_key
>>> from pathcheck.tracer.tileset import load_tileset
>>> from pathcheck.games.dungeon.solo import rule_solo
>>> key = answer_key(load_tileset().ids_for(advanced=True), rules=(2,))
>>> record = {"format": "solo/1", "rules": [2], "dungeons": [
...     [{"tile": p.tile, "dir": p.dir.name} for p in d.placements] for d in key]}
>>> ruling = rule_solo_decoded(msgspec.json.encode(record), source="doc")
>>> ruling is None or ruling == rule_solo(record, source="doc")
True
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import msgspec
from msgspec import UNSET

from pathcheck.errors import RecordError
from pathcheck.games.dungeon.log import SOLO_FORMAT, SoloEntry
from pathcheck.games.dungeon.rules import GAME
from pathcheck.games.dungeon.solo import (
    _RULES,
    _WHY,
    SOLO_PLAYER,
    _by_rules,
    _c_tracer,
    _every_tile,
    _read_entry,
    rule_read,
)
from pathcheck.render import words
from pathcheck.ruling import Event, Round, Ruling, SoloDungeonFact
from pathcheck.solo.play import RULE_SOLO_SCORE
from pathcheck.tracer.constants import MISPLACED
from pathcheck.tracer.tileset import load_tileset

__all__ = ["rule_solo_decoded"]

_decode = msgspec.json.Decoder(SoloEntry).decode
Traced = tuple[tuple[int, int, int, str, "str | None"], ...]
SoloTrace = Callable[[object, Any, int], "tuple[int, Traced] | None"]


SoloWord = Callable[[Traced, tuple[object, ...]], "list[Round] | None"]
_KIT = (Event, Round, SoloDungeonFact, _WHY, _RULES, SOLO_PLAYER, MISPLACED)
"""What ``solo_word`` words a clean record's rounds with (speedups/c/solo_rule.c, SW_*)."""


@cache
def _solo_c() -> tuple[SoloTrace, object, int, str, SoloWord] | None:
    """C's ``solo_trace``, the standard tile set's tables, how many tiles a solo game stacks,
    its first tile and C's ``solo_word``; None without the extension."""
    found = _c_tracer()
    if found is None:
        return None
    from pathcheck import speedups

    tileset = load_tileset()
    return (speedups._speedups.solo_trace, found[1], len(_every_tile(tileset)), tileset.start,
            speedups._speedups.solo_word)  # type: ignore[return-value]


def trace_decoded(data: bytes) -> tuple[SoloEntry, int, Traced] | None:
    """The record ``data`` (JSON text the reader's guard passed) decoded into its typed form,
    its number of tiles and every dungeon traced (``solo_trace``), where
    :func:`rule_solo_decoded` reads it so;
    None where it does not (see the module's doc). The analysis reads records this way too
    (:func:`pathcheck.analysis.dungeon_solo.analyse_raw`)."""
    c = _solo_c()
    if c is None:
        return None
    try:
        entry = _decode(data)
    except (msgspec.DecodeError, UnicodeDecodeError):
        return None
    rules = entry.rules
    if entry.tileset is not UNSET or entry.seed is not UNSET or len(set(rules)) != len(rules):
        return None
    found = c[0](c[1], entry.dungeons, _by_rules(frozenset(rules))[0])
    return None if found is None else (entry, *found)


def rule_solo_decoded(data: bytes, *, source: str) -> Ruling | None:
    """The ruling on the ``solo/1`` record ``data`` (JSON text the reader's guard passed), or
    None where this path does not read it (see the module's doc)."""
    found = trace_decoded(data)
    if found is None:
        return None
    entry, total, traced = found
    _, _, whole, first, solo_word = _solo_c() or (None, None, 0, "", None)
    _, points, bonus = _by_rules(frozenset(entry.rules))
    if solo_word is not None and total == whole and entry.dungeons[0][0].tile == first:
        rounds = solo_word(traced, _KIT)
        if rounds is not None:
            return _ruling(rounds, total + points, bonus, source)
    read = _read_entry(entry, True, source)  # a seed code alone needs to know if rules were
    if read is None:  # written: there is none here
        raise RecordError(source, None, "", "not a standard solo record")  # (C read it)
    return rule_read(read, source=source)


def _clean(traced: Traced, best: int, bonus: str, source: str) -> Ruling | None:
    """The ruling on a record with every tile once, START first, as
    :func:`~pathcheck.games.dungeon.solo.rule_read` words it when no dungeon fails; None if
    one does (the solo check's failures: misplaced, late, premature). C's ``solo_word`` words
    the same rounds (the tests compare the three)."""
    count = len(traced)
    rounds: list[Round] = []
    last = 0
    for d, (n, lost_at, code, display, token) in enumerate(traced, 1):
        start, last = last, last + n
        if lost_at:
            if code == MISPLACED or lost_at < n:
                return None
            why = _WHY[code]
            event = Event(f"dungeon {d} is Lost at its tile {lost_at} ({token}, tile "
                          f"{start + lost_at} of the stack): {why}", rule=_RULES[code],
                          fact=SoloDungeonFact(d, n, lost_at, token, start + lost_at, why))
        else:
            if d < count:
                return None
            event = Event(f"dungeon {d} ({words.counted(n, 'tile')}) is never Lost",
                          fact=SoloDungeonFact(d, n, None, None, None, None))
        rounds.append(Round(d, f"Dungeon {d} (tiles {start + 1}-{last})", (event,),
                            {SOLO_PLAYER: last}, display))
    return _ruling(rounds, best, bonus, source)


def _ruling(rounds: list[Round], best: int, bonus: str, source: str) -> Ruling:
    """The ruling on a clean record of these rounds, scoring ``best``."""
    return Ruling(
        game=GAME,
        format=SOLO_FORMAT,
        source=source,
        players=[SOLO_PLAYER],
        rounds=rounds,
        final_scores={SOLO_PLAYER: best},
        winners=[],
        violations=(),
        notes=(f"score {best} of {best}: every tile counts{bonus} ({RULE_SOLO_SCORE.id})",
               "solo play has no winner"),
        display="",
    )
