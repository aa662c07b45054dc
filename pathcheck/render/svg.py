"""The laid-out dungeon as SVG, built from shapely geometry.

Tiles are unit squares (``shapely.box``), paths are line strings through the tile centre
(each tile's paths, and the passes over it, one union), the Lost point a circle and the 9x9
bound a square outline. North is up (SVG's y axis is flipped).

Colours are from the Okabe-Ito palette (they read for colour-blind people too), and every mark
also has a shape or a letter: START a circle with ``S``, the Lost tile a cross in a circle.
Elements carry classes (``tile``, ``taken``, ``start``, ``lost``) so a page can find them.

>>> from pathcheck.tracer.dungeon import parse_notation, trace
>>> svg = dungeon_svg(trace(parse_notation("START@N L4@E"), with_passes=True))
>>> svg.count('class="tile"'), 'class="lost"' in svg
(2, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from html import escape

from shapely import LineString, Point, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from pathcheck.render.model import DungeonView, PortPair, build_view
from pathcheck.render.words import counted
from pathcheck.tracer.dungeon import TraceResult
from pathcheck.tracer.geometry import Direction
from pathcheck.tracer.tileset import TileSet

SCALE = 64
MIN_WIDTH = 420
MARGIN = 0.6
_ARROWS = {Direction.N: "↑", Direction.E: "→", Direction.S: "↓", Direction.W: "←"}
_PORT = {Direction.N: (0.0, 0.5), Direction.E: (0.5, 0.0), Direction.S: (0.0, -0.5),
         Direction.W: (-0.5, 0.0)}


def _path_line(x: int, y: int, a: Direction, b: Direction) -> LineString:
    (ax, ay), (bx, by) = _PORT[a], _PORT[b]
    return LineString([(x + ax, y + ay), (x, y), (x + bx, y + by)])


def view_geometry(view: DungeonView) -> dict[str, BaseGeometry]:
    """The shapes of a view: tiles, paths, the path taken, the Lost mark and the bound."""
    tiles = [box(x - 0.5, y - 0.5, x + 0.5, y + 0.5) for (x, y) in view.tiles]
    paths, taken = [], []
    for (x, y), tile in view.tiles.items():
        for pair in tile.paths:
            a, b = sorted(pair)
            paths.append(_path_line(x, y, a, b))
        for pair in tile.taken:
            a, b = sorted(pair)
            taken.append(_path_line(x, y, a, b))
    shapes: dict[str, BaseGeometry] = {
        "tiles": unary_union(tiles),
        "paths": unary_union(paths),
        "taken": unary_union(taken),
    }
    if view.lost_cell is not None:
        shapes["lost"] = Point(view.lost_cell).buffer(0.32)
    if view.bound is not None:
        half = view.bound + 0.5
        shapes["bound"] = box(-half, -half, half, half).exterior
    return shapes


def _d(geom: BaseGeometry, max_y: float) -> str:
    """An SVG path ``d`` for lines and polygon rings (y flipped)."""
    parts: list[str] = []
    _walk(geom, max_y, parts)
    return " ".join(parts)


def _ring(coords: Iterable[tuple[float, ...]], close: bool, max_y: float, parts: list[str]
          ) -> None:
    pts = [f"{(c[0] + 0) * SCALE:.1f},{(max_y - c[1]) * SCALE:.1f}" for c in coords]
    if pts:
        parts.append("M" + " L".join(pts) + (" Z" if close else ""))


def _walk(g: BaseGeometry, max_y: float, parts: list[str]) -> None:
    # module-level, not a closure: a recursive closure is a reference cycle, which only the
    # garbage collector frees (batches of pages run with it off)
    kind = g.geom_type
    if kind in ("LineString", "LinearRing"):
        _ring(g.coords, kind == "LinearRing", max_y, parts)
    elif kind == "Polygon":
        _ring(g.exterior.coords, True, max_y, parts)
        for hole in g.interiors:
            _ring(hole.coords, True, max_y, parts)
    elif hasattr(g, "geoms"):
        for sub in g.geoms:
            _walk(sub, max_y, parts)


Extent = tuple[int, int, int, int]


LABEL = 11
"""The font size of a tile's labels: with :func:`min_width`, never under 10 CSS px on a wide
screen. Each label has a corner of its own, where no path runs: the tile's number top left,
who placed it top right, its arrow bottom left, its id bottom right (shortened with ``…`` to
fit, the full id on hover)."""
_ROOM = 0.34 * SCALE
"""The width of a corner, clear of the paths along the tile's middle."""


