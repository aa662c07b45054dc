"""Memo Dice: reading a ``memo-dice/1`` log into typed values.

The log is checked against the ``memo-dice`` JSON Schema first; what the schema cannot say
(a player name that is not at the table, two faces with the same symbol) is a
:class:`~pathcheck.errors.RecordError` with the JSON pointer of the field.

>>> log = read_log({
...     "format": "memo-dice/1", "players": ["Ann", "Bob"],
...     "rounds": [{"covering": [{"player": "Ann", "die": 4, "symbol": "umbrella",
...                               "colour": "red", "cup": "red"}], "uncovering": []}],
... }, source="example")
>>> log.rounds[0].covering[0]
RollEntry(player='Ann', die=4, symbol='umbrella', colour='red', cup='red')
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from pathcheck.errors import RecordError
from pathcheck.games.common import check_player
from pathcheck.games.memo_dice.rules import symbol_key
from pathcheck.inputs.logformat import LogFormat, unique

FORMAT = "memo-dice/1"
SCHEMA = "memo-dice"
FORMATS = (FORMAT,)
"""The ``format`` values this game reads."""
SCHEMAS = (SCHEMA,)
"""The JSON Schemas it publishes (``pathcheck schema NAME``)."""

# --- the format, as typed structures (the JSON Schema is generated from them) -------------

Name = Annotated[str, Meta(min_length=1)]
ColourName = Literal["red", "blue", "black"]
CupName = Literal["red", "blue", "black", "golden"]


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
    cup: CupName


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


class DieFaces(msgspec.Struct, frozen=True):
    """The faces of one die, found by symbol (:func:`~pathcheck.games.memo_dice.rules.
    same_symbol`'s sense: case and spacing do not count)."""

    faces: tuple[FaceEntry, ...]
    exact: Mapping[str, FaceEntry]
    """Each face under its symbol as written."""
    by_key: Mapping[str, FaceEntry]
    """Each face under :func:`~pathcheck.games.memo_dice.rules.symbol_key` of its symbol."""

    def find(self, symbol: str) -> FaceEntry | None:
        """The face showing ``symbol``, None if the die has none.

        >>> die = _die_faces((FaceEntry("Cooling fan", "red"),))
        >>> die.find("cooling  FAN").colour, die.find("fan")
        ('red', None)
        """
        face = self.exact.get(symbol)
        return self.by_key.get(symbol_key(symbol)) if face is None else face


class MemoDiceLog(msgspec.Struct, frozen=True):
    """A whole recorded game, checked: every player named is at the table, the symbols of
    ``dice`` (None when the log does not give the faces) are all different. The rolls and
    guesses are the format's own structures; the JSON pointer of roll ``i`` of round ``r``
    (from 0) is ``/rounds/r/covering/i``."""

    players: tuple[str, ...]
    dice: tuple[DieFaces, ...] | None
    rounds: tuple[RoundEntry, ...]


def read_log(log: Mapping[str, Any], *, source: str) -> MemoDiceLog:
    """Validate ``log`` and return it typed; RecordError (with a pointer) if it is malformed."""
    return read_entry(LOG_FORMAT.read(log, source=source), source=source)


def read_entry(entry: MemoDiceEntry, *, source: str) -> MemoDiceLog:
    """A log already in its typed form (:data:`LOG_FORMAT`), checked and read as
    :func:`read_log` reads it."""
    players = entry.players
    unique(players, source=source, pointer="/players")
    dice = None
    if entry.dice is not msgspec.UNSET:
        dice, duplicate = _read_dice(entry.dice)
        if duplicate is not None:
            raise RecordError(source, None, *duplicate)
    named = {roll.player for rnd in entry.rounds for roll in rnd.covering}
    named.update(guess.player for rnd in entry.rounds for guess in rnd.uncovering)
    if not named.issubset(players):
        _unknown_player(entry.rounds, players, source)
    return MemoDiceLog(players, dice, entry.rounds)


def _unknown_player(rounds: tuple[RoundEntry, ...], players: tuple[str, ...],
                    source: str) -> None:
    """RecordError at the first move made by someone not at the table."""
    for r, rnd in enumerate(rounds):
        for i, roll in enumerate(rnd.covering):
            check_player(roll.player, players, source=source,
                         pointer=f"/rounds/{r}/covering/{i}/player")
        for i, guess in enumerate(rnd.uncovering):
            check_player(guess.player, players, source=source,
                         pointer=f"/rounds/{r}/uncovering/{i}/player")


def _die_faces(faces: tuple[FaceEntry, ...]) -> DieFaces:
    return DieFaces(faces, {face.symbol: face for face in faces},
                    {symbol_key(face.symbol): face for face in faces})


# Most logs roll the same few sets of dice: each set is indexed once.
@lru_cache(maxsize=64)
def _read_dice(raw: tuple[tuple[FaceEntry, ...], ...],
               ) -> tuple[tuple[DieFaces, ...], tuple[str, str] | None]:
    """The dice indexed by symbol, and (pointer, message) of the first symbol that is on a
    die already (None if they are all different)."""
    seen: dict[str, str] = {}
    for d, die in enumerate(raw):
        for f, face in enumerate(die):
            key = symbol_key(face.symbol)
            if key in seen:
                return (), (f"/dice/{d}/{f}/symbol",
                            f"symbol {face.symbol!r} is already on {seen[key]}: "
                            "the 54 symbols are all different")
            seen[key] = f"die {d + 1}"
    return tuple(_die_faces(die) for die in raw), None
