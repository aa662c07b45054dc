"""The log formats of dungeon in memory, and reading a ``game/1`` log into typed values.

A ``solo/1`` record is read by :func:`pathcheck.inputs.records.parse_solo_record` (the engine's
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
from typing import Annotated, Any, Literal, NamedTuple

import msgspec
from msgspec import UNSET, Meta, UnsetType

from pathcheck.errors import RecordError, TileSetError, pointer_join
from pathcheck.games.common import check_player, log_folder
from pathcheck.inputs.logformat import LogFormat, unique
from pathcheck.inputs.records import SoloRecord, parse_solo_record
from pathcheck.tracer.dungeon import Placement
from pathcheck.tracer.geometry import Direction
from pathcheck.tracer.tileset import BUILTIN, TileSet, resolve_tileset

GAME_FORMAT = "game/1"
SOLO_FORMAT = "solo/1"
GAME_SCHEMA = "game"
SOLO_SCHEMA = "solo"
FORMATS = (GAME_FORMAT, SOLO_FORMAT)
"""The ``format`` values this game reads: multiplayer game logs and solo records."""
SCHEMAS = (GAME_SCHEMA, SOLO_SCHEMA)
"""The JSON Schemas it publishes (``pathcheck schema NAME``)."""

# --- the formats, as typed structures (the JSON Schemas are generated from them) ----------

Name = Annotated[str, Meta(min_length=1)]
TileId = Annotated[str, Meta(min_length=1, description="A tile id of the tile set, e.g. R4.")]
Dir = Literal["N", "E", "S", "W"]
TileSetName = Annotated[str, Meta(
    min_length=1, description="A built-in tile-set name or a tile-set TOML file path "
                              "(default: standard).")]
Note = Annotated[str, Meta(description="Free text, ignored.")]


# The game/1 structs are not tracked by the garbage collector either (gc=False, as the solo
# ones below): decoded JSON holds no cycle, and a log makes dozens of them.
class TurnEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """One turn: the active player's placement, the draw, the Lost announcements after it."""

    player: Name
    tile: TileId
    dir: Dir
    draw: Annotated[TileId | None, Meta(
        description="Optional: the tile drawn after placing (null: the deck was empty). When "
                    "given it must be the top of the deck.")] | UnsetType = UNSET
    lost: Annotated[tuple[Name, ...], Meta(
        description="The players who announced Lost after this tile, in the order announced "
                    "(default none). With rule #1 all who spoke are listed; the adjudicator "
                    "keeps the one with priority.")] = ()
    simultaneous: Annotated[bool, Meta(
        description="Optional, for several players in lost with rule #1: true if they "
                    "announced Lost at the same moment (the earliest in turn order after the "
                    "active player has priority), false if one after the other (the first "
                    "announcement stands, the later ones are void). Left out: read as "
                    "simultaneous.")] | UnsetType = UNSET
    note: Note = ""


class ExplorationEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """One exploration: the start player, the deal and the turns."""

    start_player: Name
    turns: tuple[TurnEntry, ...]
    hands: Annotated[dict[str, tuple[TileId, ...]], Meta(
        description="Optional: each player's hand as dealt, player -> tile ids. Leave it out "
                    "when the deal was not seen; the rules that need it are then not "
                    "checked, and the ruling says so.")] | UnsetType = UNSET
    deck: Annotated[tuple[TileId, ...], Meta(
        description="Optional: the deck after the deal, top first. Leave it out when it was "
                    "not seen; draws are then not checked.")] | UnsetType = UNSET
    note: Note = ""


class GameEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """A ``game/1`` log as written."""

    format: Literal["game/1"]
    players: Annotated[tuple[Name, ...], Meta(
        min_length=2, max_length=5, description="Player names in clockwise seat order.")]
    explorations: Annotated[tuple[ExplorationEntry, ...], Meta(min_length=1)]
    advanced: Annotated[bool, Meta(
        description="Advanced rules: Repeat tiles in play, hands of 2 (default false: hands "
                    "of 3).")] = False
    rules: Annotated[tuple[Literal[1, 2, 3, 4], ...], Meta(
        description="Additional rules in play (#4 needs the advanced rules).")] = ()
    tileset: TileSetName | UnsetType = UNSET
    id: Annotated[str, Meta(description="Free identifier of the log, ignored.")] = ""
    note: Note = ""