def min_width(width: float) -> float:
    """The narrowest a picture ``width`` units wide may be shown on a wide screen so that its
    labels stay at least 10 CSS px (the page's ``--min``; a phone shows it at its own width)."""
    return width * 10 / LABEL


def forget() -> None:
    """Empty the caches of drawn lines (a page builder calls it for each dungeon: the lines of
    one dungeon repeat from picture to picture, another's seldom do, and a batch of pages
    must not grow)."""
    for cached in (tile_line, label_line, taken_line):
        cached.cache_clear()


def _fit(text: str, size: float, room: float = _ROOM) -> tuple[str, str]:
    """``text`` shortened to fit ``room`` units at font ``size``, and a hover title if it was.

    >>> _fit("R12", 11), _fit("START", 11)
    (('R12', ''), ('ST…', '<title>START</title>'))
    """
    fits = max(int(room / (size * 0.62)), 1)
    if len(text) <= fits:
        return text, ""
    return text[:fits - 1] + "…", f"<title>{escape(text)}</title>"


@lru_cache(maxsize=256)
def _tile_shape(paths: tuple[PortPair, ...]) -> tuple[str, str]:
    """The ``d`` of a tile's cell and of its paths, drawn around (0, 0): the picture of each
    tile kind and rotation, made once (with shapely) and placed with a translation."""
    cell = box(-0.5, -0.5, 0.5, 0.5)
    lines = unary_union([_path_line(0, 0, *sorted(pair)) for pair in paths])
    return _d(cell.exterior, 0), _d(lines, 0)


@lru_cache(maxsize=256)
def _taken_shape(taken: frozenset[PortPair]) -> str:
    """The ``d`` of the path taken over a tile, around (0, 0) (made once per set of turns)."""
    return _d(unary_union([_path_line(0, 0, *sorted(pair)) for pair in taken]), 0)


def _place(x: int, y: int, shift_y: float) -> str:
    return f'transform="translate({x * SCALE:.1f},{(shift_y - y) * SCALE:.1f})"'


@lru_cache(maxsize=8192)
def tile_line(x: int, y: int, index: int, paths: tuple[PortPair, ...], shift_y: float) -> str:
    """A tile's cell and paths (the same line in every picture of a growing dungeon)."""
    cell, drawn = _tile_shape(paths)
    return (f'<g {_place(x, y, shift_y)}><path class="tile" data-index="{index}" '
            f'd="{cell}" fill="#efe6d2" stroke="#8a7f6a"/>'
            f'<path d="{drawn}" fill="none" stroke="#b9ae98" '
            'stroke-width="4" stroke-linecap="round"/></g>')


@lru_cache(maxsize=8192)
def label_line(x: int, y: int, index: int, tile: str, direction: Direction, shift_y: float,
               placer: str) -> str:
    """A tile's labels, each in its corner, over the path taken."""
    left, right = (x - 0.46) * SCALE, (x + 0.46) * SCALE
    upper, lower = (shift_y - y - 0.27) * SCALE, (shift_y - y + 0.43) * SCALE
    ident, hover = _fit(tile, LABEL)
    who = (f'<text class="placer" x="{right:.1f}" y="{upper:.1f}" text-anchor="end" '
           f'font-weight="bold" fill="#1a1a1a">{escape(placer)}</text>') if placer else ""
    return (f'<g class="labels" font-size="{LABEL}" fill="#444">'
            f'<text class="label" x="{left:.1f}" y="{upper:.1f}" font-size="{LABEL + 1}" '
            f'font-weight="bold">{index}</text>{who}'
            f'<text class="label" x="{left:.1f}" y="{lower:.1f}">{_ARROWS[direction]}</text>'
            f'<text class="label" x="{right:.1f}" y="{lower:.1f}" text-anchor="end">{hover}'
            f"{escape(ident)}</text></g>")


