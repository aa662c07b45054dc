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
from typing import Any

from pathcheck.errors import RecordError, pointer_join
from pathcheck.games.common import check_player
from pathcheck.games.memoarrr.rules import (
    BIRDS,
    CENTRE,
    DARK,
    LIGHT,
    SIZE,
    TREASURES,
    Card,
    Pos,
)

FORMAT = "memoarrr/1"
SCHEMA = "memoarrr"
FORMATS = (FORMAT,)
"""The ``format`` values this game reads."""
SCHEMAS = (SCHEMA,)
"""The JSON Schemas it publishes (``pathcheck schema NAME``)."""


@dataclass(frozen=True)
class Volcano:
    """A volcano card; ``rank`` decides the next start player (dark 1 / light 0, or birds)."""

    label: str
    rank: int

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class Action:
    """One turn as logged: a reveal (with the ability used) or, with ``reveal`` None, a volcano.

    ``index`` is the 1-based number of the action within its round.
    """

    player: str
    reveal: Pos | None
    swap: Pos | None
    mark: Pos | None
    peek: Pos | None
    index: int
    pointer: str


@dataclass(frozen=True)
class RoundLog:
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
    treasures: tuple[int, ...]
    rounds: tuple[RoundLog, ...]


def read_log(log: Mapping[str, Any], *, source: str) -> Setup:
    """Validate ``log`` (schema, then semantics) and return its Setup; RecordError if bad."""
    from pathcheck.schemas import validate

    validate(log, SCHEMA, source=source, line=None)

    def fail(pointer: str, message: str) -> RecordError:
        return RecordError(source, None, pointer, message)

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
            pointer = pointer_join("/island", r, c)
            if pos == CENTRE:
                if text is not None:
                    raise fail(pointer, "the centre of the island (C3) must be empty (null)")
                continue
            if text is None:
                continue  # a card nobody saw; every card revealed must be named (below)
            card = _parse(Card.parse, text, fail, pointer)
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

    treasures = tuple(int(t) for t in log["treasures"])
    if sorted(treasures) != sorted(TREASURES):
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
        raise fail(vpointer, f"{len(players)} players play with {len(players) - 1} volcano(es)")
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
        apointer = pointer_join(pointer + "/actions", i)
        check_player(item["player"], players, source=source, pointer=apointer + "/player")

        def pos(key: str, item: Mapping[str, Any] = item, apointer: str = apointer) -> Pos | None:
            if key not in item:
                return None
            result: Pos = _parse(Pos.parse, item[key], fail, apointer + "/" + key)
            return result

        reveal = pos("reveal")
        if reveal == CENTRE:
            raise fail(apointer + "/reveal", "C3 is the empty centre of the island: no card there")
        actions.append(
            Action(item["player"], reveal, pos("swap"), pos("mark"), pos("peek"), i + 1, apointer)
        )
    return RoundLog(number, tuple(volcanoes), tuple(actions), pointer)

