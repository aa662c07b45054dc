"""The log formats of dungeon in memory, and reading a ``game/1`` log into typed values.

A ``solo/1`` record is read by :func:`pathcheck.records.parse_solo_record` (the engine's
reader, shared with ``pathcheck solo``); this module names both formats and their schemas.

What makes replay impossible is a :class:`~pathcheck.errors.RecordError` naming the JSON
pointer: an unknown player name, a tile id the tile set does not know, rule #4 without the
advanced rules, an unusable tile set. Everything a table could actually do wrong (a bad deal,
a tile from nowhere, an announcement out of turn...) is left to the replay, which rules on it.

>>> log = read_game_log({"format": "game/1", "players": ["Ann", "Bob"], "explorations": [
...     {"start_player": "Ann", "hands": {"Ann": ["R1"], "Bob": []}, "deck": [],
...      "turns": [{"player": "Ann", "tile": "R1", "dir": "N", "lost": ["Bob"]}]}]},
...     source="doc")
>>> log.players, log.explorations[0].turns[0].placement, log.explorations[0].turns[0].lost
(('Ann', 'Bob'), Placement(tile='R1', dir=<Direction.N: 0>), ('Bob',))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pathcheck.dungeon import Placement
from pathcheck.errors import RecordError, TileSetError, pointer_join
from pathcheck.games.common import check_player, log_folder
from pathcheck.geometry import Direction
from pathcheck.records import SoloRecord, parse_solo_record
from pathcheck.schemas import validate
from pathcheck.tileset import TileSet, resolve_tileset

GAME_FORMAT = "game/1"
SOLO_FORMAT = "solo/1"
GAME_SCHEMA = "game"
SOLO_SCHEMA = "solo"
FORMATS = (GAME_FORMAT, SOLO_FORMAT)
"""The ``format`` values this game reads: multiplayer game logs and solo records."""
SCHEMAS = (GAME_SCHEMA, SOLO_SCHEMA)
"""The JSON Schemas it publishes (``pathcheck schema NAME``)."""

_UNSET = object()


@dataclass(frozen=True)
class Turn:
    """One turn as recorded: the active player's placement, the draw (if recorded) and the
    announcements after it, in the order announced."""

    player: str
    placement: Placement
    lost: tuple[str, ...]
    draw: str | None
    draw_recorded: bool
    pointer: str


@dataclass(frozen=True)
class Exploration:
    """One exploration as recorded: the start player, the deal and the turns.

    A deal nobody saw may be left out of the log: ``hands_recorded`` / ``deck_recorded`` are
    then False and ``hands`` / ``deck`` empty.
    """

    start_player: str
    hands: Mapping[str, tuple[str, ...]]
    deck: tuple[str, ...]
    turns: tuple[Turn, ...]
    pointer: str
    hands_recorded: bool = True
    deck_recorded: bool = True


@dataclass(frozen=True)
class GameLog:
    """A whole ``game/1`` log; ``players`` in clockwise order."""

    players: tuple[str, ...]
    advanced: bool
    rules: frozenset[int]
    tileset: TileSet
    explorations: tuple[Exploration, ...]


def read_solo(log: Mapping[str, Any], *, source: str) -> SoloRecord:
    """Validate and read a ``solo/1`` record; RecordError (with ``line`` None) if malformed."""
    validate(log, SOLO_SCHEMA, source=source, line=None)
    try:
        return parse_solo_record(log, source=source, line=0, base=log_folder(source))
    except RecordError as exc:
        raise RecordError(source, None, exc.pointer, exc.message) from None


def read_game_log(log: Mapping[str, Any], *, source: str) -> GameLog:
    """Validate ``log`` against the ``game`` schema and read it; RecordError if malformed."""
    validate(log, GAME_SCHEMA, source=source, line=None)
    players = tuple(log["players"])
    advanced = bool(log.get("advanced", False))
    rules = frozenset(int(r) for r in log.get("rules", ()))
    if 4 in rules and not advanced:
        raise RecordError(source, None, "/rules",
                          "additional rule #4 is for the advanced rules only "
                          "(set \"advanced\": true)")
    try:
        tileset = resolve_tileset(log.get("tileset"), beside=log_folder(source))
    except TileSetError as exc:
        raise RecordError(source, None, "/tileset", str(exc)) from None
    explorations = tuple(
        _exploration(value, pointer_join("/explorations", i), players, tileset, source)
        for i, value in enumerate(log["explorations"])
    )
    return GameLog(players, advanced, rules, tileset, explorations)


def _player(name: str, players: tuple[str, ...], where: str, source: str) -> str:
    return check_player(name, players, source=source, pointer=where)


def _tile(tile_id: str, tileset: TileSet, where: str, source: str) -> str:
    if tile_id not in tileset:
        raise RecordError(source, None, where,
                          f"unknown tile {tile_id!r} (not in tile set {tileset.name!r})")
    return tile_id


def _exploration(
    value: Mapping[str, Any], where: str, players: tuple[str, ...], tileset: TileSet,
    source: str,
) -> Exploration:
    start = _player(value["start_player"], players, where + "/start_player", source)
    hands: dict[str, tuple[str, ...]] = {}
    for name, tiles in value.get("hands", {}).items():
        at = pointer_join(where, "hands", name)
        _player(name, players, at, source)
        hands[name] = tuple(_tile(t, tileset, pointer_join(at, i), source)
                            for i, t in enumerate(tiles))
    deck = tuple(_tile(t, tileset, pointer_join(where, "deck", i), source)
                 for i, t in enumerate(value.get("deck", ())))
    turns = []
    for t, turn in enumerate(value["turns"]):
        at = pointer_join(where, "turns", t)
        player = _player(turn["player"], players, at + "/player", source)
        tile = _tile(turn["tile"], tileset, at + "/tile", source)
        lost = tuple(_player(n, players, pointer_join(at, "lost", i), source)
                     for i, n in enumerate(turn.get("lost", ())))
        draw = turn.get("draw", _UNSET)
        recorded = draw is not _UNSET
        if isinstance(draw, str):
            _tile(draw, tileset, at + "/draw", source)
        turns.append(Turn(player, Placement(tile, Direction.parse(turn["dir"])), lost,
                          draw if isinstance(draw, str) else None, recorded, at))
    return Exploration(start, hands, deck, tuple(turns), where,
                       hands_recorded="hands" in value, deck_recorded="deck" in value)