@lru_cache(maxsize=8192)
def taken_line(x: int, y: int, index: int, taken: frozenset[PortPair], shift_y: float) -> str:
    """The path taken over a tile (a line of its own: it grows as the path comes back)."""
    return (f'<path class="taken" data-index="{index}" {_place(x, y, shift_y)} '
            f'd="{_taken_shape(taken)}" fill="none" stroke="#0072B2" stroke-width="6" '
            'stroke-linecap="round" stroke-linejoin="round"/>')


def cards_line(x: int, y: int, shift_y: float, index: int, initials: str) -> str:
    """The LOST cards announced after tile ``index``, lying on it: an orange card with the
    players' initials."""
    width = 0.16 * SCALE + 0.12 * SCALE * len(initials)
    cx, cy = x * SCALE - width / 2, (shift_y - y + 0.05) * SCALE
    return (f'<g class="lost-card" data-index="{index}"><title>LOST cards: '
            f"{escape(initials)}</title><rect x=\"{cx:.1f}\" y=\"{cy:.1f}\" "
            f'width="{width:.1f}" height="{0.28 * SCALE:.1f}" rx="3" fill="#E69F00" '
            f'stroke="#1a1a1a"/><text x="{cx + 0.08 * SCALE:.1f}" y="{cy + 0.21 * SCALE:.1f}" '
            f'font-size="{LABEL}" font-weight="bold" fill="#1a1a1a">{escape(initials)}</text></g>')


def svg_open(extent: Extent, title: str = "") -> tuple[str, float]:
    """The ``<svg>`` line of a picture of ``extent`` (with room for a title), and the y flip
    (``svg_y = (shift_y - y) * SCALE``)."""
    min_x, min_y, max_x, max_y = extent
    left = min_x - 0.5 - MARGIN
    top = max_y + 0.5 + MARGIN
    width = max((max_x - min_x + 1 + 2 * MARGIN) * SCALE, MIN_WIDTH if title else 0)
    height = (max_y - min_y + 1 + 2 * MARGIN) * SCALE + (24 if title else 0)
    off_y = 24 if title else 0
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
            f'height="{height:.0f}" viewBox="{left * SCALE:.1f} {-off_y} {width:.1f} '
            f'{height:.1f}" role="img" style="--min:{min_width(width):.0f}px;'
            f'--minh:{min_width(height):.0f}px;--max:{1.6 * width:.0f}px">'), top


@lru_cache(maxsize=1024)  # the same few hundred lines in every page of a batch
def desc_line(tiles: int, lost_index: int | None, reason: str | None) -> str:
    """What a picture shows, in words (``reason`` only where the Lost tile is drawn)."""
    described = f"{counted(tiles, 'tile')} laid" + (
        f"; Lost at tile {lost_index} ({reason})" if reason else "")
    return f"<desc>{escape(described)}</desc>"


BACKDROP = ('<rect x="-100000" y="-100000" width="200000" height="200000" fill="#fbfaf7"/>',
            '<g font-family="sans-serif">')
"""The lines after the ``<desc>``: the paper, and the group of the drawing."""
CLOSE = ("</g>", "</svg>")


def bound_line(bound: int, shift_y: float) -> str:
    """The square bound of additional rule #2 (the shape of view_geometry, drawn without
    its unions)."""
    half = bound + 0.5
    return (f'<path d="{_d(box(-half, -half, half, half).exterior, shift_y)}" fill="none" '
            'stroke="#D55E00" stroke-width="2" stroke-dasharray="6 4"/>')


