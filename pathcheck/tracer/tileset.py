"""Tile kinds, their paths (the one definition), and tile sets loaded from TOML.

Every tile kind's paths are pairs of edge ports in the tile's own frame (arrow north, the
primary path entering through the south edge). Everything else derives from
:data:`KIND_PATHS`: the networkx tile graphs, the reference tracer and the fast tracer's tables.

>>> ts = load_tileset()
>>> ts["R1"].kind, ts["R1"].ghost
(<TileKind.RIGHT: 'right'>, 'shade')
>>> len(ts.ids_for(advanced=False)), len(ts.ids_for(advanced=True))
(34, 38)
"""

from __future__ import annotations

import enum
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pathcheck.errors import IOFailure, RecordError, TileSetError, json_value
from pathcheck.reading.bounded import (
    MAX_NAME,
    MAX_TILESET_BYTES,
    MAX_TILESET_TILES,
    UnfitFile,
    brief,
    read_regular,
)
from pathcheck.tracer.geometry import Direction

if TYPE_CHECKING:
    import networkx as nx

N, E, S, W = Direction.N, Direction.E, Direction.S, Direction.W


class TileKind(enum.Enum):
    STRAIGHT = "straight"
    LEFT = "left"
    RIGHT = "right"
    CROSS = "cross"
    BEND_RIGHT = "bend-right"
    BEND_LEFT = "bend-left"
    REPEAT = "repeat"


Path_ = tuple[Direction, Direction]

KIND_PATHS: Mapping[TileKind, tuple[Path_, ...]] = {
    TileKind.STRAIGHT: ((S, N),),
    TileKind.LEFT: ((S, W),),
    TileKind.RIGHT: ((S, E),),
    TileKind.CROSS: ((S, N), (W, E)),
    TileKind.BEND_RIGHT: ((S, E), (W, N)),
    TileKind.BEND_LEFT: ((S, W), (E, N)),
    # The Repeat tile has no fixed path: it enters at S and repeats the last movement.
    TileKind.REPEAT: (),
}
"""The paths of each kind, tile frame; the first is the primary (arrowed) path, from S."""

REPEAT_KINDS = frozenset({TileKind.REPEAT})
"""Kinds that turn by the last movement instead of following a fixed path."""

TILE_ID_FORBIDDEN = set("@!|#") | set(" \t\r\n")
"""Characters a tile id may not contain (they are syntax in the compact notation)."""


@dataclass(frozen=True)
class Tile:
    """One physical tile of a set."""

    id: str
    kind: TileKind
    ghost: str | None = None
    advanced_only: bool = False

    @property
    def paths(self) -> tuple[Path_, ...]:
        return KIND_PATHS[self.kind]


@dataclass(frozen=True)
class TileSet:
    """A named collection of tiles; ``start`` is the id of the Start tile."""

    name: str
    tiles: tuple[Tile, ...]
    start: str = "START"
    description: str = ""
    source: str = "<built-in>"
    _by_id: dict[str, Tile] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_id.update((t.id, t) for t in self.tiles)

    def __getitem__(self, tile_id: str) -> Tile:
        return self._by_id[tile_id]

    def __contains__(self, tile_id: object) -> bool:
        return tile_id in self._by_id

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles)

    def __len__(self) -> int:
        return len(self.tiles)

    def ids_for(self, advanced: bool) -> list[str]:
        """The ids in play in a mode (basic rules leave out advanced-only tiles)."""
        return [t.id for t in self.tiles if advanced or not t.advanced_only]

    def deck_ids(self, advanced: bool) -> list[str]:
        """The tiles shuffled into the deck of a mode: every tile in play but the Start tile."""
        return [i for i in self.ids_for(advanced) if i != self.start]


def tile_graph(kind: TileKind) -> nx.Graph[str]:
    """The paths of a kind as a networkx graph on its four edge ports (tile frame).

    Each edge carries ``primary`` (bool). A Repeat tile has the four ports and no edges.
    """
    import networkx as nx

    graph: nx.Graph[str] = nx.Graph(kind=kind.value)
    graph.add_nodes_from(d.name for d in Direction)
    for index, (a, b) in enumerate(KIND_PATHS[kind]):
        graph.add_edge(a.name, b.name, primary=index == 0)
    return graph


# --- loading -----------------------------------------------------------------------------

BUILTIN = ("standard",)


@cache
def load_tileset(name_or_path: str = "standard") -> TileSet:
    """Load a built-in set by name or a TOML file by path; TileSetError if it is unusable."""
    if name_or_path in BUILTIN:
        import pathcheck.tiles  # the data package (tiles/), found beside its __init__

        folder = Path(pathcheck.tiles.__file__).parent
        text = (folder / f"{name_or_path}.toml").read_text("utf-8")
        return parse_tileset(text, source=f"<built-in {name_or_path}>")
    path = Path(name_or_path)
    if not path.exists():
        raise TileSetError(
            f"{name_or_path}: no such tile-set file (built-in sets: {', '.join(BUILTIN)})"
        )
    from pathcheck.reading.text import read_text_file  # the one text reader: bounded, strict UTF-8

    try:
        text = read_text_file(name_or_path, regular=False)
    except (IOFailure, RecordError) as exc:
        raise TileSetError(f"cannot read tile set: {exc}") from None
    return parse_tileset(text, source=str(path))


