"""Dungeon and solo records as values (spec section 6): their types, and the validation of a
decoded record (a JSON value, or the one a ``.dgn`` line stands for) with errors naming file,
line and JSON pointer. :mod:`pathcheck.inputs.records` reads them from files.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pathcheck.errors import RecordError, TileSetError, json_value
from pathcheck.reading.bounded import MAX_NAME, MAX_PLAYERS, MAX_TILESET_TILES, brief
from pathcheck.reading.meant_for import DUNGEON_FORMAT as DUNGEON_FORMAT
from pathcheck.reading.meant_for import SOLO_FORMAT as SOLO_FORMAT
from pathcheck.tracer.check import LostCard
from pathcheck.tracer.dungeon import Placement
from pathcheck.tracer.geometry import Direction
from pathcheck.tracer.tileset import REPEAT_KINDS, TileSet, load_tileset, resolve_tileset

_LOG_FORMAT = re.compile(r"[a-z][a-z-]*/[0-9]+")
"""The ``format`` of a game log (``game/1``, ``memo-dice/1``), which ``adjudicate`` reads."""
ALL_RULES = frozenset({1, 2, 3, 4})
DUNGEON_KEYS = frozenset({"format", "tileset", "advanced", "rules", "tiles", "players", "lost",
                          "id", "note"})
SOLO_KEYS = frozenset({"format", "seed", "rules", "tileset", "dungeons", "id", "note"})
_DIRS = {d.name: d for d in Direction}


@dataclass(frozen=True)
class Overrides:
    """Command-line settings that override (or complete) what records say."""

    rules: frozenset[int] | None = None
    advanced: bool | None = None
    tileset: str | None = None


NO_OVERRIDES = Overrides()
"""What records say, unchanged (the default of the readers)."""


@dataclass(frozen=True)
class DungeonRecord:
    """A validated ``dungeon/1`` record and where it came from."""

    tiles: tuple[Placement, ...]
    rules: frozenset[int] = frozenset()
    advanced: bool = False
    tileset: TileSet | None = None
    players: tuple[str, ...] | None = None
    lost: tuple[LostCard, ...] = ()
    source: str = "<memory>"
    line: int = 1
    pointer: str = ""


@dataclass(frozen=True)
class SoloRecord:
    """A validated ``solo/1`` record: its dungeons in the order played."""

    dungeons: tuple[tuple[Placement, ...], ...]
    rules: frozenset[int] = frozenset()
    seed: str | None = None
    tileset: TileSet | None = None
    source: str = "<memory>"
    line: int = 1
    pointer: str = ""
    rules_stated: bool = True
    """False when neither the record (``"rules"``, a ``#! rules=`` line) nor the command line
    gave the rules: a seed code then sets them (its own ``seed``, or ``solo check CODE``)."""

    @property
    def tile_ids(self) -> list[str]:
        return [p.tile for d in self.dungeons for p in d]


Record = DungeonRecord | SoloRecord


class _Ctx:
    """Where a record came from, to build errors that name file, line and pointer."""

    def __init__(self, source: str, line: int, pointer: str) -> None:
        self.source, self.line, self.pointer = source, line, pointer

    def error(self, where: str, message: str) -> RecordError:
        return RecordError(self.source, self.line, self.pointer + where, message)


def _tileset(ctx: _Ctx, value: Any, base: Path | None) -> TileSet:
    try:
        return resolve_tileset(value, beside=base)
    except TileSetError as exc:
        raise ctx.error("/tileset", str(exc)) from None


def _command_line_tileset(ctx: _Ctx, value: str) -> TileSet:
    """``--tileset``: any file the user names (not restricted like a record's)."""
    try:
        return load_tileset(value)
    except TileSetError as exc:
        raise ctx.error("/tileset", str(exc)) from None


def _rules(ctx: _Ctx, value: Any, allowed: frozenset[int]) -> frozenset[int]:
    if value is None:
        return frozenset()
    if not isinstance(value, list):
        raise ctx.error("/rules", f"expected a list of rule numbers, got {json_value(value)}")
    seen: set[int] = set()
    for i, rule in enumerate(value):
        if isinstance(rule, bool) or not isinstance(rule, int) or rule not in allowed:
            numbers = ", ".join(str(r) for r in sorted(allowed))
            raise ctx.error(f"/rules/{i}",
                            f"expected one of the rules {numbers}, got {json_value(rule)}")
        if rule in seen:
            raise ctx.error(f"/rules/{i}", f"rule {rule} is listed twice")
        seen.add(rule)
    return frozenset(seen)


def _placements(
    ctx: _Ctx, value: Any, where: str, tileset: TileSet, advanced: bool, seen: dict[str, str]
) -> tuple[Placement, ...]:
    if not isinstance(value, list) or not value:
        raise ctx.error(where, "expected a non-empty list of placements {\"tile\", \"dir\"}")
    if len(value) > MAX_TILESET_TILES:
        raise ctx.error(where, f"{len(value)} placements: more than the limit of "
                               f"{MAX_TILESET_TILES} tiles in a dungeon")
    out: list[Placement] = []
    for i, item in enumerate(value):
        at = f"{where}/{i}"
        if not isinstance(item, dict):
            raise ctx.error(at, f"expected a placement {{\"tile\": ID, \"dir\": N|E|S|W}}, "
                                f"got {json_value(item)}")
        extra = sorted(str(k) for k in set(item) - {"tile", "dir"})
        if extra:
            raise ctx.error(f"{at}/{extra[0]}", "unknown field (expected tile, dir)")
        tile_id = item.get("tile")
        if not isinstance(tile_id, str):
            raise ctx.error(f"{at}/tile", f"expected a tile id, got {json_value(tile_id)}")
        if tile_id not in tileset:
            raise ctx.error(f"{at}/tile",
                            f"unknown tile {brief(tile_id)} (not in tile set {tileset.name!r})")
        tile = tileset[tile_id]
        if tile.advanced_only and not advanced:
            what = "a Repeat tile" if tile.kind in REPEAT_KINDS else "an advanced-only tile"
            raise ctx.error(f"{at}/tile", f"{tile_id} is {what}: it needs the advanced rules "
                                          "(\"advanced\": true or --advanced)")
        if tile_id in seen:
            raise ctx.error(f"{at}/tile", f"tile {tile_id} is placed twice (first at "
                                          f"{seen[tile_id]})")
        seen[tile_id] = ctx.pointer + at
        direction = item.get("dir")
        if not isinstance(direction, str) or direction not in _DIRS:
            raise ctx.error(f"{at}/dir", f"expected N, E, S or W, got {json_value(direction)}")
        out.append(Placement(tile_id, _DIRS[direction]))
    return tuple(out)


def _check_keys(ctx: _Ctx, value: Mapping[str, Any], allowed: frozenset[str]) -> None:
    extra = sorted(str(k) for k in set(value) - allowed)
    if extra:
        raise ctx.error(f"/{extra[0]}", f"unknown field (expected {', '.join(sorted(allowed))})")


def _head(
    ctx: _Ctx,
    value: Any,
    fmt: str,
    keys: frozenset[str],
    allowed_rules: frozenset[int],
    overrides: Overrides,
    base: Path | None,
    *,
    format_required: bool,
) -> tuple[TileSet, frozenset[int]]:
    """What every record checks first: an object of that format with known fields; its tile
    set and additional rules (command-line overrides first)."""
    what = fmt.split("/", 1)[0]
    if not isinstance(value, dict):
        raise ctx.error("", f"expected a {what} record (a JSON object), got "
                            f"{json_value(value)}")
    found = value.get("format", None if format_required else fmt)
    if found != fmt:
        hint = ""
        if (isinstance(found, str) and found not in (DUNGEON_FORMAT, SOLO_FORMAT)
                and _LOG_FORMAT.fullmatch(found)):  # game/1, memoarrr/1, ...
            hint = ": a game log, not a dungeon record: rule on it with 'pathcheck adjudicate'"
        raise ctx.error("/format", f"expected \"{fmt}\", got {json_value(found)}{hint}")
    _check_keys(ctx, value, keys)
    tileset = (_command_line_tileset(ctx, overrides.tileset) if overrides.tileset is not None
               else _tileset(ctx, value.get("tileset"), base))
    rules = (overrides.rules if overrides.rules is not None
             else _rules(ctx, value.get("rules"), allowed_rules))
    return tileset, rules


def parse_dungeon_record(
    value: Any,
    *,
    source: str,
    line: int,
    pointer: str = "",
    overrides: Overrides = Overrides(),
    base: Path | None = None,
) -> DungeonRecord:
    """Validate a decoded ``dungeon/1`` record; RecordError names the first problem."""
    ctx = _Ctx(source, line, pointer)
    tileset, rules = _head(ctx, value, DUNGEON_FORMAT, DUNGEON_KEYS, ALL_RULES, overrides, base,
                           format_required=False)
    advanced = value.get("advanced", False)
    if not isinstance(advanced, bool):
        raise ctx.error("/advanced", f"expected true or false, got {json_value(advanced)}")
    if overrides.advanced is not None:
        advanced = overrides.advanced
    if 4 in rules and not advanced:
        raise ctx.error("/rules", "additional rule #4 is for the advanced rules only "
                                  "(set \"advanced\": true)")
    tiles = _placements(ctx, value.get("tiles"), "/tiles", tileset, advanced, {})
    players: tuple[str, ...] | None = None
    raw_players = value.get("players")
    if raw_players is not None:
        if not isinstance(raw_players, list):
            raise ctx.error("/players", "expected a list of player names")
        if len(raw_players) > MAX_PLAYERS:
            raise ctx.error("/players", f"{len(raw_players)} players: more than the limit of "
                                        f"{MAX_PLAYERS}")
        for i, name in enumerate(raw_players):
            if not isinstance(name, str) or not name:
                raise ctx.error(f"/players/{i}", f"expected a player name, got {json_value(name)}")
            if len(name) > MAX_NAME:
                raise ctx.error(f"/players/{i}", f"a name of {len(name)} characters: longer "
                                                 f"than the limit of {MAX_NAME}")
            if raw_players.index(name) != i:
                raise ctx.error(f"/players/{i}", f"player {brief(name)} is listed twice")
        players = tuple(raw_players)
    lost = _lost_cards(ctx, value.get("lost"), len(tiles), players, rules)
    return DungeonRecord(tiles, rules, advanced, tileset, players, lost, source, line, pointer)


def _lost_cards(
    ctx: _Ctx, value: Any, count: int, players: tuple[str, ...] | None, rules: frozenset[int]
) -> tuple[LostCard, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ctx.error("/lost", "expected a list of LOST cards {\"player\", \"after\"}")
    if len(value) > MAX_PLAYERS:
        raise ctx.error("/lost", f"{len(value)} LOST cards: more than the limit of {MAX_PLAYERS} "
                                 "players (one card each)")
    cards: list[LostCard] = []
    owners: set[str] = set()
    tiles_with_card: set[int] = set()
    for i, item in enumerate(value):
        at = f"/lost/{i}"
        if not isinstance(item, dict) or set(item) != {"player", "after"}:
            raise ctx.error(at, "expected a LOST card {\"player\": NAME, \"after\": K}")
        name, after = item["player"], item["after"]
        if not isinstance(name, str) or not name:
            raise ctx.error(f"{at}/player", f"expected a player name, got {json_value(name)}")
        if len(name) > MAX_NAME:
            raise ctx.error(f"{at}/player", f"a name of {len(name)} characters: longer than the "
                                            f"limit of {MAX_NAME}")
        if players is not None and name not in players:
            raise ctx.error(f"{at}/player", f"{brief(name)} is not among the players")
        if name in owners:
            raise ctx.error(f"{at}/player", f"{name} has two LOST cards")
        owners.add(name)
        if isinstance(after, bool) or not isinstance(after, int) or not 1 <= after <= count:
            raise ctx.error(f"{at}/after", f"expected a tile index from 1 to {count}, "
                                           f"got {json_value(after)}")
        if 1 in rules and after in tiles_with_card:
            raise ctx.error(f"{at}/after", f"rule #1 is on and two LOST cards lie on tile "
                                           f"{after}: only a game log knows whose counts")
        tiles_with_card.add(after)
        cards.append(LostCard(name, after))
    return tuple(cards)


def parse_solo_record(
    value: Any,
    *,
    source: str,
    line: int,
    pointer: str = "",
    overrides: Overrides = Overrides(),
    base: Path | None = None,
) -> SoloRecord:
    """Validate a decoded ``solo/1`` record; RecordError names the first problem.

    Completeness (all 38 tiles, START first) is not checked here: the solo check rules on it.
    """
    ctx = _Ctx(source, line, pointer)
    tileset, rules = _head(ctx, value, SOLO_FORMAT, SOLO_KEYS, frozenset({2, 3, 4}), overrides,
                           base, format_required=True)
    if 1 in rules:
        raise ctx.error("/rules", "additional rule #1 does not apply to solo play")
    seed = value.get("seed")
    if seed is not None and not isinstance(seed, str):
        raise ctx.error("/seed", f"expected a seed code (a string), got {json_value(seed)}")
    stated = overrides.rules is not None or "rules" in value
    if not stated and seed is not None:
        rules = _seed_rules(seed, rules)
    raw = value.get("dungeons")
    if not isinstance(raw, list) or not raw:
        raise ctx.error("/dungeons", "expected a non-empty list of dungeons (lists of placements)")
    seen: dict[str, str] = {}
    dungeons = tuple(_placements(ctx, d, f"/dungeons/{i}", tileset, True, seen)
                     for i, d in enumerate(raw))
    return SoloRecord(dungeons, rules, seed, tileset, source, line, pointer, stated)


def _seed_rules(seed: str, rules: frozenset[int]) -> frozenset[int]:
    """The rules a seed code sets (``rules`` if it is no code: the seed check says why)."""
    from pathcheck.solo.seed_codes import SeedCode, SeedCodeError

    try:
        return SeedCode.parse(seed).rules
    except SeedCodeError:
        return rules
