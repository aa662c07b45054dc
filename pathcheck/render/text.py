"""The laid-out dungeon drawn in the terminal with box-drawing characters.

Each cell is 7 characters by 3 lines. The path taken is drawn heavy, paths not taken light;
the tile number stands in the top-left corner and the arrow in the bottom-left one, ``S``
(after the number) marks the start, ``X`` the tile that made the dungeon Lost and ``R`` a Repeat
tile; with rule #2 a ``·`` marks each empty cell inside the 9x9 bound.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from pathcheck.render.model import DungeonView, TileView
from pathcheck.tracer.geometry import Direction

CELL_W, CELL_H = 7, 3
LIGHT, HEAVY = "LIGHT", "HEAVY"
_WORD_DIRS = {
    "UP": (Direction.N,), "DOWN": (Direction.S,), "LEFT": (Direction.W,),
    "RIGHT": (Direction.E,), "VERTICAL": (Direction.N, Direction.S),
    "HORIZONTAL": (Direction.W, Direction.E),
}


@cache
def _box_chars() -> dict[frozenset[tuple[Direction, str]], str]:
    """Box-drawing characters keyed by their arms and each arm's weight (from Unicode names)."""
    table: dict[frozenset[tuple[Direction, str]], str] = {}
    for code in range(0x2500, 0x2580):
        name = unicodedata.name(chr(code), "")
        body = name.removeprefix("BOX DRAWINGS ")
        if any(w in body for w in ("DOUBLE", "DASH", "ARC", "DIAGONAL", "SINGLE")):
            continue
        arms: dict[Direction, str] = {}
        weight = None
        for part in body.split(" AND "):
            words = part.split()
            part_weight = next((w for w in words if w in (LIGHT, HEAVY)), None)
            weight = part_weight or weight
            for word in words:
                for d in _WORD_DIRS.get(word, ()):
                    arms[d] = weight or LIGHT
        if len(arms) >= 2:
            table[frozenset(arms.items())] = chr(code)
    return table


def _centre(arms: dict[Direction, str]) -> str:
    if not arms:
        return " "
    if len(arms) == 1:
        (d, w), = arms.items()
        return ("┃" if w == HEAVY else "│") if d in (Direction.N, Direction.S) else (
            "━" if w == HEAVY else "─")
    chars = _box_chars()
    exact = chars.get(frozenset(arms.items()))
    if exact:
        return exact
    weight = HEAVY if HEAVY in arms.values() else LIGHT
    return chars.get(frozenset((d, weight) for d in arms), "+")


def _draw_tile(tile: TileView, mark: str) -> list[str]:
    arms: dict[Direction, str] = {}
    paths = set(tile.paths) | set(tile.taken)
    for pair in paths:
        weight = HEAVY if pair in tile.taken else LIGHT
        for d in pair:
            if arms.get(d) != HEAVY:
                arms[d] = weight
    vert = {w: ("┃" if w == HEAVY else "│") for w in (LIGHT, HEAVY)}
    horiz = {w: ("━" if w == HEAVY else "─") for w in (LIGHT, HEAVY)}
    top = [" "] * CELL_W
    mid = [" "] * CELL_W
    bottom = [" "] * CELL_W
    label = str(tile.index)[-2:]
    top[0:len(label)] = list(label)
    if Direction.N in arms:
        top[3] = vert[arms[Direction.N]]
    if Direction.S in arms:
        bottom[3] = vert[arms[Direction.S]]
    if Direction.W in arms:
        mid[0:3] = [horiz[arms[Direction.W]]] * 3
    if Direction.E in arms:
        mid[4:7] = [horiz[arms[Direction.E]]] * 3
    mid[3] = "↻" if tile.kind.value == "repeat" and not arms else _centre(arms)
    if tile.kind.value == "repeat":
        top[5] = "R"
    arrow = {Direction.N: "↑", Direction.E: "→", Direction.S: "↓", Direction.W: "←"}[tile.dir]
    bottom[0] = arrow
    if mark:
        top[2] = mark
    return ["".join(top), "".join(mid), "".join(bottom)]


def render_map(view: DungeonView) -> str:
    """The dungeon as lines of text (north up)."""
    min_x, min_y, max_x, max_y = view.extent()
    lines: list[str] = []
    for y in range(max_y, min_y - 1, -1):
        rows = ["", "", ""]
        for x in range(min_x, max_x + 1):
            tile = view.tiles.get((x, y))
            if tile is None:
                inside = view.bound is not None and max(abs(x), abs(y)) <= view.bound
                block = ["       ", "   ·   " if inside else "       ", "       "]
            else:
                mark = "X" if (x, y) == view.lost_cell else ""
                if (x, y) == view.start_cell and not mark:
                    mark = "S"
                block = _draw_tile(tile, mark)
            for i in range(CELL_H):
                rows[i] += block[i]
        lines.extend(row.rstrip() for row in rows)
    legend = "heavy: the path taken; S start; X the tile that made it Lost; ↑→↓← arrow"
    if view.bound is not None:
        legend += "; · inside the 9x9 bound"
    return "\n".join([*lines, legend])