def resolve_tileset(value: object, *, beside: Path | None = None) -> TileSet:
    """The tile set a record or game log names: a built-in set, or a TOML file inside the
    record's own folder ``beside`` (None: the current folder), a regular file of at most
    :data:`~pathcheck.reading.bounded.MAX_TILESET_BYTES`; TileSetError (one line) otherwise. Every
    reader of records and logs calls this one function.

    A record may come from anyone: it must not make pathcheck read other files, devices or
    FIFOs, nor tell whether they exist (``--tileset`` on the command line is not restricted).

    >>> resolve_tileset(None).name == resolve_tileset("standard").name
    True
    >>> resolve_tileset("/etc/passwd")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    pathcheck.errors.TileSetError: tile set '/etc/passwd': a record names a built-in set ...
    """
    if value is None:
        return load_tileset()
    if not isinstance(value, str) or not value:
        raise TileSetError(f"expected a tile-set name or path, got {json_value(value)}")
    if value in BUILTIN:
        return load_tileset(value)
    refused = TileSetError(f"tile set {brief(value)}: a record names a built-in set "
                           f"({', '.join(BUILTIN)}) or a .toml file inside its own folder")
    if len(value) > MAX_NAME or "\0" in value or not value.endswith(".toml"):
        raise refused
    root = (beside or Path.cwd()).resolve()
    try:
        path = (root / value).resolve()  # symbolic links followed: they must stay inside too
    except (OSError, RuntimeError):
        raise refused from None
    if root not in path.parents:
        raise refused
    return _load_capped(str(path), value)


@cache
def _load_capped(path: str, name: str) -> TileSet:
    """Read a regular file of at most MAX_TILESET_BYTES (never blocking on a FIFO)."""
    try:
        data = read_regular(path, MAX_TILESET_BYTES)
    except UnfitFile as exc:
        raise TileSetError(f"tile set {brief(name)}: {exc.reason}") from None
    except OSError:
        raise TileSetError(f"no tile set {brief(name)} beside the record (built-in: "
                           f"{', '.join(BUILTIN)})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise TileSetError(f"tile set {brief(name)}: not UTF-8 text") from None
    return parse_tileset(text, source=name)


def parse_tileset(text: str, source: str) -> TileSet:
    """Parse tile-set TOML (see tiles/standard.toml for the format)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TileSetError(f"{source}: not valid TOML: {exc}") from exc
    except RecursionError:  # tomllib recurses once per level of nested arrays or tables
        raise TileSetError(f"{source}: not a tile set: arrays or tables nested too "
                           "deeply") from None
    name = _expect(data, "name", str, source, "", default=Path(source).stem)
    start = _expect(data, "start", str, source, "", default="START")
    description = _expect(data, "description", str, source, "", default="")
    raw_tiles = data.get("tile")
    if not isinstance(raw_tiles, list) or not raw_tiles:
        raise TileSetError(f"{source}: /tile: expected one or more [[tile]] tables")
    if len(raw_tiles) > MAX_TILESET_TILES:
        raise TileSetError(f"{source}: /tile: {len(raw_tiles)} tiles: more than the limit of "
                           f"{MAX_TILESET_TILES} tiles in a tile set")
    tiles: list[Tile] = []
    seen: set[str] = set()
    kinds = ", ".join(k.value for k in TileKind)
    for index, raw in enumerate(raw_tiles):
        where = f"/tile/{index}"
        if not isinstance(raw, dict):
            raise TileSetError(f"{source}: {where}: expected a table")
        unknown = set(raw) - {"id", "kind", "ghost", "advanced_only"}
        if unknown:
            raise TileSetError(f"{source}: {where}: unknown key {sorted(unknown)[0]!r}")
        tile_id = _expect(raw, "id", str, source, where)
        if len(tile_id) > MAX_NAME:
            raise TileSetError(f"{source}: {where}/id: an id of {len(tile_id)} characters: "
                               f"longer than the limit of {MAX_NAME}")
        if not tile_id or TILE_ID_FORBIDDEN & set(tile_id):
            raise TileSetError(
                f"{source}: {where}/id: {tile_id!r} is not a usable id "
                "(non-empty, no spaces or any of @ ! | #)"
            )
        if tile_id in seen:
            raise TileSetError(f"{source}: {where}/id: tile id {tile_id!r} appears twice")
        seen.add(tile_id)
        kind_text = _expect(raw, "kind", str, source, where)
        try:
            kind = TileKind(kind_text)
        except ValueError:
            raise TileSetError(
                f"{source}: {where}/kind: unknown kind {kind_text!r} (expected one of {kinds})"
            ) from None
        ghost = _expect(raw, "ghost", str, source, where, default=None) or None
        advanced_only = _expect(raw, "advanced_only", bool, source, where, default=False)
        tiles.append(Tile(tile_id, kind, ghost, advanced_only))
    if start not in seen:
        raise TileSetError(f"{source}: /start: the start tile {start!r} is not in the set")
    start_tile = next(t for t in tiles if t.id == start)
    if start_tile.advanced_only:
        raise TileSetError(f"{source}: /start: the start tile cannot be advanced-only")
    return TileSet(name=name, tiles=tuple(tiles), start=start, description=description,
                   source=source)


def _expect(
    table: Mapping[str, Any], key: str, kind: type, source: str, where: str, **kw: Any
) -> Any:
    if key not in table:
        if "default" in kw:
            return kw["default"]
        raise TileSetError(f"{source}: {where}/{key}: missing (expected a {kind.__name__})")
    value = table[key]
    if not isinstance(value, kind):
        raise TileSetError(
            f"{source}: {where}/{key}: expected a {kind.__name__}, got {json_value(value)}"
        )
    return value