# The solo structs are not tracked by the garbage collector (gc=False): they hold only strings
# and tuples, never a cycle, and a record makes dozens of them.
class PlacementEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """One tile of a solo dungeon: its id and the direction its arrow points."""

    tile: Name
    dir: Dir


class SoloEntry(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """A ``solo/1`` record as written."""

    format: Literal["solo/1"]
    dungeons: Annotated[tuple[Annotated[tuple[PlacementEntry, ...], Meta(min_length=1)], ...],
                        Meta(min_length=1, description="Every dungeon in the order played, "
                                                       "each bottom tile first.")]
    rules: Annotated[tuple[Literal[2, 3, 4], ...], Meta(
        description="Additional rules in play (#1 does not apply to solo play); each adds 4 "
                    "points with no failure.")] = ()
    tileset: TileSetName | UnsetType = UNSET
    seed: Annotated[str, Meta(
        description="The solo-challenge seed code the deck came from, if any.")] | UnsetType \
        = UNSET
    id: Annotated[str, Meta(description="Free identifier, ignored.")] = ""
    note: Note = ""


_UNIQUE = {"uniqueItems": True}
GAME_LOG = LogFormat(
    GAME_SCHEMA, GameEntry,
    title="dungeon in memory game log (game/1)",
    description="A recorded multiplayer game of dungeon in memory (spec section 6): the players "
                "in clockwise order, the mode, and every exploration with its deal and turns. "
                "The Start tile is not dealt: it lies in the middle with its arrow north and is "
                "tile 1 of every dungeon.",
    extras={"/properties/players": _UNIQUE, "/properties/rules": _UNIQUE},
)
SOLO_RECORD = LogFormat(
    SOLO_SCHEMA, SoloEntry,
    title="dungeon in memory solo record (solo/1)",
    description="A recorded solo game (spec sections 5 and 6): every dungeon in the order "
                "played, each a list of placements bottom to top. The tiles of all dungeons "
                "together are the whole tile set, START first.",
    extras={"/properties/rules": _UNIQUE},
)
LOG_FORMATS = (GAME_LOG, SOLO_RECORD)
"""The formats, in the order of :data:`FORMATS`."""


class Turn(msgspec.Struct, frozen=True, gc=False):
    """One turn as recorded: the active player's placement, the draw (if recorded) and the
    announcements after it, in the order announced. (A frozen msgspec Struct, the cheapest
    value to make: logs have many turns. It holds no cycle, so the GC need not track it.)"""

    player: str
    placement: Placement
    lost: tuple[str, ...]
    draw: str | None
    draw_recorded: bool
    turns_at: str
    """The JSON pointer of the exploration's turns and a slash, ``/explorations/0/turns/``."""
    index: int
    """The turn's 0-based index in them."""
    simultaneous: bool | None = None
    """Whether several announcements of the turn were simultaneous (None: the log does not
    say; read as simultaneous)."""

    @property
    def pointer(self) -> str:
        """The turn's JSON pointer (made only when a message needs it)."""
        return f"{self.turns_at}{self.index}"


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
    """Check and read a ``solo/1`` record; RecordError (with ``line`` None) if malformed."""
    entry = SOLO_RECORD.read(log, source=source)
    unique(entry.rules, source=source, pointer="/rules")
    try:
        return parse_solo_record(log, source=source, line=0, base=log_folder(source))
    except RecordError as exc:
        raise RecordError(source, None, exc.pointer, exc.message) from None


def read_game_log(log: Mapping[str, Any], *, source: str) -> GameLog:
    """Check ``log`` against the ``game/1`` format and read it; RecordError if malformed."""
    return read_game_entry(GAME_LOG.read(log, source=source), source=source)


def log_tileset(name: object, source: str) -> TileSet:
    """The tile set the log ``source`` names (:func:`~pathcheck.tracer.tileset.resolve_tileset`: a
    built-in set or a file in the log's own folder), for its ruling and for the recorder's
    completion alike; TileSetError otherwise."""
    # Only a file is looked for beside the log: a built-in name needs no folder (whose
    # look-up is a system call per log).
    return resolve_tileset(name, beside=None if name is None or name in BUILTIN
                           else log_folder(source))


def read_game_entry(entry: GameEntry, *, source: str) -> GameLog:
    """A ``game/1`` log already in its typed form (:data:`GAME_LOG`), checked and read as
    :func:`read_game_log` reads it."""
    players = entry.players
    unique(players, source=source, pointer="/players")
    unique(entry.rules, source=source, pointer="/rules")
    rules = frozenset(entry.rules)
    if 4 in rules and not entry.advanced:
        raise RecordError(source, None, "/rules",
                          "additional rule #4 is for the advanced rules only "
                          "(set \"advanced\": true)")
    name = None if entry.tileset is UNSET else entry.tileset
    try:
        tileset = log_tileset(name, source)
    except TileSetError as exc:
        raise RecordError(source, None, "/tileset", str(exc)) from None
    placements = _placements(tileset)
    explorations = tuple(
        _exploration(value, f"/explorations/{i}", players, tileset, placements, source)
        for i, value in enumerate(entry.explorations)
    )
    return GameLog(players, entry.advanced, rules, tileset, explorations)


class _Placements(NamedTuple):
    """Every placement of a tile set (direction letter -> tile id -> the one Placement) and
    its tile ids."""

    by_dir: Mapping[str, Mapping[str, Placement]]
    ids: frozenset[str]


_by_tileset: dict[int, tuple[TileSet, _Placements]] = {}


def _placements(tileset: TileSet) -> _Placements:
    """The placements of ``tileset``, made once (a turn then looks its placement up instead
    of building one: logs have many turns). Found by identity, as the compiled tracer tables
    are (:func:`pathcheck.tracer.fast.compile_tileset`).

    >>> _placements(resolve_tileset(None)).by_dir["E"]["R1"]
    Placement(tile='R1', dir=<Direction.E: 1>)
    """
    hit = _by_tileset.get(id(tileset))
    if hit is not None and hit[0] is tileset:
        return hit[1]
    table = _Placements({d.name: {t.id: Placement(t.id, d) for t in tileset} for d in Direction},
                        frozenset(t.id for t in tileset))
    _by_tileset[id(tileset)] = (tileset, table)  # holding the set keeps its id unique
    return table


def _player(name: str, players: tuple[str, ...], where: str, source: str) -> str:
    return check_player(name, players, source=source, pointer=where)


def _tile(tile_id: str, tileset: TileSet, where: str, source: str) -> str:
    if tile_id not in tileset:
        raise _unknown_tile(tile_id, tileset, where, source)
    return tile_id


def _unknown_tile(tile_id: str, tileset: TileSet, where: str, source: str) -> RecordError:
    return RecordError(source, None, where,
                       f"unknown tile {tile_id!r} (not in tile set {tileset.name!r})")


def _exploration(
    value: ExplorationEntry, where: str, players: tuple[str, ...], tileset: TileSet,
    placements: _Placements, source: str,
) -> Exploration:
    start = _player(value.start_player, players, where + "/start_player", source)
    known = placements.ids
    hands: dict[str, tuple[str, ...]] = {}
    hands_recorded = value.hands is not UNSET
    deck_recorded = value.deck is not UNSET
    for name, tiles in (value.hands.items() if isinstance(value.hands, dict) else ()):
        if name not in players:
            _player(name, players, pointer_join(where, "hands", name), source)
        if not known.issuperset(tiles):  # then find the first unknown tile
            for i, tile_id in enumerate(tiles):
                _tile(tile_id, tileset, pointer_join(where, "hands", name, i), source)
        hands[name] = tiles
    deck: tuple[str, ...] = value.deck if isinstance(value.deck, tuple) else ()
    if not known.issuperset(deck):
        for i, tile_id in enumerate(deck):
            _tile(tile_id, tileset, pointer_join(where, "deck", i), source)
    turns = []
    prefix = where + "/turns/"
    by_dir = placements.by_dir
    for t, turn in enumerate(value.turns):
        player = turn.player
        if player not in players:
            _player(player, players, f"{prefix}{t}/player", source)
        placement = by_dir[turn.dir].get(turn.tile)
        if placement is None:
            raise _unknown_tile(turn.tile, tileset, f"{prefix}{t}/tile", source)
        lost = turn.lost
        if lost:
            for i, name in enumerate(lost):
                if name not in players:
                    _player(name, players, pointer_join(f"{prefix}{t}", "lost", i), source)
        draw = turn.draw
        together = None if turn.simultaneous is UNSET else turn.simultaneous
        if draw is UNSET:
            turns.append(Turn(player, placement, lost, None, False, prefix, t, together))
            continue
        if draw is not None and draw not in known:
            _tile(draw, tileset, f"{prefix}{t}/draw", source)
        turns.append(Turn(player, placement, lost, draw, True, prefix, t, together))
    return Exploration(start, hands, deck, tuple(turns), where,
                       hands_recorded=hands_recorded, deck_recorded=deck_recorded)
