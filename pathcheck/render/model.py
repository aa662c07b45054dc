"""The layout model both renderers draw: tiles, their paths, the path taken, the marks.

>>> from pathcheck.tracer.dungeon import parse_notation, trace
>>> view = build_view(trace(parse_notation("START@N L4@E"), with_passes=True))
>>> view.lost_cell, view.start_cell
((0, 1), (0, 0))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from pathcheck.tracer.constants import BOUND, AdditionalRule
from pathcheck.tracer.dungeon import TraceResult
from pathcheck.tracer.geometry import Cell, Direction
from pathcheck.tracer.tileset import KIND_PATHS, TileKind, TileSet, load_tileset

PortPair = frozenset[Direction]


@dataclass(frozen=True)
class TileView:
    index: int
    tile: str
    kind: TileKind
    dir: Direction
    paths: tuple[PortPair, ...]
    """Fixed paths of the tile, in absolute edge directions."""
    taken: frozenset[PortPair]
    """Port pairs the path went along (for a Repeat tile, the turns it made)."""


@dataclass(frozen=True)
class DungeonView:
    tiles: dict[Cell, TileView]
    start_cell: Cell | None
    lost_cell: Cell | None
    lost_index: int | None
    reason: str | None
    bound: int | None
    """Half-size of the square bound (4 for rule #2's 9x9), or None."""

    def extent(self, bound: bool = True) -> tuple[int, int, int, int]:
        """min x, min y, max x, max y of what must be drawn; ``bound=False``: the tiles laid
        and the Lost mark only (a replay page frames them and shows the bound as an edge
        where they reach it)."""
        xs = [c[0] for c in self.tiles] or [0]
        ys = [c[1] for c in self.tiles] or [0]
        if self.lost_cell is not None:
            xs.append(self.lost_cell[0])
            ys.append(self.lost_cell[1])
        if bound and self.bound is not None:
            xs += [-self.bound, self.bound]
            ys += [-self.bound, self.bound]
        return min(xs), min(ys), max(xs), max(ys)


PAIRS = [[frozenset({Direction(a), Direction(b)}) for b in range(4)] for a in range(4)]
"""Every pair of edges, made once (a page draws thousands of views)."""


@lru_cache(maxsize=256)
def tile_paths(kind: TileKind, direction: Direction) -> tuple[PortPair, ...]:
    """The paths of a tile kind turned to ``direction``, in absolute edge directions."""
    return tuple(PAIRS[(a + direction) % 4][(b + direction) % 4] for a, b in KIND_PATHS[kind])


def build_view(
    result: TraceResult, tileset: TileSet | None = None, rules: Iterable[int] = ()
) -> DungeonView:
    """The view of a traced dungeon (``result`` should carry passes; else no path is bold)."""
    ts = tileset or load_tileset()
    taken: dict[Cell, set[PortPair]] = {}
    for p in result.passes:
        taken.setdefault((p.x, p.y), set()).add(PAIRS[(p.entry + 2) % 4][p.exit])
    tiles: dict[Cell, TileView] = {}
    for index, placed in enumerate(result.layout, start=1):
        cell = (placed.x, placed.y)
        kind = ts[placed.tile].kind
        tiles[cell] = TileView(index, placed.tile, kind, placed.dir, tile_paths(kind, placed.dir),
                               frozenset(taken.get(cell, ())))
    lost_cell = None
    if result.lost_at is not None and len(result.layout) >= result.lost_at:
        last = result.layout[result.lost_at - 1]
        lost_cell = (last.x, last.y)
    start = (result.layout[0].x, result.layout[0].y) if result.layout else None
    return DungeonView(tiles, start, lost_cell, result.lost_at,
                       None if result.reason is None else result.reason.value,
                       BOUND if AdditionalRule.BOUND in AdditionalRule.of(rules) else None)

