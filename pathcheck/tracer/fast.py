"""The fast tracer: the rules of spec section 3 run on compiled integer tables.

It never imports networkx. :func:`compile_tileset` turns
:data:`~pathcheck.tracer.tileset.KIND_PATHS` into flat lookup tables once per tile set;
:func:`trace_indices` traces one dungeon given as tile indices and directions. Cells and
edges are packed into integers so that the walk is dictionary look-ups and additions only.

Reason codes are small ints (see :data:`REASONS`); the public API in
:mod:`pathcheck.tracer.dungeon` turns them into :class:`~pathcheck.tracer.dungeon.LostReason`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from pathcheck.tracer.constants import (  # noqa: F401  (REASONS and the codes are re-exported)
    BOUND,
    DEAD_END,
    GHOST_FIVE,
    GHOST_LIMIT,
    GHOST_TWICE,
    HELD,
    LOOP,
    MISPLACED,
    OUT_OF_BOUNDS,
    REASONS,
    REVERSE,
    AdditionalRule,
)
from pathcheck.tracer.geometry import Direction
from pathcheck.tracer.tileset import KIND_PATHS, REPEAT_KINDS, TileKind, TileSet

RULE_BOUND, RULE_GHOST_FIVE, RULE_GHOST_TWICE = (
    int(AdditionalRule.BOUND), int(AdditionalRule.GHOST_FIVE), int(AdditionalRule.GHOST_TWICE))

# Cells are packed as (x + OFFSET) * WIDTH + (y + OFFSET); a dungeon of at most a few hundred
# tiles never leaves that square.
WIDTH = 1024
OFFSET = 512
ORIGIN = OFFSET * WIDTH + OFFSET
STEP = (1, WIDTH, -1, -WIDTH)  # N, E, S, W
# The edge crossed when leaving cell c heading h is 2*c + EDGE_KEY[h]: north and east edges
# belong to their cell (+0 / +1), south and west ones to the neighbour's.
EDGE_KEY = (0, 1, -2, -2 * WIDTH + 1)
SIGN = (1, 1, -1, -1)

REPEAT_CODE = -2
DEAD_CODE = -1


@dataclass(frozen=True)
class CompiledTileSet:
    """Flat tables for one tile set.

    ``exit_table[(kind * 4 + dir) * 4 + heading]`` is the heading after entering a tile of
    that kind lying with that arrow direction while travelling ``heading``: a direction 0-3,
    ``DEAD_CODE`` (no path ends at that edge) or ``REPEAT_CODE``.
    """

    ids: tuple[str, ...]
    index: dict[str, int]
    kind_of: tuple[int, ...]
    ghost_of: tuple[int, ...]
    primary_move: tuple[int, ...]
    is_repeat: tuple[bool, ...]
    kinds: tuple[TileKind, ...]
    exit_table: tuple[int, ...]


def kind_exit_table(kinds: Sequence[TileKind]) -> tuple[int, ...]:
    """The exit table derived from KIND_PATHS (see CompiledTileSet)."""
    table: list[int] = []
    for kind in kinds:
        for arrow in range(4):
            for heading in range(4):
                if kind in REPEAT_KINDS:
                    table.append(REPEAT_CODE)
                    continue
                entry_edge = (heading + 2 - arrow) % 4  # edge entered, in the tile's frame
                exit_heading = DEAD_CODE
                for a, b in KIND_PATHS[kind]:
                    if a == entry_edge:
                        exit_heading = (b + arrow) % 4
                    elif b == entry_edge:
                        exit_heading = (a + arrow) % 4
                table.append(exit_heading)
    return tuple(table)


_by_identity: dict[int, tuple[TileSet, CompiledTileSet]] = {}


def compile_tileset(tileset: TileSet) -> CompiledTileSet:
    """The tables of ``tileset``, compiled once. Looked up by identity first: hashing a tile
    set hashes every tile, which costs more than a short trace (game logs trace thousands)."""
    hit = _by_identity.get(id(tileset))
    if hit is not None and hit[0] is tileset:
        return hit[1]
    compiled = _compile_tileset(tileset)
    _by_identity[id(tileset)] = (tileset, compiled)  # holding the set keeps its id unique
    return compiled


@cache
def _compile_tileset(tileset: TileSet) -> CompiledTileSet:
    kinds = tuple(TileKind)
    ghosts: dict[str, int] = {}
    ids = tuple(t.id for t in tileset)
    primary_move = []
    for kind in kinds:
        paths = KIND_PATHS[kind]
        if paths:
            a, b = paths[0]
            assert a == Direction.S, "primary paths enter through the south edge"
            primary_move.append((b - Direction.N) % 4)
        else:
            primary_move.append(0)
    return CompiledTileSet(
        ids=ids,
        index={tile_id: i for i, tile_id in enumerate(ids)},
        kind_of=tuple(kinds.index(t.kind) for t in tileset),
        ghost_of=tuple(-1 if t.ghost is None else ghosts.setdefault(t.ghost, len(ghosts))
                       for t in tileset),
        primary_move=tuple(primary_move),
        is_repeat=tuple(k in REPEAT_KINDS for k in kinds),
        kinds=kinds,
        exit_table=kind_exit_table(kinds),
    )


def unpack(cell: int) -> tuple[int, int]:
    return cell // WIDTH - OFFSET, cell % WIDTH - OFFSET


def trace_indices(
    compiled: CompiledTileSet,
    tiles: Sequence[int],
    dirs: Sequence[int] | None,
    rules: int = 0,
    initial_move: int = 0,
    arrows_out: list[int] | None = None,
    passes_out: list[tuple[int, int, int]] | None = None,
) -> tuple[int, int, list[int], int]:
    """Trace a dungeon of tile indices and directions (0-3).

    With ``dirs`` None every tile is laid perfectly (its arrow along the heading, the first
    one north) and the trace stops at the Lost point: that is perfect solo play. The arrows
    used are appended to ``arrows_out`` when it is given, and every pass over a tile
    ``(cell, heading in, heading out)`` to ``passes_out`` (for drawing the path taken).

    Returns ``(lost_at, reason, cells, last_move)``: ``lost_at`` is the 1-based index of the
    tile that made the dungeon Lost (0 if it holds), ``reason`` a code of :data:`REASONS`,
    ``cells`` the packed cell of every tile placed up to ``lost_at``, ``last_move`` the last
    movement made (for a Repeat tile starting the next solo dungeon).
    """
    kind_of = compiled.kind_of
    ghost_of = compiled.ghost_of
    primary_move = compiled.primary_move
    is_repeat = compiled.is_repeat
    exit_table = compiled.exit_table
    occupied: dict[int, int] = {}
    crossed: dict[int, int] = {}
    cells: list[int] = []
    ghost_count = 0
    ghost_seen = 0  # bit set of ghost icons
    last_move = initial_move
    heading = dirs[0] if dirs else 0
    perfect = dirs is None
    frontier = ORIGIN
    crossed[2 * (ORIGIN - STEP[heading]) + EDGE_KEY[heading]] = SIGN[heading]
    for k in range(len(tiles)):
        tile = tiles[k]
        arrow = heading if perfect else dirs[k]  # type: ignore[index]
        if arrows_out is not None:
            arrows_out.append(arrow)
        ghost = ghost_of[tile]
        if k:
            if arrow != heading:
                cells.append(frontier)
                return k + 1, MISPLACED, cells, last_move
            if rules & RULE_BOUND:
                x = frontier // WIDTH - OFFSET
                y = frontier % WIDTH - OFFSET
                if x > BOUND or x < -BOUND or y > BOUND or y < -BOUND:
                    cells.append(frontier)
                    return k + 1, OUT_OF_BOUNDS, cells, last_move
            if ghost >= 0:
                if rules & RULE_GHOST_FIVE and ghost_count == GHOST_LIMIT - 1:
                    cells.append(frontier)
                    return k + 1, GHOST_FIVE, cells, last_move
                if rules & RULE_GHOST_TWICE and ghost_seen >> ghost & 1:
                    cells.append(frontier)
                    return k + 1, GHOST_TWICE, cells, last_move
        if ghost >= 0:
            ghost_count += 1
            ghost_seen |= 1 << ghost
        kind = kind_of[tile]
        occupied[frontier] = kind * 4 + arrow
        cells.append(frontier)
        entry_heading = heading
        if is_repeat[kind]:
            heading = (heading + last_move) & 3
        else:
            last_move = primary_move[kind]
            heading = (heading + last_move) & 3
        cell = frontier
        if passes_out is not None:
            passes_out.append((cell, entry_heading, heading))
        while True:
            edge = 2 * cell + EDGE_KEY[heading]
            before = crossed.get(edge)
            if before is not None:
                return k + 1, (LOOP if before == SIGN[heading] else REVERSE), cells, last_move
            crossed[edge] = SIGN[heading]
            cell += STEP[heading]
            placed = occupied.get(cell)
            if placed is None:
                frontier = cell
                break
            new_heading = exit_table[placed * 4 + heading]
            if new_heading == REPEAT_CODE:
                new_heading = (heading + last_move) & 3
            elif new_heading == DEAD_CODE:
                return k + 1, DEAD_END, cells, last_move
            else:
                last_move = (new_heading - heading) & 3
            if passes_out is not None:
                passes_out.append((cell, heading, new_heading))
            heading = new_heading
    return 0, HELD, cells, last_move
