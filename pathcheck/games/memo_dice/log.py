"""Memo Dice: reading a ``memo-dice/1`` log into typed values.

The log is checked against the ``memo-dice`` JSON Schema first; what the schema cannot say
(a player name that is not at the table, two faces with the same symbol) is a
:class:`~pathcheck.errors.RecordError` with the JSON pointer of the field.

>>> log = read_log({
...     "format": "memo-dice/1", "players": ["Ann", "Bob"],
...     "rounds": [{"covering": [{"player": "Ann", "die": 4, "symbol": "umbrella",
...                               "colour": "red", "cup": "red"}], "uncovering": []}],
... }, source="example")
>>> roll = log.rounds[0].covering[0]
>>> roll.player, roll.die, roll.cup, roll.pointer
('Ann', 4, <Cup.RED: 'red'>, '/rounds/0/covering/0')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pathcheck.errors import RecordError, pointer_join
from pathcheck.games.common import check_player
from pathcheck.games.memo_dice.rules import Colour, Cup
from pathcheck.schemas import validate

FORMAT = "memo-dice/1"
SCHEMA = "memo-dice"
FORMATS = (FORMAT,)
"""The ``format`` values this game reads."""
SCHEMAS = (SCHEMA,)
"""The JSON Schemas it publishes (``pathcheck schema NAME``)."""


@dataclass(frozen=True)
class Face:
    """One face of a symbol die."""

    symbol: str
    colour: Colour


@dataclass(frozen=True)
class Roll:
    """A covering turn: ``player`` rolled ``die`` (1-9), showing ``symbol``, covered by ``cup``."""

    player: str
    die: int
    symbol: str
    colour: Colour
    cup: Cup
    pointer: str


@dataclass(frozen=True)
class Guess:
    """An uncovering turn: ``player`` names ``guess`` (None: no answer) for cup ``cup``."""

    player: str
    cup: int
    guess: str | None
    pointer: str


@dataclass(frozen=True)
class RoundLog:
    """One recorded round: the covering rolls, then the uncovering guesses."""

    covering: tuple[Roll, ...]
    uncovering: tuple[Guess, ...]
    pointer: str


@dataclass(frozen=True)
class MemoDiceLog:
    """A whole recorded game. ``dice`` is None when the log does not give the faces."""

    players: tuple[str, ...]
    dice: tuple[tuple[Face, ...], ...] | None
    rounds: tuple[RoundLog, ...]


def read_log(log: Mapping[str, Any], *, source: str) -> MemoDiceLog:
    """Validate ``log`` and return it typed; RecordError (with a pointer) if it is malformed."""
    validate(log, SCHEMA, source=source, line=None)
    players = tuple(str(p) for p in log["players"])
    dice = _read_dice(log["dice"], source) if "dice" in log else None
    rounds = []
    for r, rnd in enumerate(log["rounds"]):
        base = pointer_join("/rounds", r)
        covering = tuple(
            Roll(
                player=_player(players, roll["player"], source, pointer_join(base, "covering", i)),
                die=int(roll["die"]),
                symbol=roll["symbol"],
                colour=Colour(roll["colour"]),
                cup=Cup(roll["cup"]),
                pointer=pointer_join(base, "covering", i),
            )
            for i, roll in enumerate(rnd["covering"])
        )
        uncovering = tuple(
            Guess(
                player=_player(players, g["player"], source, pointer_join(base, "uncovering", i)),
                cup=int(g["cup"]),
                guess=g["guess"],
                pointer=pointer_join(base, "uncovering", i),
            )
            for i, g in enumerate(rnd["uncovering"])
        )
        rounds.append(RoundLog(covering, uncovering, base))
    return MemoDiceLog(players, dice, tuple(rounds))


def _player(players: tuple[str, ...], name: str, source: str, pointer: str) -> str:
    return check_player(name, players, source=source, pointer=pointer + "/player")


def _read_dice(raw: list[list[dict[str, str]]], source: str) -> tuple[tuple[Face, ...], ...]:
    seen: dict[str, str] = {}
    dice = []
    for d, die in enumerate(raw):
        faces = []
        for f, face in enumerate(die):
            pointer = pointer_join("/dice", d, f, "symbol")
            key = " ".join(face["symbol"].casefold().split())
            if key in seen:
                raise RecordError(
                    source, None, pointer,
                    f"symbol {face['symbol']!r} is already on {seen[key]}: "
                    "the 54 symbols are all different",
                )
            seen[key] = f"die {d + 1}"
            faces.append(Face(face["symbol"], Colour(face["colour"])))
        dice.append(tuple(faces))
    return tuple(dice)
