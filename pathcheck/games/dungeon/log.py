"""Reading a ``game/1`` log of dungeon in memory into plain values (schema, then semantics).

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
from pathlib import Path
from typing import Any

from pathcheck.dungeon import Placement
from pathcheck.errors import RecordError, TileSetError, pointer_join
from pathcheck.games.dungeon.rules import GAME_SCHEMA
from pathcheck.geometry import Direction
from pathcheck.schemas import validate
from pathcheck.tileset import TileSet, load_tileset

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
    """One exploration as recorded: the start player, the deal and the turns."""

    start_player: str
    hands: Mapping[str, tuple[str, ...]]
    deck: tuple[str, ...]
    turns: tuple[Turn, ...]
    pointer: str


@dataclass(frozen=True)
class GameLog:
    """A whole ``game/1`` log; ``players`` in clockwise order."""

    players: tuple[str, ...]
    advanced: bool
    rules: frozenset[int]
    tileset: TileSet
    explorations: tuple[Exploration, ...]


def read_tileset(value: Any, source: str, where: str = "/tileset") -> TileSet:
    """The tile set a log names (a built-in name or a file path); RecordError if unusable."""
    if value is None:
        return load_tileset()
    if not isinstance(value, str):
        raise RecordError(source, None, where, f"expected a tile-set name or path, got {value!r}")
    if value != "standard" and not Path(value).is_file():
        raise RecordError(source, None, where,
                          f"no tile set {value!r} (built-in: standard, or a file path)")
    try:
        return load_tileset(value)
    except TileSetError as exc:
        raise RecordError(source, None, where, str(exc)) from None


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
    tileset = read_tileset(log.get("tileset"), source)
    explorations = tuple(
        _exploration(value, pointer_join("/explorations", i), players, tileset, source)
        for i, value in enumerate(log["explorations"])
    )
    return GameLog(players, advanced, rules, tileset, explorations)


def _player(name: str, players: tuple[str, ...], where: str, source: str) -> str:
    if name not in players:
        raise RecordError(source, None, where,
                          f"unknown player {name!r} (players: {', '.join(players)})")
    return name


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
    for name, tiles in value["hands"].items():
        at = pointer_join(where, "hands", name)
        _player(name, players, at, source)
        hands[name] = tuple(_tile(t, tileset, pointer_join(at, i), source)
                            for i, t in enumerate(tiles))
    deck = tuple(_tile(t, tileset, pointer_join(where, "deck", i), source)
                 for i, t in enumerate(value["deck"]))
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
    return Exploration(start, hands, deck, tuple(turns), where)
