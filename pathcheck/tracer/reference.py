"""The reference tracer: spec section 3 walked plainly on a networkx dungeon graph.

It is written to be obviously right, not fast: cells are ``(x, y)`` tuples, directions are
:class:`~pathcheck.tracer.geometry.Direction` values, and the laid-out dungeon is a networkx graph
whose nodes are edge ports ``(x, y, side)`` and whose edges are path segments (inside a tile)
and borders (between the facing ports of two neighbouring tiles). The fast tracer must give
the same answer on every dungeon; the tests prove it with hypothesis.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from pathcheck.tracer.constants import (
    BOUND,
    GHOST_FIVE,
    GHOST_LIMIT,
    GHOST_TWICE,
    MISPLACED,
    OUT_OF_BOUNDS,
    REASONS,
    AdditionalRule,
)
from pathcheck.tracer.geometry import Cell, Direction, Move, chebyshev, neighbour
from pathcheck.tracer.tileset import REPEAT_KINDS, TileSet, tile_graph

Port = tuple[int, int, str]


@dataclass
class ReferenceTrace:
    lost_at: int | None
    reason: str | None
    layout: list[tuple[str, Direction, Cell]]
    last_move: Move
    graph: nx.Graph[Port]


def _port(cell: Cell, side: Direction) -> Port:
    return (cell[0], cell[1], side.name)


class _Dungeon:
    def __init__(self, tileset: TileSet) -> None:
        self.tileset = tileset
        self.graph: nx.Graph[Port] = nx.Graph()
        self.tile_at: dict[Cell, tuple[str, Direction, int]] = {}

    def place(self, index: int, tile_id: str, arrow: Direction, cell: Cell) -> None:
        self.tile_at[cell] = (tile_id, arrow, index)
        kind = self.tileset[tile_id].kind
        for side in Direction:
            self.graph.add_node(_port(cell, side), x=cell[0], y=cell[1], side=side.name,
                                tile=tile_id, tile_index=index)
        for a, b, data in tile_graph(kind).edges(data=True):
            ends = [_port(cell, Direction((Direction[s] + arrow) % 4)) for s in (a, b)]
            self.graph.add_edge(*ends, kind="path", primary=data["primary"], tile=tile_id,
                                passes=0)
        for side in Direction:
            other = neighbour(cell, side)
            if other in self.tile_at:
                self.graph.add_edge(_port(cell, side), _port(other, side.opposite),
                                    kind="border", primary=False, tile="", passes=0)

    def exit_side(self, cell: Cell, heading: Direction) -> Direction | None:
        """The side a path leaves through after entering ``cell`` travelling ``heading``."""
        entry = _port(cell, heading.opposite)
        for other in self.graph.neighbors(entry):
            data = self.graph.edges[entry, other]
            if data["kind"] == "path":
                data["passes"] += 1
                return Direction[other[2]]
        return None


def trace_reference(
    tileset: TileSet,
    placements: Sequence[tuple[str, Direction]],
    rules: frozenset[int] = frozenset(),
    initial_move: Move = Move.STRAIGHT,
) -> ReferenceTrace:
    """Trace ``placements`` (tile id, arrow direction), bottom to top, by spec section 3."""
    dungeon = _Dungeon(tileset)
    layout: list[tuple[str, Direction, Cell]] = []
    last_move = initial_move
    if not placements:
        return ReferenceTrace(None, None, layout, last_move, dungeon.graph)
    heading = placements[0][1]
    frontier: Cell = (0, 0)
    crossed: set[tuple[Cell, Cell]] = {(neighbour(frontier, heading.opposite), frontier)}
    ghosts: list[str] = []

    def lost(index: int, reason: str) -> ReferenceTrace:
        return ReferenceTrace(index, reason, layout, last_move, dungeon.graph)

    flags = AdditionalRule.of(rules)
    for index, (tile_id, arrow) in enumerate(placements, start=1):
        tile = tileset[tile_id]
        if index > 1:
            reason = None
            if arrow != heading:
                reason = REASONS[MISPLACED]
            elif AdditionalRule.BOUND in flags and chebyshev(frontier) > BOUND:
                reason = REASONS[OUT_OF_BOUNDS]
            elif (AdditionalRule.GHOST_FIVE in flags and tile.ghost is not None
                  and len(ghosts) == GHOST_LIMIT - 1):
                reason = REASONS[GHOST_FIVE]
            elif (AdditionalRule.GHOST_TWICE in flags and tile.ghost is not None
                  and tile.ghost in ghosts):
                reason = REASONS[GHOST_TWICE]
            if reason is not None:
                layout.append((tile_id, arrow, frontier))
                return lost(index, reason)
        if tile.ghost is not None:
            ghosts.append(tile.ghost)
        dungeon.place(index, tile_id, arrow, frontier)
        layout.append((tile_id, arrow, frontier))
        cell = frontier
        heading, last_move, dead = _pass(dungeon, tile.kind in REPEAT_KINDS, cell, heading,
                                         last_move)
        while True:
            ahead = neighbour(cell, heading)
            if (cell, ahead) in crossed:
                return lost(index, "loop")
            if (ahead, cell) in crossed:
                return lost(index, "reverse")
            crossed.add((cell, ahead))
            if ahead not in dungeon.tile_at:
                frontier = ahead
                break
            cell = ahead
            kind = tileset[dungeon.tile_at[cell][0]].kind
            heading, last_move, dead = _pass(dungeon, kind in REPEAT_KINDS, cell, heading,
                                             last_move)
            if dead:
                return lost(index, "dead-end")
    return ReferenceTrace(None, None, layout, last_move, dungeon.graph)


def _pass(
    dungeon: _Dungeon, repeat: bool, cell: Cell, heading: Direction, last_move: Move
) -> tuple[Direction, Move, bool]:
    """Pass the tile at ``cell``: new heading, last movement, and whether it is a dead end."""
    if repeat:
        return heading.turned(last_move), last_move, False
    side = dungeon.exit_side(cell, heading)
    if side is None:
        return heading, last_move, True
    return side, Move.between(heading, side), False


def export_graph(graph: nx.Graph[Port], path: str) -> bytes:
    """The dungeon graph as GraphML (``*.graphml``) or node-link JSON (anything else)."""
    import json

    relabelled = nx.relabel_nodes(graph, {n: f"{n[0]},{n[1]},{n[2]}" for n in graph.nodes})
    if path.lower().endswith(".graphml"):
        return "\n".join(nx.generate_graphml(relabelled)).encode("utf-8")
    data = nx.node_link_data(relabelled, edges="links")
    # The graph attributes a GraphML reader adds: JSON exports always carried them.
    data["graph"] = {"node_default": {}, "edge_default": {}}
    return json.dumps(data, indent=1).encode("utf-8")
