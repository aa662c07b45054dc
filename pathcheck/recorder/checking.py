"""What trying a recorded line gives (:class:`Check`), and which violations belong to where the
log stops rather than to the move just made, while a game is still being recorded."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pathcheck.errors import RecordError
from pathcheck.ruling import Violation

_UNSEEN_BY_THE_TABLE = (
    (re.compile(r" \(they hold (?!nothing\))[^)]*\)"), " (what they hold is not named: the "
                                                        "table has not seen it)"),
    (re.compile(r"the top of the deck is (?!empty)[^\s,;:)]+"),
     "the top of the deck is another tile (face down: not named)"),
)
"""What a dungeon ruling's messages name that lies face down or in a hand (a ruling names it;
the table at a game still going on must not see it)."""


def for_the_table(message: str) -> str:
    """``message`` (a violation said while the game goes on) without the tiles in a hand or
    on the deck that the table has not seen.

    >>> for_the_table("Ann plays R5 (they hold I3, R1)")
    'Ann plays R5 (what they hold is not named: the table has not seen it)'
    >>> for_the_table("Bob draws I2, but the top of the deck is L4")
    'Bob draws I2, but the top of the deck is another tile (face down: not named)'
    """
    for pattern, said in _UNSEEN_BY_THE_TABLE:
        message = pattern.sub(said, message)
    return message


INCOMPLETE = frozenset({"explorations", "turns", "hands", "deck", "rounds", "actions",
                        "covering", "uncovering", "cards", "dungeons"})
"""**Decision**: while a game is being recorded, a violation saying that the last round (or
exploration) or the game is unfinished, or that a hand of the deal being typed is missing (the
replays mark these ``Violation.unfinished``), is about where the log stops, not about the move
just made: it is not reported then. The same violation about an earlier round is reported
(when the next round starts), and the final ruling reports everything."""


def rounds_key(log: Mapping[str, Any]) -> str:
    """The key of the log's list of rounds (explorations, dungeons)."""
    return next((k for k in ("explorations", "dungeons") if k in log), "rounds")


def in_last_round(pointer: str, log: Mapping[str, Any]) -> bool:
    """Whether ``pointer`` is the log's list of rounds or lies in its last round."""
    key = rounds_key(log)
    last = f"/{key}/{len(log.get(key, ())) - 1}"
    return pointer == f"/{key}" or pointer == last or pointer.startswith(last + "/")


def stops_with_log(violation: Violation, log: Mapping[str, Any]) -> bool:
    return violation.unfinished and in_last_round(violation.move.pointer, log)


@dataclass(frozen=True)
class Check:
    """What trying a line gave: a notation error, or the log and the rules it newly breaks."""

    error: str | None
    new_violations: tuple[Violation, ...] = ()
    log: Mapping[str, Any] | None = None
    malformed: str | None = None
    """The log with the line reads as notation but cannot be ruled on (e.g. unknown player)."""
    culprit: int | None = None
    """The index of an earlier move line that the new violations point at (a rule the
    replay can check only now, e.g. a round's first player once its grid is complete)."""


def stops_here(exc: RecordError, log: Mapping[str, Any]) -> bool:
    """Whether a log is malformed only because its last round stops here (an empty list
    the schema wants filled: a game with no exploration yet, a round with no covering yet,
    a grid whose rows are still being typed). The same about an earlier round is not: that
    round was left unfinished, and the log can no longer be ruled on."""
    last = exc.pointer.rsplit("/", 1)[-1]
    return (last in INCOMPLETE and in_last_round(exc.pointer, log)
            and any(words in exc.message for words in (
                "non-empty", "too short", "of length >=", "rows of cards for a grid")))