def start_line(sx: int, sy: int, shift_y: float) -> str:
    cx, cy = sx * SCALE, (shift_y - sy) * SCALE
    return (f'<g class="start"><circle cx="{cx:.1f}" cy="{cy:.1f}" r="9" '
            'fill="#009E73" stroke="white" stroke-width="1.5"/>'
            f'<text x="{cx:.1f}" y="{cy + 4:.1f}" font-family="sans-serif" '
            'font-size="12" font-weight="bold" text-anchor="middle" fill="white">S</text>'
            '</g>')


def lost_line(x: int, y: int, shift_y: float) -> str:
    lx, ly = x * SCALE, (shift_y - y) * SCALE
    arm = 0.16 * SCALE
    return (f'<g class="lost"><circle cx="{lx:.1f}" cy="{ly:.1f}" r="{0.32 * SCALE:.1f}" '
            'fill="#D55E00" fill-opacity="0.3" stroke="#D55E00" stroke-width="2"/>'
            f'<path d="M{lx - arm:.1f},{ly - arm:.1f} L{lx + arm:.1f},{ly + arm:.1f} '
            f'M{lx - arm:.1f},{ly + arm:.1f} L{lx + arm:.1f},{ly - arm:.1f}" '
            'stroke="#D55E00" stroke-width="3" stroke-linecap="round"/></g>')


def view_svg(view: DungeonView, title: str = "", extent: Extent | None = None, *,
             placers: Mapping[int, str] | None = None,
             cards: Mapping[int, str] | None = None) -> str:
    """The view as a standalone SVG document.

    ``extent`` (min x, min y, max x, max y) fixes the cells drawn, so pictures of one dungeon
    as it grows line up (and share their unchanged lines); by default the view's own extent.
    ``placers`` gives the initial of who placed each tile (by tile number), ``cards`` the
    initials on the LOST cards announced after a tile (drawn on it as an orange card).
    (:class:`pathcheck.render.growing.Growing` draws the pictures of a growing dungeon
    with the same lines, one tile at a time.)
    """
    extent = view.extent() if extent is None else extent
    opening, shift_y = svg_open(extent, title)
    out = [opening, f"<title>{escape(title or 'dungeon')}</title>",
           desc_line(len(view.tiles), view.lost_index,
                     view.reason if view.lost_cell is not None else None), *BACKDROP]
    if title:
        out.append(f'<text x="{(extent[0] - 0.5 - MARGIN) * SCALE + 8:.1f}" y="-6" '
                   f'font-family="sans-serif" font-size="14">{escape(title)}</text>')
    if view.bound is not None:
        out.append(bound_line(view.bound, shift_y))
    # One line per tile (its cell, labels and paths) and one per tile the path went over:
    # pictures of a growing dungeon then share most of their lines (see render/html.py).
    placers = placers or {}
    cells = {tile.index: cell for cell, tile in view.tiles.items()}
    out += [tile_line(x, y, tile.index, tile.paths, shift_y) for (x, y), tile in view.tiles.items()]
    out += [taken_line(x, y, tile.index, tile.taken, shift_y)
            for (x, y), tile in view.tiles.items() if tile.taken]
    out += [label_line(x, y, tile.index, tile.tile, tile.dir, shift_y,
                       placers.get(tile.index, "")) for (x, y), tile in view.tiles.items()]
    if view.start_cell is not None:
        out.append(start_line(*view.start_cell, shift_y))
    if view.lost_cell is not None:
        out.append(lost_line(*view.lost_cell, shift_y))
    for index, initials in sorted((cards or {}).items()):
        if index in cells:
            out.append(cards_line(*cells[index], shift_y, index, initials))
    out += CLOSE
    return "\n".join(out) + "\n"


def dungeon_svg(result: TraceResult, *, title: str = "", tileset: TileSet | None = None,
                rules: Iterable[int] = ()) -> str:
    """An SVG picture of a traced dungeon (trace it ``with_passes=True`` to show the path)."""
    return view_svg(build_view(result, tileset, rules), title)
