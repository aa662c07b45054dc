"""Reading a ``memoarrr/1`` log into a :class:`Setup`: the static facts a replay needs.

The schema catches every structural fault first; what is left here are the semantic checks
that make a replay impossible (an unknown player, a card twice on the island, a volcano set
that does not fit the edition), each a RecordError with the JSON pointer.

>>> from pathcheck.games.memoarrr.gen import random_game
>>> import random
>>> setup = read_log(random_game(random.Random(1), players=3), source="demo")
>>> setup.players, len(setup.island), len(setup.rounds)
(('Ann', 'Ben', 'Cy'), 24, 7)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NamedTuple

import msgspec
from msgspec import Meta, UnsetType

from pathcheck.errors import RecordError, pointer_join
from pathcheck.games.common import check_player
from pathcheck.games.memoarrr.rules import (
    ALL_CARDS,
    BIRDS,
    CENTRE,
    DARK,
    LIGHT,
    SIZE,
    TREASURES,
    Card,
    Pos,
)
from pathcheck.inputs.logformat import LogFormat, unique

FORMAT = "memoarrr/1"
SCHEMA = "memoarrr"
FORMATS = (FORMAT,)
"""The ``format`` values this game reads."""
SCHEMAS = (SCHEMA,)
"""The JSON Schemas it publishes (``pathcheck schema NAME``)."""

# --- the format, as typed structures (the JSON Schema is generated from them) -------------

Name = Annotated[str, Meta(min_length=1)]
CardName = Annotated[str, Meta(
    pattern="^(penguin|octopus|crab|walrus|turtle)/(water|ocean|flowers|lava|jungle|desert)$")]
Position = Annotated[str, Meta(pattern="^[A-E][1-5]$")]
Row = Annotated[tuple[CardName | None, ...], Meta(min_length=5, max_length=5)]


class Variants(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """Optional rules in play."""

    expert: Annotated[bool, Meta(description="Animal abilities.")] = False
    ordered_stack: Annotated[bool, Meta(
        description="Treasures 1,1,2,2,2,3,4 from the top.")] = False


class ActionEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A reveal (with the ability used, in the expert game) or taking a volcano without
    revealing (all 24 cards face up): exactly one of ``reveal`` and ``volcano``."""

    player: Name
    reveal: Position | UnsetType = msgspec.UNSET
    swap: Annotated[Position, Meta(description="Octopus: the card swapped with.")] \
        | UnsetType = msgspec.UNSET
    mark: Annotated[Position, Meta(
        description="Walrus: the card the next player may not reveal.")] \
        | UnsetType = msgspec.UNSET
    peek: Annotated[Position, Meta(description="Penguin: the card looked at.")] \
        | UnsetType = msgspec.UNSET
    volcano: Literal[True] | UnsetType = msgspec.UNSET


class RoundEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """One round: its volcano stack and its actions."""

    volcanoes: Annotated[tuple[Literal["dark", "light"] | Literal[1, 3, 7], ...], Meta(
        min_length=1, max_length=3,
        description="This round's volcano stack, top first: 2023 \"dark\"/\"light\", 2018 "
                    "the number of birds (1, 3, 7); players - 1 of them.")]
    actions: tuple[ActionEntry, ...]
    comment: str = ""


class MemoarrrEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A ``memoarrr/1`` log as written."""

    format: Literal["memoarrr/1"]
    edition: Annotated[Literal[2018, 2023], Meta(
        description="2023: Edition Spielwiese v2.0 (dark/light volcanoes); 2018: Stronghold "
                    "(volcanoes with 1, 3, 7 birds).")]
    players: Annotated[tuple[Name, ...], Meta(
        min_length=2, max_length=4, description="Player names in seat (clockwise) order.")]
    start_player: Annotated[str, Meta(min_length=1, description="Who starts round 1.")]
    island: Annotated[tuple[Row, ...], Meta(
        min_length=5, max_length=5,
        description="The true layout at setup: 5 rows from north to south, each 5 cards from "
                    "west to east; the centre (row 3, column 3) is null. A card never "
                    "revealed may be null too (not seen); every card revealed must be "
                    "named.")]
    peeks: Annotated[dict[str, Literal["north", "east", "south", "west"]], Meta(
        description="The outer side each player looked at before round 1 (its 3 middle "
                    "cards).")]
    rounds: tuple[RoundEntry, ...]
    treasures: Annotated[tuple[Annotated[int, Meta(ge=1, le=4)], ...], Meta(
        min_length=7, max_length=7,
        description="The treasure stack, top first: a permutation of 1,1,2,2,2,3,4. Left "
                    "out while nobody has seen it (the cards are turned over at the end of "
                    "the game): the winners are then not decided.")] | UnsetType = msgspec.UNSET
    variants: Variants = Variants()
    comment: str = ""


LOG_FORMAT = LogFormat(
    SCHEMA, MemoarrrEntry,
    title="Memoarrr! game log, format memoarrr/1",
    description="One recorded game of Memoarrr! with everything needed to replay it: the true "
                "island layout, the sides each player peeked at, the treasure stack and each "
                "round's volcano order. Positions are a column letter A-E (west to east) and a "
                "row digit 1-5 (north to south); C3 is the empty centre. See "
                "docs/games/memoarrr.md.",
    extras={
        "/properties/players": {"uniqueItems": True},
        "/$defs/ActionEntry": {"oneOf": [
            {"required": ["reveal"], "not": {"required": ["volcano"]}},
            {"required": ["volcano"], "not": {"anyOf": [
                {"required": [key]} for key in ("reveal", "swap", "mark", "peek")]}},
        ]},
    },
)
LOG_FORMATS = (LOG_FORMAT,)


@dataclass(frozen=True)
class Volcano:
    """A volcano card; ``rank`` decides the next start player (dark 1 / light 0, or birds)."""

    label: str
    rank: int

    def __str__(self) -> str:
        return self.label


class Action(NamedTuple):
    """One turn as logged: a reveal (with the ability used) or, with ``reveal`` None, a volcano.

    ``number`` is the 1-based number of the action within its round (its ``MoveRef.index``).
    A named tuple, not a dataclass: a log has about 60 of them, and a tuple is built in C.
    """

    player: str
    reveal: Pos | None
    swap: Pos | None
    mark: Pos | None
    peek: Pos | None
    number: int
    pointer: str


class RoundLog(NamedTuple):
    """One logged round: its volcano stack (top first) and its actions."""

    number: int
    volcanoes: tuple[Volcano, ...]
    actions: tuple[Action, ...]
    pointer: str


@dataclass(frozen=True)
class Setup:
    """Everything static about a logged game."""

    edition: int
    expert: bool
    ordered_stack: bool
    players: tuple[str, ...]
    start_player: str
    island: Mapping[Pos, Card]
    peeks: Mapping[str, str]
    treasures: tuple[int, ...] | None
    """None: the stack is not (yet) recorded."""
    rounds: tuple[RoundLog, ...]


def read_log(log: Mapping[str, Any], *, source: str) -> Setup:
    """Validate ``log`` (schema, then semantics) and return its Setup; RecordError if bad.

    This is the reference reader, which words every error;
    :func:`~pathcheck.games.memoarrr.plain.read_plain` is the fast one for well-formed logs.
    """
    entry = LOG_FORMAT.read(log, source=source)
    unique(entry.players, source=source, pointer="/players")

    def fail(pointer: str, message: str) -> RecordError:
        return RecordError(source, None, pointer, message)

    for r, entry_round in enumerate(entry.rounds):
        for i, action in enumerate(entry_round.actions):
            _one_kind(action, f"/rounds/{r}/actions/{i}", fail)

    edition = int(log["edition"])
    variants = log.get("variants", {})
    players = tuple(log["players"])
    start = log["start_player"]
    check_player(start, players, source=source, pointer="/start_player")

    island: dict[Pos, Card] = {}
    seen: dict[Card, Pos] = {}
    for r in range(SIZE):
        for c in range(SIZE):
            pos = Pos(r, c)
            text = log["island"][r][c]
            pointer = f"/island/{r}/{c}"
            if pos == CENTRE:
                if text is not None:
                    raise fail(pointer, "the centre of the island (C3) must be empty (null)")
                continue
            if text is None:
                continue  # a card nobody saw; every card revealed must be named (below)
            card = _CARDS.get(text) or _parse(Card.parse, text, fail, pointer)
            if card in seen:
                raise fail(pointer, f"{card} is already at {seen[card]}; each card is unique")
            seen[card] = pos
            island[pos] = card

    _check_revealed_known(log, island, fail)
    peeks = dict(log["peeks"])
    for name in peeks:
        check_player(name, players, source=source, pointer=pointer_join("/peeks", name))
    for name in players:
        if name not in peeks:
            raise fail("/peeks", f"no peeked side for {name!r}")

    treasures = tuple(int(t) for t in log["treasures"]) if "treasures" in log else None
    if treasures is not None and sorted(treasures) != sorted(TREASURES):
        raise fail("/treasures", "the treasure stack must hold the rubies 1,1,2,2,2,3,4")

    rounds = tuple(
        _read_round(number, data, edition, players, fail, source)
        for number, data in enumerate(log["rounds"], 1)
    )
    first_set: Counter[Volcano] | None = None
    for rnd in rounds:
        this_set = Counter(rnd.volcanoes)
        if first_set is None:
            first_set = this_set
        elif this_set != first_set:
            raise fail(
                rnd.pointer + "/volcanoes",
                "the volcanoes in play are chosen at setup; every round must reuse round 1's",
            )
    return Setup(
        edition=edition,
        expert=bool(variants.get("expert", False)),
        ordered_stack=bool(variants.get("ordered_stack", False)),
        players=players,
        start_player=start,
        island=island,
        peeks=peeks,
        treasures=treasures,
        rounds=rounds,
    )


def _check_revealed_known(log: Mapping[str, Any], island: Mapping[Pos, Card], fail: Any) -> None:
    """Every card revealed must be in the island as logged (octopus swaps followed back)."""
    from pathcheck.games.memoarrr.notation import follow

    rounds = log["rounds"]
    for r, origins in enumerate(follow(rounds)):
        for a, origin in enumerate(origins):
            if origin is None or origin == str(CENTRE):
                continue
            try:
                pos = Pos.parse(origin)
            except ValueError:
                continue  # reported with the action
            if pos not in island:
                where = pointer_join("/island", pos.row, pos.col)
                raise fail(where, f"no card at {pos} (null), but it is revealed in round "
                                  f"{r + 1}, action {a + 1}: name every card that was "
                                  "revealed; only cards never revealed may be left out")


def _one_kind(action: ActionEntry, pointer: str, fail: Any) -> None:
    """An action reveals a card or takes a volcano, never both, never neither."""
    unset = msgspec.UNSET
    if action.volcano is not unset:
        extra = [k for k in ("reveal", "swap", "mark", "peek") if getattr(action, k) is not unset]
        if extra:
            raise fail(pointer + "/" + extra[0],
                       "an action takes a volcano or reveals a card, not both")
    elif action.reveal is unset:
        raise fail(pointer, "an action needs \"reveal\" (a position) or \"volcano\": true")


def make_volcano(item: object, edition: int) -> Volcano | None:
    """The volcano a log names (``"dark"``, ``7``...), or None if ``edition`` has no such card.

    >>> make_volcano(7, 2018), make_volcano("dark", 2018)
    (Volcano(label='7-bird', rank=7), None)
    """
    if edition == 2023:
        return Volcano(str(item), 1 if item == DARK else 0) if item in (DARK, LIGHT) else None
    if isinstance(item, int | float) and not isinstance(item, bool) and item in BIRDS:
        return Volcano(f"{int(item)}-bird", int(item))
    return None


_CARDS = {str(card): card for card in ALL_CARDS}
_POSITIONS = {str(Pos(r, c)): Pos(r, c) for r in range(SIZE) for c in range(SIZE)}


def _parse(parser: Any, text: str, fail: Any, pointer: str) -> Any:
    try:
        return parser(text)
    except ValueError as exc:
        raise fail(pointer, str(exc)) from None


def _read_round(
    number: int, data: Mapping[str, Any], edition: int, players: tuple[str, ...], fail: Any,
    source: str,
) -> RoundLog:
    pointer = pointer_join("/rounds", number - 1)
    raw = data["volcanoes"]
    vpointer = pointer + "/volcanoes"
    if len(raw) != len(players) - 1:
        needed = len(players) - 1
        raise fail(vpointer, f"{len(players)} players play with {needed} "
                             f"volcano{'' if needed == 1 else 'es'}")
    volcanoes: list[Volcano] = []
    for i, item in enumerate(raw):
        volcano = make_volcano(item, edition)
        if volcano is None:
            what = "\"dark\" or \"light\"" if edition == 2023 else "1, 3 or 7 birds"
            raise fail(pointer_join(vpointer, i), f"{edition} volcanoes are {what}")
        volcanoes.append(volcano)
    if edition == 2023 and [v.label for v in volcanoes].count(DARK) != 1:
        raise fail(vpointer, "the dark volcano is always in play, exactly once")
    if edition == 2018 and len({v.rank for v in volcanoes}) != len(volcanoes):
        raise fail(vpointer, "each 2018 volcano (1, 3, 7 birds) exists once")

    actions: list[Action] = []
    for i, item in enumerate(data["actions"]):
        apointer = f"{pointer}/actions/{i}"
        if item["player"] not in players:
            check_player(item["player"], players, source=source, pointer=apointer + "/player")

        def pos(key: str, item: Mapping[str, Any] = item, apointer: str = apointer) -> Pos | None:
            text = item.get(key)
            if text is None:
                return None
            known = _POSITIONS.get(text)
            if known is not None:
                return known
            result: Pos = _parse(Pos.parse, text, fail, apointer + "/" + key)
            return result

        reveal = pos("reveal")
        if reveal == CENTRE:
            raise fail(apointer + "/reveal", "C3 is the empty centre of the island: no card there")
        actions.append(
            Action(item["player"], reveal, pos("swap"), pos("mark"), pos("peek"), i + 1, apointer)
        )
    return RoundLog(number, tuple(volcanoes), tuple(actions), pointer)

