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
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from pathcheck.errors import RecordError
from pathcheck.games.common import check_player
from pathcheck.games.logformat import LogFormat, unique
from pathcheck.games.memo_dice.rules import Colour, Cup

FORMAT = "memo-dice/1"
SCHEMA = "memo-dice"
FORMATS = (FORMAT,)
"""The ``format`` values this game reads."""
SCHEMAS = (SCHEMA,)
"""The JSON Schemas it publishes (``pathcheck schema NAME``)."""

# --- the format, as typed structures (the JSON Schema is generated from them) -------------

Name = Annotated[str, Meta(min_length=1)]
ColourName = Literal["red", "blue", "black"]


class FaceEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """One face of a symbol die."""

    symbol: Name
    colour: ColourName


class RollEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """One covering turn: who rolled which die (1-9), the symbol that came up, its colour, and
    the cup it was covered with."""

    player: Name
    die: Annotated[int, Meta(ge=1, le=9)]
    symbol: Name
    colour: ColourName
    cup: Literal["red", "blue", "black", "golden"]


class GuessEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """One uncovering turn: who named which symbol for cup N of the row (1 = the first
    covered), or null for no answer."""

    player: Name
    cup: Annotated[int, Meta(ge=1, le=100)]
    guess: Name | None


class RoundEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """One round: the covering rolls, then the uncovering guesses."""

    covering: Annotated[tuple[RollEntry, ...], Meta(min_length=1)]
    uncovering: tuple[GuessEntry, ...]
    comment: str = ""


class MemoDiceEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A ``memo-dice/1`` log as written."""

    format: Literal["memo-dice/1"]
    players: Annotated[tuple[Name, ...], Meta(
        min_length=2, max_length=4,
        description="Player names in clockwise seat order; the next one is the player on the "
                    "left.")]
    rounds: Annotated[tuple[RoundEntry, ...], Meta(min_length=1)]
    dice: Annotated[tuple[Annotated[tuple[FaceEntry, ...], Meta(min_length=6, max_length=6)],
                          ...], Meta(
        min_length=9, max_length=9,
        description="Optional: the 6 faces of each of the 9 dice (die 1 first). When given, "
                    "every roll is checked against them.")] | msgspec.UnsetType = msgspec.UNSET
    comment: Annotated[str, Meta(description="Free text, ignored.")] = ""


LOG_FORMAT = LogFormat(
    SCHEMA, MemoDiceEntry,
    title="Memo Dice play log (memo-dice/1)",
    description="A recorded game of Memo Dice: the players in clockwise seat order, optionally "
                "the faces of the 9 symbol dice, and per round the covering rolls and the "
                "uncovering guesses.",
    extras={"/properties/players": {"uniqueItems": True}},
)
LOG_FORMATS = (LOG_FORMAT,)


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
    entry = LOG_FORMAT.read(log, source=source)
    unique(entry.players, source=source, pointer="/players")
    players = tuple(str(p) for p in log["players"])
    dice = _read_dice(log["dice"], source) if "dice" in log else None
    rounds = []
    for r, rnd in enumerate(log["rounds"]):
        base = f"/rounds/{r}"
        covering = tuple(
            Roll(
                player=_player(players, roll["player"], source, f"{base}/covering/{i}"),
                die=int(roll["die"]),
                symbol=roll["symbol"],
                colour=_COLOURS[roll["colour"]],
                cup=_CUPS[roll["cup"]],
                pointer=f"{base}/covering/{i}",
            )
            for i, roll in enumerate(rnd["covering"])
        )
        uncovering = tuple(
            Guess(
                player=_player(players, g["player"], source, f"{base}/uncovering/{i}"),
                cup=int(g["cup"]),
                guess=g["guess"],
                pointer=f"{base}/uncovering/{i}",
            )
            for i, g in enumerate(rnd["uncovering"])
        )
        rounds.append(RoundLog(covering, uncovering, base))
    return MemoDiceLog(players, dice, tuple(rounds))


_COLOURS = {colour.value: colour for colour in Colour}
_CUPS = {cup.value: cup for cup in Cup}


def _player(players: tuple[str, ...], name: str, source: str, pointer: str) -> str:
    if name in players:
        return name
    return check_player(name, players, source=source, pointer=pointer + "/player")


def _read_dice(raw: list[list[dict[str, str]]], source: str) -> tuple[tuple[Face, ...], ...]:
    seen: dict[str, str] = {}
    dice = []
    for d, die in enumerate(raw):
        faces = []
        for f, face in enumerate(die):
            pointer = f"/dice/{d}/{f}/symbol"
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
